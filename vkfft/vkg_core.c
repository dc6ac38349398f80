/* vkg_core.c — the one translation unit that includes vkFFT.h.
 *
 * It turns a vkg_plan_params into a heap-allocated VkFFTApplication bound to buffers the
 * Go side allocated, and runs it. Everything VkFFT keeps a pointer to (sizes, buffer
 * handles, queue) lives in the vkg_plan or the vkg_device, both C memory that outlives
 * the application.
 */
#define _GNU_SOURCE
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkg.h"
#include "vkg_xfer.h"

#if VKFFT_BACKEND == 3
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
typedef cl_mem vkg_native_mem;
#elif VKFFT_BACKEND == 1
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>
typedef void *vkg_native_mem;
#elif VKFFT_BACKEND == 0
#include "vkg_vulkan.h"
typedef VkBuffer vkg_native_mem;
/* VkFFT submits its table uploads itself: through the queue's lock (VkQueue is
 * externally synchronised, and other threads submit to the same queue) */
#define vkQueueSubmit vkg_vk_queue_submit
#else
#error "vkfftgo: unsupported VKFFT_BACKEND (the build tag picks 3 for opencl, 1 for cuda, 0 for vulkan)"
#endif

/* VkFFT reports problems (and whole kernel sources when a compile fails) with printf.
 * Route that text into the calling thread's capture buffer, which the entry point copies
 * into its vkg_status, instead of the host program's stdout. */
static __thread char vkg_log[VKG_MSG_LEN];
static __thread size_t vkg_log_len;

static int vkg_capture_printf(const char *fmt, ...)
{
	va_list ap;
	int n;
	if (vkg_log_len + 1 >= sizeof vkg_log)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(vkg_log + vkg_log_len, sizeof vkg_log - vkg_log_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		vkg_log_len += (size_t)n < sizeof vkg_log - vkg_log_len ? (size_t)n : sizeof vkg_log - vkg_log_len - 1;
	return n;
}
#define printf vkg_capture_printf

#if defined(__has_include)
#if !__has_include(<vkFFT.h>)
#error "VkFFT headers not found: run 'make vendor' (or install libvkfft-dev >= 1.3.4)"
#endif
#endif
#include <vkFFT.h>
#undef printf
#undef vkQueueSubmit

#define VKG_MIN_VKFFT_VERSION 10304

struct vkg_plan {
	vkg_device *dev;
	VkFFTApplication *app;
	vkg_plan_params params;
	/* VkFFT reads these through pointers at every launch */
	pfUINT buffer_size, real_size;
	vkg_native_mem buffer, real;               /* the plan's own */
	vkg_native_mem launch_buffer, launch_real; /* the ones the next launch uses */
	uint64_t complex_count, real_count;        /* elements, all batches */
	vkg_native native;
	/* the queue the next launch uses: VkFFT reads it through a pointer at every launch
	 * (CUDA: config.stream, fixed per application in 1.3.4, so it points here) */
#if VKFFT_BACKEND == 1
	cudaStream_t launch_queue;
#elif VKFFT_BACKEND == 0
	struct vkg_vk_plan *vk; /* recorded command buffers (vkg_core_vulkan.h) */
#else
	cl_command_queue launch_queue;
#endif
};

static void vkg_log_reset(void)
{
	vkg_log_len = 0;
	vkg_log[0] = 0;
}

static int vkg_vkfft_fail(vkg_status *st, VkFFTResult r, const char *what)
{
	int code = VKG_ERR_VKFFT;
	switch (r) {
	case VKFFT_ERROR_MALLOC_FAILED:
	case VKFFT_ERROR_FAILED_TO_ALLOCATE:
		code = VKG_ERR_OUT_OF_MEMORY;
		break;
	case VKFFT_ERROR_UNSUPPORTED_RADIX:
	case VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH:
	case VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C:
	case VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2R:
	case VKFFT_ERROR_UNSUPPORTED_FFT_OMIT:
		code = VKG_ERR_UNSUPPORTED;
		break;
	default:
		break;
	}
	if (vkg_log_len)
		return vkg_fail(st, code, (int)r, "%s: %s (%d); VkFFT said: %s", what, getVkFFTErrorString(r),
				(int)r, vkg_log);
	return vkg_fail(st, code, (int)r, "%s: %s (%d)", what, getVkFFTErrorString(r), (int)r);
}

int vkg_vkfft_version(void)
{
	return VkFFTGetVersion();
}

static vkg_native_mem native_mem(vkg_mem m)
{
	return (vkg_native_mem)(uintptr_t)m;
}

#if VKFFT_BACKEND == 0
#include "vkg_core_vulkan.h"
#endif

int vkg_plan_create(vkg_device *dev, const vkg_plan_params *p, vkg_plan **out, vkg_status *st)
{
	VkFFTConfiguration c = VKFFT_ZERO_INIT;
	vkg_plan *plan;
	VkFFTResult r;
	locale_t cloc, old;
	uint64_t outer = 1;
	int i, rc;

	*out = NULL;
	if (VkFFTGetVersion() < VKG_MIN_VKFFT_VERSION)
		return vkg_fail(st, VKG_ERR_VERSION, 0, "VkFFT %d.%d.%d is too old: vkfftgo needs 1.3.4 or newer",
				VkFFTGetVersion() / 10000, VkFFTGetVersion() / 100 % 100, VkFFTGetVersion() % 100);
	if (p->rank < 1 || p->rank > 3)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "rank %d: must be 1, 2 or 3", p->rank);
	plan = calloc(1, sizeof *plan);
	if (!plan)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	/* initializeVkFFT rejects an application that is not zeroed */
	plan->app = calloc(1, sizeof *plan->app);
	if (!plan->app) {
		free(plan);
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	}
	plan->dev = dev;
	plan->params = *p;
	plan->params.load_blob = NULL;
	vkg_device_native(dev, &plan->native);

	for (i = 0; i < p->rank - 1; i++)
		outer *= p->shape[i];
	if (p->kind == VKG_R2C) {
		plan->real_count = p->batch * outer * p->shape[p->rank - 1];
		plan->complex_count = p->batch * outer * (p->shape[p->rank - 1] / 2 + 1);
	} else {
		plan->complex_count = p->batch * outer * p->shape[p->rank - 1];
	}

	c.FFTdim = (pfUINT)p->rank;
	for (i = 0; i < p->rank; i++)
		c.size[i] = p->shape[p->rank - 1 - i]; /* VkFFT counts axes from the fastest */
	c.numberBatches = p->batch;
	c.doublePrecision = p->double_precision ? 1 : 0;
	c.normalize = p->normalize ? 1 : 0;
	c.useLUT = p->use_lut;
	c.disableSetLocale = 1; /* we set the C locale ourselves, per thread */
	if (p->coalesced_memory)
		c.coalescedMemory = p->coalesced_memory;
	if (p->aim_threads)
		c.aimThreads = p->aim_threads;
	if (p->register_boost) {
		c.registerBoost = p->register_boost;
		c.registerBoost4Step = p->register_boost;
	}

	plan->buffer = native_mem(p->buffer);
	plan->buffer_size = p->buffer_bytes;
	plan->launch_buffer = plan->buffer;
	c.buffer = &plan->buffer;
	c.bufferSize = &plan->buffer_size;
	if (p->buffer_bytes >= (1ull << 31) || p->real_bytes >= (1ull << 31))
		c.useUint64 = 1;
	if (p->kind == VKG_R2C) {
		/* numpy layout, out of place: real data in inputBuffer, half spectrum in buffer */
		plan->real = native_mem(p->real_buffer);
		plan->real_size = p->real_bytes;
		plan->launch_real = plan->real;
		c.performR2C = 1;
		c.isInputFormatted = 1;
		c.inverseReturnToInputBuffer = 1;
		c.inputBuffer = &plan->real;
		c.inputBufferSize = &plan->real_size;
	}
#if VKFFT_BACKEND == 3
	c.device = (cl_device_id *)plan->native.device;
	c.context = (cl_context *)plan->native.context;
	c.commandQueue = (cl_command_queue *)plan->native.queue;
#elif VKFFT_BACKEND == 1
	c.device = (CUdevice *)plan->native.device;
	plan->launch_queue = *(cudaStream_t *)plan->native.queue;
	c.stream = &plan->launch_queue;
	c.num_streams = 1;
#elif VKFFT_BACKEND == 0
	rc = vk_plan_setup(plan, &c, st);
	if (rc)
		goto fail_app;
#endif
	if (p->load_blob) {
		c.loadApplicationFromString = 1;
		c.loadApplicationString = (void *)p->load_blob;
	} else if (p->save) {
		c.saveApplicationToString = 1;
	}

	rc = vkg_ctx_enter(dev, st);
	if (rc)
		goto fail_app;
	/* The kernel generator prints and parses float constants: a host that changed
	 * LC_NUMERIC would otherwise get wrong twiddles. uselocale is per thread. */
	cloc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	old = cloc ? uselocale(cloc) : (locale_t)0;
	vkg_log_reset();
	r = initializeVkFFT(plan->app, c);
	if (cloc) {
		uselocale(old);
		freelocale(cloc);
	}
#if VKFFT_BACKEND == 1
	/* VkFFT uploads its tables with cudaMemcpy on the legacy stream, which does not order
	 * with non-blocking streams (ours, or a caller's): finish them before any launch */
	if (r == VKFFT_SUCCESS)
		cuCtxSynchronize();
#endif
	vkg_ctx_leave(dev);
	if (r != VKFFT_SUCCESS) {
		/* a failed initializeVkFFT has already released what it made */
		rc = vkg_vkfft_fail(st, r, "VkFFT plan creation failed");
		goto fail_app;
	}
	*out = plan;
	return VKG_OK;

fail_app:
#if VKFFT_BACKEND == 0
	vk_plan_free(plan);
#endif
	free(plan->app);
	free(plan);
	return rc;
}

int vkg_plan_binary(vkg_plan *plan, const void **data, uint64_t *bytes)
{
	*data = plan->app->saveApplicationString;
	*bytes = plan->app->applicationStringSize;
	return *data != NULL && *bytes > 0;
}

void vkg_plan_drop_binary(vkg_plan *plan)
{
	/* deleteVkFFT frees it too, and tolerates it gone */
	free(plan->app->saveApplicationString);
	plan->app->saveApplicationString = NULL;
	plan->app->applicationStringSize = 0;
}

void vkg_plan_destroy(vkg_plan *plan)
{
	vkg_status st;
	if (!plan)
		return;
	/* deleteVkFFT frees device memory, which on CUDA needs the context current */
	int entered = vkg_ctx_enter(plan->dev, &st) == VKG_OK;
#if VKFFT_BACKEND == 0
	vk_plan_quiesce(plan); /* deleteVkFFT destroys pipelines and buffers the queue may use */
#endif
	deleteVkFFT(plan->app);
	if (entered)
		vkg_ctx_leave(plan->dev);
#if VKFFT_BACKEND == 0
	vk_plan_free(plan);
#endif
	free(plan->app);
	free(plan);
}

static int run_on(vkg_plan *plan, int inverse, vkg_mem buffer, vkg_mem real_buffer, uint64_t queue,
		  double scale, vkg_status *st)
{
#if VKFFT_BACKEND == 0
	return vk_run_on(plan, inverse, buffer, real_buffer, queue, scale, st);
#else
	VkFFTLaunchParams lp = VKFFT_ZERO_INIT;
	VkFFTResult r;
	int is_r2c = plan->params.kind == VKG_R2C;

	/* VkFFT stores these pointers in the application: they must stay valid */
	plan->launch_buffer = buffer ? native_mem(buffer) : plan->buffer;
	lp.buffer = &plan->launch_buffer;
	if (is_r2c) {
		plan->launch_real = real_buffer ? native_mem(real_buffer) : plan->real;
		lp.inputBuffer = &plan->launch_real;
	}
#if VKFFT_BACKEND == 1
	plan->launch_queue = queue ? (cudaStream_t)(uintptr_t)queue : *(cudaStream_t *)plan->native.queue;
#else
	plan->launch_queue = queue ? (cl_command_queue)(uintptr_t)queue
				   : *(cl_command_queue *)plan->native.queue;
	lp.commandQueue = &plan->launch_queue;
#endif
	vkg_log_reset();
	r = VkFFTAppend(plan->app, inverse ? 1 : -1, &lp);
	if (r != VKFFT_SUCCESS)
		return vkg_vkfft_fail(st, r, inverse ? "inverse FFT failed" : "forward FFT failed");
	if (scale != 1.0) {
		vkg_mem out;
		uint64_t n;
		if (is_r2c && inverse) {
			out = (vkg_mem)(uintptr_t)plan->launch_real;
			n = plan->real_count;
		} else {
			out = (vkg_mem)(uintptr_t)plan->launch_buffer;
			n = 2 * plan->complex_count;
		}
		return vkg_mem_scale_on(plan->dev, queue, out, n, plan->params.double_precision, scale, st);
	}
	return VKG_OK;
#endif
}

int vkg_plan_run(vkg_plan *plan, int inverse, vkg_mem buffer, vkg_mem real_buffer, double scale,
		 vkg_status *st)
{
	return run_on(plan, inverse, buffer, real_buffer, 0, scale, st);
}

int vkg_plan_run_on(vkg_plan *plan, int inverse, vkg_mem buffer, vkg_mem real_buffer,
		    vkg_mem copy_from, uint64_t queue, double scale, int wait, vkg_status *st)
{
	int rc = vkg_ctx_enter(plan->dev, st);
	if (rc)
		return rc;
	if (copy_from)
		rc = vkg_mem_copy_on(plan->dev, queue, buffer, copy_from, plan->buffer_size, st);
	if (rc == VKG_OK)
		rc = run_on(plan, inverse, buffer, real_buffer, queue, scale, st);
	if (rc == VKG_OK && wait)
		rc = vkg_queue_sync(plan->dev, queue, st);
	vkg_ctx_leave(plan->dev);
	return rc;
}

int vkg_plan_run_device(vkg_plan *plan, int inverse, vkg_mem buffer, vkg_mem real_buffer,
			vkg_mem copy_from, double scale, int wait, vkg_status *st)
{
	return vkg_plan_run_on(plan, inverse, buffer, real_buffer, copy_from, 0, scale, wait, st);
}

int vkg_plan_run_host(vkg_plan *plan, int inverse, void *dst, uint64_t dst_bytes, const void *src,
		      uint64_t src_bytes, double scale, vkg_status *st)
{
	vkg_mem in, out;
	vkg_status plan_sync_st;
	int rc = vkg_plan_check_io(plan, inverse, dst_bytes, src_bytes, st);
	if (rc)
		return rc;
	vkg_plan_io_buffers(plan, inverse, &in, &out);
	rc = vkg_ctx_enter(plan->dev, st);
	if (rc)
		return rc;
#if VKFFT_BACKEND == 0
	vkg_vk_queue_hold(plan->dev, 0, 1); /* upload, transform, download: one submission */
#endif
	rc = vkg_mem_write(plan->dev, in, 0, src, src_bytes, st);
	if (rc == VKG_OK)
		rc = vkg_plan_run(plan, inverse, 0, 0, scale, st);
#if VKFFT_BACKEND == 0
	vkg_vk_queue_hold(plan->dev, 0, 0);
#endif
	if (rc == VKG_OK)
		rc = vkg_mem_read(plan->dev, dst, out, 0, dst_bytes, st);
	else
		vkg_device_sync(plan->dev, &plan_sync_st); /* src may still be read by the queue */
	vkg_ctx_leave(plan->dev);
	return rc;
}

/* ---- accessors for the staging layer (vkg_stage.c) ---- */

void vkg_plan_io_bytes(vkg_plan *plan, int inverse, uint64_t *in_bytes, uint64_t *out_bytes)
{
	int is_r2c = plan->params.kind == VKG_R2C;
	*in_bytes = is_r2c && !inverse ? plan->real_size : plan->buffer_size;
	*out_bytes = is_r2c && inverse ? plan->real_size : plan->buffer_size;
}

void vkg_plan_io_buffers(vkg_plan *plan, int inverse, vkg_mem *in, vkg_mem *out)
{
	vkg_mem cbuf = (vkg_mem)(uintptr_t)plan->buffer;
	vkg_mem rbuf = (vkg_mem)(uintptr_t)plan->real;
	int is_r2c = plan->params.kind == VKG_R2C;
	*in = is_r2c && !inverse ? rbuf : cbuf;
	*out = is_r2c && inverse ? rbuf : cbuf;
}

int vkg_plan_check_io(vkg_plan *plan, int inverse, uint64_t dst_bytes, uint64_t src_bytes, vkg_status *st)
{
	uint64_t in_bytes, out_bytes;
	vkg_plan_io_bytes(plan, inverse, &in_bytes, &out_bytes);
	if (src_bytes != in_bytes || dst_bytes != out_bytes)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "buffer sizes %llu -> %llu bytes do not match the plan",
				(unsigned long long)src_bytes, (unsigned long long)dst_bytes);
	return VKG_OK;
}

vkg_device *vkg_plan_device(vkg_plan *plan) { return plan->dev; }

int vkg_plan_run_queue(vkg_plan *plan, int inverse, uint64_t queue, double scale, vkg_status *st)
{
	return run_on(plan, inverse, 0, 0, queue, scale, st);
}
