# tests/fuzz: the libFuzzer targets (clang; docs/FUZZING.md).  Every object
# is built from its unit's own source list with the host build's flags and
# warnings (-Werror included), plus libFuzzer's coverage and ASan+UBSan.
# Included last: it needs every unit's list.
#
#   make fuzz                  each target for FUZZ_SECONDS (default 60)
#   make fuzz FUZZ_SECONDS=600 FUZZ_ONLY="config dump"
#
# `make check` runs each briefly from its corpus (tests/host/check-fuzz.sh).
FUZZ_SECONDS ?= 60
# clang's -Wextra also flags a positional initializer that leaves trailing
# fields out, which gcc's does not and the tables rely on (decode/datasrc.c):
# that one warning is off, the rest are the host build's.
FUZZ_CFLAGS := $(filter-out -O2,$(HOST_CFLAGS)) -O1 -fno-omit-frame-pointer \
	-Wno-missing-field-initializers \
	-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
FUZZ_LDFLAGS := -fsanitize=fuzzer,address,undefined
FUZZ_OBJ := $(BUILD)/fuzz/obj
FUZZ_LIB := $(BUILD)/fuzz/libpebsprobe.a
FUZZ_NAMES := decode config loadopts dump
FUZZ_TARGETS := $(patsubst %,$(BUILD)/fuzz/fuzz_%,$(FUZZ_NAMES))

$(FUZZ_OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

$(FUZZ_OBJ)/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

$(patsubst %.c,$(FUZZ_OBJ)/%.o,$(VERSION_USERS)): $(VERSION_STAMP)

# The whole pure and host library, for the targets that run the app's code.
FUZZ_LIB_OBJS := $(patsubst %.c,$(FUZZ_OBJ)/%.o,$(PURE_SRCS) $(HOST_SRCS)) \
	$(patsubst $(BUILD)/gen/%.c,$(FUZZ_OBJ)/gen/%.o,$(GEN_SRCS))
# Every object here, for the Makefile's list of .d files.
FUZZ_OBJS := $(FUZZ_LIB_OBJS) $(FUZZ_OBJ)/tools/pebs-decode-fuzz.o \
	$(patsubst %,$(FUZZ_OBJ)/tests/fuzz/%.o,$(addprefix fuzz_,$(FUZZ_NAMES)) options_contract)

$(FUZZ_LIB): $(FUZZ_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

# The decoder alone, from decode/'s own list.
$(BUILD)/fuzz/fuzz_decode: $(patsubst %.c,$(FUZZ_OBJ)/%.o,tests/fuzz/fuzz_decode.c \
	$(DECODE_SRCS) $(DECODE_LIB_SRCS))
	$(FUZZ_CC) $(FUZZ_LDFLAGS) $^ -o $@

# pebs-decode itself, its main() renamed and its window made small.
$(FUZZ_OBJ)/tools/pebs-decode-fuzz.o: tools/pebs-decode.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -DPEBS_DECODE_FUZZ -Dmain=pebs_decode_main -MMD -MP -c $< -o $@

$(BUILD)/fuzz/fuzz_dump: $(FUZZ_OBJ)/tests/fuzz/fuzz_dump.o \
	$(FUZZ_OBJ)/tools/pebs-decode-fuzz.o $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) $^ -o $@ $(HOST_LDLIBS)

$(BUILD)/fuzz/fuzz_config $(BUILD)/fuzz/fuzz_loadopts: $(BUILD)/fuzz/fuzz_%: \
	$(FUZZ_OBJ)/tests/fuzz/fuzz_%.o $(FUZZ_OBJ)/tests/fuzz/options_contract.o $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) $^ -o $@ $(HOST_LDLIBS)

CHECK_DEPS += $(FUZZ_TARGETS)

.PHONY: fuzz fuzz-targets
fuzz-targets: $(FUZZ_TARGETS)
fuzz: $(FUZZ_TARGETS)
	BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) tests/host/check-fuzz.sh | tee $(BUILD)/fuzz/fuzz.out
	@! grep -q '^FAIL' $(BUILD)/fuzz/fuzz.out
