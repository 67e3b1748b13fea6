# Host unit tests: every tests/unit/test_*.c is one cmocka program, built
# plainly and under ASan+UBSan, linked with the host library (which holds
# the POSIX platform, host/).

UNIT_TEST_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/host/tests/%,$(UNIT_TEST_SRCS))
SAN_TESTS  := $(patsubst tests/unit/%.c,$(BUILD)/san/tests/%,$(UNIT_TEST_SRCS))

$(BUILD)/host/tests/%: tests/unit/%.c $(HOST_LIB)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -MMD -MP $< -o $@ $(HOST_LIB) $(CMOCKA_LIBS) $(HOST_LDLIBS)

$(BUILD)/san/tests/%: tests/unit/%.c $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(SAN_CFLAGS) -MMD -MP $< -o $@ $(SAN_LIB) $(CMOCKA_LIBS) $(HOST_LDLIBS)

CHECK_DEPS += $(UNIT_TESTS) $(SAN_TESTS)
.PHONY: unit-tests
unit-tests: $(UNIT_TESTS) $(SAN_TESTS)
