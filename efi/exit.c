// SPDX-License-Identifier: MIT
/*
 * exit.c - how the exit status reaches whoever started us (docs/OUTPUT.md):
 *
 *   exit=shutdown  under QEMU/KVM (hypervisor signature "TCGTCGTCGTCG" or
 *                  "KVMKVMKVM"): write the status to the isa-debug-exit port
 *                  0xf4, which makes QEMU exit with (status << 1) | 1.  Then,
 *                  and on bare metal first, ResetSystem(EfiResetShutdown)
 *                  with the status as the reset's status code.
 *   exit=reboot    ResetSystem(EfiResetCold).
 *   exit=return    efi_main returns the status to the shell or boot manager;
 *                  not while an AP may still run our code (a lost CPU): the
 *                  image would be unloaded under it, and MP services answer
 *                  busy for that AP until ExitBootServices (EDK II DxeMpLib.c
 *                  MpInitChangeApLoopCallback).  Then the status goes out
 *                  through the port under QEMU/KVM, and
 *                  ResetSystem(EfiResetCold) resets the machine.
 *
 * Port 0xf4 is written only when the signature says QEMU or KVM: on a real
 * machine that port may belong to anything.
 *
 * On bare metal (CPUID.1:ECX[31] clear: no hypervisor) exit=shutdown and
 * exit=reboot first wait for a key or pause= seconds (efi_pause), so the
 * engineer at the bench can read the verdict; never under a hypervisor.
 */
#include "efi_glue.h"

#define ISA_DEBUG_EXIT_PORT 0xf4

bool efi_bare_metal(void)
{
	uint32_t a, b, c, d;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	return !(c & (1u << 31));
}

bool efi_pause(unsigned int seconds)
{
	EFI_EVENT events[2];
	EFI_INPUT_KEY key;
	UINTN which;

	if (!seconds || !ST->ConIn)
		return false;
	if (EFI_ERROR(uefi_call_wrapper(BS->CreateEvent, 5, EVT_TIMER, 0, NULL, NULL, &events[1])))
		return false;
	/* SetTimer counts 100 ns units (UEFI 2.x 7.1). */
	uefi_call_wrapper(BS->SetTimer, 3, events[1], TimerRelative, (UINT64)seconds * 10000000);
	events[0] = ST->ConIn->WaitForKey;
	uefi_call_wrapper(BS->WaitForEvent, 3, 2, events, &which);
	if (which == 0)
		uefi_call_wrapper(ST->ConIn->ReadKeyStroke, 2, ST->ConIn, &key);
	uefi_call_wrapper(BS->CloseEvent, 1, events[1]);
	return true;
}

static bool under_qemu(void)
{
	uint32_t a, b, c, d;
	char sig[13];

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if (!(c & (1u << 31)))
		return false;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x40000000), "c"(0));
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = 0;
	return !memcmp(sig, "TCGTCGTCGTCG", 12) || !memcmp(sig, "KVMKVMKVM\0\0\0", 12);
}

void efi_exit(int status, enum efi_exit_how how)
{
	switch (how) {
	case EXIT_HOW_RETURN:
		return;
	case EXIT_HOW_RESET_LOST:
		if (under_qemu())
			__asm__ volatile("outl %0, %w1"
					 :
					 : "a"((uint32_t)status), "Nd"(ISA_DEBUG_EXIT_PORT));
		/* No isa-debug-exit device, or bare metal: reset. */
		__attribute__((fallthrough));
	case EXIT_HOW_REBOOT:
		uefi_call_wrapper(RT->ResetSystem, 4, EfiResetCold, (EFI_STATUS)status, 0, NULL);
		break;
	case EXIT_HOW_SHUTDOWN:
		if (under_qemu())
			__asm__ volatile("outl %0, %w1"
					 :
					 : "a"((uint32_t)status), "Nd"(ISA_DEBUG_EXIT_PORT));
		/* No isa-debug-exit device, or bare metal: power off. */
		uefi_call_wrapper(RT->ResetSystem, 4, EfiResetShutdown, (EFI_STATUS)status, 0,
				  NULL);
		break;
	}
}
