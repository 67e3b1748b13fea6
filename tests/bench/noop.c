// SPDX-License-Identifier: MIT
/*
 * noop.efi - the baseline of bench-qemu.sh: a UEFI application that does
 * nothing but what run-qemu.sh needs to accept a run (the last line
 * "INFO: exit status 0 (exit=shutdown)" on the console, then status 0
 * through QEMU's isa-debug-exit port 0xf4, as efi/exit.c does).  Booted the
 * same way as pebsprobe, it measures what the firmware and QEMU cost alone.
 */
#include <efi.h>
#include <efilib.h>

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static char line[] = "\r\nINFO: exit status 0 (exit=shutdown)\r\n";
	EFI_SERIAL_IO_PROTOCOL *serial = NULL;
	UINTN n = sizeof(line) - 1;

	InitializeLib(image, systab);
	/* Straight to the serial port, as efi/console.c writes (not through ConOut's terminal). */
	if (!EFI_ERROR(LibLocateProtocol(&SerialIoProtocol, (void **)&serial)) && serial)
		uefi_call_wrapper(serial->Write, 3, serial, &n, line);
	__asm__ volatile("outl %0, %1" : : "a"(0u), "Nd"((uint16_t)0xf4));
	return EFI_SUCCESS;
}
