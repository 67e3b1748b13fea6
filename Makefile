# SPDX-License-Identifier: MIT
#
# pebsprobe - bare-metal PEBS probe (UEFI application, gnu-efi).
#
#   make          build/pebsprobe.efi
#   make esp      build/esp.img   (FAT image: \EFI\BOOT\BOOTX64.EFI + default config)
#   make usb      build/usb.img   (GPT disk, one EFI System Partition, ready to dd)
#   make host     host builds of the pure-C units and tools under build/host/
#   make check    every test; ends with "N passed, N failed"
#   make check-load  the QEMU tests with a second boot looping beside them (CI under load)
#   make bench    benchmarks (decoder throughput, pointer-chase latency)
#   make matrix   every entry of the run matrix (tests/matrix/default.cfg)
#   make lava-check  the LAVA jobs through lava-run (root; installs lava-dispatcher)
#
# Every path is overridable: make EFI_INC=... EFI_LIBDIR=... OVMF_CODE=...
# Each unit lists its own sources in <unit>/build.mk.

BUILD      ?= build
EFI_INC    ?= /usr/include/efi
EFI_LIBDIR ?= /usr/lib
EFI_CRT0   ?= $(EFI_LIBDIR)/crt0-efi-x86_64.o
EFI_LDS    ?= $(EFI_LIBDIR)/elf_x86_64_efi.lds
EFI_CC     ?= gcc
EFI_LD     ?= ld
OBJCOPY    ?= objcopy
HOST_CC    ?= cc
FUZZ_CC    ?= clang

VERSION := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
# PP_VERSION is a -D flag, which make does not see change: the objects of the
# files that use it depend on a stamp rewritten only when VERSION changes, so
# a commit rebuilds the banner and results.json's "pebsprobe", and nothing else.
VERSION_STAMP := $(BUILD)/version.stamp
# The sources that use PP_VERSION (tests/host/check-version-rebuild.sh fails
# for one missing here).
VERSION_USERS := efi/main.c job/results.c

WARN := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
COMMON_CFLAGS := -std=gnu11 -O2 -g $(WARN) -I. -I$(BUILD)/gen -DPP_VERSION=\"$(VERSION)\"

# -fno-semantic-interposition: nothing interposes symbols in a UEFI image, so a
# file's own global functions may be inlined (-fpic forbids it otherwise); under
# QEMU's TCG each call and return costs a lookup (docs/PERFORMANCE.md).
EFI_CFLAGS := $(COMMON_CFLAGS) -DPP_EFI -I$(EFI_INC) -I$(EFI_INC)/x86_64 -I$(EFI_INC)/protocol \
	-ffreestanding -fpic -fshort-wchar -fno-stack-protector -fno-stack-check \
	-fno-strict-aliasing -mno-red-zone -maccumulate-outgoing-args -DEFI_FUNCTION_WRAPPER \
	-DGNU_EFI_USE_MS_ABI -fno-builtin-printf -fno-semantic-interposition \
	-Wframe-larger-than=1024 -fstack-usage -fcallgraph-info=su
# A frame over 1 KiB is refused, as Linux's CONFIG_FRAME_WARN does: an AP's
# stack may be 4 KiB in all (docs/ARCHITECTURE.md, "Stacks"); the call graphs
# (.ci) are what tools/ap-stack.py measures.
EFI_LDFLAGS := -nostdlib -znocombreloc -T $(EFI_LDS) -shared -Bsymbolic -L$(EFI_LIBDIR) $(EFI_CRT0)
# libefi with its byte-loop memset and memcpy made weak: lib/efi_libc.c's win.
EFI_LIBEFI := $(BUILD)/efi/libefi-weakmem.a
# libgcc's path is asked by the link recipe's shell ("=", so "$$" reaches it),
# not while make reads this file.
EFI_LIBS = $(EFI_LIBEFI) -lgnuefi "$$($(EFI_CC) -print-libgcc-file-name)"

HOST_CFLAGS := $(COMMON_CFLAGS) -DPP_HOST -fno-strict-aliasing
SAN_CFLAGS  := $(HOST_CFLAGS) -O1 -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
HOST_LDLIBS := -lm -lpthread
CMOCKA_LIBS ?= -lcmocka

# Filled by the build.mk files:
PURE_SRCS :=     # built into the app and into the host library
APP_SRCS :=      # the UEFI app only (EFI types, real instructions)
HOST_SRCS :=     # the host library only (POSIX platform)
GEN_SRCS :=      # generated sources (under $(BUILD)/gen), built like PURE_SRCS
HOST_TOOLS :=    # programs under $(BUILD)/host/
CHECK_DEPS :=    # extra things make check needs built
BENCH_DEPS :=

HOST_LIB := $(BUILD)/host/libpebsprobe.a
SAN_LIB  := $(BUILD)/san/libpebsprobe.a

include lib/build.mk efi/build.mk pmu/build.mk ds/build.mk decode/build.mk sim/build.mk \
	kernels/build.mk job/build.mk app/build.mk host/build.mk tools/build.mk tests/build.mk \
	tools/results/build.mk tests/matrix/build.mk lava/build.mk tests/efihost/build.mk \
	tests/bench/build.mk tests/fuzz/build.mk

EFI_OBJS  := $(patsubst %.c,$(BUILD)/efi/%.o,$(PURE_SRCS) $(APP_SRCS)) \
	$(patsubst $(BUILD)/gen/%.c,$(BUILD)/efi/gen/%.o,$(GEN_SRCS))
HOST_OBJS := $(patsubst %.c,$(BUILD)/host/obj/%.o,$(PURE_SRCS) $(HOST_SRCS)) \
	$(patsubst $(BUILD)/gen/%.c,$(BUILD)/host/obj/gen/%.o,$(GEN_SRCS))
SAN_OBJS  := $(patsubst %.c,$(BUILD)/san/obj/%.o,$(PURE_SRCS) $(HOST_SRCS)) \
	$(patsubst $(BUILD)/gen/%.c,$(BUILD)/san/obj/gen/%.o,$(GEN_SRCS))

.PHONY: all app host esp usb check check-load check-refactor bench clean deps distclean
.DEFAULT_GOAL := all

all: $(BUILD)/pebsprobe.efi

app: $(BUILD)/pebsprobe.efi

$(VERSION_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' >$@

$(foreach d,efi host/obj san/obj,$(patsubst %.c,$(BUILD)/$(d)/%.o,$(VERSION_USERS))): \
	$(VERSION_STAMP)

.PHONY: FORCE
FORCE:

$(EFI_LIBEFI): $(EFI_LIBDIR)/libefi.a
	@mkdir -p $(dir $@)
	$(OBJCOPY) --weaken-symbol=memcpy --weaken-symbol=memset $< $@

$(BUILD)/pebsprobe.so: $(EFI_OBJS) $(EFI_LIBEFI)
	$(EFI_LD) $(EFI_LDFLAGS) $(EFI_OBJS) -o $@ $(EFI_LIBS)
	@# A second, static-style check that nothing is left undefined.
	@! nm -u $@ | grep -v -e '^ *w ' | grep . || (echo "undefined symbols in $@" >&2; false)

$(BUILD)/pebsprobe.efi: $(BUILD)/pebsprobe.so
	$(OBJCOPY) -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j '.rel*' -j '.rela*' \
		-j .reloc --output-target=efi-app-x86_64 --subsystem=10 $< $@

# The three object trees (UEFI app, host library, sanitized host library) and
# their generated sources: one rule pair per tree, from one template.
#   $(1): the tree under $(BUILD)   $(2): the compiler variable   $(3): the flags variable
define compile_rules
$$(BUILD)/$(1)/%.o: %.c
	@mkdir -p $$(dir $$@)
	$$($(2)) $$($(3)) -MMD -MP -c $$< -o $$@

$$(BUILD)/$(1)/gen/%.o: $$(BUILD)/gen/%.c
	@mkdir -p $$(dir $$@)
	$$($(2)) $$($(3)) -MMD -MP -c $$< -o $$@
endef
$(eval $(call compile_rules,efi,EFI_CC,EFI_CFLAGS))
$(eval $(call compile_rules,host/obj,HOST_CC,HOST_CFLAGS))
$(eval $(call compile_rules,san/obj,HOST_CC,SAN_CFLAGS))

$(HOST_LIB): $(HOST_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SAN_LIB): $(SAN_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

host: $(HOST_LIB) $(HOST_TOOLS)

deps:
	tools/deps.sh

# tools/deps.sh runs here, when check runs, not while make reads the
# Makefiles: `make -n check` only prints it.  It only checks: missing
# packages are named with the apt-get line, and check fails (.ci/run and
# `sudo tools/deps.sh check` install them).
check:
	tools/deps.sh --no-install check
	$(MAKE) check-build
	tests/run-all.sh

.PHONY: check-build
check-build: all host $(CHECK_DEPS)

# The QEMU tests (or TESTS=regex) while `./run-qemu.sh --smp 2` boots again
# and again beside them (tools/with-load.sh): a busy CI machine, on demand.
LOAD_TESTS ?= $(or $(TESTS),tests/qemu/)
check-load: all host $(CHECK_DEPS)
	tools/with-load.sh env TESTS='$(LOAD_TESTS)' tests/run-all.sh

# Behaviour against a pinned revision from before the house-keeping: the same
# job on the simulator, built from both trees, compared (verdicts, exit
# status, results.json keys).  Part of `make check`; alone here.
check-refactor: host
	tests/host/check-refactor.sh

bench: host $(BENCH_DEPS)
	tests/bench/run-bench.sh

clean:
	rm -rf $(BUILD)

# The .d files -MMD writes beside each object and program, named from the
# lists (no find over $(BUILD) while make reads this file).
DEP_FILES := $(EFI_OBJS:.o=.d) $(HOST_OBJS:.o=.d) $(SAN_OBJS:.o=.d) $(FUZZ_OBJS:.o=.d) \
	$(HOST_UTIL_OBJS:.o=.d) $(SAN_UTIL_OBJS:.o=.d) \
	$(addsuffix .d,$(UNIT_TESTS) $(SAN_TESTS) $(HOST_TOOLS))
-include $(DEP_FILES)
