/* vkg_opencl.c — devices and memory through OpenCL (VKFFT_BACKEND 3). */
#define _GNU_SOURCE
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "vkg_opencl.h"

struct vkg_device {
	cl_platform_id platform;
	cl_device_id device;
	cl_context context;
	cl_command_queue queue;
	int ordinal; /* as vkg_ocl_device_open numbers devices; -1 unknown */
	vkg_device_info info;
	/* the normalisation kernel, built on first use; clSetKernelArg on a shared kernel is
	 * not thread-safe, hence the lock */
	pthread_mutex_t scale_mu;
	cl_program scale_prog;
	cl_kernel scale_f, scale_d;
};


static int cl_fail(vkg_status *st, cl_int err, const char *what)
{
	int code = VKG_ERR_BACKEND;
	if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ||
	    err == CL_OUT_OF_HOST_MEMORY || err == CL_INVALID_BUFFER_SIZE)
		code = VKG_ERR_OUT_OF_MEMORY;
	return vkg_fail(st, code, err, "OpenCL %s failed with error %d", what, err);
}

/* PoCL, the CPU device, runs work-groups on worker threads that it creates when its
 * devices are first queried, with the process's default thread stack, and keeps the
 * work-items' private values in arrays on that stack. vkg_plan_create keeps VkFFT's
 * work-groups within about 1.3 MiB of it; a host whose default stack is smaller than
 * that (ulimit -s) would still crash. So the first device query raises the default to
 * VKG_WORKER_STACK while the OpenCL implementations initialise their devices, then puts
 * it back. (An implementation the host initialised earlier keeps its threads as they are.) */
#define VKG_WORKER_STACK ((size_t)16 << 20)

static void init_platforms(void)
{
	cl_platform_id plats[32];
	cl_uint np = 0, i;
#ifdef __GLIBC__
	pthread_attr_t attr;
	size_t old = 0;
	int raised = 0;
	if (pthread_getattr_default_np(&attr) == 0) {
		if (pthread_attr_getstacksize(&attr, &old) == 0 && old < VKG_WORKER_STACK &&
		    pthread_attr_setstacksize(&attr, VKG_WORKER_STACK) == 0 && pthread_setattr_default_np(&attr) == 0)
			raised = 1;
		pthread_attr_destroy(&attr);
	}
#endif
	if (clGetPlatformIDs(32, plats, &np) == CL_SUCCESS)
		for (i = 0; i < np && i < 32; i++) {
			cl_uint nd = 0;
			clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
		}
#ifdef __GLIBC__
	if (raised && pthread_getattr_default_np(&attr) == 0) {
		if (pthread_attr_setstacksize(&attr, old) == 0)
			pthread_setattr_default_np(&attr);
		pthread_attr_destroy(&attr);
	}
#endif
}

static pthread_once_t platforms_once = PTHREAD_ONCE_INIT;

/* Finds the ordinal-th device across all platforms, in platform order. */
static int find_device(int ordinal, cl_platform_id *plat, cl_device_id *dev, int *count, vkg_status *st)
{
	cl_uint np = 0, i;
	cl_platform_id plats[32];
	int seen = 0;
	cl_int err;
	pthread_once(&platforms_once, init_platforms);
	err = clGetPlatformIDs(32, plats, &np);
	if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR: no ICD installed */ || np == 0)
		np = 0;
	else if (err != CL_SUCCESS)
		return cl_fail(st, err, "clGetPlatformIDs");
	for (i = 0; i < np && i < 32; i++) {
		cl_uint nd = 0;
		cl_device_id devs[64];
		if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS)
			continue;
		if (nd > 64)
			nd = 64;
		if (ordinal >= seen && ordinal < seen + (int)nd) {
			*plat = plats[i];
			*dev = devs[ordinal - seen];
			return VKG_OK;
		}
		seen += (int)nd;
	}
	if (count) {
		*count = seen;
		return VKG_OK;
	}
	if (seen == 0)
		return vkg_fail(st, VKG_ERR_NO_DEVICE, 0,
				"no OpenCL device found (install a GPU driver, or pocl-opencl-icd for the CPU)");
	return vkg_fail(st, VKG_ERR_NO_DEVICE, 0, "no OpenCL device %d: there are %d", ordinal, seen);
}

int vkg_ocl_device_count(vkg_status *st)
{
	cl_platform_id p;
	cl_device_id d;
	int n = 0;
	int rc = find_device(-1, &p, &d, &n, st);
	return rc ? -rc : n;
}

static void info_string(cl_device_id d, cl_device_info what, char *buf, size_t len)
{
	buf[0] = 0;
	clGetDeviceInfo(d, what, len - 1, buf, NULL);
	buf[len - 1] = 0;
}

static void fill_info(cl_platform_id p, cl_device_id d, vkg_device_info *info)
{
	cl_ulong mem = 0, maxalloc = 0;
	cl_uint vid = 0;
	char ext[8192];
	memset(info, 0, sizeof *info);
	info_string(d, CL_DEVICE_NAME, info->name, sizeof info->name);
	info_string(d, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor);
	info_string(d, CL_DRIVER_VERSION, info->driver, sizeof info->driver);
	clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof info->platform - 1, info->platform, NULL);
	clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
	clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxalloc, &maxalloc, NULL);
	clGetDeviceInfo(d, CL_DEVICE_VENDOR_ID, sizeof vid, &vid, NULL);
	info->global_mem = mem;
	info->max_alloc = maxalloc;
	info->vendor_id = vid;
	info_string(d, CL_DEVICE_EXTENSIONS, ext, sizeof ext);
	info->fp64 = strstr(ext, "cl_khr_fp64") != NULL;
	info->fp16 = strstr(ext, "cl_khr_fp16") != NULL; /* VkFFT's fp16 kernels declare half2 */
	{
		cl_ulong local = 0;
		clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
		info->local_mem = local;
	}
	{
		cl_device_type type = 0;
		clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
		info->host_memory = (type & CL_DEVICE_TYPE_CPU) != 0;
	}
	info->float_atomics = 1; /* the companion kernels add floats by compare-and-swap */
}

int vkg_ocl_device_query(int ordinal, vkg_device_info *info, vkg_status *st)
{
	cl_platform_id p;
	cl_device_id d;
	int rc = find_device(ordinal, &p, &d, NULL, st);
	if (rc)
		return rc;
	fill_info(p, d, info);
	return VKG_OK;
}

int vkg_ocl_device_open(int ordinal, vkg_device **out, vkg_status *st)
{
	cl_int err;
	vkg_device *dev;
	cl_context_properties props[3];
	int rc;

	*out = NULL;
	dev = calloc(1, sizeof *dev);
	if (!dev)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	rc = find_device(ordinal, &dev->platform, &dev->device, NULL, st);
	if (rc) {
		free(dev);
		return rc;
	}
	fill_info(dev->platform, dev->device, &dev->info);
	dev->ordinal = ordinal;
	props[0] = CL_CONTEXT_PLATFORM;
	props[1] = (cl_context_properties)dev->platform;
	props[2] = 0;
	dev->context = clCreateContext(props, 1, &dev->device, NULL, NULL, &err);
	if (!dev->context) {
		free(dev);
		return cl_fail(st, err, "clCreateContext");
	}
	/* in order: VkFFT's kernels and our copies rely on queue order */
	dev->queue = clCreateCommandQueue(dev->context, dev->device, 0, &err);
	if (!dev->queue) {
		clReleaseContext(dev->context);
		free(dev);
		return cl_fail(st, err, "clCreateCommandQueue");
	}
	pthread_mutex_init(&dev->scale_mu, NULL);
	*out = dev;
	return VKG_OK;
}

int vkg_ocl_device_open_ctx(uint64_t context, uint64_t device, uint64_t queue, vkg_device **out, int *ordinal,
			       vkg_status *st)
{
	cl_context ctx = (cl_context)(uintptr_t)context;
	cl_device_id devs[64], d = (cl_device_id)(uintptr_t)device;
	cl_uint nd = 0, i;
	cl_int err;
	vkg_device *dev;

	*out = NULL;
	*ordinal = -1;
	if (!ctx)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "the cl_context is NULL");
	pthread_once(&platforms_once, init_platforms);
	err = clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof nd, &nd, NULL);
	if (err != CL_SUCCESS)
		return cl_fail(st, err, "clGetContextInfo (is the cl_context valid?)");
	if (nd == 0 || nd > 64)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "the cl_context has %u devices", (unsigned)nd);
	err = clGetContextInfo(ctx, CL_CONTEXT_DEVICES, nd * sizeof devs[0], devs, NULL);
	if (err != CL_SUCCESS)
		return cl_fail(st, err, "clGetContextInfo(CL_CONTEXT_DEVICES)");
	if (!d)
		d = devs[0];
	for (i = 0; i < nd && devs[i] != d; i++)
		;
	if (i == nd)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "the cl_device_id is not a device of the cl_context");
	if (queue) {
		cl_command_queue q = (cl_command_queue)(uintptr_t)queue;
		cl_context qctx = NULL;
		cl_device_id qdev = NULL;
		cl_command_queue_properties props = 0;
		err = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL);
		if (err != CL_SUCCESS)
			return cl_fail(st, err, "clGetCommandQueueInfo (is the cl_command_queue valid?)");
		clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL);
		clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
		if (qctx != ctx || qdev != d)
			return vkg_fail(st, VKG_ERR_INVALID, 0,
					"the cl_command_queue belongs to another context or device than the ones given");
		if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
			return vkg_fail(st, VKG_ERR_INVALID, 0,
					"the cl_command_queue executes out of order; VkFFT's kernels and the copies "
					"around them need an in-order queue");
	}
	dev = calloc(1, sizeof *dev);
	if (!dev)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	dev->device = d;
	err = clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof dev->platform, &dev->platform, NULL);
	if (err != CL_SUCCESS) {
		free(dev);
		return cl_fail(st, err, "clGetDeviceInfo(CL_DEVICE_PLATFORM)");
	}
	fill_info(dev->platform, d, &dev->info);
	if (queue) {
		dev->queue = (cl_command_queue)(uintptr_t)queue;
		clRetainCommandQueue(dev->queue);
	} else {
		dev->queue = clCreateCommandQueue(ctx, d, 0, &err);
		if (!dev->queue) {
			free(dev);
			return cl_fail(st, err, "clCreateCommandQueue");
		}
	}
	/* vkg_ocl_device_close releases both: the caller's references stay its own */
	clRetainContext(ctx);
	dev->context = ctx;
	pthread_mutex_init(&dev->scale_mu, NULL);
	for (i = 0; i < 4096; i++) {
		cl_platform_id p;
		cl_device_id di;
		vkg_status ignore = { 0 };
		if (find_device((int)i, &p, &di, NULL, &ignore) != VKG_OK)
			break;
		if (di == d) {
			*ordinal = (int)i;
			break;
		}
	}
	dev->ordinal = *ordinal;
	*out = dev;
	return VKG_OK;
}

void vkg_ocl_device_close(vkg_device *dev)
{
	if (!dev)
		return;
	clFinish(dev->queue);
	if (dev->scale_f)
		clReleaseKernel(dev->scale_f);
	if (dev->scale_d)
		clReleaseKernel(dev->scale_d);
	if (dev->scale_prog)
		clReleaseProgram(dev->scale_prog);
	clReleaseCommandQueue(dev->queue);
	clReleaseContext(dev->context);
	pthread_mutex_destroy(&dev->scale_mu);
	free(dev);
}

const vkg_device_info *vkg_ocl_device_info(const vkg_device *dev) { return &dev->info; }

void vkg_ocl_device_native(vkg_device *dev, vkg_native *out)
{
	memset(out, 0, sizeof *out);
	out->device = &dev->device;
	out->context = &dev->context;
	out->queue = &dev->queue;
}

uint64_t vkg_ocl_device_handle(const vkg_device *dev, int which)
{
	switch (which) {
	case VKG_HANDLE_CONTEXT:
		return (uint64_t)(uintptr_t)dev->context;
	case VKG_HANDLE_QUEUE:
		return (uint64_t)(uintptr_t)dev->queue;
	case VKG_HANDLE_DEVICE:
		return (uint64_t)(uintptr_t)dev->device;
	case VKG_HANDLE_ORDINAL:
		return (uint64_t)(int64_t)dev->ordinal;
	}
	return 0;
}

int vkg_ocl_ctx_enter(vkg_device *dev, vkg_status *st)
{
	(void)dev;
	(void)st;
	return VKG_OK;
}

void vkg_ocl_ctx_leave(vkg_device *dev) { (void)dev; }

int vkg_ocl_mem_alloc(vkg_device *dev, uint64_t bytes, vkg_mem *out, vkg_status *st)
{
	cl_int err;
	cl_mem m;
	*out = 0;
	if (bytes == 0)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "zero-byte allocation");
	if (dev->info.max_alloc && bytes > dev->info.max_alloc)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0,
				"%llu bytes exceed the device's largest allocation (%llu bytes)",
				(unsigned long long)bytes, (unsigned long long)dev->info.max_alloc);
	m = clCreateBuffer(dev->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
	if (!m)
		return cl_fail(st, err, "clCreateBuffer");
	*out = (vkg_mem)(uintptr_t)m;
	return VKG_OK;
}

void vkg_ocl_mem_free(vkg_device *dev, vkg_mem mem)
{
	(void)dev;
	if (mem)
		clReleaseMemObject((cl_mem)(uintptr_t)mem);
}

int vkg_ocl_mem_write(vkg_device *dev, vkg_mem dst, uint64_t off, const void *src, uint64_t bytes,
		  vkg_status *st)
{
	cl_int err = clEnqueueWriteBuffer(dev->queue, (cl_mem)(uintptr_t)dst, CL_FALSE, off, bytes, src, 0,
					  NULL, NULL);
	return err == CL_SUCCESS ? VKG_OK : cl_fail(st, err, "clEnqueueWriteBuffer");
}

int vkg_ocl_mem_read(vkg_device *dev, void *dst, vkg_mem src, uint64_t off, uint64_t bytes, vkg_status *st)
{
	cl_int err = clEnqueueReadBuffer(dev->queue, (cl_mem)(uintptr_t)src, CL_TRUE, off, bytes, dst, 0,
					 NULL, NULL);
	return err == CL_SUCCESS ? VKG_OK : cl_fail(st, err, "clEnqueueReadBuffer");
}

/* a caller's queue (as an integer), or the device's own for 0 */
static cl_command_queue queue_of(vkg_device *dev, uint64_t queue)
{
	return queue ? (cl_command_queue)(uintptr_t)queue : dev->queue;
}

int vkg_ocl_mem_copy_on(vkg_device *dev, uint64_t queue, vkg_mem dst, vkg_mem src, uint64_t bytes,
		    vkg_status *st)
{
	cl_int err = clEnqueueCopyBuffer(queue_of(dev, queue), (cl_mem)(uintptr_t)src, (cl_mem)(uintptr_t)dst, 0, 0,
					 bytes, 0, NULL, NULL);
	return err == CL_SUCCESS ? VKG_OK : cl_fail(st, err, "clEnqueueCopyBuffer");
}

int vkg_ocl_device_sync(vkg_device *dev, vkg_status *st)
{
	return vkg_ocl_queue_sync(dev, 0, st);
}

int vkg_ocl_queue_sync(vkg_device *dev, uint64_t queue, vkg_status *st)
{
	cl_int err = clFinish(queue_of(dev, queue));
	return err == CL_SUCCESS ? VKG_OK : cl_fail(st, err, "clFinish");
}

int vkg_ocl_device_mem_info(vkg_device *dev, uint64_t *free_bytes, uint64_t *total_bytes, vkg_status *st)
{
	*free_bytes = 0;
	*total_bytes = dev->info.global_mem;
	return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0, "OpenCL does not report free device memory");
}

static const char scale_src_f[] =
	"__kernel void vkg_scale_f(__global float *a, float s, ulong n) {\n"
	"  size_t i = get_global_id(0); if (i < n) a[i] *= s; }\n";
static const char scale_src_d[] =
	"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
	"__kernel void vkg_scale_d(__global double *a, double s, ulong n) {\n"
	"  size_t i = get_global_id(0); if (i < n) a[i] *= s; }\n";

static int build_scale(vkg_device *dev, vkg_status *st)
{
	cl_int err;
	const char *srcs[2] = {scale_src_f, scale_src_d};
	cl_uint nsrc = dev->info.fp64 ? 2 : 1;
	dev->scale_prog = clCreateProgramWithSource(dev->context, nsrc, srcs, NULL, &err);
	if (!dev->scale_prog)
		return cl_fail(st, err, "clCreateProgramWithSource");
	err = clBuildProgram(dev->scale_prog, 1, &dev->device, "", NULL, NULL);
	if (err != CL_SUCCESS)
		goto fail;
	dev->scale_f = clCreateKernel(dev->scale_prog, "vkg_scale_f", &err);
	if (!dev->scale_f)
		goto fail;
	if (dev->info.fp64) {
		dev->scale_d = clCreateKernel(dev->scale_prog, "vkg_scale_d", &err);
		if (!dev->scale_d)
			goto fail;
	}
	return VKG_OK;
fail:
	if (dev->scale_f)
		clReleaseKernel(dev->scale_f);
	dev->scale_f = NULL;
	clReleaseProgram(dev->scale_prog);
	dev->scale_prog = NULL;
	return cl_fail(st, err, "building the normalisation kernel");
}

int vkg_ocl_mem_scale_on(vkg_device *dev, uint64_t queue, vkg_mem mem, uint64_t n, int double_precision,
		     double factor, vkg_status *st)
{
	cl_int err;
	cl_mem m = (cl_mem)(uintptr_t)mem;
	cl_ulong cn = n;
	size_t local = 64, global = (size_t)((n + local - 1) / local * local);
	cl_kernel k;
	int rc = VKG_OK;

	pthread_mutex_lock(&dev->scale_mu);
	if (!dev->scale_prog && (rc = build_scale(dev, st)) != VKG_OK)
		goto out;
	if (double_precision && !dev->scale_d) {
		rc = vkg_fail(st, VKG_ERR_UNSUPPORTED, 0, "the device has no double precision (cl_khr_fp64)");
		goto out;
	}
	k = double_precision ? dev->scale_d : dev->scale_f;
	err = clSetKernelArg(k, 0, sizeof m, &m);
	if (double_precision) {
		cl_double s = factor;
		err |= clSetKernelArg(k, 1, sizeof s, &s);
	} else {
		cl_float s = (cl_float)factor;
		err |= clSetKernelArg(k, 1, sizeof s, &s);
	}
	err |= clSetKernelArg(k, 2, sizeof cn, &cn);
	if (err == CL_SUCCESS)
		err = clEnqueueNDRangeKernel(queue_of(dev, queue), k, 1, NULL, &global, &local, 0, NULL, NULL);
	if (err != CL_SUCCESS)
		rc = cl_fail(st, err, "scaling the output");
out:
	pthread_mutex_unlock(&dev->scale_mu);
	return rc;
}

/* ---- transfer primitives (vkg_xfer.h) ---- */

/* Pinned host memory is a buffer the implementation allocates in host memory, mapped for
 * the host once; the mapping stays valid until vkg_ocl_host_free. */
int vkg_ocl_host_alloc(vkg_device *dev, uint64_t bytes, void **ptr, uint64_t *handle, vkg_status *st)
{
	cl_int err;
	cl_mem m = clCreateBuffer(dev->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
	*ptr = NULL;
	*handle = 0;
	if (!m)
		return cl_fail(st, err, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)");
	*ptr = clEnqueueMapBuffer(dev->queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL,
				  NULL, &err);
	if (!*ptr) {
		clReleaseMemObject(m);
		return cl_fail(st, err, "clEnqueueMapBuffer");
	}
	*handle = (uint64_t)(uintptr_t)m;
	return VKG_OK;
}

void vkg_ocl_host_free(vkg_device *dev, void *ptr, uint64_t handle)
{
	cl_mem m = (cl_mem)(uintptr_t)handle;
	if (!m)
		return;
	clEnqueueUnmapMemObject(dev->queue, m, ptr, 0, NULL, NULL);
	clFinish(dev->queue);
	clReleaseMemObject(m);
}

/* Memory of the caller's becomes a buffer's backing store: transfers from it need no
 * staging copy where the implementation pins it. */
int vkg_ocl_host_register(vkg_device *dev, void *ptr, uint64_t bytes, uint64_t *handle, vkg_status *st)
{
	cl_int err;
	cl_mem m = clCreateBuffer(dev->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, ptr, &err);
	*handle = 0;
	if (!m)
		return cl_fail(st, err, "clCreateBuffer(CL_MEM_USE_HOST_PTR)");
	*handle = (uint64_t)(uintptr_t)m;
	return VKG_OK;
}

void vkg_ocl_host_unregister(vkg_device *dev, void *ptr, uint64_t handle)
{
	(void)ptr;
	if (!handle)
		return;
	clFinish(dev->queue);
	clReleaseMemObject((cl_mem)(uintptr_t)handle);
}

int vkg_ocl_queue_create(vkg_device *dev, uint64_t *queue, vkg_status *st)
{
	cl_int err;
	cl_command_queue q = clCreateCommandQueue(dev->context, dev->device, 0, &err);
	*queue = 0;
	if (!q)
		return cl_fail(st, err, "clCreateCommandQueue");
	*queue = (uint64_t)(uintptr_t)q;
	return VKG_OK;
}

void vkg_ocl_queue_destroy(vkg_device *dev, uint64_t queue)
{
	(void)dev;
	if (queue) {
		clFinish((cl_command_queue)(uintptr_t)queue);
		clReleaseCommandQueue((cl_command_queue)(uintptr_t)queue);
	}
}

int vkg_ocl_mem_write_async(vkg_device *dev, uint64_t queue, vkg_mem dst, uint64_t off, const void *src,
			uint64_t bytes, vkg_status *st)
{
	cl_int err = clEnqueueWriteBuffer(queue_of(dev, queue), (cl_mem)(uintptr_t)dst, CL_FALSE, off, bytes,
					  src, 0, NULL, NULL);
	return err == CL_SUCCESS ? VKG_OK : cl_fail(st, err, "clEnqueueWriteBuffer");
}

int vkg_ocl_mem_read_async(vkg_device *dev, uint64_t queue, void *dst, vkg_mem src, uint64_t off,
		       uint64_t bytes, vkg_status *st)
{
	cl_int err = clEnqueueReadBuffer(queue_of(dev, queue), (cl_mem)(uintptr_t)src, CL_FALSE, off, bytes,
					 dst, 0, NULL, NULL);
	return err == CL_SUCCESS ? VKG_OK : cl_fail(st, err, "clEnqueueReadBuffer");
}

/* An OpenCL event is created by the command it marks, so ours holds the latest one. */
typedef struct cl_marker {
	cl_event e;
} cl_marker;

int vkg_ocl_event_create(vkg_device *dev, uint64_t *ev, vkg_status *st)
{
	cl_marker *m = calloc(1, sizeof *m);
	(void)dev;
	*ev = (uint64_t)(uintptr_t)m;
	return m ? VKG_OK : vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
}

void vkg_ocl_event_destroy(vkg_device *dev, uint64_t ev)
{
	cl_marker *m = (cl_marker *)(uintptr_t)ev;
	(void)dev;
	if (!m)
		return;
	if (m->e)
		clReleaseEvent(m->e);
	free(m);
}

int vkg_ocl_event_record(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st)
{
	cl_marker *m = (cl_marker *)(uintptr_t)ev;
	cl_event e;
	cl_int err = clEnqueueMarkerWithWaitList(queue_of(dev, queue), 0, NULL, &e);
	if (err != CL_SUCCESS)
		return cl_fail(st, err, "clEnqueueMarkerWithWaitList");
	if (m->e)
		clReleaseEvent(m->e);
	m->e = e;
	/* markers on a queue nobody waits on may never be submitted: push it */
	clFlush(queue_of(dev, queue));
	return VKG_OK;
}

int vkg_ocl_queue_wait_event(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st)
{
	cl_marker *m = (cl_marker *)(uintptr_t)ev;
	cl_int err;
	if (!m->e)
		return VKG_OK;
	err = clEnqueueBarrierWithWaitList(queue_of(dev, queue), 1, &m->e, NULL);
	return err == CL_SUCCESS ? VKG_OK : cl_fail(st, err, "clEnqueueBarrierWithWaitList");
}

int vkg_ocl_event_sync(vkg_device *dev, uint64_t ev, vkg_status *st)
{
	cl_marker *m = (cl_marker *)(uintptr_t)ev;
	cl_int err;
	(void)dev;
	if (!m->e)
		return VKG_OK;
	err = clWaitForEvents(1, &m->e);
	return err == CL_SUCCESS ? VKG_OK : cl_fail(st, err, "clWaitForEvents");
}
