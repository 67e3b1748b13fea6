# tools: the host programs, each one tools/<name>.c linked with the host
# library into $(BUILD)/host/<name>:
#   pebs-decode    the host decoder (docs/DECODER.md)
#   pebs-kernels   one kernel on Linux, lat_mem_rd-style "<MiB> <ns per access>"
#   perfmon-dump   the perfmon tables through their API (check-perfmon.sh)
HOST_TOOLS += \
	$(BUILD)/host/pebs-decode \
	$(BUILD)/host/pebs-kernels \
	$(BUILD)/host/perfmon-dump

$(BUILD)/host/%: tools/%.c $(HOST_LIB)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -MMD -MP $< -o $@ $(HOST_LIB) $(HOST_LDLIBS)
