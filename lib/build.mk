# lib: sources of this unit (see the top-level Makefile).
PURE_SRCS += \
	lib/ap_refusal.c \
	lib/colour.c \
	lib/cpurun.c \
	lib/cpuset.c \
	lib/fmt.c \
	lib/json.c \
	lib/logbuf.c \
	lib/report.c \
	lib/report_recap.c \
	lib/report_wrap.c \
	lib/smbios.c \
	lib/status.c

# The C library compat.h promises the UEFI app (the host has libc's): the
# app only, below every unit that calls it.
APP_SRCS += lib/efi_libc.c
