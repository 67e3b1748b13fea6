# efi: sources of this unit (see the top-level Makefile).
# Everything that knows about UEFI.
APP_SRCS += efi/main.c efi/console.c efi/esp.c efi/exit.c efi/hw_real.c efi/platform_efi.c \
	efi/identity.c

# Boot images, no root needed (tools/mkesp.sh, tools/mkusb.sh).
ESP_CFG ?= efi/pebsprobe.cfg

esp: $(BUILD)/esp.img
usb: $(BUILD)/usb.img

$(BUILD)/esp.img: $(BUILD)/pebsprobe.efi $(ESP_CFG) tools/mkesp.sh
	tools/mkesp.sh $(BUILD)/pebsprobe.efi $@ $(ESP_CFG)

$(BUILD)/usb.img: $(BUILD)/esp.img tools/mkusb.sh
	tools/mkusb.sh $(BUILD)/esp.img $@

CHECK_DEPS += $(BUILD)/esp.img $(BUILD)/usb.img

# `make check` first makes sure the Debian packages are there (tools/deps.sh
# installs them as root on Debian/Ubuntu, else prints the apt-get line).
ifneq ($(filter check deps-check,$(MAKECMDGOALS)),)
DEPS_RC := $(shell tools/deps.sh >&2; echo $$?)
ifneq ($(DEPS_RC),0)
$(error missing packages: run the apt-get line above, or `make deps` as root)
endif
endif
