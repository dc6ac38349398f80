//go:build cuda && !opencl

/* vkg_hostreg_cuda.c — registered host memory on CUDA: cuMemHostRegister page-locks
 * the caller's memory, and the driver then copies from and to it at pinned speed. */
#include <cuda.h>
#include <stdint.h>

#include "vkg_xfer.h"

int vkg_host_register(vkg_device *dev, void *ptr, uint64_t bytes, uint64_t *handle, vkg_status *st)
{
	const char *name = NULL;
	CUresult r;
	int rc = vkg_ctx_enter(dev, st);
	*handle = 0;
	if (rc)
		return rc;
	r = cuMemHostRegister(ptr, (size_t)bytes, CU_MEMHOSTREGISTER_PORTABLE);
	vkg_ctx_leave(dev);
	if (r == CUDA_SUCCESS)
		return VKG_OK;
	cuGetErrorName(r, &name);
	return vkg_fail(st, r == CUDA_ERROR_OUT_OF_MEMORY ? VKG_ERR_OUT_OF_MEMORY : VKG_ERR_BACKEND, (int)r,
			"CUDA cuMemHostRegister(%p, %llu) failed: %s (%d)", ptr, (unsigned long long)bytes,
			name ? name : "unknown error", (int)r);
}

void vkg_host_unregister(vkg_device *dev, void *ptr, uint64_t handle)
{
	vkg_status st;
	(void)handle;
	if (vkg_ctx_enter(dev, &st) != VKG_OK)
		return;
	cuMemHostUnregister(ptr);
	vkg_ctx_leave(dev);
}
