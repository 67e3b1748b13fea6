# decode: sources of this unit (see the top-level Makefile).
PURE_SRCS += decode/decode.c decode/datasrc.c decode/render.c decode/summary.c decode/dump.c

# build/host/pebs-decode: the host decoder (issue 3; docs/DECODER.md).
HOST_TOOLS += $(BUILD)/host/pebs-decode
$(BUILD)/host/pebs-decode: tools/pebs-decode.c $(HOST_LIB)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -MMD -MP $< -o $@ $(HOST_LIB) $(HOST_LDLIBS)
