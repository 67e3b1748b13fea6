// SPDX-License-Identifier: MIT
/*
 * identity.c - lib/platform.h plat_identity() from the firmware: its clock
 * (UEFI 2.x 8.3 GetTime), its vendor and revision (4.3 EFI_SYSTEM_TABLE)
 * and the SMBIOS System Information found through the configuration
 * table (4.6: SMBIOS3_TABLE_GUID, else SMBIOS_TABLE_GUID), read by
 * lib/smbios.c.
 */
#include "efi_glue.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/smbios.h"

/* EFI_TIME.TimeZone when the time is local, zone unknown (UEFI 2.x 8.3). */
#define TIME_ZONE_UNSPECIFIED 0x07ff

static void firmware_time(struct plat_identity *id)
{
	EFI_TIME t;

	if (EFI_ERROR(uefi_call_wrapper(RT->GetTime, 2, &t, NULL)))
		return;
	pp_snprintf(id->time, sizeof(id->time), "%04u-%02u-%02uT%02u:%02u:%02u", t.Year, t.Month,
		    t.Day, t.Hour, t.Minute, t.Second);
	if (t.TimeZone != TIME_ZONE_UNSPECIFIED) {
		id->has_time_zone = true;
		id->time_zone = t.TimeZone;
	}
}

/*
 * The structure table from an entry point: SMBIOS 3.x "_SM3_" (DSP0134
 * 5.2.2: maximum size at 0Ch, 64-bit address at 10h), or 2.1 "_SM_"
 * (5.2.1: length at 16h, 32-bit address at 18h).
 */
static bool smbios_table(const uint8_t *ep, const uint8_t **table, size_t *len)
{
	if (!memcmp(ep, "_SM3_", 5)) {
		uint32_t size;
		uint64_t addr;

		memcpy(&size, ep + 0x0c, 4);
		memcpy(&addr, ep + 0x10, 8);
		*table = (const uint8_t *)(uintptr_t)addr;
		*len = size;
		return addr && size;
	}
	if (!memcmp(ep, "_SM_", 4)) {
		uint16_t size;
		uint32_t addr;

		memcpy(&size, ep + 0x16, 2);
		memcpy(&addr, ep + 0x18, 4);
		*table = (const uint8_t *)(uintptr_t)addr;
		*len = size;
		return addr && size;
	}
	return false;
}

static void smbios(struct plat_identity *id)
{
	static EFI_GUID guids[] = {SMBIOS3_TABLE_GUID, SMBIOS_TABLE_GUID};
	struct smbios_system sys;

	for (unsigned int g = 0; g < ARRAY_SIZE(guids); g++) {
		for (UINTN i = 0; i < ST->NumberOfTableEntries; i++) {
			EFI_CONFIGURATION_TABLE *ct = &ST->ConfigurationTable[i];
			const uint8_t *table;
			size_t len;

			if (CompareGuid(&ct->VendorGuid, &guids[g]) ||
			    !smbios_table(ct->VendorTable, &table, &len) ||
			    !smbios_system_info(table, len, &sys))
				continue;
			memcpy(id->smbios_manufacturer, sys.manufacturer, sizeof(sys.manufacturer));
			memcpy(id->smbios_product, sys.product, sizeof(sys.product));
			memcpy(id->smbios_serial, sys.serial, sizeof(sys.serial));
			return;
		}
	}
}

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

void plat_identity(struct plat_identity *id)
{
	size_t n = 0;

	memset(id, 0, sizeof(*id));
	if (efi_fw_refused("plat_identity"))
		return; /* every field absent */
	firmware_time(id);
	for (; ST->FirmwareVendor && ST->FirmwareVendor[n] && n + 1 < sizeof(id->fw_vendor); n++) {
		CHAR16 c = ST->FirmwareVendor[n];

		id->fw_vendor[n] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	id->fw_vendor[n] = 0;
	id->has_fw_revision = true;
	id->fw_revision = ST->FirmwareRevision;
	id->uefi_major = ST->Hdr.Revision >> 16;
	id->uefi_minor = ST->Hdr.Revision & 0xffff;
	smbios(id);
	/* The clock to the second and the TSC: two runs never share both. */
	id->seed = rdtsc();
	for (const char *p = id->time; *p; p++)
		id->seed = id->seed * 31 + (uint8_t)*p;
}
