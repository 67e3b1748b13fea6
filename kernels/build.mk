# kernels: sources of this unit (see the top-level Makefile).
PURE_SRCS += \
	kernels/acr.c \
	kernels/kernels.c \
	kernels/kstats.c \
	kernels/partner.c \
	kernels/perm.c \
	kernels/verdict.c
