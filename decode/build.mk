# decode: sources of this unit (see the top-level Makefile).
PURE_SRCS += decode/decode.c decode/datasrc.c decode/render.c decode/summary.c decode/dump.c \
	decode/scan.c

# build/host/pebs-decode: the host decoder (docs/DECODER.md).
HOST_TOOLS += $(BUILD)/host/pebs-decode
$(BUILD)/host/pebs-decode: tools/pebs-decode.c $(HOST_LIB)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -MMD -MP $< -o $@ $(HOST_LIB) $(HOST_LDLIBS)

# The libFuzzer target (clang): run briefly by tests/host/check-fuzz.sh in
# `make check`, longer with `make fuzz FUZZ_SECONDS=600`.
FUZZ_SECONDS ?= 60
DECODE_FUZZ := $(BUILD)/fuzz/fuzz_decode
DECODE_FUZZ_SRCS := tests/fuzz/fuzz_decode.c decode/decode.c decode/datasrc.c decode/render.c \
	decode/summary.c decode/dump.c decode/scan.c lib/fmt.c lib/json.c
$(DECODE_FUZZ): $(DECODE_FUZZ_SRCS) $(wildcard decode/*.h lib/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=gnu11 -g -O1 -I. -DPP_HOST -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined $(DECODE_FUZZ_SRCS) -o $@
CHECK_DEPS += $(DECODE_FUZZ) $(BUILD)/host/pebs-decode

.PHONY: fuzz
fuzz: $(DECODE_FUZZ)
	BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) tests/host/check-fuzz.sh
BENCH_DEPS += $(BUILD)/host/pebs-decode
