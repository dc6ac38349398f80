//go:build vulkan

/* The link-time backend guard of a Vulkan build; see backend_opencl.c. */
#include "hotpath.h"
#include "vkfftgo.h"

#if VKFFTGO_BACKEND != 0
#error "capi: backend_vulkan.c compiled with VKFFTGO_BACKEND != 0"
#endif

__attribute__((visibility("default"))) const int vkfftgo_library_backend_is_vulkan = 0;

const char *vkfftgo_backend_name(void) { return "vulkan"; }

/* the per-call entry point on the backend's own memory handles (see hotpath.c) */
struct VkBuffer_T;

vkfftgo_status vkfftgo_execute_vk(vkfftgo_plan *plan, int direction, struct VkBuffer_T *out, struct VkBuffer_T *in)
{
	return vkgc_run_native("vkfftgo_execute_vk", plan, direction, (vkg_mem)(uintptr_t)out, (vkg_mem)(uintptr_t)in,
			       NULL);
}
