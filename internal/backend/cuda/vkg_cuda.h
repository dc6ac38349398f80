/* vkg_cuda.h — what the cuda backend offers beyond vkg.h: opening a device on a caller's
 * context, its native handles for interop, and which CUDA libraries it loaded. Handles
 * travel as integers so that Go code and this header need no CUDA types. Only the cuda
 * build includes it. */
#ifndef VKG_CUDA_H
#define VKG_CUDA_H

#include "vkg.h"

/* Opens a device on an existing CUcontext. The device neither retains nor destroys it:
 * the caller keeps it alive until vkg_device_close. */
int vkg_cuda_device_open_ctx(uint64_t ctx, vkg_device **out, vkg_status *st);
/* The same on the caller's stream (0: the device makes its own): the device's work runs on
 * it, and closing the device neither destroys the stream nor the context. */
int vkg_cuda_device_open_ctx_stream(uint64_t ctx, uint64_t stream, vkg_device **out, vkg_status *st);
uint64_t vkg_cuda_device_context(const vkg_device *dev); /* CUcontext */
uint64_t vkg_cuda_device_stream(const vkg_device *dev);  /* the device's own CUstream */
int vkg_cuda_device_ordinal(const vkg_device *dev);

/* The driver and NVRTC libraries opened at run time (vkg_cuda_load.c): their paths ("" if
 * not loaded yet) and NVRTC's version; 0 when NVRTC is not loaded. */
int vkg_cuda_libraries(const char **driver, const char **nvrtc, int *nvrtc_major, int *nvrtc_minor);

#endif
