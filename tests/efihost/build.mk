# Host programs built with the UEFI build's compiler flags and lib/efi_libc.c
# (whose memcpy, memset and memmove then replace libc's in the program): the
# firmware's string functions tested and the in-app decode path measured as
# the app compiles them.  -DPP_EFI only selects compat.h's declarations.
EFIHOST_CFLAGS := $(EFI_CFLAGS)

$(BUILD)/efihost/test-efi-libc: tests/efihost/test_efi_libc.c lib/efi_libc.c lib/compat.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(EFIHOST_CFLAGS) tests/efihost/test_efi_libc.c lib/efi_libc.c -o $@

CHECK_DEPS += $(BUILD)/efihost/test-efi-libc
