# app: sources of this unit (see the top-level Makefile).
# app.c is pure C: the real backend comes through efi/hw_real.h.
PURE_SRCS += app/app.c app/options.c
