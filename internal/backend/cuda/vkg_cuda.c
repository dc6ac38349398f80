/* vkg_cuda.c — devices and memory through the CUDA driver API (VKFFT_BACKEND 1).
 *
 * A device is the GPU's primary context (retained once at open, released once at close),
 * so pointers from CuPy, PyTorch or cuBLAS are valid here, plus one non-blocking stream.
 * VkFFT never sets a context: it uses the calling thread's, in init, append and delete.
 * Goroutines move between OS threads, and a C host may have its own context current, so
 * every entry point pushes the device's context and pops it before returning
 * (vkg_cu_ctx_enter/leave), inside one C call. Uses only driver API calls whose signatures
 * are the same in CUDA 12 and 13.
 */
#include <cuda.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkg_cuda.h"

struct vkg_device {
	CUdevice device;
	CUcontext ctx;
	int ordinal;
	int primary; /* ctx is the retained primary context: release it at close */
	CUstream stream;
	int borrowed_stream; /* stream is the caller's (vkg_cu_device_open_ctx_stream): never destroyed */
	vkg_device_info info;
	/* the normalisation kernels, loaded on first use */
	pthread_mutex_t scale_mu;
	CUmodule scale_mod;
	CUfunction scale_f, scale_d;
};


static int cu_fail(vkg_status *st, CUresult r, const char *what)
{
	const char *name = NULL, *desc = NULL;
	int code = VKG_ERR_BACKEND;
	cuGetErrorName(r, &name);
	cuGetErrorString(r, &desc);
	if (r == CUDA_ERROR_OUT_OF_MEMORY)
		code = VKG_ERR_OUT_OF_MEMORY;
	else if (r == CUDA_ERROR_NO_DEVICE || r == CUDA_ERROR_INVALID_DEVICE || r == CUDA_ERROR_STUB_LIBRARY ||
		 r == CUDA_ERROR_NOT_INITIALIZED || r == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)
		code = VKG_ERR_NO_DEVICE;
	return vkg_fail(st, code, (int)r, "CUDA %s failed: %s (%s)", what, name ? name : "?",
			desc ? desc : "unknown error");
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static char load_err[1024];
static int load_failed;
static CUresult init_result;

/* do_init opens the driver (vkg_cuda_load.c) and initialises it, once. */
static void do_init(void)
{
	load_failed = vkg_cuda_load_driver(load_err, sizeof load_err) != 0;
	if (!load_failed)
		init_result = cuInit(0);
}

static int cu_init(vkg_status *st)
{
	pthread_once(&init_once, do_init);
	if (load_failed)
		return vkg_fail(st, VKG_ERR_NO_DEVICE, 0, "%s", load_err);
	if (init_result != CUDA_SUCCESS)
		return cu_fail(st, init_result, "cuInit (is the NVIDIA driver installed?)");
	return VKG_OK;
}

/* Kernels are compiled by NVRTC, opened with the first device. */
static int nvrtc_init(vkg_status *st)
{
	char err[1024];
	if (vkg_cuda_load_nvrtc(err, sizeof err))
		return vkg_fail(st, VKG_ERR_NO_DEVICE, 0, "%s", err);
	return VKG_OK;
}

int vkg_cu_device_count(vkg_status *st)
{
	int n = 0;
	CUresult r;
	pthread_once(&init_once, do_init);
	if (!load_failed && init_result == CUDA_ERROR_NO_DEVICE)
		return 0;
	if (cu_init(st))
		return -st->code;
	r = cuDeviceGetCount(&n);
	if (r != CUDA_SUCCESS)
		return -cu_fail(st, r, "cuDeviceGetCount");
	return n;
}

static int fill_info(CUdevice d, vkg_device_info *info, vkg_status *st)
{
	size_t mem = 0;
	int v = 0;
	CUresult r;
	memset(info, 0, sizeof *info);
	r = cuDeviceGetName(info->name, sizeof info->name - 1, d);
	if (r != CUDA_SUCCESS)
		return cu_fail(st, r, "cuDeviceGetName");
	snprintf(info->vendor, sizeof info->vendor, "NVIDIA Corporation");
	snprintf(info->platform, sizeof info->platform, "CUDA");
	cuDriverGetVersion(&v);
	snprintf(info->driver, sizeof info->driver, "CUDA %d.%d", v / 1000, v % 1000 / 10);
	cuDeviceTotalMem(&mem, d);
	info->global_mem = mem;
	info->max_alloc = mem;
	info->vendor_id = 0x10de;
	cuDeviceGetAttribute(&info->compute_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d);
	cuDeviceGetAttribute(&info->compute_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d);
	info->fp64 = 1;
	info->fp16 = 1; /* every GPU CUDA 12 supports (sm_50+) stores and converts half */
	info->float_atomics = 1;
	return VKG_OK;
}

static int get_device(int ordinal, CUdevice *d, vkg_status *st)
{
	int n;
	CUresult r;
	if (cu_init(st))
		return st->code;
	n = vkg_cu_device_count(st);
	if (n < 0)
		return -n;
	if (ordinal < 0 || ordinal >= n) {
		if (n == 0)
			return vkg_fail(st, VKG_ERR_NO_DEVICE, 0, "no CUDA device found");
		return vkg_fail(st, VKG_ERR_NO_DEVICE, 0, "no CUDA device %d: there are %d", ordinal, n);
	}
	r = cuDeviceGet(d, ordinal);
	return r == CUDA_SUCCESS ? VKG_OK : cu_fail(st, r, "cuDeviceGet");
}

int vkg_cu_device_query(int ordinal, vkg_device_info *info, vkg_status *st)
{
	CUdevice d;
	int rc = get_device(ordinal, &d, st);
	return rc ? rc : fill_info(d, info, st);
}

/* Creates the device's stream inside ctx; the device struct is filled but for it. */
static int finish_open(vkg_device *dev, vkg_status *st)
{
	CUresult r;
	CUcontext prev;
	int rc = fill_info(dev->device, &dev->info, st);
	if (rc)
		return rc;
	r = cuCtxPushCurrent(dev->ctx);
	if (r != CUDA_SUCCESS)
		return cu_fail(st, r, "cuCtxPushCurrent");
	/* non-blocking: no implicit ordering with the legacy default stream of the host */
	r = dev->borrowed_stream ? CUDA_SUCCESS : cuStreamCreate(&dev->stream, CU_STREAM_NON_BLOCKING);
	cuCtxPopCurrent(&prev);
	if (r != CUDA_SUCCESS)
		return cu_fail(st, r, "cuStreamCreate");
	pthread_mutex_init(&dev->scale_mu, NULL);
	return VKG_OK;
}

int vkg_cu_device_open(int ordinal, vkg_device **out, vkg_status *st)
{
	vkg_device *dev;
	CUresult r;
	int rc;

	*out = NULL;
	dev = calloc(1, sizeof *dev);
	if (!dev)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	rc = get_device(ordinal, &dev->device, st);
	if (rc == VKG_OK)
		rc = nvrtc_init(st);
	if (rc) {
		free(dev);
		return rc;
	}
	dev->ordinal = ordinal;
	r = cuDevicePrimaryCtxRetain(&dev->ctx, dev->device);
	if (r != CUDA_SUCCESS) {
		free(dev);
		return cu_fail(st, r, "cuDevicePrimaryCtxRetain");
	}
	dev->primary = 1;
	rc = finish_open(dev, st);
	if (rc) {
		cuDevicePrimaryCtxRelease(dev->device);
		free(dev);
		return rc;
	}
	*out = dev;
	return VKG_OK;
}

int vkg_cu_device_open_ctx_stream(uint64_t ctx, uint64_t stream, vkg_device **out, vkg_status *st)
{
	vkg_device *dev;
	CUcontext prev;
	CUresult r;
	int rc, n, i;

	*out = NULL;
	if (!ctx)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "nil CUDA context");
	if (cu_init(st) || nvrtc_init(st))
		return st->code;
	dev = calloc(1, sizeof *dev);
	if (!dev)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	dev->ctx = (CUcontext)(uintptr_t)ctx;
	dev->stream = (CUstream)(uintptr_t)stream;
	dev->borrowed_stream = stream != 0;
	r = cuCtxPushCurrent(dev->ctx);
	if (r != CUDA_SUCCESS) {
		free(dev);
		return cu_fail(st, r, "cuCtxPushCurrent (is the context valid?)");
	}
	r = cuCtxGetDevice(&dev->device);
	cuCtxPopCurrent(&prev);
	if (r != CUDA_SUCCESS) {
		free(dev);
		return cu_fail(st, r, "cuCtxGetDevice");
	}
	dev->ordinal = -1;
	n = vkg_cu_device_count(st);
	for (i = 0; i < n; i++) {
		CUdevice d;
		if (cuDeviceGet(&d, i) == CUDA_SUCCESS && d == dev->device) {
			dev->ordinal = i;
			break;
		}
	}
	rc = finish_open(dev, st);
	if (rc) {
		free(dev);
		return rc;
	}
	*out = dev;
	return VKG_OK;
}

void vkg_cu_device_close(vkg_device *dev)
{
	CUcontext prev;
	if (!dev)
		return;
	if (cuCtxPushCurrent(dev->ctx) == CUDA_SUCCESS) {
		cuStreamSynchronize(dev->stream);
		if (dev->scale_mod)
			cuModuleUnload(dev->scale_mod);
		if (!dev->borrowed_stream)
			cuStreamDestroy(dev->stream);
		cuCtxPopCurrent(&prev);
	}
	if (dev->primary)
		cuDevicePrimaryCtxRelease(dev->device);
	pthread_mutex_destroy(&dev->scale_mu);
	free(dev);
}

const vkg_device_info *vkg_cu_device_info(const vkg_device *dev) { return &dev->info; }

void vkg_cu_device_native(vkg_device *dev, vkg_native *out)
{
	memset(out, 0, sizeof *out);
	out->device = &dev->device;
	out->context = &dev->ctx;
	out->queue = &dev->stream;
	out->api = &vkg_cuda_fns;
}

uint64_t vkg_cu_device_handle(const vkg_device *dev, int which)
{
	switch (which) {
	case VKG_HANDLE_CONTEXT:
		return (uint64_t)(uintptr_t)dev->ctx;
	case VKG_HANDLE_QUEUE:
		return (uint64_t)(uintptr_t)dev->stream;
	case VKG_HANDLE_DEVICE:
		return (uint64_t)dev->device;
	case VKG_HANDLE_ORDINAL:
		return (uint64_t)(int64_t)dev->ordinal;
	}
	return 0;
}

int vkg_cu_ctx_enter(vkg_device *dev, vkg_status *st)
{
	CUresult r = cuCtxPushCurrent(dev->ctx);
	return r == CUDA_SUCCESS ? VKG_OK : cu_fail(st, r, "cuCtxPushCurrent");
}

void vkg_cu_ctx_leave(vkg_device *dev)
{
	CUcontext prev;
	(void)dev;
	cuCtxPopCurrent(&prev);
}

static CUstream stream_of(vkg_device *dev, uint64_t queue)
{
	return queue ? (CUstream)(uintptr_t)queue : dev->stream;
}

int vkg_cu_mem_alloc(vkg_device *dev, uint64_t bytes, vkg_mem *out, vkg_status *st)
{
	CUdeviceptr p = 0;
	CUresult r;
	(void)dev;
	*out = 0;
	if (bytes == 0)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "zero-byte allocation");
	r = cuMemAlloc(&p, bytes);
	if (r != CUDA_SUCCESS)
		return cu_fail(st, r, "cuMemAlloc");
	*out = (vkg_mem)p;
	return VKG_OK;
}

void vkg_cu_mem_free(vkg_device *dev, vkg_mem mem)
{
	(void)dev;
	if (mem)
		cuMemFree((CUdeviceptr)mem);
}

int vkg_cu_mem_write(vkg_device *dev, vkg_mem dst, uint64_t off, const void *src, uint64_t bytes,
		  vkg_status *st)
{
	/* from pageable memory the driver stages src before returning: it is not kept */
	CUresult r = cuMemcpyHtoDAsync((CUdeviceptr)(dst + off), src, bytes, dev->stream);
	return r == CUDA_SUCCESS ? VKG_OK : cu_fail(st, r, "cuMemcpyHtoDAsync");
}

int vkg_cu_mem_read(vkg_device *dev, void *dst, vkg_mem src, uint64_t off, uint64_t bytes, vkg_status *st)
{
	CUresult r = cuMemcpyDtoHAsync(dst, (CUdeviceptr)(src + off), bytes, dev->stream);
	if (r != CUDA_SUCCESS)
		return cu_fail(st, r, "cuMemcpyDtoHAsync");
	r = cuStreamSynchronize(dev->stream);
	return r == CUDA_SUCCESS ? VKG_OK : cu_fail(st, r, "cuStreamSynchronize");
}

int vkg_cu_mem_copy_on(vkg_device *dev, uint64_t queue, vkg_mem dst, vkg_mem src, uint64_t bytes,
		    vkg_status *st)
{
	CUresult r = cuMemcpyDtoDAsync((CUdeviceptr)dst, (CUdeviceptr)src, bytes, stream_of(dev, queue));
	return r == CUDA_SUCCESS ? VKG_OK : cu_fail(st, r, "cuMemcpyDtoDAsync");
}

int vkg_cu_device_sync(vkg_device *dev, vkg_status *st)
{
	return vkg_cu_queue_sync(dev, 0, st);
}

int vkg_cu_queue_sync(vkg_device *dev, uint64_t queue, vkg_status *st)
{
	CUresult r = cuStreamSynchronize(stream_of(dev, queue));
	return r == CUDA_SUCCESS ? VKG_OK : cu_fail(st, r, "cuStreamSynchronize");
}

int vkg_cu_device_mem_info(vkg_device *dev, uint64_t *free_bytes, uint64_t *total_bytes, vkg_status *st)
{
	size_t f = 0, t = 0;
	CUresult r;
	int rc = vkg_cu_ctx_enter(dev, st);
	if (rc)
		return rc;
	r = cuMemGetInfo(&f, &t);
	vkg_cu_ctx_leave(dev);
	*free_bytes = f;
	*total_bytes = t;
	return r == CUDA_SUCCESS ? VKG_OK : cu_fail(st, r, "cuMemGetInfo");
}

/* a[i] *= s for i < n; PTX, so no NVRTC run is needed: the driver compiles it for the
 * GPU at load */
static const char scale_ptx[] =
	".version 6.0\n"
	".target sm_50\n"
	".address_size 64\n"
	".visible .entry vkg_scale_f(.param .u64 p_a, .param .f32 p_s, .param .u64 p_n)\n"
	"{\n"
	"	.reg .pred %p<2>;\n"
	"	.reg .b32 %r<4>;\n"
	"	.reg .b64 %rd<8>;\n"
	"	.reg .f32 %f<3>;\n"
	"	ld.param.u64 %rd1, [p_a];\n"
	"	ld.param.f32 %f1, [p_s];\n"
	"	ld.param.u64 %rd2, [p_n];\n"
	"	mov.u32 %r1, %ctaid.x;\n"
	"	mov.u32 %r2, %ntid.x;\n"
	"	mov.u32 %r3, %tid.x;\n"
	"	cvt.u64.u32 %rd3, %r3;\n"
	"	mad.wide.u32 %rd4, %r1, %r2, %rd3;\n"
	"	setp.ge.u64 %p1, %rd4, %rd2;\n"
	"	@%p1 bra DONE_F;\n"
	"	cvta.to.global.u64 %rd5, %rd1;\n"
	"	shl.b64 %rd6, %rd4, 2;\n"
	"	add.s64 %rd7, %rd5, %rd6;\n"
	"	ld.global.f32 %f2, [%rd7];\n"
	"	mul.rn.f32 %f2, %f2, %f1;\n"
	"	st.global.f32 [%rd7], %f2;\n"
	"DONE_F:\n"
	"	ret;\n"
	"}\n"
	".visible .entry vkg_scale_d(.param .u64 p_a, .param .f64 p_s, .param .u64 p_n)\n"
	"{\n"
	"	.reg .pred %p<2>;\n"
	"	.reg .b32 %r<4>;\n"
	"	.reg .b64 %rd<8>;\n"
	"	.reg .f64 %fd<3>;\n"
	"	ld.param.u64 %rd1, [p_a];\n"
	"	ld.param.f64 %fd1, [p_s];\n"
	"	ld.param.u64 %rd2, [p_n];\n"
	"	mov.u32 %r1, %ctaid.x;\n"
	"	mov.u32 %r2, %ntid.x;\n"
	"	mov.u32 %r3, %tid.x;\n"
	"	cvt.u64.u32 %rd3, %r3;\n"
	"	mad.wide.u32 %rd4, %r1, %r2, %rd3;\n"
	"	setp.ge.u64 %p1, %rd4, %rd2;\n"
	"	@%p1 bra DONE_D;\n"
	"	cvta.to.global.u64 %rd5, %rd1;\n"
	"	shl.b64 %rd6, %rd4, 3;\n"
	"	add.s64 %rd7, %rd5, %rd6;\n"
	"	ld.global.f64 %fd2, [%rd7];\n"
	"	mul.rn.f64 %fd2, %fd2, %fd1;\n"
	"	st.global.f64 [%rd7], %fd2;\n"
	"DONE_D:\n"
	"	ret;\n"
	"}\n";

static int load_scale(vkg_device *dev, vkg_status *st)
{
	CUresult r = cuModuleLoadData(&dev->scale_mod, scale_ptx);
	if (r != CUDA_SUCCESS) {
		dev->scale_mod = NULL;
		return cu_fail(st, r, "loading the normalisation kernel");
	}
	if ((r = cuModuleGetFunction(&dev->scale_f, dev->scale_mod, "vkg_scale_f")) != CUDA_SUCCESS ||
	    (r = cuModuleGetFunction(&dev->scale_d, dev->scale_mod, "vkg_scale_d")) != CUDA_SUCCESS) {
		cuModuleUnload(dev->scale_mod);
		dev->scale_mod = NULL;
		return cu_fail(st, r, "cuModuleGetFunction");
	}
	return VKG_OK;
}

int vkg_cu_mem_scale_on(vkg_device *dev, uint64_t queue, vkg_mem mem, uint64_t n, int double_precision,
		     double factor, vkg_status *st)
{
	CUdeviceptr p = (CUdeviceptr)mem;
	float sf = (float)factor;
	unsigned long long cn = n;
	void *args[3];
	const unsigned threads = 256;
	uint64_t blocks = (n + threads - 1) / threads;
	CUresult r;
	int rc = VKG_OK;

	if (n == 0)
		return VKG_OK;
	if (blocks > 0x7fffffffu)
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0, "%llu elements are too many to scale in one launch",
				(unsigned long long)n);
	pthread_mutex_lock(&dev->scale_mu);
	if (!dev->scale_mod)
		rc = load_scale(dev, st);
	pthread_mutex_unlock(&dev->scale_mu);
	if (rc)
		return rc;
	args[0] = &p;
	args[1] = double_precision ? (void *)&factor : (void *)&sf;
	args[2] = &cn;
	r = cuLaunchKernel(double_precision ? dev->scale_d : dev->scale_f, (unsigned)blocks, 1, 1, threads, 1, 1,
			   0, stream_of(dev, queue), args, NULL);
	return r == CUDA_SUCCESS ? VKG_OK : cu_fail(st, r, "scaling the output (cuLaunchKernel)");
}

void vkg_cu_runtime_libraries(const char **driver, const char **nvrtc, int *nvrtc_major, int *nvrtc_minor)
{
	*driver = vkg_cuda_driver_path();
	*nvrtc = vkg_cuda_nvrtc_path();
	*nvrtc_major = *nvrtc_minor = 0;
	if (**nvrtc && nvrtcVersion(nvrtc_major, nvrtc_minor) != NVRTC_SUCCESS)
		*nvrtc_major = *nvrtc_minor = 0;
}

const char *vkg_cu_compiler_ident(void)
{
	static char ident[64];
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	int major = 0, minor = 0;
	pthread_mutex_lock(&mu);
	if (vkg_cuda_nvrtc_path()[0] && nvrtcVersion(&major, &minor) == NVRTC_SUCCESS)
		snprintf(ident, sizeof ident, "nvrtc %d.%d", major, minor);
	else
		snprintf(ident, sizeof ident, "nvrtc unknown");
	pthread_mutex_unlock(&mu);
	return ident;
}
