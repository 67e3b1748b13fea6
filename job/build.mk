# job: sources of this unit (see the top-level Makefile).
PURE_SRCS += job/job.c job/sampling.c job/records.c job/results.c job/dump.c job/offcore.c job/outcome.c job/check.c job/cpus.c job/acr.c job/snapshot.c job/handoff.c job/calibrate.c
