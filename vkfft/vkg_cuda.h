/* vkg_cuda.h — what the cuda backend offers beyond vkg.h: opening a device on a caller's
 * context, its native handles for interop, and hooks the tests use to play a C host that
 * has its own context current. Handles travel as integers so that Go code and this
 * header need no CUDA types. Only the cuda build includes it. */
#ifndef VKG_CUDA_H
#define VKG_CUDA_H

#include "vkg.h"

/* Opens a device on an existing CUcontext. The device neither retains nor destroys it:
 * the caller keeps it alive until vkg_device_close. */
int vkg_cuda_device_open_ctx(uint64_t ctx, vkg_device **out, vkg_status *st);
uint64_t vkg_cuda_device_context(const vkg_device *dev); /* CUcontext */
uint64_t vkg_cuda_device_stream(const vkg_device *dev);  /* the device's own CUstream */
int vkg_cuda_device_ordinal(const vkg_device *dev);

/* test hooks: a separate (non-primary) context, and the calling thread's current one */
int vkg_cuda_ctx_create(int ordinal, uint64_t *ctx, vkg_status *st);
void vkg_cuda_ctx_destroy(uint64_t ctx);
uint64_t vkg_cuda_ctx_current(void);
int vkg_cuda_ctx_set_current(uint64_t ctx);

#endif
