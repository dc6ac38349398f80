//go:build !cuda && !vulkan

/* The link-time backend guard of an OpenCL build: vkfftgo_config.h of an OpenCL
 * install makes every including file reference this symbol, so objects compiled for
 * another backend fail to link against this library (and vice versa). */
#include "hotpath.h"
#include "vkfftgo.h"

#if VKFFTGO_BACKEND != 3
#error "capi: backend_opencl.c compiled with VKFFTGO_BACKEND != 3"
#endif

__attribute__((visibility("default"))) const int vkfftgo_library_backend_is_opencl = 3;

const char *vkfftgo_backend_name(void) { return "opencl"; }

/* the per-call entry point on the backend's own memory handles (see hotpath.c) */
vkfftgo_status vkfftgo_execute_cl(vkfftgo_plan *plan, int direction, struct _cl_mem *out, struct _cl_mem *in)
{
	return vkgc_run_native("vkfftgo_execute_cl", plan, direction, (vkg_mem)(uintptr_t)out, (vkg_mem)(uintptr_t)in,
			       NULL);
}
