/* vkg_cuda.h — the cuda backend's functions, which backend.c gathers into its vkg_backend
 * table (vkg_backend.h says what each does), and the table of loaded driver and NVRTC
 * functions every file here calls through. Private to this directory. */
#ifndef VKG_CUDA_H
#define VKG_CUDA_H

#include <cuda.h>
#include <nvrtc.h>

#include "vkg_backend.h"

/* filled by vkg_cuda_load.c; from here on cuInit & co. call through it */
#define VKG_CUDA_API vkg_cuda_fns
#include "vkg_cuda_api.h"
extern vkg_cuda_api vkg_cuda_fns;

/* Open libcuda.so.1 and resolve the driver functions (once; later calls return the first
 * result). 0 on success, else a message in err. */
int vkg_cuda_load_driver(char *err, size_t errlen);
/* Open NVRTC: $VKFFTGO_NVRTC if set (a path or a library name), else the newest of
 * libnvrtc.so.13, .12 and .11.2 found on the library path, in $CUDA_HOME/lib64 or in
 * /usr/local/cuda/lib64; it must be 11.2 or newer. Once, like the driver. */
int vkg_cuda_load_nvrtc(char *err, size_t errlen);
/* The files the functions came from ("" before loading). */
const char *vkg_cuda_driver_path(void);
const char *vkg_cuda_nvrtc_path(void);

/* Opens a device on an existing CUcontext and the caller's stream (0: the device makes
 * its own): the device's work runs on it, and closing the device neither destroys the
 * stream nor the context. */
int vkg_cu_device_open_ctx_stream(uint64_t ctx, uint64_t stream, vkg_device **out, vkg_status *st);

/* the table's required entries, each vkg_cu_<entry> with the entry's type */
#define VKG_CU_DECLARE(entry) VKG_BACKEND_DECLARE(vkg_cu, entry)
#define VKG_CU_SET(entry) VKG_BACKEND_SET(vkg_cu, entry)
VKG_BACKEND_REQUIRED(VKG_CU_DECLARE)

void vkg_cu_runtime_libraries(const char **driver, const char **nvrtc, int *nvrtc_major, int *nvrtc_minor);
const char *vkg_cu_compiler_ident(void);

#endif
