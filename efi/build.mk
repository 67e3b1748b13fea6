# efi: sources of this unit (see the top-level Makefile).
# Everything that knows about UEFI.
APP_SRCS += \
	efi/console.c \
	efi/esp.c \
	efi/exit.c \
	efi/hw_real.c \
	efi/identity.c \
	efi/main.c \
	efi/platform_efi.c

# Boot images, no root needed (tools/mkesp.sh, tools/mkusb.sh).
ESP_CFG ?= efi/pebsprobe.cfg

esp: $(BUILD)/esp.img
usb: $(BUILD)/usb.img

$(BUILD)/esp.img: $(BUILD)/pebsprobe.efi $(ESP_CFG) tools/mkesp.sh
	tools/mkesp.sh $(BUILD)/pebsprobe.efi $@ $(ESP_CFG)

$(BUILD)/usb.img: $(BUILD)/esp.img tools/mkusb.sh
	tools/mkusb.sh $(BUILD)/esp.img $@

CHECK_DEPS += $(BUILD)/esp.img $(BUILD)/usb.img
