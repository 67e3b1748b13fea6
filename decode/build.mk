# decode: sources of this unit (see the top-level Makefile).
PURE_SRCS += decode/decode.c decode/datasrc.c decode/render.c decode/summary.c decode/dump.c
