/* rawbench.c — the raw VkFFT C baseline of the GPU benchmark: the same configurations as
 * the binding (C2C, normalize=1, LUT on in single precision and VkFFT's choice in double,
 * one non-blocking stream, num_streams=1, in place), no binding in between. Built against
 * the VkFFT headers of cvendor/ (not part of this repository) by make gpu-bundle.
 * Prints one line per shape: "raw NAME init_ms X fwdinv_ms Y" and one for the per-call
 * cost of a 1-D 1024 transform: "raw small enqueue_us X sync_us Y". */
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vkFFT.h>

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#define CK(x)                                                                                      \
	do {                                                                                       \
		int e_ = (int)(x);                                                                 \
		if (e_) {                                                                          \
			fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #x, e_);     \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)

static CUdevice cudev;
static cudaStream_t stream;

typedef struct {
	VkFFTApplication app;
	VkFFTConfiguration c;
	void *buf;
	pfUINT size;
} plan;

static double make(plan *p, int rank, const long *shape, long batch, int dbl)
{
	long n = batch;
	int i;
	double t0;
	memset(p, 0, sizeof *p);
	for (i = 0; i < rank; i++)
		n *= shape[i];
	p->size = (pfUINT)n * (dbl ? 16 : 8);
	CK(cudaMalloc(&p->buf, p->size));
	CK(cudaMemset(p->buf, 0, p->size));
	p->c.FFTdim = rank;
	for (i = 0; i < rank; i++)
		p->c.size[i] = shape[rank - 1 - i];
	p->c.numberBatches = batch;
	p->c.doublePrecision = dbl;
	p->c.normalize = 1;
	p->c.useLUT = dbl ? 0 : 1;
	p->c.device = &cudev;
	p->c.stream = &stream;
	p->c.num_streams = 1;
	p->c.buffer = &p->buf;
	p->c.bufferSize = &p->size;
	if (p->size >= (1ull << 31))
		p->c.useUint64 = 1;
	t0 = now_ms();
	CK(initializeVkFFT(&p->app, p->c));
	CK(cudaDeviceSynchronize());
	return now_ms() - t0;
}

static void append(plan *p, int dir)
{
	VkFFTLaunchParams lp = {0};
	lp.buffer = &p->buf;
	CK(VkFFTAppend(&p->app, dir, &lp));
}

static void destroy(plan *p)
{
	deleteVkFFT(&p->app);
	cudaFree(p->buf);
}

/* One host round trip, as the binding's Forward on host slices does it: upload, forward
 * transform, download, wait. From pageable (malloc) and from pinned (cudaMallocHost)
 * memory; the mean of a few after one warm-up. */
static void host_round_trips(plan *p, const char *name)
{
	void *page = malloc(p->size), *pin_in, *pin_out;
	const int iters = 5;
	double t0, pageable, pinned;
	int i, k;
	CK(page == NULL);
	memset(page, 1, p->size);
	CK(cudaMallocHost(&pin_in, p->size));
	CK(cudaMallocHost(&pin_out, p->size));
	memset(pin_in, 1, p->size);
	for (k = 0; k < 2; k++) {
		void *in = k ? pin_in : page, *out = k ? pin_out : page;
		for (i = -1; i < iters; i++) {
			if (i == 0)
				t0 = now_ms();
			CK(cudaMemcpyAsync(p->buf, in, p->size, cudaMemcpyHostToDevice, stream));
			append(p, -1);
			CK(cudaMemcpyAsync(out, p->buf, p->size, cudaMemcpyDeviceToHost, stream));
			CK(cudaStreamSynchronize(stream));
		}
		if (k)
			pinned = (now_ms() - t0) / iters;
		else
			pageable = (now_ms() - t0) / iters;
	}
	printf("raw %s pageable_ms %.3f pinned_ms %.3f\n", name, pageable, pinned);
	fflush(stdout);
	cudaFreeHost(pin_in);
	cudaFreeHost(pin_out);
	free(page);
}

int main(void)
{
	static const struct {
		const char *name;
		int rank;
		long shape[3];
		long batch;
		int dbl, iters;
	} shapes[] = {
		{"256^3", 3, {256, 256, 256}, 1, 0, 40},       {"512^3", 3, {512, 512, 512}, 1, 0, 20},
		{"4096^2", 2, {4096, 4096}, 1, 0, 40},          {"4096x16384", 1, {4096}, 16384, 0, 40},
		{"256^3-c128", 3, {256, 256, 256}, 1, 1, 30},
	};
	const char *only = getenv("RAWBENCH_ONLY");
	cudaEvent_t e0, e1;
	unsigned s;
	int i;

	CK(cuInit(0));
	CK(cuDeviceGet(&cudev, 0));
	CK(cudaSetDevice(0)); /* the primary context, as the binding */
	CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
		plan p;
		float ev;
		double init;
		if (only && !strstr(shapes[s].name, only))
			continue;
		init = make(&p, shapes[s].rank, shapes[s].shape, shapes[s].batch, shapes[s].dbl);
		for (i = 0; i < 3; i++) {
			append(&p, -1);
			append(&p, 1);
		}
		CK(cudaStreamSynchronize(stream));
		CK(cudaEventRecord(e0, stream));
		for (i = 0; i < shapes[s].iters; i++) {
			append(&p, -1);
			append(&p, 1);
		}
		CK(cudaEventRecord(e1, stream));
		CK(cudaEventSynchronize(e1));
		CK(cudaEventElapsedTime(&ev, e0, e1));
		printf("raw %s init_ms %.1f fwdinv_ms %.4f\n", shapes[s].name, init, ev / shapes[s].iters);
		fflush(stdout);
		host_round_trips(&p, shapes[s].name);
		destroy(&p);
	}
	{
		plan p;
		long n = 1024;
		const int calls = 20000;
		double t0, enq, syn;
		make(&p, 1, &n, 1, 0);
		for (i = 0; i < 1000; i++)
			append(&p, -1);
		CK(cudaStreamSynchronize(stream));
		t0 = now_ms();
		for (i = 0; i < calls; i++)
			append(&p, -1);
		enq = now_ms() - t0;
		CK(cudaStreamSynchronize(stream));
		t0 = now_ms();
		for (i = 0; i < calls / 4; i++) {
			append(&p, -1);
			CK(cudaStreamSynchronize(stream));
		}
		syn = now_ms() - t0;
		printf("raw small enqueue_us %.2f sync_us %.2f\n", enq * 1e3 / calls, syn * 1e3 / (calls / 4));
		destroy(&p);
	}
	return 0;
}
