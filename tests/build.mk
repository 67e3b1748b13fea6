# Host unit tests: every tests/unit/test_*.c is one cmocka program, built
# plainly and under ASan+UBSan, linked with the host library (which holds
# the POSIX platform, host/).  A fixture several tests share is a
# tests/unit/test_*_util.c with its .h: all of them go into one archive
# linked before the host library, so a test takes the fixtures it calls.

UNIT_UTIL_SRCS := $(wildcard tests/unit/test_*_util.c)
UNIT_TEST_SRCS := $(filter-out $(UNIT_UTIL_SRCS),$(wildcard tests/unit/test_*.c))
UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/host/tests/%,$(UNIT_TEST_SRCS))
SAN_TESTS  := $(patsubst tests/unit/%.c,$(BUILD)/san/tests/%,$(UNIT_TEST_SRCS))
HOST_UTIL_LIB := $(BUILD)/host/tests-util/libtestutil.a
SAN_UTIL_LIB  := $(BUILD)/san/tests-util/libtestutil.a
HOST_UTIL_OBJS := $(patsubst tests/unit/%.c,$(BUILD)/host/tests-util/%.o,$(UNIT_UTIL_SRCS))
SAN_UTIL_OBJS  := $(patsubst tests/unit/%.c,$(BUILD)/san/tests-util/%.o,$(UNIT_UTIL_SRCS))

$(BUILD)/host/tests-util/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/san/tests-util/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(HOST_CC) $(SAN_CFLAGS) -MMD -MP -c $< -o $@

$(HOST_UTIL_LIB): $(HOST_UTIL_OBJS)
	rm -f $@ && ar rcs $@ $^

$(SAN_UTIL_LIB): $(SAN_UTIL_OBJS)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/host/tests/%: tests/unit/%.c $(HOST_UTIL_LIB) $(HOST_LIB)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -MMD -MP $< -o $@ $(HOST_UTIL_LIB) $(HOST_LIB) $(CMOCKA_LIBS) $(HOST_LDLIBS)

$(BUILD)/san/tests/%: tests/unit/%.c $(SAN_UTIL_LIB) $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(SAN_CFLAGS) -MMD -MP $< -o $@ $(SAN_UTIL_LIB) $(SAN_LIB) $(CMOCKA_LIBS) $(HOST_LDLIBS)

CHECK_DEPS += $(UNIT_TESTS) $(SAN_TESTS)
.PHONY: unit-tests
unit-tests: $(UNIT_TESTS) $(SAN_TESTS)
