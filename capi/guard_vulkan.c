//go:build vulkan && !opencl && !cuda

/* The link-time backend guard of a Vulkan build; see guard_opencl.c. */
#include "vkfftgo.h"

#if VKFFTGO_BACKEND != 0
#error "capi: guard_vulkan.c compiled with VKFFTGO_BACKEND != 0"
#endif

__attribute__((visibility("default"))) const int vkfftgo_library_backend_is_vulkan = 0;

const char *vkfftgo_backend_name(void) { return "vulkan"; }
