/* backend.c — the cuda backend's table (VKFFT_BACKEND 1). */
#include "vkg_cuda.h"

static int open_native(int kind, const uint64_t handles[3], vkg_device **out, int *ordinal, vkg_status *st)
{
	int rc;
	if (kind != VKG_NATIVE_CUDA)
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0, "the cuda backend opens CUDA contexts only");
	rc = vkg_cu_device_open_ctx_stream(handles[0], handles[1], out, st);
	*ordinal = rc == VKG_OK ? (int)(int64_t)vkg_cu_device_handle(*out, VKG_HANDLE_ORDINAL) : -1;
	return rc;
}

static const vkg_backend table = {
	.version = VKG_BACKEND_VERSION,
	.id = 1,
	.name = "cuda",
	.device_count = vkg_cu_device_count,
	.device_query = vkg_cu_device_query,
	.device_open = vkg_cu_device_open,
	.device_open_native = open_native,
	.device_close = vkg_cu_device_close,
	.device_info = vkg_cu_device_get_info,
	.device_native = vkg_cu_device_native,
	.device_handle = vkg_cu_device_handle,
	.device_mem_info = vkg_cu_device_mem_info,
	.ctx_enter = vkg_cu_ctx_enter,
	.ctx_leave = vkg_cu_ctx_leave,
	.mem_alloc = vkg_cu_mem_alloc,
	.mem_free = vkg_cu_mem_free,
	.mem_write = vkg_cu_mem_write,
	.mem_read = vkg_cu_mem_read,
	.mem_copy_on = vkg_cu_mem_copy_on,
	.mem_scale_on = vkg_cu_mem_scale_on,
	.device_sync = vkg_cu_device_sync,
	.queue_sync = vkg_cu_queue_sync,
	.host_alloc = vkg_cu_host_alloc,
	.host_free = vkg_cu_host_free,
	.host_register = vkg_cu_host_register,
	.host_unregister = vkg_cu_host_unregister,
	.queue_create = vkg_cu_queue_create,
	.queue_destroy = vkg_cu_queue_destroy,
	.mem_write_async = vkg_cu_mem_write_async,
	.mem_read_async = vkg_cu_mem_read_async,
	.event_create = vkg_cu_event_create,
	.event_destroy = vkg_cu_event_destroy,
	.event_record = vkg_cu_event_record,
	.queue_wait_event = vkg_cu_queue_wait_event,
	.event_sync = vkg_cu_event_sync,
	.module_build = vkg_cu_module_build,
	.module_destroy = vkg_cu_module_destroy,
	.module_kernel = vkg_cu_module_kernel,
	.kernel_launch = vkg_cu_kernel_launch,
	.compiler_ident = vkg_cu_compiler_ident,
	.runtime_libraries = vkg_cu_runtime_libraries,
};

const vkg_backend *vkg_cuda_backend(void) { return &table; }
