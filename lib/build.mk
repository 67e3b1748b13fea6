PURE_SRCS += lib/fmt.c lib/report.c
APP_SRCS += lib/efi_libc.c
PURE_SRCS += lib/options.c
