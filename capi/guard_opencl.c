//go:build opencl || (!cuda && !vulkan)

/* The link-time backend guard of an OpenCL build: vkfftgo_config.h of an OpenCL
 * install makes every including file reference this symbol, so objects compiled for
 * another backend fail to link against this library (and vice versa). */
#include "vkfftgo.h"

#if VKFFTGO_BACKEND != 3
#error "capi: guard_opencl.c compiled with VKFFTGO_BACKEND != 3"
#endif

__attribute__((visibility("default"))) const int vkfftgo_library_backend_is_opencl = 3;

const char *vkfftgo_backend_name(void) { return "opencl"; }
