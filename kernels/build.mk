# kernels: sources of this unit (see the top-level Makefile).
PURE_SRCS += kernels/runner.c kernels/perm.c kernels/kernels.c kernels/expect.c kernels/results.c
