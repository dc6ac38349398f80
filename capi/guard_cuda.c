//go:build cuda && !opencl

/* The link-time backend guard of a CUDA build; see guard_opencl.c. */
#include "vkfftgo.h"

#if VKFFTGO_BACKEND != 1
#error "capi: guard_cuda.c compiled with VKFFTGO_BACKEND != 1"
#endif

__attribute__((visibility("default"))) const int vkfftgo_library_backend_is_cuda = 1;

const char *vkfftgo_backend_name(void) { return "cuda"; }
