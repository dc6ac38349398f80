/* vkg_cuda_xfer.c — the transfer primitives of vkg_xfer.h on CUDA: pinned host memory,
 * non-blocking streams, asynchronous copies and events. The caller has entered the
 * device's context. */
#include <cuda.h>
#include <stdint.h>

#include "vkg_cuda.h"

static int xfer_fail(vkg_status *st, CUresult r, const char *what)
{
	const char *name = NULL;
	cuGetErrorName(r, &name);
	return vkg_fail(st, r == CUDA_ERROR_OUT_OF_MEMORY ? VKG_ERR_OUT_OF_MEMORY : VKG_ERR_BACKEND, (int)r,
			"CUDA %s failed: %s (%d)", what, name ? name : "unknown error", (int)r);
}

static CUstream stream_for(vkg_device *dev, uint64_t queue)
{
	return (CUstream)(uintptr_t)(queue ? queue : vkg_cu_device_handle(dev, VKG_HANDLE_QUEUE));
}

int vkg_cu_host_alloc(vkg_device *dev, uint64_t bytes, void **ptr, uint64_t *handle, vkg_status *st)
{
	CUresult r = cuMemHostAlloc(ptr, bytes, CU_MEMHOSTALLOC_PORTABLE);
	(void)dev;
	*handle = 0;
	if (r != CUDA_SUCCESS) {
		*ptr = NULL;
		return xfer_fail(st, r, "cuMemHostAlloc");
	}
	return VKG_OK;
}

void vkg_cu_host_free(vkg_device *dev, void *ptr, uint64_t handle)
{
	(void)dev;
	(void)handle;
	if (ptr)
		cuMemFreeHost(ptr);
}

int vkg_cu_host_register(vkg_device *dev, void *ptr, uint64_t bytes, uint64_t *handle, vkg_status *st)
{
	CUresult r = cuMemHostRegister(ptr, bytes, CU_MEMHOSTREGISTER_PORTABLE);
	(void)dev;
	*handle = 0;
	return r == CUDA_SUCCESS ? VKG_OK : xfer_fail(st, r, "cuMemHostRegister");
}

void vkg_cu_host_unregister(vkg_device *dev, void *ptr, uint64_t handle)
{
	(void)dev;
	(void)handle;
	if (ptr)
		cuMemHostUnregister(ptr);
}

int vkg_cu_queue_create(vkg_device *dev, uint64_t *queue, vkg_status *st)
{
	CUstream s;
	CUresult r = cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	(void)dev;
	*queue = 0;
	if (r != CUDA_SUCCESS)
		return xfer_fail(st, r, "cuStreamCreate");
	*queue = (uint64_t)(uintptr_t)s;
	return VKG_OK;
}

void vkg_cu_queue_destroy(vkg_device *dev, uint64_t queue)
{
	(void)dev;
	if (queue) {
		cuStreamSynchronize((CUstream)(uintptr_t)queue);
		cuStreamDestroy((CUstream)(uintptr_t)queue);
	}
}

int vkg_cu_mem_write_async(vkg_device *dev, uint64_t queue, vkg_mem dst, uint64_t off, const void *src,
			uint64_t bytes, vkg_status *st)
{
	CUresult r = cuMemcpyHtoDAsync((CUdeviceptr)(dst + off), src, bytes, stream_for(dev, queue));
	return r == CUDA_SUCCESS ? VKG_OK : xfer_fail(st, r, "cuMemcpyHtoDAsync");
}

int vkg_cu_mem_read_async(vkg_device *dev, uint64_t queue, void *dst, vkg_mem src, uint64_t off,
		       uint64_t bytes, vkg_status *st)
{
	CUresult r = cuMemcpyDtoHAsync(dst, (CUdeviceptr)(src + off), bytes, stream_for(dev, queue));
	return r == CUDA_SUCCESS ? VKG_OK : xfer_fail(st, r, "cuMemcpyDtoHAsync");
}

int vkg_cu_event_create(vkg_device *dev, uint64_t *ev, vkg_status *st)
{
	CUevent e;
	CUresult r = cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
	(void)dev;
	*ev = 0;
	if (r != CUDA_SUCCESS)
		return xfer_fail(st, r, "cuEventCreate");
	*ev = (uint64_t)(uintptr_t)e;
	return VKG_OK;
}

void vkg_cu_event_destroy(vkg_device *dev, uint64_t ev)
{
	(void)dev;
	if (ev)
		cuEventDestroy((CUevent)(uintptr_t)ev);
}

int vkg_cu_event_record(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st)
{
	CUresult r = cuEventRecord((CUevent)(uintptr_t)ev, stream_for(dev, queue));
	return r == CUDA_SUCCESS ? VKG_OK : xfer_fail(st, r, "cuEventRecord");
}

int vkg_cu_queue_wait_event(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st)
{
	CUresult r = cuStreamWaitEvent(stream_for(dev, queue), (CUevent)(uintptr_t)ev, 0);
	return r == CUDA_SUCCESS ? VKG_OK : xfer_fail(st, r, "cuStreamWaitEvent");
}

int vkg_cu_event_sync(vkg_device *dev, uint64_t ev, vkg_status *st)
{
	CUresult r = cuEventSynchronize((CUevent)(uintptr_t)ev);
	(void)dev;
	return r == CUDA_SUCCESS ? VKG_OK : xfer_fail(st, r, "cuEventSynchronize");
}
