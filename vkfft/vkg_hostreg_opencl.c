//go:build opencl || !cuda

/* vkg_hostreg_opencl.c — registered host memory on OpenCL: a CL_MEM_USE_HOST_PTR buffer
 * over the caller's memory, which drivers that can pin host memory use to page-lock it
 * (and PoCL, a CPU device, uses as it is). It lives until the memory is unregistered. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdint.h>

#include "vkg_xfer.h"

int vkg_host_register(vkg_device *dev, void *ptr, uint64_t bytes, uint64_t *handle, vkg_status *st)
{
	vkg_native n;
	cl_int err = CL_SUCCESS;
	cl_mem m;
	vkg_device_native(dev, &n);
	*handle = 0;
	m = clCreateBuffer(*(cl_context *)n.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, (size_t)bytes, ptr,
			   &err);
	if (!m)
		return vkg_fail(st, err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE
					    ? VKG_ERR_OUT_OF_MEMORY
					    : VKG_ERR_BACKEND,
				err, "OpenCL clCreateBuffer(CL_MEM_USE_HOST_PTR, %p, %llu) failed: %d", ptr,
				(unsigned long long)bytes, (int)err);
	*handle = (uint64_t)(uintptr_t)m;
	return VKG_OK;
}

void vkg_host_unregister(vkg_device *dev, void *ptr, uint64_t handle)
{
	(void)dev;
	(void)ptr;
	if (handle)
		clReleaseMemObject((cl_mem)(uintptr_t)handle);
}
