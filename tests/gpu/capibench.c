/* capibench.c — the C API against raw VkFFT C, in one process on one GPU (cuda build):
 *
 *  1. per call, 1-D 1024 C2C single, in place on device memory, 20,000 calls: enqueue
 *     only, and enqueue + synchronize per call. Raw: VkFFTAppend on an application of
 *     the same configuration as the binding's (normalize, LUT, non-blocking stream,
 *     primary context). C API: vkfftgo_execute_buffer and vkfftgo_execute_cu, synchronized
 *     with vkfftgo_device_sync and with cuStreamSynchronize on the device's stream.
 *     Goal: C API <= raw + 0.5 us.
 *     Then the synchronize calls on an idle queue (vkfftgo_device_sync, vkfftgo_stream_wait
 *     against cuStreamSynchronize) and the convolutions' and spectrometer's per-call
 *     functions against the raw calls they make: a 1-D 1024 C2C convolution
 *     (vkfftgo_convolution_apply_buffer, in place, and vkfftgo_convolution_apply of host
 *     memory, against VkFFTAppend of a raw convolution application of the same
 *     configuration, with its copies), a 1-D 1024 complex int8 spectrometer
 *     (accumulate_buffer against VkFFTAppend of its FFT: the fused spectrometer launches
 *     the FFT's kernels and no other; read against a 4 KiB download and wait; reset
 *     against a 4 KiB cudaMemsetAsync). Same goal.
 *  2. host round trips (upload, forward, download, wait) of 256^3 and 4096^2 c64: raw
 *     from cudaMallocHost memory, the C API from malloc'd memory registered with
 *     vkfftgo_host_register, and from the same memory unregistered (staged).
 *     Goal: registered <= 1.05 x raw pinned.
 *  3. host-fed spectrometer, complex int8, 512 MiB of samples per call (4096 x 65536,
 *     65536 x 4096, 2^20 x 256): vkfftgo_spectrometer_accumulate from malloc'd memory
 *     registered with vkfftgo_host_register and from the same memory unregistered
 *     (staged), against the host-to-device DMA rate of the same bytes from cudaMallocHost
 *     memory, measured in the same round. Goal: registered >= 0.9 x the DMA rate.
 *
 * Rounds alternate raw and C API and the median of 7 rounds is printed, as lines
 * "percall NAME raw_us X capi_us Y diff_us Z" and "roundtrip NAME raw_pinned_ms X
 * registered_ms Y staged_ms Z ratio R", then Markdown tables. Built by make gpu-bundle
 * against the bundle's libvkfftgo.so (cuda) and the VkFFT headers; it includes vkFFT.h
 * itself for the raw baseline, with the library's own VKFFT_BACKEND (1). */
#define _POSIX_C_SOURCE 200809L
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vkFFT.h>
#include <vkfftgo.h>

#define ROUNDS 7

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

#define CK(x)                                                                                      \
	do {                                                                                       \
		long e_ = (long)(x);                                                               \
		if (e_) {                                                                          \
			fprintf(stderr, "%s:%d: %s failed: %ld (%s)\n", __FILE__, __LINE__, #x, e_,  \
				vkfftgo_last_error());                                             \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	return v[n / 2];
}

/* ---- raw VkFFT ---- */
static CUdevice cudev;
static cudaStream_t stream;

typedef struct {
	VkFFTApplication app;
	void *buf;
	pfUINT size;
} raw_plan;

static void raw_make(raw_plan *p, int rank, const long *shape)
{
	VkFFTConfiguration c;
	long n = 1;
	int i;
	memset(p, 0, sizeof *p);
	memset(&c, 0, sizeof c);
	for (i = 0; i < rank; i++)
		n *= shape[i];
	p->size = (pfUINT)n * 8;
	CK(cudaMalloc(&p->buf, p->size));
	CK(cudaMemset(p->buf, 0, p->size));
	c.FFTdim = (pfUINT)rank;
	for (i = 0; i < rank; i++)
		c.size[i] = (pfUINT)shape[rank - 1 - i];
	c.numberBatches = 1;
	c.normalize = 1;
	c.useLUT = 1;
	c.device = &cudev;
	c.stream = &stream;
	c.num_streams = 1;
	c.buffer = &p->buf;
	c.bufferSize = &p->size;
	CK(initializeVkFFT(&p->app, c));
	CK(cudaDeviceSynchronize());
}

static void raw_append(raw_plan *p)
{
	VkFFTLaunchParams lp;
	memset(&lp, 0, sizeof lp);
	lp.buffer = &p->buf;
	CK(VkFFTAppend(&p->app, -1, &lp));
}

static void raw_destroy(raw_plan *p)
{
	deleteVkFFT(&p->app);
	cudaFree(p->buf);
}

/* ---- the per-call table ---- */
enum { RAW_ENQ, RAW_SYNC, BUF_ENQ, BUF_DEVSYNC, BUF_STREAMSYNC, CU_ENQ, CU_STREAMSYNC, NCASES };
static const char *case_name[NCASES] = {
	"raw VkFFTAppend",
	"raw VkFFTAppend + cuStreamSynchronize",
	"vkfftgo_execute_buffer",
	"vkfftgo_execute_buffer + vkfftgo_device_sync",
	"vkfftgo_execute_buffer + cuStreamSynchronize",
	"vkfftgo_execute_cu",
	"vkfftgo_execute_cu + cuStreamSynchronize",
};

static double time_case(int k, raw_plan *raw, vkfftgo_plan *p, vkfftgo_buffer *b, uint64_t ptr, vkfftgo_device *d,
			CUstream s, int calls)
{
	double t0 = now_us();
	int i;
	for (i = 0; i < calls; i++) {
		switch (k) {
		case RAW_ENQ: raw_append(raw); break;
		case RAW_SYNC: raw_append(raw); CK(cuStreamSynchronize((CUstream)stream)); break;
		case BUF_ENQ: CK(vkfftgo_execute_buffer(p, VKFFTGO_FORWARD, b, b)); break;
		case BUF_DEVSYNC:
			CK(vkfftgo_execute_buffer(p, VKFFTGO_FORWARD, b, b));
			CK(vkfftgo_device_sync(d));
			break;
		case BUF_STREAMSYNC:
			CK(vkfftgo_execute_buffer(p, VKFFTGO_FORWARD, b, b));
			CK(cuStreamSynchronize(s));
			break;
		case CU_ENQ: CK(vkfftgo_execute_cu(p, VKFFTGO_FORWARD, ptr, ptr)); break;
		case CU_STREAMSYNC:
			CK(vkfftgo_execute_cu(p, VKFFTGO_FORWARD, ptr, ptr));
			CK(cuStreamSynchronize(s));
			break;
		}
	}
	t0 = now_us() - t0;
	/* enqueue-only rounds end with the queue drained, outside the timing */
	CK(cuStreamSynchronize(k <= RAW_SYNC ? (CUstream)stream : s));
	return t0 / calls;
}

static void per_call(vkfftgo_device *d)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p;
	vkfftgo_buffer *b;
	struct CUstream_st *s;
	uint64_t ptr;
	raw_plan raw;
	long n = 1024;
	double t[NCASES][ROUNDS], med[NCASES];
	int r, k;
	const int enq_calls = 20000, sync_calls = 5000;

	raw_make(&raw, 1, &n);
	desc.rank = 1;
	desc.shape[0] = 1024;
	CK(vkfftgo_plan_create(d, &desc, &p));
	CK(vkfftgo_buffer_create(d, 1024 * 8, &b));
	CK(vkfftgo_buffer_cu_ptr(b, &ptr));
	CK(vkfftgo_device_cu_stream(d, &s));
	for (k = 0; k < NCASES; k++) /* warm-up */
		time_case(k, &raw, p, b, ptr, d, (CUstream)s, 1000);
	for (r = 0; r < ROUNDS; r++)
		for (k = 0; k < NCASES; k++) {
			int sync = k == RAW_SYNC || k == BUF_DEVSYNC || k == BUF_STREAMSYNC || k == CU_STREAMSYNC;
			t[k][r] = time_case(k, &raw, p, b, ptr, d, (CUstream)s, sync ? sync_calls : enq_calls);
		}
	for (k = 0; k < NCASES; k++)
		med[k] = median(t[k], ROUNDS);
	for (k = BUF_ENQ; k < NCASES; k++) {
		int sync = k == BUF_DEVSYNC || k == BUF_STREAMSYNC || k == CU_STREAMSYNC;
		double base = med[sync ? RAW_SYNC : RAW_ENQ];
		printf("percall \"%s\" raw_us %.3f capi_us %.3f diff_us %+.3f\n", case_name[k], base, med[k],
		       med[k] - base);
	}
	printf("\n| 1-D 1024 c64, per call (median of %d rounds) | raw C (us) | C API (us) | difference (us) |\n"
	       "|---|---|---|---|\n", ROUNDS);
	for (k = BUF_ENQ; k < NCASES; k++) {
		int sync = k == BUF_DEVSYNC || k == BUF_STREAMSYNC || k == CU_STREAMSYNC;
		double base = med[sync ? RAW_SYNC : RAW_ENQ];
		printf("| %s | %.2f | %.2f | %+.2f |\n", case_name[k], base, med[k], med[k] - base);
	}
	printf("\n");
	fflush(stdout);
	CK(vkfftgo_buffer_destroy(b));
	CK(vkfftgo_plan_destroy(p));
	raw_destroy(&raw);
}

/* ---- synchronize, convolution and spectrometer calls ---- */

/* raw_conv_make: VkFFT's convolution of 1-D n C2C data as the binding configures it (a
 * second axis of 1, a kernel application for the kernel's spectrum, then the
 * convolution application: separate input, result returned to it, normalised, LUT) */
typedef struct {
	VkFFTApplication kapp, app;
	void *kernel, *in, *scratch;
	pfUINT bytes;
} raw_conv;

static void raw_conv_make(raw_conv *r, long n)
{
	VkFFTConfiguration c;
	VkFFTLaunchParams lp;
	memset(r, 0, sizeof *r);
	r->bytes = (pfUINT)n * 8;
	CK(cudaMalloc(&r->kernel, r->bytes));
	CK(cudaMalloc(&r->in, r->bytes));
	CK(cudaMalloc(&r->scratch, r->bytes));
	CK(cudaMemset(r->kernel, 0, r->bytes));
	CK(cudaMemset(r->in, 0, r->bytes));
	memset(&c, 0, sizeof c);
	c.FFTdim = 2;
	c.size[0] = (pfUINT)n;
	c.size[1] = 1;
	c.numberBatches = 1;
	c.useLUT = 1;
	c.device = &cudev;
	c.stream = &stream;
	c.num_streams = 1;
	c.kernelConvolution = 1;
	c.makeForwardPlanOnly = 1;
	c.buffer = &r->kernel;
	c.bufferSize = &r->bytes;
	CK(initializeVkFFT(&r->kapp, c));
	memset(&lp, 0, sizeof lp);
	lp.buffer = &r->kernel;
	CK(VkFFTAppend(&r->kapp, -1, &lp));
	CK(cudaStreamSynchronize(stream));
	memset(&c, 0, sizeof c);
	c.FFTdim = 2;
	c.size[0] = (pfUINT)n;
	c.size[1] = 1;
	c.numberBatches = 1;
	c.normalize = 1;
	c.useLUT = 1;
	c.device = &cudev;
	c.stream = &stream;
	c.num_streams = 1;
	c.performConvolution = 1;
	c.kernel = &r->kernel;
	c.kernelSize = &r->bytes;
	c.isInputFormatted = 1;
	c.inputBuffer = &r->in;
	c.inputBufferSize = &r->bytes;
	c.inverseReturnToInputBuffer = 1;
	c.buffer = &r->scratch;
	c.bufferSize = &r->bytes;
	CK(initializeVkFFT(&r->app, c));
	CK(cudaDeviceSynchronize());
}

static void raw_conv_append(raw_conv *r)
{
	VkFFTLaunchParams lp;
	memset(&lp, 0, sizeof lp);
	lp.buffer = &r->scratch;
	lp.inputBuffer = &r->in;
	CK(VkFFTAppend(&r->app, -1, &lp));
}

static void raw_conv_destroy(raw_conv *r)
{
	deleteVkFFT(&r->kapp);
	deleteVkFFT(&r->app);
	cudaFree(r->kernel);
	cudaFree(r->in);
	cudaFree(r->scratch);
}

enum {
	X_RAW_IDLE, X_RAW_CONV, X_RAW_CONV_SYNC, X_RAW_CONV_HOST, X_RAW_FFT, X_RAW_FFT_SYNC, X_RAW_READ, X_RAW_MEMSET,
	X_DEVSYNC, X_STREAMWAIT, X_CONV, X_CONV_SYNC, X_CONV_HOST, X_SP, X_SP_SYNC, X_SP_READ, X_SP_RESET, NX
};
static const struct {
	const char *name;
	int raw;  /* the case it is measured against (-1: a raw case) */
	int sync; /* synchronizes per call */
} xcase[NX] = {
	[X_RAW_IDLE] = {"raw cuStreamSynchronize, idle stream", -1, 1},
	[X_RAW_CONV] = {"raw VkFFTAppend, convolution", -1, 0},
	[X_RAW_CONV_SYNC] = {"raw VkFFTAppend, convolution + cuStreamSynchronize", -1, 1},
	[X_RAW_CONV_HOST] = {"raw upload + VkFFTAppend, convolution + download + cuStreamSynchronize", -1, 1},
	[X_RAW_FFT] = {"raw VkFFTAppend", -1, 0},
	[X_RAW_FFT_SYNC] = {"raw VkFFTAppend + cuStreamSynchronize", -1, 1},
	[X_RAW_READ] = {"raw 4 KiB download + cuStreamSynchronize", -1, 1},
	[X_RAW_MEMSET] = {"raw 4 KiB cudaMemsetAsync", -1, 0},
	[X_DEVSYNC] = {"vkfftgo_device_sync, idle", X_RAW_IDLE, 1},
	[X_STREAMWAIT] = {"vkfftgo_stream_wait, idle", X_RAW_IDLE, 1},
	[X_CONV] = {"vkfftgo_convolution_apply_buffer", X_RAW_CONV, 0},
	[X_CONV_SYNC] = {"vkfftgo_convolution_apply_buffer + vkfftgo_device_sync", X_RAW_CONV_SYNC, 1},
	[X_CONV_HOST] = {"vkfftgo_convolution_apply (host memory)", X_RAW_CONV_HOST, 1},
	[X_SP] = {"vkfftgo_spectrometer_accumulate_buffer (raw: its FFT)", X_RAW_FFT, 0},
	[X_SP_SYNC] = {"vkfftgo_spectrometer_accumulate_buffer + vkfftgo_device_sync (raw: its FFT)", X_RAW_FFT_SYNC, 1},
	[X_SP_READ] = {"vkfftgo_spectrometer_read (1024 bins)", X_RAW_READ, 1},
	[X_SP_RESET] = {"vkfftgo_spectrometer_reset", X_RAW_MEMSET, 0},
};

struct xobjs {
	raw_plan fft;
	raw_conv conv;
	void *bins, *host_in, *host_out;
	float *psd;
	vkfftgo_device *d;
	vkfftgo_stream *s;
	vkfftgo_convolution *c;
	vkfftgo_spectrometer *sp;
	vkfftgo_buffer *cbuf, *samples;
	CUstream ds; /* the device's stream */
};

static double time_xcase(int k, struct xobjs *o, int calls)
{
	double t0 = now_us();
	int i;
	for (i = 0; i < calls; i++) {
		switch (k) {
		case X_RAW_IDLE: CK(cuStreamSynchronize((CUstream)stream)); break;
		case X_RAW_CONV: raw_conv_append(&o->conv); break;
		case X_RAW_CONV_SYNC: raw_conv_append(&o->conv); CK(cuStreamSynchronize((CUstream)stream)); break;
		case X_RAW_CONV_HOST:
			CK(cudaMemcpyAsync(o->conv.in, o->host_in, o->conv.bytes, cudaMemcpyHostToDevice, stream));
			raw_conv_append(&o->conv);
			CK(cudaMemcpyAsync(o->host_out, o->conv.in, o->conv.bytes, cudaMemcpyDeviceToHost, stream));
			CK(cuStreamSynchronize((CUstream)stream));
			break;
		case X_RAW_FFT: raw_append(&o->fft); break;
		case X_RAW_FFT_SYNC: raw_append(&o->fft); CK(cuStreamSynchronize((CUstream)stream)); break;
		case X_RAW_READ:
			CK(cudaMemcpyAsync(o->psd, o->bins, 4096, cudaMemcpyDeviceToHost, stream));
			CK(cuStreamSynchronize((CUstream)stream));
			break;
		case X_RAW_MEMSET: CK(cudaMemsetAsync(o->bins, 0, 4096, stream)); break;
		case X_DEVSYNC: CK(vkfftgo_device_sync(o->d)); break;
		case X_STREAMWAIT: CK(vkfftgo_stream_wait(o->s)); break;
		case X_CONV: CK(vkfftgo_convolution_apply_buffer(o->c, o->cbuf, o->cbuf)); break;
		case X_CONV_SYNC:
			CK(vkfftgo_convolution_apply_buffer(o->c, o->cbuf, o->cbuf));
			CK(vkfftgo_device_sync(o->d));
			break;
		case X_CONV_HOST:
			CK(vkfftgo_convolution_apply(o->c, o->host_out, o->conv.bytes, o->host_in, o->conv.bytes));
			break;
		case X_SP: CK(vkfftgo_spectrometer_accumulate_buffer(o->sp, o->samples)); break;
		case X_SP_SYNC:
			CK(vkfftgo_spectrometer_accumulate_buffer(o->sp, o->samples));
			CK(vkfftgo_device_sync(o->d));
			break;
		case X_SP_READ: CK(vkfftgo_spectrometer_read(o->sp, o->psd, 1024)); break;
		case X_SP_RESET: CK(vkfftgo_spectrometer_reset(o->sp)); break;
		}
	}
	t0 = now_us() - t0;
	/* enqueue-only rounds end with the queue drained, outside the timing */
	CK(cuStreamSynchronize(k < X_DEVSYNC ? (CUstream)stream : o->ds));
	return t0 / calls;
}

static void per_call_more(vkfftgo_device *d)
{
	vkfftgo_convolution_desc cd = VKFFTGO_CONVOLUTION_DESC_INIT;
	vkfftgo_spectrometer_desc sd = VKFFTGO_SPECTROMETER_DESC_INIT;
	struct xobjs o;
	struct CUstream_st *ds;
	long n = 1024;
	double t[NX][ROUNDS], med[NX];
	int r, k, fusion = 0;
	const int enq_calls = 20000, sync_calls = 5000;
	static char zeros[2048];

	memset(&o, 0, sizeof o);
	o.d = d;
	raw_make(&o.fft, 1, &n);
	raw_conv_make(&o.conv, n);
	CK(cudaMalloc(&o.bins, 4096));
	CK(cudaMemset(o.bins, 0, 4096));
	o.host_in = calloc(1, o.conv.bytes);
	o.host_out = calloc(1, o.conv.bytes);
	o.psd = calloc(1024, sizeof *o.psd);
	CK(vkfftgo_device_cu_stream(d, &ds));
	o.ds = (CUstream)ds;
	CK(vkfftgo_stream_create(d, &o.s));
	cd.rank = 1;
	cd.shape[0] = n;
	CK(vkfftgo_convolution_create(d, &cd, o.host_in, o.conv.bytes, &o.c));
	CK(vkfftgo_buffer_create(d, o.conv.bytes, &o.cbuf));
	sd.n = n;
	CK(vkfftgo_spectrometer_create(d, &sd, &o.sp));
	CK(vkfftgo_spectrometer_fusion(o.sp, &fusion));
	CK(vkfftgo_buffer_create(d, sizeof zeros, &o.samples));
	CK(vkfftgo_buffer_upload(o.samples, zeros, sizeof zeros));
	for (k = 0; k < NX; k++) /* warm-up */
		time_xcase(k, &o, 1000);
	for (r = 0; r < ROUNDS; r++)
		for (k = 0; k < NX; k++)
			t[k][r] = time_xcase(k, &o, xcase[k].sync ? sync_calls : enq_calls);
	for (k = 0; k < NX; k++)
		med[k] = median(t[k], ROUNDS);
	for (k = 0; k < NX; k++)
		if (xcase[k].raw >= 0)
			printf("percall \"%s\" raw_us %.3f capi_us %.3f diff_us %+.3f\n", xcase[k].name, med[xcase[k].raw],
			       med[k], med[k] - med[xcase[k].raw]);
	printf("\n| 1-D 1024: sync, convolution (C2C), spectrometer (complex int8, fusion %d), per call (median of %d rounds) | raw C | raw (us) | C API (us) | difference (us) |\n"
	       "|---|---|---|---|---|\n", fusion, ROUNDS);
	for (k = 0; k < NX; k++)
		if (xcase[k].raw >= 0)
			printf("| %s | %s | %.2f | %.2f | %+.2f |\n", xcase[k].name, xcase[xcase[k].raw].name,
			       med[xcase[k].raw], med[k], med[k] - med[xcase[k].raw]);
	printf("\n");
	fflush(stdout);
	CK(vkfftgo_buffer_destroy(o.samples));
	CK(vkfftgo_spectrometer_destroy(o.sp));
	CK(vkfftgo_buffer_destroy(o.cbuf));
	CK(vkfftgo_convolution_destroy(o.c));
	CK(vkfftgo_stream_destroy(o.s));
	free(o.psd);
	free(o.host_in);
	free(o.host_out);
	cudaFree(o.bins);
	raw_conv_destroy(&o.conv);
	raw_destroy(&o.fft);
}

/* ---- host round trips ---- */
static void round_trip(vkfftgo_device *d, const char *name, int rank, const long *shape)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p;
	raw_plan raw;
	void *pin_in, *pin_out, *in, *out;
	size_t bytes, cb;
	double t_raw[ROUNDS], t_reg[ROUNDS], t_stg[ROUNDS], t0;
	const int iters = 5;
	int i, r, k;

	raw_make(&raw, rank, shape);
	bytes = raw.size;
	desc.rank = rank;
	for (k = 0; k < rank; k++)
		desc.shape[k] = shape[k];
	CK(vkfftgo_plan_create(d, &desc, &p));
	CK(vkfftgo_plan_bytes(p, &cb, NULL));
	if (cb != bytes) {
		fprintf(stderr, "%s: plan needs %zu bytes, raw %zu\n", name, cb, bytes);
		exit(1);
	}
	CK(cudaMallocHost(&pin_in, bytes));
	CK(cudaMallocHost(&pin_out, bytes));
	CK(posix_memalign(&in, 4096, bytes));
	CK(posix_memalign(&out, 4096, bytes));
	memset(pin_in, 1, bytes);
	memset(in, 1, bytes);
	memset(out, 0, bytes);
	for (r = -1; r < ROUNDS; r++) { /* round -1 warms up */
		/* raw pinned */
		t0 = now_us();
		for (i = 0; i < iters; i++) {
			CK(cudaMemcpyAsync(raw.buf, pin_in, bytes, cudaMemcpyHostToDevice, stream));
			raw_append(&raw);
			CK(cudaMemcpyAsync(pin_out, raw.buf, bytes, cudaMemcpyDeviceToHost, stream));
			CK(cudaStreamSynchronize(stream));
		}
		if (r >= 0)
			t_raw[r] = (now_us() - t0) / iters / 1e3;
		/* C API, registered */
		CK(vkfftgo_host_register(d, in, bytes));
		CK(vkfftgo_host_register(d, out, bytes));
		t0 = now_us();
		for (i = 0; i < iters; i++)
			CK(vkfftgo_execute(p, VKFFTGO_FORWARD, out, bytes, in, bytes));
		if (r >= 0)
			t_reg[r] = (now_us() - t0) / iters / 1e3;
		CK(vkfftgo_host_unregister(d, in));
		CK(vkfftgo_host_unregister(d, out));
		/* C API, the same memory unregistered: staged */
		t0 = now_us();
		for (i = 0; i < iters; i++)
			CK(vkfftgo_execute(p, VKFFTGO_FORWARD, out, bytes, in, bytes));
		if (r >= 0)
			t_stg[r] = (now_us() - t0) / iters / 1e3;
	}
	{
		double a = median(t_raw, ROUNDS), b = median(t_reg, ROUNDS), c = median(t_stg, ROUNDS);
		printf("roundtrip %s raw_pinned_ms %.3f registered_ms %.3f staged_ms %.3f ratio %.3f\n", name, a, b, c,
		       b / a);
		printf("| %s | %.3f | %.3f | %.3f | %.3f |\n", name, a, b, c, b / a);
		fflush(stdout);
	}
	cudaFreeHost(pin_in);
	cudaFreeHost(pin_out);
	free(in);
	free(out);
	CK(vkfftgo_plan_destroy(p));
	raw_destroy(&raw);
}

/* ---- host-fed spectrometer ---- */
static void host_fed(vkfftgo_device *d, long n, long batch)
{
	vkfftgo_spectrometer_desc sd = VKFFTGO_SPECTROMETER_DESC_INIT;
	vkfftgo_spectrometer *sp;
	size_t bytes;
	void *pin, *in, *dev;
	double t_dma[ROUNDS], t_reg[ROUNDS], t_stg[ROUNDS], t0;
	const int iters = 4;
	int i, r, fusion = 0;

	sd.n = n;
	sd.batch = batch;
	CK(vkfftgo_spectrometer_create(d, &sd, &sp));
	CK(vkfftgo_spectrometer_fusion(sp, &fusion));
	CK(vkfftgo_spectrometer_size(sp, NULL, &bytes));
	CK(cudaMallocHost(&pin, bytes));
	CK(cudaMalloc(&dev, bytes));
	CK(posix_memalign(&in, 4096, bytes));
	for (i = 0; i < (int)(bytes / 4); i++) /* noise: the transform's speed does not depend on it, the PSD's range does */
		((unsigned *)in)[i] = (unsigned)i * 2654435761u;
	memcpy(pin, in, bytes);
	for (r = -1; r < ROUNDS; r++) { /* round -1 warms up */
		t0 = now_us();
		for (i = 0; i < iters; i++)
			CK(cudaMemcpyAsync(dev, pin, bytes, cudaMemcpyHostToDevice, stream));
		CK(cudaStreamSynchronize(stream));
		if (r >= 0)
			t_dma[r] = (now_us() - t0) / iters;
		CK(vkfftgo_host_register(d, in, bytes));
		t0 = now_us();
		for (i = 0; i < iters; i++)
			CK(vkfftgo_spectrometer_accumulate(sp, in, bytes));
		if (r >= 0)
			t_reg[r] = (now_us() - t0) / iters;
		CK(vkfftgo_host_unregister(d, in));
		t0 = now_us();
		for (i = 0; i < 2; i++)
			CK(vkfftgo_spectrometer_accumulate(sp, in, bytes));
		if (r >= 0)
			t_stg[r] = (now_us() - t0) / 2;
	}
	{
		double a = median(t_dma, ROUNDS), b = median(t_reg, ROUNDS), c = median(t_stg, ROUNDS);
		double gb = (double)bytes / 1e3, gs = (double)n * batch / 1e3; /* per us -> G/s */
		printf("hostfed %ldx%ld fusion %d dma_gbs %.2f registered_gbs %.2f registered_gss %.2f staged_gbs %.2f "
		       "registered/dma %.3f\n",
		       n, batch, fusion, gb / a, gb / b, gs / b, gb / c, a / b);
		printf("| %ld x %ld | %.2f | %.2f (%.2f GS/s) | %.2f | %.3f |\n", n, batch, gb / a, gb / b, gs / b, gb / c,
		       a / b);
		fflush(stdout);
	}
	cudaFreeHost(pin);
	cudaFree(dev);
	free(in);
	CK(vkfftgo_spectrometer_destroy(sp));
}

int main(void)
{
	vkfftgo_device *d;
	static const long cube[3] = {256, 256, 256}, square[2] = {4096, 4096};
	char name[256];
	CK(cuInit(0));
	CK(cuDeviceGet(&cudev, 0));
	CK(cudaSetDevice(0)); /* the primary context, as the library's */
	CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
	CK(vkfftgo_device_open(0, &d));
	CK(vkfftgo_device_name(d, name, sizeof name));
	printf("capibench: %s, libvkfftgo %s (%s), VkFFT %d\n\n", name, vkfftgo_version_string(),
	       vkfftgo_backend_name(), vkfftgo_vkfft_version());
	per_call(d);
	per_call_more(d);
	printf("| host round trip, forward (median of %d) | raw pinned (ms) | C API registered (ms) | C API staged (ms) | registered / raw pinned |\n"
	       "|---|---|---|---|---|\n", ROUNDS);
	round_trip(d, "256^3 c64", 3, cube);
	round_trip(d, "4096^2 c64", 2, square);
	printf("\n| host-fed spectrometer, complex int8, 512 MiB per call (median of %d) | DMA from cudaMallocHost (GB/s) | "
	       "C API from registered memory (GB/s) | C API staged (GB/s) | registered / DMA |\n|---|---|---|---|---|\n",
	       ROUNDS);
	host_fed(d, 4096, 65536);
	host_fed(d, 65536, 4096);
	host_fed(d, 1048576, 256);
	CK(vkfftgo_device_close(d));
	return 0;
}
