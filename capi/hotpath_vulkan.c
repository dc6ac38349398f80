//go:build vulkan && !opencl && !cuda

/* hotpath_vulkan.c — the per-call entry point on the caller's VkBuffers (see hotpath.c). */
#include "hotpath.h"

struct VkBuffer_T;

vkfftgo_status vkfftgo_execute_vk(vkfftgo_plan *plan, int direction, struct VkBuffer_T *out, struct VkBuffer_T *in)
{
	return vkgc_run_native("vkfftgo_execute_vk", plan, direction, (vkg_mem)(uintptr_t)out, (vkg_mem)(uintptr_t)in,
			       NULL);
}
