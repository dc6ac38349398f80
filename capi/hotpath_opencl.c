//go:build opencl || (!cuda && !vulkan)

/* hotpath_opencl.c — the per-call entry point on OpenCL memory (see hotpath.c). */
#include "hotpath.h"

vkfftgo_status vkfftgo_execute_cl(vkfftgo_plan *plan, int direction, struct _cl_mem *out, struct _cl_mem *in)
{
	return vkgc_run_native("vkfftgo_execute_cl", plan, direction, (vkg_mem)(uintptr_t)out, (vkg_mem)(uintptr_t)in,
			       NULL);
}
