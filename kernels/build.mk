# kernels: sources of this unit (see the top-level Makefile).
PURE_SRCS += kernels/runner.c
