/* vkg_common.c — backend-independent helpers of the C layer: status reporting and the
 * entry points for Go that bracket one backend call with the device's context. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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
	VKG_FORK_GUARD_VOID();
	int entered = vkg_ctx_enter(dev, &st) == VKG_OK;
	vkg_mem_free(dev, mem);
	if (entered)
		vkg_ctx_leave(dev);
}

int vkg_upload(vkg_device *dev, vkg_mem dst, const void *src, uint64_t bytes, vkg_status *st)
{
	return vkg_upload_range(dev, dst, 0, src, bytes, st);
}

int vkg_upload_range(vkg_device *dev, vkg_mem dst, uint64_t off, const void *src, uint64_t bytes, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_mem_write(dev, dst, off, src, bytes, st);
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

int vkg_hostmem_alloc(vkg_device *dev, uint64_t bytes, void **ptr, uint64_t *handle, vkg_status *st)
{
	void *p;
	int rc;
	*ptr = NULL;
	*handle = 0;
	if (bytes == 0 || bytes > SIZE_MAX)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "%llu bytes of host memory", (unsigned long long)bytes);
	p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, errno, "mapping %llu bytes of host memory: %s",
				(unsigned long long)bytes, strerror(errno));
	rc = vkg_ctx_enter(dev, st);
	if (rc == VKG_OK) {
		rc = vkg_host_register(dev, p, bytes, handle, st);
		vkg_ctx_leave(dev);
	}
	if (rc) {
		munmap(p, (size_t)bytes);
		return rc;
	}
	*ptr = p;
	return VKG_OK;
}

int vkg_hostmem_register(vkg_device *dev, void *ptr, uint64_t bytes, uint64_t *handle, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	*handle = 0;
	if (rc)
		return rc;
	rc = vkg_host_register(dev, ptr, bytes, handle, st);
	vkg_ctx_leave(dev);
	return rc;
}

void vkg_hostmem_unregister(vkg_device *dev, void *ptr, uint64_t handle)
{
	vkg_status st;
	VKG_FORK_GUARD_VOID();
	int entered = vkg_ctx_enter(dev, &st) == VKG_OK;
	vkg_host_unregister(dev, ptr, handle);
	if (entered)
		vkg_ctx_leave(dev);
}

void vkg_hostmem_retire(vkg_device *dev, void *ptr, uint64_t bytes, uint64_t handle)
{
	vkg_hostmem_unregister(dev, ptr, handle);
	/* the pages go back to the system; the addresses stay ours, inaccessible */
	if (mmap(ptr, (size_t)bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0) ==
	    MAP_FAILED)
		munmap(ptr, (size_t)bytes);
}

void vkg_hostmem_unmap(void *ptr, uint64_t bytes)
{
	munmap(ptr, (size_t)bytes);
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
	VKG_FORK_GUARD_VOID();
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
