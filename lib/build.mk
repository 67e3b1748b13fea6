# lib: sources of this unit (see the top-level Makefile).
PURE_SRCS += lib/fmt.c lib/report.c lib/colour.c lib/json.c lib/smbios.c lib/logbuf.c lib/cpurun.c \
	lib/cpuset.c
APP_SRCS += lib/efi_libc.c
