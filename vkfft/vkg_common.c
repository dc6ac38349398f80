/* vkg_common.c — backend-independent helpers of the C layer: status reporting and the
 * device-wide entry points that bracket one backend call with the device's context. */
#include <stdarg.h>
#include <stdio.h>

#include "vkg.h"

int vkg_fail(vkg_status *st, int code, int native, const char *fmt, ...)
{
	va_list ap;
	if (!st)
		return code;
	st->code = code;
	st->native = native;
	va_start(ap, fmt);
	vsnprintf(st->msg, sizeof st->msg, fmt, ap);
	va_end(ap);
	return code;
}

int vkg_alloc(vkg_device *dev, uint64_t bytes, vkg_mem *out, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_mem_alloc(dev, bytes, out, st);
	vkg_ctx_leave(dev);
	return rc;
}

void vkg_free(vkg_device *dev, vkg_mem mem)
{
	vkg_status st;
	int entered = vkg_ctx_enter(dev, &st) == VKG_OK;
	vkg_mem_free(dev, mem);
	if (entered)
		vkg_ctx_leave(dev);
}

int vkg_upload(vkg_device *dev, vkg_mem dst, const void *src, uint64_t bytes, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_mem_write(dev, dst, 0, src, bytes, st);
	/* src is the caller's memory: it must be consumed before we return */
	if (rc == VKG_OK)
		rc = vkg_device_sync(dev, st);
	vkg_ctx_leave(dev);
	return rc;
}

int vkg_download(vkg_device *dev, void *dst, vkg_mem src, uint64_t bytes, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_mem_read(dev, dst, src, 0, bytes, st);
	vkg_ctx_leave(dev);
	return rc;
}

int vkg_sync(vkg_device *dev, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_device_sync(dev, st);
	vkg_ctx_leave(dev);
	return rc;
}

int vkg_download_range(vkg_device *dev, void *dst, vkg_mem src, uint64_t off, uint64_t bytes,
		       vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_mem_read(dev, dst, src, off, bytes, st);
	vkg_ctx_leave(dev);
	return rc;
}

int vkg_copy(vkg_device *dev, vkg_mem dst, vkg_mem src, uint64_t bytes, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_mem_copy(dev, dst, src, bytes, st);
	vkg_ctx_leave(dev);
	return rc;
}
