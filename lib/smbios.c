// SPDX-License-Identifier: MIT
/* smbios.c - SMBIOS type 1 strings (smbios.h; DMTF DSP0134 6.1.2, 7.2). */
#include "smbios.h"

#define SMBIOS_TYPE_SYSTEM 1
#define SMBIOS_TYPE_END	   127
#define SYS_MANUFACTURER   0x04
#define SYS_PRODUCT	   0x05
#define SYS_SERIAL	   0x07

/* The n-th (1-based) string of the set that starts at s and ends before end. */
static void copy_string(const uint8_t *s, const uint8_t *end, uint8_t n, char *out, size_t size)
{
	size_t len = 0;

	out[0] = 0;
	if (!n)
		return;
	while (--n && s < end) {
		while (s < end && *s)
			s++;
		s++;
	}
	for (; s < end && *s && len + 1 < size; s++)
		out[len++] = *s >= 0x20 && *s < 0x7f ? (char)*s : '?';
	out[len] = 0;
	/* Firmware fills unset fields with blanks: those are absent too. */
	while (len && out[len - 1] == ' ')
		out[--len] = 0;
}

bool smbios_system_info(const uint8_t *table, size_t len, struct smbios_system *out)
{
	size_t at = 0;

	memset(out, 0, sizeof(*out));
	while (at + 4 <= len) {
		uint8_t type = table[at], flen = table[at + 1];
		size_t strings = at + flen, end = strings;

		if (flen < 4 || strings > len)
			return false;
		/* The string set ends with two NULs (an empty set is two NULs too). */
		while (end + 1 < len && (table[end] || table[end + 1]))
			end++;
		if (end + 1 >= len)
			return false;
		if (type == SMBIOS_TYPE_SYSTEM && flen > SYS_SERIAL) {
			const uint8_t *s = table + strings, *e = table + end + 1;

			copy_string(s, e, table[at + SYS_MANUFACTURER], out->manufacturer,
				    sizeof(out->manufacturer));
			copy_string(s, e, table[at + SYS_PRODUCT], out->product,
				    sizeof(out->product));
			copy_string(s, e, table[at + SYS_SERIAL], out->serial, sizeof(out->serial));
			return true;
		}
		if (type == SMBIOS_TYPE_END)
			return false;
		at = end + 2;
	}
	return false;
}
