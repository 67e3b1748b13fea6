# kernels: sources of this unit (see the top-level Makefile).
PURE_SRCS += kernels/perm.c kernels/kernels.c kernels/expect.c kernels/acr.c

# pebs-kernels: one kernel on Linux, lat_mem_rd-style "<MiB> <ns per access>" lines.
HOST_TOOLS += $(BUILD)/host/pebs-kernels
$(BUILD)/host/pebs-kernels: tools/pebs-kernels.c $(HOST_LIB)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -MMD -MP $< -o $@ $(HOST_LIB) $(HOST_LDLIBS)
