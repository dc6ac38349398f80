/* vkg_common.c — backend-independent helpers of the C layer: status reporting and the
 * entry points for Go that bracket one backend call with the device's context. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "vkg.h"
#include "vkg_xfer.h"

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

char *vkg_status_take_detail(vkg_status *st)
{
	char *d = st->detail;
	st->detail = NULL;
	return d;
}

void vkg_status_clear(vkg_status *st)
{
	free(st->detail);
	st->detail = NULL;
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

int vkg_pinned_alloc(vkg_device *dev, uint64_t bytes, void **ptr, uint64_t *handle, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_host_alloc(dev, bytes, ptr, handle, st);
	vkg_ctx_leave(dev);
	return rc;
}

void vkg_pinned_free(vkg_device *dev, void *ptr, uint64_t handle)
{
	vkg_status st;
	int entered = vkg_ctx_enter(dev, &st) == VKG_OK;
	vkg_host_free(dev, ptr, handle);
	if (entered)
		vkg_ctx_leave(dev);
}

int vkg_stream_create(vkg_device *dev, uint64_t *queue, uint64_t *ev, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_queue_create(dev, queue, st);
	if (rc == VKG_OK && ev) {
		rc = vkg_event_create(dev, ev, st);
		if (rc)
			vkg_queue_destroy(dev, *queue);
	}
	vkg_ctx_leave(dev);
	return rc;
}

void vkg_stream_destroy(vkg_device *dev, uint64_t queue, uint64_t ev)
{
	vkg_status st;
	int entered = vkg_ctx_enter(dev, &st) == VKG_OK;
	vkg_queue_sync(dev, queue, &st);
	if (ev)
		vkg_event_destroy(dev, ev);
	vkg_queue_destroy(dev, queue);
	if (entered)
		vkg_ctx_leave(dev);
}

int vkg_stream_sync(vkg_device *dev, uint64_t queue, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_queue_sync(dev, queue, st);
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
	rc = vkg_mem_copy_on(dev, 0, dst, src, bytes, st);
	vkg_ctx_leave(dev);
	return rc;
}
