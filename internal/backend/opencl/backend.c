/* backend.c — the OpenCL backend's table (VKFFT_BACKEND 3). */
#include "vkg_opencl.h"

static int open_native(int kind, const uint64_t handles[3], vkg_device **out, int *ordinal, vkg_status *st)
{
	if (kind != VKG_NATIVE_OPENCL)
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0, "the opencl backend opens OpenCL contexts only");
	return vkg_ocl_device_open_ctx(handles[0], handles[1], handles[2], out, ordinal, st);
}

static const vkg_backend table = {
	.version = VKG_BACKEND_VERSION,
	.id = 3,
	.name = "opencl",
	.device_count = vkg_ocl_device_count,
	.device_query = vkg_ocl_device_query,
	.device_open = vkg_ocl_device_open,
	.device_open_native = open_native,
	.device_close = vkg_ocl_device_close,
	.device_info = vkg_ocl_device_get_info,
	.device_native = vkg_ocl_device_native,
	.device_handle = vkg_ocl_device_handle,
	.device_mem_info = vkg_ocl_device_mem_info,
	.ctx_enter = vkg_ocl_ctx_enter,
	.ctx_leave = vkg_ocl_ctx_leave,
	.mem_alloc = vkg_ocl_mem_alloc,
	.mem_free = vkg_ocl_mem_free,
	.mem_write = vkg_ocl_mem_write,
	.mem_read = vkg_ocl_mem_read,
	.mem_copy_on = vkg_ocl_mem_copy_on,
	.mem_scale_on = vkg_ocl_mem_scale_on,
	.device_sync = vkg_ocl_device_sync,
	.queue_sync = vkg_ocl_queue_sync,
	.host_alloc = vkg_ocl_host_alloc,
	.host_free = vkg_ocl_host_free,
	.host_register = vkg_ocl_host_register,
	.host_unregister = vkg_ocl_host_unregister,
	.queue_create = vkg_ocl_queue_create,
	.queue_destroy = vkg_ocl_queue_destroy,
	.mem_write_async = vkg_ocl_mem_write_async,
	.mem_read_async = vkg_ocl_mem_read_async,
	.event_create = vkg_ocl_event_create,
	.event_destroy = vkg_ocl_event_destroy,
	.event_record = vkg_ocl_event_record,
	.queue_wait_event = vkg_ocl_queue_wait_event,
	.event_sync = vkg_ocl_event_sync,
	.module_build = vkg_ocl_module_build,
	.module_destroy = vkg_ocl_module_destroy,
	.module_kernel = vkg_ocl_module_kernel,
	.kernel_launch = vkg_ocl_kernel_launch,
};

const vkg_backend *vkg_opencl_backend(void) { return &table; }
