# Programs of `make bench` (tests/bench/): the kernels' chase beside a plain
# chase over the same buffer, the drain+decode harness (built with the UEFI build's
# flags and lib/efi_libc.c, and as a plain host program), and the no-op UEFI
# application the default QEMU job is compared with.
BENCH_DIR := $(BUILD)/bench

$(BENCH_DIR)/chase-pair: tests/bench/chase_pair.c $(HOST_LIB)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) $< -o $@ $(HOST_LIB) $(HOST_LDLIBS)

# The objects of the UEFI build (build/efi/...): the same code the app runs;
# drain_efi_stubs.c stands in for what kstats.o names and the drain never runs.
BENCH_DRAIN_EFI_OBJS := $(patsubst %.c,$(BUILD)/efi/%.o,decode/decode.c decode/datasrc.c \
	decode/summary.c kernels/verdict.c kernels/kstats.c lib/fmt.c lib/efi_libc.c)
# A host program: main's arrays are on Linux's stack, not an AP's ("private":
# the UEFI objects it links keep the 1 KiB limit).
$(BENCH_DIR)/bench-drain-efi: private EFI_CFLAGS += -Wframe-larger-than=8192
$(BENCH_DIR)/bench-drain-efi: tests/bench/bench_drain.c tests/bench/drain_efi_stubs.c \
		$(BENCH_DRAIN_EFI_OBJS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(EFI_CFLAGS) $< tests/bench/drain_efi_stubs.c $(BENCH_DRAIN_EFI_OBJS) -o $@

$(BENCH_DIR)/bench-drain-host: tests/bench/bench_drain.c $(HOST_LIB)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) $< -o $@ $(HOST_LIB) $(HOST_LDLIBS)

$(BENCH_DIR)/noop.efi: tests/bench/noop.c
	@mkdir -p $(dir $@)
	$(EFI_CC) $(EFI_CFLAGS) -c $< -o $(BENCH_DIR)/noop.o
	$(EFI_LD) $(EFI_LDFLAGS) $(BENCH_DIR)/noop.o -o $(BENCH_DIR)/noop.so $(EFI_LIBS)
	$(OBJCOPY) -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j '.rel*' -j '.rela*' \
		-j .reloc --output-target=efi-app-x86_64 --subsystem=10 $(BENCH_DIR)/noop.so $@

$(BENCH_DIR)/noop-esp.img: $(BENCH_DIR)/noop.efi tools/mkesp.sh
	tools/mkesp.sh $< $@

BENCH_DEPS += $(BENCH_DIR)/chase-pair $(BENCH_DIR)/bench-drain-efi $(BENCH_DIR)/bench-drain-host \
	$(BENCH_DIR)/noop-esp.img $(BUILD)/esp.img $(BUILD)/host/pebs-kernels

# make check builds the benchmark programs, not to time them, but so that a
# function moved between files cannot leave `make bench` unbuildable
# unnoticed: bench-drain-efi names the UEFI objects it links one by one.
CHECK_DEPS += $(BENCH_DIR)/chase-pair $(BENCH_DIR)/bench-drain-efi $(BENCH_DIR)/bench-drain-host \
	$(BENCH_DIR)/noop-esp.img
