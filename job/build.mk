# job: sources of this unit (see the top-level Makefile).
PURE_SRCS += \
	job/acr.c \
	job/aggregate.c \
	job/calibrate.c \
	job/check.c \
	job/cpus.c \
	job/dump.c \
	job/handoff.c \
	job/job.c \
	job/offcore.c \
	job/outcome.c \
	job/races.c \
	job/records.c \
	job/results.c \
	job/run.c \
	job/sampling.c \
	job/snapshot.c \
	job/tally.c
