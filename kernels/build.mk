# kernels: sources of this unit (see the top-level Makefile).
PURE_SRCS += kernels/runner.c kernels/run_sampling.c kernels/run_report.c kernels/run_json.c \
	kernels/run_dump.c kernels/run_offcore.c kernels/perm.c kernels/kernels.c kernels/expect.c \
	kernels/results.c

# pebs-kernels: one kernel on Linux, lat_mem_rd-style "<MiB> <ns per access>" lines.
HOST_TOOLS += $(BUILD)/host/pebs-kernels
$(BUILD)/host/pebs-kernels: tools/pebs-kernels.c $(HOST_LIB)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -MMD -MP $< -o $@ $(HOST_LIB) $(HOST_LDLIBS)
