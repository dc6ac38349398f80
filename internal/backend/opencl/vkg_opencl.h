/* vkg_opencl.h — the OpenCL backend's functions, which backend.c gathers into its
 * vkg_backend table (vkg_backend.h says what each does). Private to this directory. */
#ifndef VKG_OPENCL_H
#define VKG_OPENCL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include "vkg_backend.h"

/* Opens a device on an existing cl_context, cl_device_id (0: the context's first device)
 * and in-order cl_command_queue (0: the device makes its own), all as integers. The
 * context and queue are retained, and released (not destroyed) by vkg_ocl_device_close;
 * the caller keeps its own references. *ordinal gets the device's index across
 * platforms (as vkg_ocl_device_open numbers them), or -1. */
int vkg_ocl_device_open_ctx(uint64_t context, uint64_t device, uint64_t queue, vkg_device **out, int *ordinal, vkg_status *st);

int vkg_ocl_module_build(vkg_device *dev, const char *source, const void *binary, uint64_t binary_bytes, vkg_module **out, void **bin_out, uint64_t *bin_bytes, vkg_status *st);
void vkg_ocl_module_destroy(vkg_module *m);
int vkg_ocl_module_kernel(vkg_module *m, const char *name, vkg_kernel **out, vkg_status *st);
int vkg_ocl_kernel_launch(vkg_device *dev, uint64_t queue, vkg_kernel *k, const uint64_t groups[2], uint32_t local, int nargs, const vkg_arg *args, vkg_status *st);
int vkg_ocl_device_count(vkg_status *st);
int vkg_ocl_device_query(int ordinal, vkg_device_info *info, vkg_status *st);
int vkg_ocl_device_open(int ordinal, vkg_device **out, vkg_status *st);
void vkg_ocl_device_close(vkg_device *dev);
const vkg_device_info *vkg_ocl_device_get_info(const vkg_device *dev);
void vkg_ocl_device_native(vkg_device *dev, vkg_native *out);
uint64_t vkg_ocl_device_handle(const vkg_device *dev, int which);
int vkg_ocl_ctx_enter(vkg_device *dev, vkg_status *st);
void vkg_ocl_ctx_leave(vkg_device *dev);
int vkg_ocl_mem_alloc(vkg_device *dev, uint64_t bytes, vkg_mem *out, vkg_status *st);
void vkg_ocl_mem_free(vkg_device *dev, vkg_mem mem);
int vkg_ocl_mem_write(vkg_device *dev, vkg_mem dst, uint64_t off, const void *src, uint64_t bytes, vkg_status *st);
int vkg_ocl_mem_read(vkg_device *dev, void *dst, vkg_mem src, uint64_t off, uint64_t bytes, vkg_status *st);
int vkg_ocl_mem_copy_on(vkg_device *dev, uint64_t queue, vkg_mem dst, vkg_mem src, uint64_t bytes, vkg_status *st);
int vkg_ocl_device_sync(vkg_device *dev, vkg_status *st);
int vkg_ocl_queue_sync(vkg_device *dev, uint64_t queue, vkg_status *st);
int vkg_ocl_device_mem_info(vkg_device *dev, uint64_t *free_bytes, uint64_t *total_bytes, vkg_status *st);
int vkg_ocl_mem_scale_on(vkg_device *dev, uint64_t queue, vkg_mem mem, uint64_t n, int double_precision, double factor, vkg_status *st);
int vkg_ocl_host_alloc(vkg_device *dev, uint64_t bytes, void **ptr, uint64_t *handle, vkg_status *st);
void vkg_ocl_host_free(vkg_device *dev, void *ptr, uint64_t handle);
int vkg_ocl_host_register(vkg_device *dev, void *ptr, uint64_t bytes, uint64_t *handle, vkg_status *st);
void vkg_ocl_host_unregister(vkg_device *dev, void *ptr, uint64_t handle);
int vkg_ocl_queue_create(vkg_device *dev, uint64_t *queue, vkg_status *st);
void vkg_ocl_queue_destroy(vkg_device *dev, uint64_t queue);
int vkg_ocl_mem_write_async(vkg_device *dev, uint64_t queue, vkg_mem dst, uint64_t off, const void *src, uint64_t bytes, vkg_status *st);
int vkg_ocl_mem_read_async(vkg_device *dev, uint64_t queue, void *dst, vkg_mem src, uint64_t off, uint64_t bytes, vkg_status *st);
int vkg_ocl_event_create(vkg_device *dev, uint64_t *ev, vkg_status *st);
void vkg_ocl_event_destroy(vkg_device *dev, uint64_t ev);
int vkg_ocl_event_record(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st);
int vkg_ocl_queue_wait_event(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st);
int vkg_ocl_event_sync(vkg_device *dev, uint64_t ev, vkg_status *st);

#endif
