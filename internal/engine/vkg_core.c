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
#include "vkg_fault.h"
#include "vkg_herm.h"
#include "vkg_xfer.h"

#if VKFFT_BACKEND == 3
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
typedef cl_mem vkg_native_mem;
#elif VKFFT_BACKEND == 1
#include <cuComplex.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <nvrtc.h>
/* VkFFT's driver and NVRTC calls go through the table the backend loaded (the device's
 * vkg_native.api), set before any VkFFT call (vkg_plan_create) */
#define VKG_CUDA_API (*vkg_cuda)
#include "vkg_cuda_api.h"
static const vkg_cuda_api *vkg_cuda;
typedef void *vkg_native_mem;
#elif VKFFT_BACKEND == 0
#include <vulkan/vulkan.h>
typedef VkBuffer vkg_native_mem;
/* VkFFT submits its table uploads itself: through the backend, under the queue's lock
 * (VkQueue is externally synchronised, and other threads submit to the same queue) */
static VkResult vkg_queue_submit_locked(VkQueue queue, uint32_t count, const VkSubmitInfo *submits, VkFence fence)
{
	return (VkResult)vkg_be->queue_submit((void *)queue, count, submits, (uint64_t)fence);
}
#define vkQueueSubmit vkg_queue_submit_locked
#else
#error "vkfftgo: unsupported VKFFT_BACKEND (the build tag picks 3 for opencl, 1 for cuda, 0 for vulkan)"
#endif

/* VkFFT reports problems (compiler logs, and whole kernel sources when a compile fails)
 * with printf. Route that text into the calling thread's capture buffer, which a failing
 * entry point hands to its vkg_status whole (up to VKG_LOG_MAX), instead of the host
 * program's stdout. */
#define VKG_LOG_MAX (4u << 20)
static __thread char *vkg_log;
static __thread size_t vkg_log_len, vkg_log_cap;

static int vkg_capture_printf(const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return n;
	if (vkg_log_len + (size_t)n + 1 > vkg_log_cap) {
		size_t cap = vkg_log_cap ? vkg_log_cap : 4096;
		char *grown;
		while (cap < vkg_log_len + (size_t)n + 1)
			cap *= 2;
		if (cap > VKG_LOG_MAX)
			cap = VKG_LOG_MAX;
		if (cap <= vkg_log_len + 1)
			return n; /* full: the rest is dropped */
		grown = realloc(vkg_log, cap);
		if (!grown)
			return n;
		vkg_log = grown;
		vkg_log_cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(vkg_log + vkg_log_len, vkg_log_cap - vkg_log_len, fmt, ap);
	va_end(ap);
	vkg_log_len += (size_t)n < vkg_log_cap - vkg_log_len - 1 ? (size_t)n : vkg_log_cap - vkg_log_len - 1;
	return n;
}
#define printf vkg_capture_printf

#if defined(__has_include)
#if !__has_include(<vkFFT.h>)
#error "VkFFT headers not found: run 'make vendor' (or install libvkfft-dev >= 1.3.4)"
#endif
#endif
/* Fused stages (vkg_core_fuse.h) rewrite the source VkFFT generates where it reaches the
 * compiler: VkFFT's one call of clCreateProgramWithSource / nvrtcCreateProgram /
 * glslang_shader_create goes through this hook (on Vulkan, glslang_shader_delete frees
 * the rewritten source, and vkUpdateDescriptorSets widens a fused load's input binding).
 * On CUDA and OpenCL its compiles and the module calls around them go through the hooks
 * of vkg_core_kernels.h, which record, serve or pass them on. */
#if VKFFT_BACKEND == 3
static cl_program vkg_hook_create_program(cl_context, cl_uint, const char **, const size_t *, cl_int *);
static cl_int vkg_hook_build_program(cl_program, cl_uint, const cl_device_id *, const char *,
				     void(CL_CALLBACK *)(cl_program, void *), void *);
static cl_kernel vkg_hook_create_kernel(cl_program, const char *, cl_int *);
static cl_int vkg_hook_set_kernel_arg(cl_kernel, cl_uint, size_t, const void *);
static cl_int vkg_hook_enqueue_kernel(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
				      const size_t *, cl_uint, const cl_event *, cl_event *);
static cl_int vkg_hook_release_kernel(cl_kernel);
static cl_int vkg_hook_release_program(cl_program);
#define clCreateProgramWithSource vkg_hook_create_program
#define clBuildProgram vkg_hook_build_program
#define clCreateKernel vkg_hook_create_kernel
#define clSetKernelArg vkg_hook_set_kernel_arg
#define clEnqueueNDRangeKernel vkg_hook_enqueue_kernel
#define clReleaseKernel vkg_hook_release_kernel
#define clReleaseProgram vkg_hook_release_program
#elif VKFFT_BACKEND == 1
static nvrtcResult vkg_hook_create_program(nvrtcProgram *, const char *, const char *, int, const char *const *,
					   const char *const *);
static nvrtcResult vkg_hook_nvrtc_compile(nvrtcProgram, int, const char *const *);
static nvrtcResult vkg_hook_nvrtc_log(nvrtcProgram, char *);
static nvrtcResult vkg_hook_nvrtc_cubin_size(nvrtcProgram, size_t *);
static nvrtcResult vkg_hook_nvrtc_cubin(nvrtcProgram, char *);
static nvrtcResult vkg_hook_nvrtc_destroy(nvrtcProgram *);
static CUresult vkg_hook_module_load(CUmodule *, const void *, unsigned int, CUjit_option *, void **);
static CUresult vkg_hook_module_function(CUfunction *, CUmodule, const char *);
static CUresult vkg_hook_func_attribute(CUfunction, CUfunction_attribute, int);
static CUresult vkg_hook_launch(CUfunction, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int,
				unsigned int, unsigned int, CUstream, void **, void **);
static CUresult vkg_hook_module_unload(CUmodule);
#undef nvrtcCreateProgram
#define nvrtcCreateProgram vkg_hook_create_program
#undef nvrtcCompileProgram
#define nvrtcCompileProgram vkg_hook_nvrtc_compile
#undef nvrtcGetProgramLog
#define nvrtcGetProgramLog vkg_hook_nvrtc_log
#undef nvrtcGetCUBINSize
#define nvrtcGetCUBINSize vkg_hook_nvrtc_cubin_size
#undef nvrtcGetCUBIN
#define nvrtcGetCUBIN vkg_hook_nvrtc_cubin
#undef nvrtcDestroyProgram
#define nvrtcDestroyProgram vkg_hook_nvrtc_destroy
#undef cuModuleLoadDataEx
#define cuModuleLoadDataEx vkg_hook_module_load
#undef cuModuleGetFunction
#define cuModuleGetFunction vkg_hook_module_function
#undef cuFuncSetAttribute
#define cuFuncSetAttribute vkg_hook_func_attribute
#undef cuLaunchKernel
#define cuLaunchKernel vkg_hook_launch
#undef cuModuleUnload
#define cuModuleUnload vkg_hook_module_unload
#elif VKFFT_BACKEND == 0
/* glslang's declarations first, under their own names: the hooks call the real ones */
#include <glslang/Include/glslang_c_interface.h>
static glslang_shader_t *vkg_hook_shader_create(const glslang_input_t *);
static void vkg_hook_shader_delete(glslang_shader_t *);
static void vkg_hook_update_descriptor_sets(VkDevice, uint32_t, const VkWriteDescriptorSet *, uint32_t,
					    const VkCopyDescriptorSet *);
#define glslang_shader_create vkg_hook_shader_create
#define glslang_shader_delete vkg_hook_shader_delete
#define vkUpdateDescriptorSets vkg_hook_update_descriptor_sets
#endif
#include <vkFFT.h>
#undef printf
#undef vkQueueSubmit
#if VKFFT_BACKEND == 0
#undef glslang_shader_create
#undef glslang_shader_delete
#undef vkUpdateDescriptorSets
#endif
#include "vkg_core_kernels.h"
#include "vkg_core_fuse.h"

#define VKG_MIN_VKFFT_VERSION 10304
/* the local memory VkFFT may plan with on a CPU device (see vkg_plan_create) */
#define VKG_CPU_LOCAL_MEMORY 65536

struct vkg_plan {
	vkg_device *dev;
	VkFFTApplication *app;
	vkg_plan_params params;
	/* VkFFT reads these through pointers at every launch */
	pfUINT buffer_size, real_size;
	vkg_native_mem buffer, real;               /* the plan's own */
	vkg_native_mem launch_buffer, launch_real; /* the ones the next launch uses */
	uint64_t complex_count, real_count;        /* elements, all batches */
	int uses_input_buffer;                     /* launches pass launch_real as inputBuffer */
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
	/* The plan's host round trips, forward and inverse, for the transfer layer. */
	vkg_run runs[2];
	/* Ordering across queues. One application's buffers (ours and VkFFT's temporary ones)
	 * are shared by every queue the plan runs on, so work on one queue must wait for the
	 * plan's earlier work on another. order_ev is recorded after the plan's last use of
	 * order_queue (0: none, or the device's queue); device_pending says the device's own
	 * queue may still hold the plan's work (recorded lazily, when another queue needs it). */
	uint64_t order_ev;
	uint64_t order_queue;
	int device_pending;
	struct vkg_stage_state stage; /* convolution, separate buffers, fused stages */
	vkg_full_params full;         /* a whole-spectrum real plan (vkg_plan_set_full) */
	vkg_herm herm;                /* FFTW's C2R semantics before the inverse (vkg_herm.h) */
};

static void vkg_log_reset(void)
{
	vkg_log_len = 0;
	if (vkg_log)
		vkg_log[0] = 0;
}

/* vkg_log_hand_over gives the captured text to st (whole), or drops it. */
static void vkg_log_hand_over(vkg_status *st)
{
	if (!st || !vkg_log_len) {
		vkg_log_reset();
		return;
	}
	free(st->detail);
	st->detail = vkg_log;
	vkg_log = NULL;
	vkg_log_len = vkg_log_cap = 0;
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
	vkg_fail(st, code, (int)r, "%s: %s (%d)", what, getVkFFTErrorString(r), (int)r);
	vkg_log_hand_over(st);
	return code;
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
#else
uint64_t vkg_plan_recordings(vkg_plan *plan)
{
	(void)plan;
	return 0;
}
#endif

/* ---- layout: axes, strides, storage precision, real-to-real, in-place R2C ----
 * The Go side (layout.go) has resolved numpy's shape, axes and strides into VkFFT's
 * dimensions, omitted dimensions and strides; this only copies them in. */
static void configure_layout(vkg_plan *plan, VkFFTConfiguration *c, const vkg_plan_params *p)
{
	int i;
	if (p->vk_dim > 0) {
		c->FFTdim = (pfUINT)p->vk_dim;
		for (i = 0; i < 4; i++) {
			c->size[i] = i < p->vk_dim ? p->vk_size[i] : 0;
			c->omitDimension[i] = i < p->vk_dim ? (pfUINT)p->vk_omit[i] : 0;
		}
		c->numberBatches = p->vk_batch;
	}
	if (p->strided) {
		/* out of place through VkFFT's formatted input: src is read from inputBuffer with
		 * inputBufferStride, dst written to buffer with bufferStride (which also holds
		 * the intermediate axes). R2C's inverse returns to the real data (inputBuffer). */
		for (i = 0; i < 4; i++) {
			c->inputBufferStride[i] = p->in_stride[i];
			c->bufferStride[i] = p->out_stride[i];
		}
		c->isInputFormatted = 1;
		c->inverseReturnToInputBuffer = p->kind == VKG_R2C;
		if (p->kind != VKG_R2C) {
			plan->real = native_mem(p->real_buffer);
			plan->real_size = p->real_bytes;
			plan->launch_real = plan->real;
			c->inputBuffer = &plan->real;
			c->inputBufferSize = &plan->real_size;
		}
		plan->uses_input_buffer = 1;
	}
	if (p->kind == VKG_R2R) {
		c->performDCT = (pfUINT)p->r2r_dct;
		c->performDST = (pfUINT)p->r2r_dst;
	}
	if (p->storage == VKG_STORAGE_HALF)
		c->halfPrecision = 1; /* in VkFFT 1.3.4: fp16 in memory, fp32 arithmetic */
	else if (p->storage == VKG_STORAGE_FLOAT_COMPUTE_DOUBLE)
		c->doublePrecisionFloatMemory = 1;
	if (p->real_inplace) {
		/* VkFFT's native in-place R2C: rows of 2*(n/2+1) reals in buffer */
		c->isInputFormatted = 0;
		c->inverseReturnToInputBuffer = 0;
		c->inputBuffer = NULL;
		c->inputBufferSize = NULL;
		plan->uses_input_buffer = 0;
	}
}

/* Where the ortho/forward scaling pass runs: the output of the launch, over the reals the
 * plan's buffer for that side holds (gap-free layouts only; layout.go checks). */
static void scale_target(vkg_plan *plan, int inverse, vkg_mem *out, uint64_t *n)
{
	uint64_t real_size = plan->params.double_precision ? 8 : 4;
	if (inverse && plan->params.kind == VKG_R2C && !plan->params.real_inplace) {
		*out = (vkg_mem)(uintptr_t)plan->launch_real;
		*n = plan->real_size / real_size;
	} else {
		*out = (vkg_mem)(uintptr_t)plan->launch_buffer;
		*n = plan->buffer_size / real_size;
	}
}

static uint64_t device_queue(const vkg_plan *plan)
{
#if VKFFT_BACKEND == 1
	return (uint64_t)(uintptr_t) * (cudaStream_t *)plan->native.queue;
#elif VKFFT_BACKEND == 0
	(void)plan;
	return 0; /* queues are the backend's objects; the device's own is 0 */
#else
	return (uint64_t)(uintptr_t) * (cl_command_queue *)plan->native.queue;
#endif
}

/* same_queue: the device's queue may be named 0 or by its handle */
static uint64_t canonical_queue(const vkg_plan *plan, uint64_t queue)
{
	return queue == device_queue(plan) ? 0 : queue;
}

/* order_claim makes queue wait for the plan's earlier work on other queues. */
static int order_claim(vkg_plan *plan, uint64_t queue, vkg_status *st)
{
	int rc = VKG_OK;
	queue = canonical_queue(plan, queue);
	if (queue == 0) {
		if (plan->order_queue != 0)
			rc = vkg_queue_wait_event(plan->dev, 0, plan->order_ev, st);
		if (rc == VKG_OK)
			plan->order_queue = 0;
		return rc;
	}
	if (plan->order_queue == 0) {
		if (!plan->device_pending)
			return VKG_OK;
		if (!plan->order_ev && (rc = vkg_event_create(plan->dev, &plan->order_ev, st)) != VKG_OK)
			return rc;
		rc = vkg_event_record(plan->dev, 0, plan->order_ev, st);
		if (rc == VKG_OK)
			rc = vkg_queue_wait_event(plan->dev, queue, plan->order_ev, st);
		return rc;
	}
	if (plan->order_queue != queue)
		rc = vkg_queue_wait_event(plan->dev, queue, plan->order_ev, st);
	return rc;
}

/* order_release marks the end of the plan's use of queue in this call. */
static int order_release(vkg_plan *plan, uint64_t queue, vkg_status *st)
{
	int rc;
	queue = canonical_queue(plan, queue);
	if (queue == 0) {
		plan->device_pending = 1;
		plan->order_queue = 0;
		return VKG_OK;
	}
	/* recorded now, while the queue (perhaps a caller's stream) surely exists */
	if (!plan->order_ev && (rc = vkg_event_create(plan->dev, &plan->order_ev, st)) != VKG_OK)
		return rc;
	rc = vkg_event_record(plan->dev, queue, plan->order_ev, st);
	if (rc == VKG_OK) {
		plan->order_queue = queue;
		plan->device_pending = 0;
	}
	return rc;
}

/* enqueue runs the transform on buffer/real_buffer (0: the plan's own) on queue. */
static int enqueue(vkg_plan *plan, int inverse, vkg_mem buffer, vkg_mem real_buffer, uint64_t queue,
		   vkg_status *st)
{
#if VKFFT_BACKEND == 0
	double s = inverse ? plan->params.inverse_scale : plan->params.forward_scale;
	return vk_run_on(plan, inverse, buffer, real_buffer, queue, s == 0.0 ? 1.0 : s, st);
#else
	VkFFTLaunchParams lp = VKFFT_ZERO_INIT;
	VkFFTResult r;
	int is_r2c = plan->uses_input_buffer;
	double scale = inverse ? plan->params.inverse_scale : plan->params.forward_scale;

	/* VkFFT stores these pointers in the application: they must stay valid */
	plan->launch_buffer = buffer ? native_mem(buffer) : plan->buffer;
	lp.buffer = &plan->launch_buffer;
	if (is_r2c) {
		plan->launch_real = real_buffer ? native_mem(real_buffer) : plan->real;
		lp.inputBuffer = &plan->launch_real;
	}
	if (inverse && plan->herm.needed) {
		/* the spectrum VkFFT's C2R reads, made Hermitian on the same queue first */
		int rc = vkg_herm_run(plan->dev, queue, &plan->herm, (vkg_mem)(uintptr_t)plan->launch_buffer, st);
		if (rc)
			return rc;
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
	if (scale != 1.0 && scale != 0.0) {
		vkg_mem out;
		uint64_t n;
		scale_target(plan, inverse, &out, &n);
		return vkg_mem_scale_on(plan->dev, queue, out, n, plan->params.double_precision, scale, st);
	}
	return VKG_OK;
#endif
}

/* ---- the plan's side of a vkg_run (vkg_xfer.h) ---- */

static int run_claim(const vkg_run *run, uint64_t queue, vkg_status *st)
{
	return order_claim(run->owner, queue, st);
}

/* full_steps runs a whole-spectrum plan on explicit memory (0: the plan's own): real is
 * the real side, spectrum the whole spectrum; EXPAND goes through the plan's half
 * spectrum, WIDEN transforms its complex buffer cbuf in place. */
static int full_steps(vkg_plan *plan, int inverse, vkg_mem real, vkg_mem spectrum, vkg_mem cbuf, uint64_t queue,
		      vkg_status *st)
{
	const vkg_full_params *f = &plan->full;
	vkg_mem own = (vkg_mem)(uintptr_t)plan->buffer;
	int rc;
	if (f->mode == VKG_FULL_EXPAND) {
		if (inverse) {
			rc = vkg_full_from(f, plan->dev, queue, spectrum, own, st);
			return rc ? rc : enqueue(plan, 1, 0, real, queue, st);
		}
		rc = enqueue(plan, 0, 0, real, queue, st);
		return rc ? rc : vkg_full_to(f, plan->dev, queue, own, spectrum, st);
	}
	if (inverse) {
		rc = enqueue(plan, 1, cbuf, 0, queue, st);
		return rc ? rc : vkg_full_from(f, plan->dev, queue, cbuf, real, st);
	}
	rc = vkg_full_to(f, plan->dev, queue, real, cbuf, st);
	return rc ? rc : enqueue(plan, 0, cbuf, 0, queue, st);
}

static int run_launch(const vkg_run *run, uint64_t queue, vkg_status *st)
{
	vkg_plan *plan = run->owner;
	if (plan->full.mode != VKG_FULL_NONE) {
		vkg_mem own = (vkg_mem)(uintptr_t)plan->buffer;
		if (plan->full.mode == VKG_FULL_EXPAND)
			return full_steps(plan, run->inverse, (vkg_mem)(uintptr_t)plan->real, plan->full.buffer, own,
					  queue, st);
		return full_steps(plan, run->inverse, plan->full.buffer, own, own, queue, st);
	}
	return enqueue(plan, run->inverse, 0, 0, queue, st);
}

static int run_release(const vkg_run *run, uint64_t queue, vkg_status *st)
{
	return order_release(run->owner, queue, st);
}

/* describe fills the plan's two run descriptors: for R2C the real side is the input of
 * the forward transform and the output of the inverse. */
static void describe(vkg_plan *plan)
{
	vkg_mem cbuf = (vkg_mem)(uintptr_t)plan->buffer;
	vkg_mem rbuf = (vkg_mem)(uintptr_t)plan->real;
	int is_r2c = plan->params.kind == VKG_R2C && !plan->params.real_inplace;
	int inverse;
	for (inverse = 0; inverse < 2; inverse++) {
		vkg_run *r = &plan->runs[inverse];
		r->dev = plan->dev;
		r->in = is_r2c && !inverse ? rbuf : cbuf;
		r->out = is_r2c && inverse ? rbuf : cbuf;
		r->in_bytes = is_r2c && !inverse ? plan->real_size : plan->buffer_size;
		r->out_bytes = is_r2c && inverse ? plan->real_size : plan->buffer_size;
		if (plan->params.strided) /* its layouts describe device memory: no host round trip fits */
			r->in_bytes = r->out_bytes = 0;
		if (plan->full.mode == VKG_FULL_EXPAND) { /* the whole spectrum instead of the half */
			if (inverse)
				r->in = plan->full.buffer, r->in_bytes = plan->full.bytes;
			else
				r->out = plan->full.buffer, r->out_bytes = plan->full.bytes;
		} else if (plan->full.mode == VKG_FULL_WIDEN) { /* the real data instead of the complex */
			if (inverse)
				r->out = plan->full.buffer, r->out_bytes = plan->full.bytes;
			else
				r->in = plan->full.buffer, r->in_bytes = plan->full.bytes;
		}
		r->claim = run_claim;
		r->launch = run_launch;
		r->release = run_release;
		r->owner = plan;
		r->inverse = inverse;
	}
}

int vkg_plan_set_full(vkg_plan *plan, const vkg_full_params *f, vkg_status *st)
{
	const vkg_plan_params *p = &plan->params;
	int want = f->mode == VKG_FULL_EXPAND ? VKG_R2C : VKG_C2C;
	if (f->mode != VKG_FULL_EXPAND && f->mode != VKG_FULL_WIDEN)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "whole-spectrum mode %d: want EXPAND or WIDEN", f->mode);
	if (p->kind != want || p->strided || p->real_inplace || p->out_of_place || vkg_stages_active(&p->stages))
		return vkg_fail(st, VKG_ERR_INVALID, 0,
				"a whole-spectrum plan is a plain contiguous %s plan (kind %d, strided %d, in place %d)",
				want == VKG_R2C ? "R2C" : "C2C", p->kind, p->strided, p->real_inplace);
	if (!f->to_full || !f->from_full || !f->buffer)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "a whole-spectrum plan needs its two kernels and its buffer");
	plan->full = *f;
	/* the fold, (X + conj(X[-k]))/2, leaves a Hermitian half: no projection to run */
	if (f->mode == VKG_FULL_EXPAND)
		plan->herm.needed = 0;
	describe(plan);
	return VKG_OK;
}

const vkg_run *vkg_plan_run_desc(const vkg_plan *plan, int inverse)
{
	return &plan->runs[inverse ? 1 : 0];
}

#ifdef VKG_FAULTS
/* What a failed kernel compile looks like to the capture: a long compiler log. */
static VkFFTResult injected_compile_failure(void)
{
	int i;
	for (i = 0; i < 200; i++)
		vkg_capture_printf("injected.cl:%d:1: error: line %d of a long compiler log\n", i + 1, i + 1);
	vkg_capture_printf("END OF THE INJECTED LOG\n");
	return VKFFT_ERROR_FAILED_TO_COMPILE_PROGRAM;
}
#endif

/* plan_build makes the plan of p. With dry set, no kernel is compiled or run: their
 * texts go into dry (vkg_core_kernels.h), and the plan is only good for destroying. */
static int plan_build(vkg_device *dev, const vkg_plan_params *p, vkg_kernel_set *dry, vkg_plan **out, vkg_status *st)
{
	VkFFTConfiguration c = VKFFT_ZERO_INIT;
	struct vkg_ksession ks = {0};
	vkg_kernel_set *kernels = dry ? dry : p->kernels;
	vkg_plan *plan;
	VkFFTResult r, refused;
	locale_t cloc, old;
	uint64_t outer = 1;
	int i, rc;
	VKG_FORK_GUARD(st);

	*out = NULL;
	if (VkFFTGetVersion() < VKG_MIN_VKFFT_VERSION)
		return vkg_fail(st, VKG_ERR_VERSION, 0, "VkFFT %d.%d.%d is too old: vkfftgo needs 1.3.4 or newer",
				VkFFTGetVersion() / 10000, VkFFTGetVersion() / 100 % 100, VkFFTGetVersion() % 100);
	if (p->rank < 1 || p->rank > 4)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "rank %d: must be 1 to 4", p->rank);
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
	plan->params.hermitian_why = NULL; /* vkg_herm_init keeps a copy */
	plan->params.kernels = NULL;       /* the caller's, during creation only */
	vkg_device_native(dev, &plan->native);
#if VKFFT_BACKEND == 1
	/* one table per process: every device of the backend hands out the same */
	__atomic_store_n(&vkg_cuda, (const vkg_cuda_api *)plan->native.api, __ATOMIC_RELEASE);
#endif

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
	if (p->register_boost)
		c.registerBoost = p->register_boost;
	if (p->register_boost_4step)
		c.registerBoost4Step = p->register_boost_4step;
	if (p->swap_to_3stage_4step)
		c.swapTo3Stage4Step = p->swap_to_3stage_4step;
	if (p->bandwidth_boost)
		c.performBandwidthBoost = (int)p->bandwidth_boost;
	if (p->shared_memory)
		c.sharedMemorySize = p->shared_memory;
	if (p->bluestein_size)
		c.forceBluesteinSequenceSize = p->bluestein_size;
	for (i = 0; i < 4; i++)
		c.groupedBatch[i] = p->grouped_batch[i];
#if VKFFT_BACKEND == 3
	/* A CPU device (PoCL) offers megabytes of "local" memory, and VkFFT then puts whole
	 * sequences of up to 256K points into one work-group. PoCL keeps each work-item's
	 * private values in arrays on its worker thread's stack, which such a work-group
	 * overflows (sizes such as 262144, 65984 or 1055744 took 10–60 MiB and crashed the
	 * process on the usual 8 MiB). Sized like a GPU's, work-groups stay under ~1.3 MiB of
	 * stack, and the large transforms run faster, not slower. */
	{
		const vkg_device_info *info = vkg_device_get_info(dev);
		if (info->host_memory && (info->local_mem == 0 || info->local_mem > VKG_CPU_LOCAL_MEMORY) &&
		    (!c.sharedMemorySize || c.sharedMemorySize > VKG_CPU_LOCAL_MEMORY)) /* a tuning may ask for less */
			c.sharedMemorySize = VKG_CPU_LOCAL_MEMORY;
	}
#endif

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
		plan->uses_input_buffer = 1;
	} else if (p->out_of_place) {
		/* the first pass reads inputBuffer, every later one works in buffer (both
		 * directions: inverseReturnToInputBuffer stays 0), so the input is only read */
		plan->real = native_mem(p->real_buffer ? p->real_buffer : p->buffer);
		plan->real_size = p->buffer_bytes;
		plan->launch_real = plan->real;
		c.isInputFormatted = 1;
		c.inputBuffer = &plan->real;
		c.inputBufferSize = &plan->real_size;
		plan->uses_input_buffer = 1;
	}
	configure_layout(plan, &c, p);
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
	if (vkg_stages_active(&p->stages)) {
		rc = vkg_stages_configure(&plan->stage, p, &c, st);
		if (rc)
			goto fail_app;
	}
	if (dry) {
		/* VkFFT only generates: nothing to load, keep or run before an inverse */
	} else if (p->load_blob) {
		c.loadApplicationFromString = 1;
		c.loadApplicationString = (void *)p->load_blob;
		kernels = NULL;
	} else if (p->save) {
		c.saveApplicationToString = 1;
	}
	describe(plan);
	/* plans with stages run their inverse through vkg_plan_run_io: the products of
	 * forward transforms they invert are Hermitian already */
	if (!dry && !vkg_stages_active(&p->stages) && (rc = vkg_herm_init(&plan->herm, dev, p, st)) != VKG_OK)
		goto fail_app;

	rc = vkg_ctx_enter(dev, st);
	if (rc)
		goto fail_app;
	/* The kernel generator prints and parses float constants: a host that changed
	 * LC_NUMERIC would otherwise get wrong twiddles. uselocale is per thread. */
	cloc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	old = cloc ? uselocale(cloc) : (locale_t)0;
	vkg_log_reset();
	plan->stage.app = plan->app;
	vkg_stage_building = &plan->stage;
	if (kernels) {
		ks.dry = dry != NULL;
		ks.set = kernels;
		vkg_ksession_open(&ks, &plan->native);
	}
#ifdef VKG_FAULTS
	if (!dry && VKG_FAULT(VKG_FAULT_COMPILE_LOG))
		r = injected_compile_failure();
	else
#endif
		r = initializeVkFFT(plan->app, c);
	if (kernels)
		vkg_ksession_close(&ks);
	vkg_stage_building = NULL;
	plan->stage.cfg.fuse_prelude = plan->stage.cfg.fuse_input_decl = plan->stage.cfg.fuse_extra_params = NULL;
	plan->stage.cfg.fuse_entry = plan->stage.cfg.fuse_input_vkfft = plan->stage.cfg.fuse_output_vkfft = NULL;
	plan->stage.cfg.fuse_output_decl = plan->stage.cfg.fuse_entry_prelude = NULL;
	plan->stage.cfg.fuse_group_id = plan->stage.cfg.fuse_group_forbid = NULL;
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
	/* a kernel the driver refused, held back from VkFFT (vkg_core_kernels.h) */
	refused = vkg_take_refusal();
	if (r == VKFFT_SUCCESS && refused != VKFFT_SUCCESS) {
		deleteVkFFT(plan->app);
		r = refused;
	}
	vkg_ctx_leave(dev);
	if (r != VKFFT_SUCCESS) {
		/* a failed initializeVkFFT has already released what it made */
		if (plan->stage.why[0])
			rc = vkg_fail(st, VKG_ERR_UNSUPPORTED, (int)r, "fused stages not applied: %s", plan->stage.why);
		else
			rc = vkg_vkfft_fail(st, r, "VkFFT plan creation failed");
		goto fail_app;
	}
	if (!dry && (plan->stage.cfg.fuse_load || plan->stage.cfg.fuse_store)) {
		rc = vkg_ctx_enter(dev, st);
		if (rc == VKG_OK) {
			rc = vkg_fuse_bind(&plan->stage, st);
			vkg_ctx_leave(dev);
		}
		if (rc) {
			vkg_plan_destroy(plan);
			return rc;
		}
	}
	*out = plan;
	return VKG_OK;

fail_app:
#if VKFFT_BACKEND == 0
	vk_plan_free(plan);
#endif
	vkg_herm_free(&plan->herm);
	free(plan->app);
	free(plan);
	return rc;
}

int vkg_plan_create(vkg_device *dev, const vkg_plan_params *p, vkg_plan **out, vkg_status *st)
{
	return plan_build(dev, p, NULL, out, st);
}

int vkg_plan_kernels(vkg_device *dev, const vkg_plan_params *params, vkg_kernel_set *out, vkg_status *st)
{
	vkg_plan_params q = *params;
	vkg_plan *plan = NULL;
	int rc;
	VKG_FORK_GUARD(st);
	if (!vkg_plan_kernels_supported())
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0, "this backend's kernels cannot be generated without compiling them");
	q.load_blob = NULL;
	q.load_bytes = 0;
	q.save = 0;
	q.kernels = NULL;
	rc = plan_build(dev, &q, out, &plan, st);
	if (rc == VKG_OK)
		vkg_plan_destroy(plan);
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
	int entered;
	VKG_FORK_GUARD_VOID();
	if (!plan)
		return;
	/* deleteVkFFT frees device memory, which on CUDA needs the context current */
	entered = vkg_ctx_enter(plan->dev, &st) == VKG_OK;
	/* the plan's buffers go back to the allocation cache: nothing may still use them */
	if (plan->order_ev) {
		vkg_event_sync(plan->dev, plan->order_ev, &st);
		vkg_event_destroy(plan->dev, plan->order_ev);
	}
	if (plan->device_pending)
		vkg_device_sync(plan->dev, &st);
#if VKFFT_BACKEND == 0
	vk_plan_quiesce(plan); /* deleteVkFFT destroys pipelines and buffers the queue may use */
#endif
	deleteVkFFT(plan->app);
	if (entered)
		vkg_ctx_leave(plan->dev);
#if VKFFT_BACKEND == 0
	vk_plan_free(plan);
#endif
	vkg_herm_free(&plan->herm);
	free(plan->app);
	free(plan);
}

int vkg_plan_run_device(vkg_plan *plan, int inverse, vkg_mem buffer, vkg_mem real_buffer,
			vkg_mem copy_from, uint64_t queue, vkg_status *st)
{
	vkg_status release_st;
	int rc = vkg_ctx_enter(plan->dev, st), r2;
	if (rc)
		return rc;
	rc = order_claim(plan, queue, st);
	if (rc == VKG_OK && copy_from)
		rc = vkg_mem_copy_on(plan->dev, queue, buffer, copy_from, plan->buffer_size, st);
	if (rc == VKG_OK)
		rc = enqueue(plan, inverse, buffer, real_buffer, queue, st);
#if VKFFT_BACKEND == 0
	/* the caller returns with the work queued: start it unless the queue is busy */
	if (rc == VKG_OK)
		rc = vkg_be->queue_kick(plan->dev, queue, st);
#endif
	r2 = order_release(plan, queue, rc == VKG_OK ? st : &release_st);
	if (rc == VKG_OK)
		rc = r2;
	vkg_ctx_leave(plan->dev);
	return rc;
}

int vkg_plan_run_out_in(vkg_plan *plan, int inverse, vkg_mem out, vkg_mem in, vkg_status *st)
{
	return vkg_plan_run_out_in_oop(plan, NULL, inverse, out, in, st);
}

/* run_full_device: a whole-spectrum plan on device memory; in is scratch for an inverse
 * (WIDEN transforms it in place; EXPAND's C2R may use the plan's half spectrum). */
static int run_full_device(vkg_plan *plan, int inverse, vkg_mem out, vkg_mem in, vkg_status *st)
{
	vkg_status release_st;
	vkg_mem real = inverse ? out : in, spectrum = inverse ? in : out;
	int rc = vkg_ctx_enter(plan->dev, st), r2;
	if (rc)
		return rc;
	rc = order_claim(plan, 0, st);
	if (rc == VKG_OK)
		rc = full_steps(plan, inverse, real, spectrum, spectrum, 0, st);
#if VKFFT_BACKEND == 0
	if (rc == VKG_OK)
		rc = vkg_be->queue_kick(plan->dev, 0, st);
#endif
	r2 = order_release(plan, 0, rc == VKG_OK ? st : &release_st);
	if (rc == VKG_OK)
		rc = r2;
	vkg_ctx_leave(plan->dev);
	return rc;
}

int vkg_plan_run_out_in_oop(vkg_plan *plan, vkg_plan *oop, int inverse, vkg_mem out, vkg_mem in, vkg_status *st)
{
	const vkg_plan_params *p = &plan->params;
	if (plan->full.mode != VKG_FULL_NONE) {
		if (out == in)
			return vkg_fail(st, VKG_ERR_INVALID, 0,
					"a whole-spectrum plan transforms real data to complex: out must differ from in");
		return run_full_device(plan, inverse, out, in, st);
	}
	if (p->real_inplace) {
		if (out != in)
			return vkg_fail(st, VKG_ERR_INVALID, 0,
					"an in-place R2C plan transforms one buffer: out must equal in");
		return vkg_plan_run_device(plan, inverse, out, 0, 0, 0, st);
	}
	if (p->kind == VKG_R2C)
		return inverse ? vkg_plan_run_device(plan, 1, in, out, 0, 0, st)
			       : vkg_plan_run_device(plan, 0, out, in, 0, 0, st);
	if (p->strided) /* in through VkFFT's formatted input, out in its buffer */
		return vkg_plan_run_device(plan, inverse, out, in, 0, 0, st);
	if (oop && out != in && oop->params.out_of_place) /* in is its input buffer: read only */
		return vkg_plan_run_device(oop, inverse, out, in, 0, 0, st);
	return vkg_plan_run_device(plan, inverse, out, 0, out == in ? 0 : in, 0, st);
}

/* ---- stages: runs with explicit buffers (vkg_core_fuse.h) ---- */

#if VKFFT_BACKEND == 0
int vkg_plan_run_io(vkg_plan *plan, int inverse, uint64_t queue, vkg_mem buffer, vkg_mem input,
		    uint64_t input_off, vkg_mem output, uint64_t output_off, vkg_status *st)
{
	struct vkg_stage_state *s = &plan->stage;
	int out_in_buffer = s->cfg.conv == VKG_CONV_APPLY && !s->cfg.separate_output && !s->cfg.return_to_input;
	vk_stage_run run = {0};
	vkg_status release_st;
	int rc, r2;

	if (out_in_buffer && output)
		buffer = output;
	run.buffer = buffer ? native_mem(buffer) : plan->buffer;
	if (s->cfg.separate_input)
		run.input = input ? native_mem(input) : s->input;
	else if (plan->params.kind == VKG_R2C)
		run.input = input ? native_mem(input) : plan->real;
	if (s->cfg.separate_output)
		run.output = output ? native_mem(output) : s->output;
	if (s->cfg.offsets_at_launch) {
		run.input_off = input_off;
		run.output_off = output_off;
		if (out_in_buffer)
			run.buffer_off = output_off;
	}
	rc = order_claim(plan, queue, st);
	if (rc)
		return rc;
	rc = vk_run_stages(plan, inverse, queue, &run, st);
	if (rc == VKG_OK)
		rc = vkg_be->queue_kick(plan->dev, queue, st);
	r2 = order_release(plan, queue, rc ? &release_st : st);
	return rc ? rc : r2;
}
#else
int vkg_plan_run_io(vkg_plan *plan, int inverse, uint64_t queue, vkg_mem buffer, vkg_mem input,
		    uint64_t input_off, vkg_mem output, uint64_t output_off, vkg_status *st)
{
	VkFFTLaunchParams lp = VKFFT_ZERO_INIT;
	VkFFTResult r;
	vkg_status release_st;
	int rc, r2;
	struct vkg_stage_state *s = &plan->stage;
	/* a convolution with neither an output buffer nor a return to its input leaves the
	 * result in buffer (several kernels): output names that buffer */
	int out_in_buffer = s->cfg.conv == VKG_CONV_APPLY && !s->cfg.separate_output && !s->cfg.return_to_input;

	if (out_in_buffer && output)
		buffer = output;
	plan->launch_buffer = buffer ? native_mem(buffer) : plan->buffer;
	lp.buffer = &plan->launch_buffer;
	if (s->cfg.separate_input) {
		s->launch_input = input ? native_mem(input) : s->input;
		lp.inputBuffer = &s->launch_input;
	} else if (plan->params.kind == VKG_R2C) {
		plan->launch_real = input ? native_mem(input) : plan->real;
		lp.inputBuffer = &plan->launch_real;
	}
	if (s->cfg.separate_output) {
		s->launch_output = output ? native_mem(output) : s->output;
		lp.outputBuffer = &s->launch_output;
	}
	if (s->cfg.offsets_at_launch) {
		lp.inputBufferOffset = input_off;
		lp.outputBufferOffset = output_off;
		if (out_in_buffer)
			lp.bufferOffset = output_off;
	}
#if VKFFT_BACKEND == 1
	plan->launch_queue = queue ? (cudaStream_t)(uintptr_t)queue : *(cudaStream_t *)plan->native.queue;
#elif VKFFT_BACKEND == 3
	plan->launch_queue = queue ? (cl_command_queue)(uintptr_t)queue
				   : *(cl_command_queue *)plan->native.queue;
	lp.commandQueue = &plan->launch_queue;
#endif
	rc = order_claim(plan, queue, st);
	if (rc)
		return rc;
	vkg_log_reset();
	r = VkFFTAppend(plan->app, inverse ? 1 : -1, &lp);
	if (r != VKFFT_SUCCESS)
		rc = vkg_vkfft_fail(st, r, s->cfg.conv == VKG_CONV_APPLY ? "convolution failed"
					    : inverse ? "inverse FFT failed" : "forward FFT failed");
	r2 = order_release(plan, queue, rc ? &release_st : st);
	return rc ? rc : r2;
}
#endif

int vkg_plan_run_io_wait(vkg_plan *plan, int inverse, vkg_mem buffer, vkg_mem input, vkg_mem output,
			 int wait, vkg_status *st)
{
	int rc = vkg_ctx_enter(plan->dev, st);
	if (rc)
		return rc;
	rc = vkg_plan_run_io(plan, inverse, 0, buffer, input, 0, output, 0, st);
	if (rc == VKG_OK && wait)
		rc = vkg_queue_sync(plan->dev, 0, st);
	vkg_ctx_leave(plan->dev);
	return rc;
}

int vkg_plan_fused_kernels(vkg_plan *plan) { return plan->stage.fused; }

int vkg_plan_hermitian_launches(const vkg_plan *plan)
{
	return plan->herm.needed && plan->herm.k ? plan->herm.nlaunches : 0;
}

int vkg_plan_axis_uploads(vkg_plan *plan)
{
	return plan->app->localFFTPlan ? (int)plan->app->localFFTPlan->numAxisUploads[0]
				       : (int)plan->app->localFFTPlan_inverse->numAxisUploads[0];
}

int vkg_plan_passes(vkg_plan *plan, int inverse)
{
	VkFFTApplication *app = plan->app;
	VkFFTPlan *p = inverse ? app->localFFTPlan_inverse : app->localFFTPlan;
	double scale = inverse ? plan->params.inverse_scale : plan->params.forward_scale;
	pfUINT i;
	int n = 0;
	if (!p)
		return 0;
	/* as VkFFTAppend dispatches them (vkFFT_RunApp.h) */
	for (i = 0; i < app->configuration.FFTdim; i++) {
		int uploads = (int)p->numAxisUploads[i];
		if (app->configuration.omitDimension[i])
			continue;
		n += uploads;
		if (app->useBluesteinFFT[i] && uploads > 1)
			n += uploads - 1;
	}
	if (p->bigSequenceEvenR2C)
		n++;
	if (scale != 0.0 && scale != 1.0)
		n++;
	return n;
}

uint64_t vkg_plan_own_bytes(vkg_plan *plan)
{
	VkFFTConfiguration *c = &plan->app->configuration;
	if (c->allocateTempBuffer && c->tempBufferSize)
		return c->tempBufferSize[0];
	return 0;
}
