// SPDX-License-Identifier: MIT
/*
 * esp.c - files beside the binary: the directory part of the loaded image's
 * file path, on the file system of the device it was loaded from.  When that
 * file system cannot be written (QEMU -kernel's loader file system, a
 * network boot), the first writable file system that has \EFI\BOOT is
 * used instead, and only if there is none the read-only one.
 */
#include "efi_glue.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"

static EFI_FILE_HANDLE dir;
static char dir_name[256] = "\\";
static EFI_STATUS write_st = EFI_NOT_READY; /* why dir cannot be written, or EFI_SUCCESS */

const char *esp_dir_name(void)
{
	return dir_name;
}

const char *esp_write_error(void)
{
	static char buf[64];

	if (!EFI_ERROR(write_st))
		return NULL;
	return plat_error_text((write_st & 0xffff) ? -(int)(write_st & 0xffff) : -1, buf,
			       sizeof(buf));
}

/* "\EFI\BOOT\BOOTX64.EFI" from the image's file-path nodes, up to the last '\'. */
static void image_dir(EFI_DEVICE_PATH *dp, char *out, size_t size)
{
	size_t len = 0;

	out[0] = 0;
	for (; dp && !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp)) {
		FILEPATH_DEVICE_PATH *fp = (FILEPATH_DEVICE_PATH *)dp;
		size_t nchars;

		if (DevicePathType(dp) != MEDIA_DEVICE_PATH ||
		    DevicePathSubType(dp) != MEDIA_FILEPATH_DP)
			continue;
		nchars = (DevicePathNodeLength(dp) - 4) / sizeof(CHAR16);
		for (size_t i = 0; i < nchars && fp->PathName[i] && len + 2 < size; i++) {
			CHAR16 c = fp->PathName[i];

			out[len++] = c == '/' ? '\\' : (c < 0x80 ? (char)c : '_');
		}
	}
	out[len] = 0;
	while (len && out[len - 1] != '\\')
		out[--len] = 0;
	if (!len) {
		out[0] = '\\';
		out[1] = 0;
	}
}

static EFI_STATUS open_dir_on(EFI_HANDLE dev, const char *path, bool writable, EFI_FILE_HANDLE *out)
{
	EFI_FILE_IO_INTERFACE *fs = NULL;
	EFI_FILE_HANDLE root = NULL;
	CHAR16 wpath[256];
	EFI_STATUS st;

	st = uefi_call_wrapper(BS->HandleProtocol, 3, dev, &FileSystemProtocol, (void **)&fs);
	if (EFI_ERROR(st) || !fs)
		return EFI_NOT_FOUND;
	st = uefi_call_wrapper(fs->OpenVolume, 2, fs, &root);
	if (EFI_ERROR(st))
		return st;
	if (writable) {
		/* A read-only volume may still open a directory for writing. */
		EFI_FILE_SYSTEM_INFO *fsi = LibFileSystemInfo(root);
		bool ro = !fsi || fsi->ReadOnly;

		if (fsi)
			FreePool(fsi);
		if (ro) {
			uefi_call_wrapper(root->Close, 1, root);
			return EFI_WRITE_PROTECTED;
		}
	}
	ascii_to_ucs2(wpath, 256, path);
	st = uefi_call_wrapper(
	    root->Open, 5, root, out, wpath,
	    writable ? EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE : EFI_FILE_MODE_READ, 0);
	uefi_call_wrapper(root->Close, 1, root);
	return st;
}

/* Boot paths like QEMU -kernel start us before every disk is connected. */
static void connect_all(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;

	if (EFI_ERROR(
		uefi_call_wrapper(BS->LocateHandleBuffer, 5, AllHandles, NULL, NULL, &n, &handles)))
		return;
	for (UINTN i = 0; i < n; i++)
		uefi_call_wrapper(BS->ConnectController, 4, handles[i], NULL, NULL, TRUE);
	FreePool(handles);
}

static EFI_STATUS open_boot_dir_anywhere(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;
	EFI_STATUS st;

	st = uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, &FileSystemProtocol, NULL, &n,
			       &handles);
	if (EFI_ERROR(st))
		return st;
	st = EFI_NOT_FOUND;
	for (UINTN i = 0; i < n && EFI_ERROR(st); i++)
		st = open_dir_on(handles[i], "\\EFI\\BOOT\\", true, &dir);
	FreePool(handles);
	if (!EFI_ERROR(st))
		pp_snprintf(dir_name, sizeof(dir_name), "\\EFI\\BOOT\\");
	return st;
}

EFI_STATUS esp_init(EFI_HANDLE image)
{
	EFI_LOADED_IMAGE *li = NULL;
	EFI_STATUS st;

	st = uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol, (void **)&li);
	if (EFI_ERROR(st))
		return st;
	image_dir(li->FilePath, dir_name, sizeof(dir_name));
	write_st = open_dir_on(li->DeviceHandle, dir_name, true, &dir);
	if (!EFI_ERROR(write_st))
		return EFI_SUCCESS;
	if (!EFI_ERROR(open_boot_dir_anywhere())) {
		write_st = EFI_SUCCESS;
		return EFI_SUCCESS;
	}
	connect_all();
	if (!EFI_ERROR(open_boot_dir_anywhere())) {
		write_st = EFI_SUCCESS;
		return EFI_SUCCESS;
	}
	/* Only the image's own volume, read-only: write_st says why not writable. */
	st = open_dir_on(li->DeviceHandle, dir_name, false, &dir);
	if (EFI_ERROR(st))
		dir = NULL;
	return st;
}

static EFI_STATUS open_file(const char *name, UINT64 mode, EFI_FILE_HANDLE *fh)
{
	CHAR16 wname[128];

	if (!dir)
		return EFI_NOT_READY;
	ascii_to_ucs2(wname, 128, name);
	return uefi_call_wrapper(dir->Open, 5, dir, fh, wname, mode, 0);
}

EFI_STATUS esp_read_file(const char *name, char **buf, UINTN *len)
{
	EFI_FILE_HANDLE fh;
	EFI_FILE_INFO *info;
	EFI_STATUS st;
	UINTN size;

	*buf = NULL;
	*len = 0;
	st = open_file(name, EFI_FILE_MODE_READ, &fh);
	if (EFI_ERROR(st))
		return st;
	info = LibFileInfo(fh);
	if (!info) {
		uefi_call_wrapper(fh->Close, 1, fh);
		return EFI_DEVICE_ERROR;
	}
	size = info->FileSize;
	if (info->Attribute & EFI_FILE_DIRECTORY) {
		FreePool(info);
		uefi_call_wrapper(fh->Close, 1, fh);
		return EFI_ACCESS_DENIED;
	}
	FreePool(info);
	if (size > 1 << 20) {
		uefi_call_wrapper(fh->Close, 1, fh);
		return EFI_BAD_BUFFER_SIZE;
	}
	*buf = AllocatePool(size + 1);
	if (!*buf) {
		uefi_call_wrapper(fh->Close, 1, fh);
		return EFI_OUT_OF_RESOURCES;
	}
	st = uefi_call_wrapper(fh->Read, 3, fh, &size, *buf);
	uefi_call_wrapper(fh->Close, 1, fh);
	if (EFI_ERROR(st)) {
		FreePool(*buf);
		*buf = NULL;
		return st;
	}
	(*buf)[size] = 0;
	*len = size;
	return EFI_SUCCESS;
}

EFI_STATUS esp_read_head(const char *name, void *buf, UINTN *len)
{
	EFI_FILE_HANDLE fh;
	EFI_FILE_INFO *info;
	EFI_STATUS st;

	st = open_file(name, EFI_FILE_MODE_READ, &fh);
	if (EFI_ERROR(st))
		return st;
	info = LibFileInfo(fh);
	if (!info || (info->Attribute & EFI_FILE_DIRECTORY)) {
		if (info)
			FreePool(info);
		uefi_call_wrapper(fh->Close, 1, fh);
		return EFI_ACCESS_DENIED;
	}
	FreePool(info);
	st = uefi_call_wrapper(fh->Read, 3, fh, len, buf);
	uefi_call_wrapper(fh->Close, 1, fh);
	return st;
}

int64_t esp_free_space(void)
{
	EFI_FILE_SYSTEM_INFO *fsi;
	int64_t avail;

	if (!dir)
		return -1;
	fsi = LibFileSystemInfo(dir);
	if (!fsi)
		return -1;
	avail = fsi->ReadOnly ? 0 : (int64_t)fsi->FreeSpace;
	FreePool(fsi);
	return avail;
}

EFI_STATUS esp_delete(const char *name)
{
	EFI_FILE_HANDLE fh;
	EFI_STATUS st = open_file(name, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, &fh);

	if (EFI_ERROR(st))
		return st;
	/* Delete also closes; EFI_WARN_DELETE_FAILURE when it could not (UEFI 2.x 13.5). */
	st = uefi_call_wrapper(fh->Delete, 1, fh);
	return st == EFI_WARN_DELETE_FAILURE ? EFI_WRITE_PROTECTED : st;
}

/* A file name in ASCII, as pebsprobe writes names; false when it is not one or too long. */
static bool ascii_name(const CHAR16 *in, char *out, size_t size)
{
	size_t i;

	for (i = 0; in[i]; i++) {
		if (i + 1 >= size || in[i] < 0x20 || in[i] >= 0x7f)
			return false;
		out[i] = (char)in[i];
	}
	out[i] = 0;
	return i > 0;
}

/*
 * Read on a directory gives one EFI_FILE_INFO per call and a size of 0 at
 * the end; EFI_BUFFER_TOO_SMALL gives the size needed and does not move
 * on (UEFI 2.x 13.5 EFI_FILE_PROTOCOL.Read).
 */
EFI_STATUS esp_list(void (*fn)(void *ctx, const char *name), void *ctx)
{
	UINTN cap = SIZE_OF_EFI_FILE_INFO + 256 * sizeof(CHAR16), size;
	EFI_FILE_INFO *info;
	char name[PLAT_NAME_MAX];
	EFI_STATUS st;

	if (!dir)
		return EFI_NOT_READY;
	st = uefi_call_wrapper(dir->SetPosition, 2, dir, 0);
	if (EFI_ERROR(st))
		return st;
	info = AllocatePool(cap);
	while (info) {
		size = cap;
		st = uefi_call_wrapper(dir->Read, 3, dir, &size, info);
		if (st == EFI_BUFFER_TOO_SMALL) {
			FreePool(info);
			cap = size;
			info = AllocatePool(cap);
			continue;
		}
		if (EFI_ERROR(st) || !size)
			break;
		if (!(info->Attribute & EFI_FILE_DIRECTORY) &&
		    ascii_name(info->FileName, name, sizeof(name)))
			fn(ctx, name);
	}
	if (!info)
		return EFI_OUT_OF_RESOURCES;
	FreePool(info);
	return st;
}

static void delete_if_exists(const char *name)
{
	EFI_FILE_HANDLE fh;

	if (!EFI_ERROR(open_file(name, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, &fh)))
		uefi_call_wrapper(fh->Delete, 1, fh); /* Delete also closes */
}

EFI_STATUS esp_create(const char *name, EFI_FILE_HANDLE *fh)
{
	delete_if_exists(name);
	return open_file(name, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, fh);
}

EFI_STATUS esp_append(EFI_FILE_HANDLE fh, const void *buf, UINTN len)
{
	EFI_STATUS st;

	if (!len)
		return EFI_SUCCESS;
	st = uefi_call_wrapper(fh->Write, 3, fh, &len, (void *)buf);
	if (!EFI_ERROR(st))
		st = uefi_call_wrapper(fh->Flush, 1, fh);
	return st;
}

void esp_close(EFI_FILE_HANDLE fh)
{
	uefi_call_wrapper(fh->Flush, 1, fh);
	uefi_call_wrapper(fh->Close, 1, fh);
}

/* Renames an open file within its directory (UEFI 2.x 13.5 SetInfo, FileName). */
static EFI_STATUS rename_to(EFI_FILE_HANDLE fh, const char *name)
{
	EFI_FILE_INFO *info = LibFileInfo(fh), *ni;
	UINTN size;
	EFI_STATUS st;

	if (!info)
		return EFI_DEVICE_ERROR;
	size = SIZE_OF_EFI_FILE_INFO + (strlen(name) + 1) * sizeof(CHAR16);
	ni = AllocateZeroPool(size);
	if (!ni) {
		FreePool(info);
		return EFI_OUT_OF_RESOURCES;
	}
	CopyMem(ni, info, SIZE_OF_EFI_FILE_INFO);
	ni->Size = size;
	ascii_to_ucs2(ni->FileName, strlen(name) + 1, name);
	st = uefi_call_wrapper(fh->SetInfo, 4, fh, &GenericFileInfo, size, ni);
	FreePool(ni);
	FreePool(info);
	return st;
}

EFI_STATUS esp_write_file(const char *name, const void *buf, UINTN len)
{
	char tmp[96];
	EFI_FILE_HANDLE fh;
	EFI_STATUS st;

	pp_snprintf(tmp, sizeof(tmp), "%s.tmp", name);
	st = esp_create(tmp, &fh);
	if (EFI_ERROR(st))
		return st;
	st = uefi_call_wrapper(fh->Write, 3, fh, &len, (void *)buf);
	if (!EFI_ERROR(st))
		st = uefi_call_wrapper(fh->Flush, 1, fh);
	if (EFI_ERROR(st)) {
		uefi_call_wrapper(fh->Delete, 1, fh);
		return st;
	}
	delete_if_exists(name);
	st = rename_to(fh, name);
	uefi_call_wrapper(fh->Close, 1, fh);
	return st;
}
