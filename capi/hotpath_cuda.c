//go:build cuda && !opencl

/* hotpath_cuda.c — the per-call entry point on CUDA memory (see hotpath.c). */
#include "hotpath.h"

vkfftgo_status vkfftgo_execute_cu(vkfftgo_plan *plan, int direction, uint64_t out, uint64_t in)
{
	return vkgc_run_native("vkfftgo_execute_cu", plan, direction, (vkg_mem)out, (vkg_mem)in, "device pointer");
}
