# decode: sources of this unit (see the top-level Makefile).  DECODE_SRCS is
# also the decoder's fuzz target's list (tests/fuzz/build.mk).
DECODE_SRCS := \
	decode/datasrc.c \
	decode/decode.c \
	decode/dump.c \
	decode/render.c \
	decode/scan.c \
	decode/summary.c
# What decode/ calls below itself.
DECODE_LIB_SRCS := \
	lib/fmt.c \
	lib/json.c
PURE_SRCS += $(DECODE_SRCS)

# build/host/pebs-decode, the host decoder (docs/DECODER.md): tools/build.mk.
CHECK_DEPS += $(BUILD)/host/pebs-decode
BENCH_DEPS += $(BUILD)/host/pebs-decode
