/* vkg_backend.c — the registered backend, and the forwarders through which the engine's
 * layers call it under stable names. In a forked child (vkg_fork.c) the forwarders that
 * open, enter, build or free something fail or return before reaching the backend, whose
 * driver threads and locks did not survive the fork. */
#include <stdio.h>
#include <string.h>

#include "vkg.h"
#include "vkg_xfer.h"

const vkg_backend *vkg_be;

int vkg_backend_register(const vkg_backend *be, char *err, size_t errlen)
{
	if (!be || be->version != VKG_BACKEND_VERSION) {
		snprintf(err, errlen, "backend table of version %u, the engine needs %u", be ? be->version : 0,
			 VKG_BACKEND_VERSION);
		return VKG_ERR_VERSION;
	}
	if (vkg_be) {
		snprintf(err, errlen, "a second backend (%s) registered beside %s: build with one backend tag",
			 be->name, vkg_be->name);
		return VKG_ERR_INVALID;
	}
	/* every entry the engine calls unconditionally */
#define VKG_REQUIRE(entry)                                                                          \
	if (!be->entry) {                                                                          \
		snprintf(err, errlen, "backend %s leaves the required entry %s of its table empty", be->name, \
			 #entry);                                                                  \
		return VKG_ERR_INVALID;                                                            \
	}
	VKG_BACKEND_REQUIRED(VKG_REQUIRE)
#undef VKG_REQUIRE
	vkg_be = be;
	return VKG_OK;
}

int vkg_backend_id(void) { return vkg_be ? vkg_be->id : -1; }
const char *vkg_backend_name(void) { return vkg_be ? vkg_be->name : "none"; }

static int no_backend(vkg_status *st)
{
	return vkg_fail(st, VKG_ERR_NO_DEVICE, 0, "no GPU backend is registered in this program");
}

int vkg_device_count(vkg_status *st)
{
	VKG_FORK_GUARD(st);
	return vkg_be ? vkg_be->device_count(st) : -no_backend(st);
}

int vkg_device_query(int ordinal, vkg_device_info *info, vkg_status *st)
{
	VKG_FORK_GUARD(st);
	return vkg_be ? vkg_be->device_query(ordinal, info, st) : no_backend(st);
}

int vkg_device_open(int ordinal, vkg_device **out, vkg_status *st)
{
	VKG_FORK_GUARD(st);
	/* a load-time constructor registers the fork handler; this covers a link that ran none */
	vkg_fork_watch();
	return vkg_be ? vkg_be->device_open(ordinal, out, st) : no_backend(st);
}

int vkg_device_open_native(int kind, const uint64_t handles[3], vkg_device **out, int *ordinal, vkg_status *st)
{
	VKG_FORK_GUARD(st);
	vkg_fork_watch();
	if (!vkg_be)
		return no_backend(st);
	if (!vkg_be->device_open_native)
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0, "the %s backend opens no foreign contexts", vkg_be->name);
	return vkg_be->device_open_native(kind, handles, out, ordinal, st);
}

void vkg_device_close(vkg_device *dev)
{
	VKG_FORK_GUARD_VOID();
	vkg_be->device_close(dev);
}
const vkg_device_info *vkg_device_get_info(const vkg_device *dev) { return vkg_be->device_info(dev); }
void vkg_device_native(vkg_device *dev, vkg_native *out) { vkg_be->device_native(dev, out); }
uint64_t vkg_device_handle(const vkg_device *dev, int which) { return vkg_be->device_handle(dev, which); }
int64_t vkg_device_stat(vkg_device *dev, int which) { return vkg_be->stat ? vkg_be->stat(dev, which) : -1; }
int vkg_ctx_enter(vkg_device *dev, vkg_status *st)
{
	VKG_FORK_GUARD(st);
	return vkg_be->ctx_enter(dev, st);
}
void vkg_ctx_leave(vkg_device *dev) { vkg_be->ctx_leave(dev); }

int vkg_device_mem_info(vkg_device *dev, uint64_t *free_bytes, uint64_t *total_bytes, vkg_status *st)
{
	return vkg_be->device_mem_info(dev, free_bytes, total_bytes, st);
}

int vkg_mem_alloc(vkg_device *dev, uint64_t bytes, vkg_mem *out, vkg_status *st)
{
	return vkg_be->mem_alloc(dev, bytes, out, st);
}

void vkg_mem_free(vkg_device *dev, vkg_mem mem) { vkg_be->mem_free(dev, mem); }

int vkg_mem_write(vkg_device *dev, vkg_mem dst, uint64_t off, const void *src, uint64_t bytes, vkg_status *st)
{
	return vkg_be->mem_write(dev, dst, off, src, bytes, st);
}

int vkg_mem_read(vkg_device *dev, void *dst, vkg_mem src, uint64_t off, uint64_t bytes, vkg_status *st)
{
	return vkg_be->mem_read(dev, dst, src, off, bytes, st);
}

int vkg_mem_copy_on(vkg_device *dev, uint64_t queue, vkg_mem dst, vkg_mem src, uint64_t bytes, vkg_status *st)
{
	return vkg_be->mem_copy_on(dev, queue, dst, src, bytes, st);
}

int vkg_mem_scale_on(vkg_device *dev, uint64_t queue, vkg_mem mem, uint64_t n, int double_precision, double factor,
		     vkg_status *st)
{
	return vkg_be->mem_scale_on(dev, queue, mem, n, double_precision, factor, st);
}

int vkg_device_sync(vkg_device *dev, vkg_status *st) { return vkg_be->device_sync(dev, st); }
int vkg_queue_sync(vkg_device *dev, uint64_t queue, vkg_status *st) { return vkg_be->queue_sync(dev, queue, st); }

uint64_t vkg_queue_native(vkg_device *dev, uint64_t queue)
{
	return vkg_be->queue_native ? vkg_be->queue_native(dev, queue) : queue;
}

int vkg_host_alloc(vkg_device *dev, uint64_t bytes, void **ptr, uint64_t *handle, vkg_status *st)
{
	return vkg_be->host_alloc(dev, bytes, ptr, handle, st);
}

void vkg_host_free(vkg_device *dev, void *ptr, uint64_t handle) { vkg_be->host_free(dev, ptr, handle); }

int vkg_host_register(vkg_device *dev, void *ptr, uint64_t bytes, uint64_t *handle, vkg_status *st)
{
	return vkg_be->host_register(dev, ptr, bytes, handle, st);
}

void vkg_host_unregister(vkg_device *dev, void *ptr, uint64_t handle) { vkg_be->host_unregister(dev, ptr, handle); }
int vkg_queue_create(vkg_device *dev, uint64_t *queue, vkg_status *st) { return vkg_be->queue_create(dev, queue, st); }
void vkg_queue_destroy(vkg_device *dev, uint64_t queue) { vkg_be->queue_destroy(dev, queue); }

int vkg_mem_write_async(vkg_device *dev, uint64_t queue, vkg_mem dst, uint64_t off, const void *src, uint64_t bytes,
			vkg_status *st)
{
	return vkg_be->mem_write_async(dev, queue, dst, off, src, bytes, st);
}

int vkg_mem_read_async(vkg_device *dev, uint64_t queue, void *dst, vkg_mem src, uint64_t off, uint64_t bytes,
		       vkg_status *st)
{
	return vkg_be->mem_read_async(dev, queue, dst, src, off, bytes, st);
}

int vkg_event_create(vkg_device *dev, uint64_t *ev, vkg_status *st) { return vkg_be->event_create(dev, ev, st); }
void vkg_event_destroy(vkg_device *dev, uint64_t ev) { vkg_be->event_destroy(dev, ev); }

int vkg_event_record(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st)
{
	return vkg_be->event_record(dev, queue, ev, st);
}

int vkg_queue_wait_event(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st)
{
	return vkg_be->queue_wait_event(dev, queue, ev, st);
}

int vkg_event_sync(vkg_device *dev, uint64_t ev, vkg_status *st) { return vkg_be->event_sync(dev, ev, st); }

int vkg_module_build(vkg_device *dev, const char *source, const void *binary, uint64_t binary_bytes, vkg_module **out,
		     void **bin_out, uint64_t *bin_bytes, vkg_status *st)
{
	VKG_FORK_GUARD(st);
	return vkg_be->module_build(dev, source, binary, binary_bytes, out, bin_out, bin_bytes, st);
}

void vkg_module_destroy(vkg_module *m)
{
	VKG_FORK_GUARD_VOID();
	vkg_be->module_destroy(m);
}

int vkg_module_kernel(vkg_module *m, const char *name, vkg_kernel **out, vkg_status *st)
{
	return vkg_be->module_kernel(m, name, out, st);
}

int vkg_kernel_launch(vkg_device *dev, uint64_t queue, vkg_kernel *k, const uint64_t groups[2], uint32_t local,
		      int nargs, const vkg_arg *args, vkg_status *st)
{
	return vkg_be->kernel_launch(dev, queue, k, groups, local, nargs, args, st);
}

void vkg_kernel_binding_limits(vkg_device *dev, uint64_t *max_bytes, uint64_t *align)
{
	const vkg_device_info *info = vkg_be->device_info(dev);
	*max_bytes = info->max_binding ? info->max_binding : UINT64_MAX;
	*align = info->binding_align ? info->binding_align : 1;
}

const char *vkg_compiler_ident(void)
{
	return vkg_be && vkg_be->compiler_ident ? vkg_be->compiler_ident() : "";
}

int vkg_runtime_libraries(const char **driver, const char **compiler, int *major, int *minor)
{
	*driver = *compiler = "";
	*major = *minor = 0;
	if (!vkg_be || !vkg_be->runtime_libraries)
		return 0;
	vkg_be->runtime_libraries(driver, compiler, major, minor);
	return 1;
}
