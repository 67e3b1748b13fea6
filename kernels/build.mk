# kernels: sources of this unit (see the top-level Makefile).
PURE_SRCS += \
	kernels/acr.c \
	kernels/expect.c \
	kernels/kernels.c \
	kernels/perm.c
