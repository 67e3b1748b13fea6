# app: sources of this unit (see the top-level Makefile).
# Pure C: the real backend is handed in by the platform (struct app_real, app.h).
PURE_SRCS += \
	app/app.c \
	app/loadopts.c \
	app/options.c \
	app/options_acr.c \
	app/options_check.c \
	app/options_config.c \
	app/options_cpus.c \
	app/options_events.c \
	app/options_handoff.c \
	app/options_items.c \
	app/options_platform.c \
	app/options_kernels.c \
	app/options_host.c \
	app/options_sim.c \
	app/options_sources.c \
	app/options_ucode.c \
	app/outputs.c \
	app/summary_table.c
