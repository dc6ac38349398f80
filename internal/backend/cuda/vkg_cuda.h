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

int vkg_cu_device_count(vkg_status *st);
int vkg_cu_device_query(int ordinal, vkg_device_info *info, vkg_status *st);
int vkg_cu_device_open(int ordinal, vkg_device **out, vkg_status *st);
void vkg_cu_device_close(vkg_device *dev);
const vkg_device_info *vkg_cu_device_get_info(const vkg_device *dev);
void vkg_cu_device_native(vkg_device *dev, vkg_native *out);
uint64_t vkg_cu_device_handle(const vkg_device *dev, int which);
int vkg_cu_ctx_enter(vkg_device *dev, vkg_status *st);
void vkg_cu_ctx_leave(vkg_device *dev);
int vkg_cu_mem_alloc(vkg_device *dev, uint64_t bytes, vkg_mem *out, vkg_status *st);
void vkg_cu_mem_free(vkg_device *dev, vkg_mem mem);
int vkg_cu_mem_write(vkg_device *dev, vkg_mem dst, uint64_t off, const void *src, uint64_t bytes, vkg_status *st);
int vkg_cu_mem_read(vkg_device *dev, void *dst, vkg_mem src, uint64_t off, uint64_t bytes, vkg_status *st);
int vkg_cu_mem_copy_on(vkg_device *dev, uint64_t queue, vkg_mem dst, vkg_mem src, uint64_t bytes, vkg_status *st);
int vkg_cu_device_sync(vkg_device *dev, vkg_status *st);
int vkg_cu_queue_sync(vkg_device *dev, uint64_t queue, vkg_status *st);
int vkg_cu_device_mem_info(vkg_device *dev, uint64_t *free_bytes, uint64_t *total_bytes, vkg_status *st);
int vkg_cu_mem_scale_on(vkg_device *dev, uint64_t queue, vkg_mem mem, uint64_t n, int double_precision, double factor, vkg_status *st);
void vkg_cu_runtime_libraries(const char **driver, const char **nvrtc, int *nvrtc_major, int *nvrtc_minor);
const char *vkg_cu_compiler_ident(void);
int vkg_cu_host_alloc(vkg_device *dev, uint64_t bytes, void **ptr, uint64_t *handle, vkg_status *st);
void vkg_cu_host_free(vkg_device *dev, void *ptr, uint64_t handle);
int vkg_cu_host_register(vkg_device *dev, void *ptr, uint64_t bytes, uint64_t *handle, vkg_status *st);
void vkg_cu_host_unregister(vkg_device *dev, void *ptr, uint64_t handle);
int vkg_cu_queue_create(vkg_device *dev, uint64_t *queue, vkg_status *st);
void vkg_cu_queue_destroy(vkg_device *dev, uint64_t queue);
int vkg_cu_mem_write_async(vkg_device *dev, uint64_t queue, vkg_mem dst, uint64_t off, const void *src, uint64_t bytes, vkg_status *st);
int vkg_cu_mem_read_async(vkg_device *dev, uint64_t queue, void *dst, vkg_mem src, uint64_t off, uint64_t bytes, vkg_status *st);
int vkg_cu_event_create(vkg_device *dev, uint64_t *ev, vkg_status *st);
void vkg_cu_event_destroy(vkg_device *dev, uint64_t ev);
int vkg_cu_event_record(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st);
int vkg_cu_queue_wait_event(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st);
int vkg_cu_event_sync(vkg_device *dev, uint64_t ev, vkg_status *st);
int vkg_cu_module_build(vkg_device *dev, const char *source, const void *binary, uint64_t binary_bytes, vkg_module **out, void **bin_out, uint64_t *bin_bytes, vkg_status *st);
void vkg_cu_module_destroy(vkg_module *m);
int vkg_cu_module_kernel(vkg_module *m, const char *name, vkg_kernel **out, vkg_status *st);
int vkg_cu_kernel_launch(vkg_device *dev, uint64_t queue, vkg_kernel *k, const uint64_t groups[2], uint32_t local, int nargs, const vkg_arg *args, vkg_status *st);

#endif
