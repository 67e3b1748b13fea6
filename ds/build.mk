# ds: sources of this unit (see the top-level Makefile).
PURE_SRCS += ds/ds.c
