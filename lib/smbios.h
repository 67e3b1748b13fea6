/* SPDX-License-Identifier: MIT */
/*
 * smbios.h - the System Information structure (type 1) of an SMBIOS table,
 * pure C: the firmware finds the table (efi/platform_efi.c), this reads
 * it.  DMTF DSP0134 (SMBIOS 3.x), 6.1.2 structure header and strings,
 * 7.2 System Information: Manufacturer at offset 04h, Product Name 05h,
 * Serial Number 07h, each a string number (0: none).
 */
#ifndef PP_LIB_SMBIOS_H
#define PP_LIB_SMBIOS_H

#include "compat.h"

struct smbios_system {
	char manufacturer[64], product[64], serial[64]; /* "" when absent */
};

/*
 * Walks the structure table (len bytes) to the first type-1 structure and
 * copies its strings, non-printable bytes as '?'.  Returns true when it
 * found one; a truncated table ends the walk (false).
 */
bool smbios_system_info(const uint8_t *table, size_t len, struct smbios_system *out);

#endif
