//go:build cuda

/* The link-time backend guard of a CUDA build; see backend_opencl.c. */
#include "hotpath.h"
#include "vkfftgo.h"

#if VKFFTGO_BACKEND != 1
#error "capi: backend_cuda.c compiled with VKFFTGO_BACKEND != 1"
#endif

__attribute__((visibility("default"))) const int vkfftgo_library_backend_is_cuda = 1;

const char *vkfftgo_backend_name(void) { return "cuda"; }

/* the per-call entry point on the backend's own memory handles (see hotpath.c) */
vkfftgo_status vkfftgo_execute_cu(vkfftgo_plan *plan, int direction, uint64_t out, uint64_t in)
{
	return vkgc_run_native("vkfftgo_execute_cu", plan, direction, (vkg_mem)out, (vkg_mem)in, "device pointer");
}
