/* handles.c — generation-checked handles and the C per-call path:
 *  1. the per-call functions (vkfftgo_execute_async, vkfftgo_stream_wait, the
 *     convolutions' and the spectrometer's too) never enter the library's Go runtime;
 *  2. a destroyed handle is dead for good, also after its slot serves a new object;
 *  3. made-up handle values and handles of another kind are refused, not followed;
 *  4. destroying a plan, buffer, convolution, spectrometer or stream, or closing the
 *     device, while other threads run calls on them gives those calls an error, never a
 *     crash.
 *   cc -pthread handles.c $(pkg-config --cflags --libs vkfftgo) */
#define _XOPEN_SOURCE 700 /* sigaltstack */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include "check.h"

#define N 256 /* 1-D C2C of 256: 2048 bytes */
/* the convolutions: R2C 8 x 8 (256 bytes of floats), circular and padded for a 3 x 3
 * kernel; the spectrometer: complex int8, 64 points, batch 2 (256 bytes, 64 bins) */
#define CONV_NY 8
#define CONV_NX 8
#define CONV_BYTES (CONV_NY * CONV_NX * 4)
#define SP_N 64
#define SP_BYTES (2 * SP_N * 2)

static vkfftgo_device *dev;

/* The Go runtime gives a C thread an alternate signal stack the first time the thread
 * calls into Go, and keeps it while the thread lives: a fresh thread that still has
 * none has never entered Go. */
static int has_signal_stack(void)
{
	stack_t st;
	sigaltstack(NULL, &st);
	return !(st.ss_flags & SS_DISABLE);
}

struct hot {
	vkfftgo_plan *plan, *dead;
	vkfftgo_plan *r2r, *inplace, *strided; /* the descriptor's other layouts, on the same path */
	vkfftgo_buffer *a, *b, *c;
	vkfftgo_stream *s;
	vkfftgo_host_buffer *ha, *hb;
	void *ha_ptr;
	float *x, *y;
#if VKFFTGO_BACKEND == 3
	struct _cl_mem *ma, *mb;
#elif VKFFTGO_BACKEND == 1
	uint64_t ma, mb;
#elif VKFFTGO_BACKEND == 0
	struct VkBuffer_T *ma, *mb;
#endif
	vkfftgo_convolution *conv, *padded, *dead_conv;
	vkfftgo_spectrometer *sp, *dead_sp;
	vkfftgo_buffer *cin, *cout, *samples; /* conv data (CONV_BYTES) and a batch of samples */
	float *cx, *cy, *psd;
	int8_t *sx;
	const char *entered; /* the first call after which the thread had entered Go */
	int go_probe_works;  /* a Go-side call does give the thread a signal stack */
};

#define HOT(call)                                                                                  \
	do {                                                                                       \
		(void)(call);                                                                      \
		if (!h->entered && has_signal_stack())                                             \
			h->entered = #call;                                                        \
	} while (0)

static void *hot_thread(void *arg)
{
	struct hot *h = (struct hot *)arg;
	size_t bytes = N * 8;
	if (has_signal_stack()) {
		h->entered = "(the thread had a signal stack before any call)";
		return NULL;
	}
	/* successes, on every per-call function */
	HOT(vkfftgo_execute(h->plan, VKFFTGO_FORWARD, h->y, bytes, h->x, bytes));
	HOT(vkfftgo_forward(h->plan, h->y, h->x));
	HOT(vkfftgo_inverse(h->plan, h->x, h->y));
	HOT(vkfftgo_execute_buffer(h->plan, VKFFTGO_FORWARD, h->b, h->a));
	HOT(vkfftgo_execute_buffer(h->plan, VKFFTGO_INVERSE, h->b, h->b));
#if VKFFTGO_BACKEND == 3
	HOT(vkfftgo_execute_cl(h->plan, VKFFTGO_FORWARD, h->mb, h->ma));
	HOT(vkfftgo_execute_cl(h->plan, VKFFTGO_INVERSE, h->mb, h->mb));
#elif VKFFTGO_BACKEND == 1
	HOT(vkfftgo_execute_cu(h->plan, VKFFTGO_FORWARD, h->mb, h->ma));
	HOT(vkfftgo_execute_cu(h->plan, VKFFTGO_INVERSE, h->mb, h->mb));
#elif VKFFTGO_BACKEND == 0
	HOT(vkfftgo_execute_vk(h->plan, VKFFTGO_FORWARD, h->mb, h->ma));
	HOT(vkfftgo_execute_vk(h->plan, VKFFTGO_INVERSE, h->mb, h->mb));
#endif
	/* every kind of plan the descriptor describes */
	HOT(vkfftgo_execute(h->r2r, VKFFTGO_FORWARD, h->y, N * 4, h->x, N * 4));
	HOT(vkfftgo_execute(h->inplace, VKFFTGO_FORWARD, h->y, N * 4, h->y, N * 4));
	HOT(vkfftgo_execute_buffer(h->inplace, VKFFTGO_INVERSE, h->c, h->c));
	HOT(vkfftgo_execute_buffer(h->strided, VKFFTGO_FORWARD, h->b, h->a));
	HOT(vkfftgo_execute_buffer(h->strided, VKFFTGO_INVERSE, h->b, h->b));
	{
		size_t ob, ib;
		HOT(vkfftgo_plan_io_bytes(h->strided, VKFFTGO_FORWARD, &ob, &ib));
	}
	HOT(vkfftgo_execute_async(h->plan, h->s, VKFFTGO_FORWARD, h->hb, h->ha));
	HOT(vkfftgo_execute_async(h->plan, h->s, VKFFTGO_INVERSE, h->hb, h->hb));
	HOT(vkfftgo_stream_wait(h->s));
	HOT(vkfftgo_device_sync(dev));
	/* convolutions: host, buffers in place and out of place, zero-padded */
	HOT(vkfftgo_convolution_apply(h->conv, h->cy, CONV_BYTES, h->cx, CONV_BYTES));
	HOT(vkfftgo_convolution_apply_buffer(h->conv, h->cin, h->cin));
	HOT(vkfftgo_convolution_apply_buffer(h->conv, h->cout, h->cin));
	HOT(vkfftgo_convolution_apply(h->padded, h->cy, CONV_BYTES, h->cx, CONV_BYTES));
	HOT(vkfftgo_convolution_apply_buffer(h->padded, h->cout, h->cin));
	/* the spectrometer: host (pageable and the device's pinned memory), device samples,
	 * read, reset */
	HOT(vkfftgo_spectrometer_accumulate(h->sp, h->sx, SP_BYTES));
	HOT(vkfftgo_spectrometer_accumulate(h->sp, h->ha_ptr, SP_BYTES));
	HOT(vkfftgo_spectrometer_accumulate_buffer(h->sp, h->samples));
	HOT(vkfftgo_spectrometer_read(h->sp, h->psd, SP_N));
	HOT(vkfftgo_spectrometer_reset(h->sp));
	HOT(vkfftgo_device_sync(dev));
	HOT(vkfftgo_device_set_staging_threshold(dev, 0)); /* the next host call stages */
	HOT(vkfftgo_forward(h->plan, h->y, h->x));
	HOT(vkfftgo_device_set_staging_threshold(dev, -1));
	HOT(vkfftgo_vkfft_version());
	/* and failures, which set the message from C */
	HOT(vkfftgo_execute(h->plan, VKFFTGO_FORWARD, h->y, 3, h->x, bytes));
	HOT(vkfftgo_execute(h->plan, 0, h->y, bytes, h->x, bytes));
	HOT(vkfftgo_forward(h->dead, h->y, h->x));
	HOT(vkfftgo_forward(NULL, h->y, h->x));
	HOT(vkfftgo_execute_buffer(h->plan, VKFFTGO_FORWARD, NULL, h->a));
	HOT(vkfftgo_execute_buffer(h->plan, VKFFTGO_FORWARD, (vkfftgo_buffer *)dev, h->a));
	HOT(vkfftgo_device_sync((vkfftgo_device *)h->plan));
	HOT(vkfftgo_execute(h->strided, VKFFTGO_FORWARD, h->y, bytes, h->x, bytes)); /* host: refused */
	HOT(vkfftgo_execute(h->inplace, VKFFTGO_FORWARD, h->y, N * 4, h->x, N * 4)); /* out != in */
	HOT(vkfftgo_execute_buffer(h->inplace, VKFFTGO_FORWARD, h->c, h->a));
	HOT(vkfftgo_plan_io_bytes(h->dead, VKFFTGO_FORWARD, NULL, NULL));
	HOT(vkfftgo_execute_async(h->dead, h->s, VKFFTGO_FORWARD, h->hb, h->ha));
	HOT(vkfftgo_execute_async(h->plan, NULL, VKFFTGO_FORWARD, h->hb, h->ha));
	HOT(vkfftgo_execute_async(h->plan, h->s, 0, h->hb, h->ha));
	HOT(vkfftgo_execute_async(h->strided, h->s, VKFFTGO_FORWARD, h->hb, h->ha)); /* refused */
	HOT(vkfftgo_stream_wait(NULL));
	HOT(vkfftgo_stream_wait((vkfftgo_stream *)h->plan));
	HOT(vkfftgo_convolution_apply(h->dead_conv, h->cy, CONV_BYTES, h->cx, CONV_BYTES));
	HOT(vkfftgo_convolution_apply(h->conv, h->cy, CONV_BYTES - 4, h->cx, CONV_BYTES));
	HOT(vkfftgo_convolution_apply(NULL, h->cy, CONV_BYTES, h->cx, CONV_BYTES));
	HOT(vkfftgo_convolution_apply((vkfftgo_convolution *)h->sp, h->cy, CONV_BYTES, h->cx, CONV_BYTES));
	HOT(vkfftgo_convolution_apply_buffer(h->dead_conv, h->cin, h->cin));
	HOT(vkfftgo_convolution_apply_buffer(h->conv, h->a, h->cin)); /* wrong size */
	HOT(vkfftgo_convolution_apply_buffer(h->conv, NULL, h->cin));
	HOT(vkfftgo_convolution_apply_buffer(h->conv, h->cout, (vkfftgo_buffer *)h->conv));
	HOT(vkfftgo_spectrometer_accumulate(h->dead_sp, h->sx, SP_BYTES));
	HOT(vkfftgo_spectrometer_accumulate(h->sp, h->sx, SP_BYTES - 1));
	HOT(vkfftgo_spectrometer_accumulate(h->sp, NULL, SP_BYTES));
	HOT(vkfftgo_spectrometer_accumulate_buffer(h->sp, h->a)); /* wrong size */
	HOT(vkfftgo_spectrometer_accumulate_buffer((vkfftgo_spectrometer *)h->conv, h->samples));
	HOT(vkfftgo_spectrometer_read(h->sp, h->psd, SP_N - 1));
	HOT(vkfftgo_spectrometer_read(h->dead_sp, h->psd, SP_N));
	HOT(vkfftgo_spectrometer_reset(h->dead_sp));
#if VKFFTGO_BACKEND == 3
	HOT(vkfftgo_execute_cl(h->dead, VKFFTGO_FORWARD, h->mb, h->ma));
	HOT(vkfftgo_execute_cl(h->plan, VKFFTGO_FORWARD, NULL, h->ma));
#elif VKFFTGO_BACKEND == 1
	HOT(vkfftgo_execute_cu(h->dead, VKFFTGO_FORWARD, h->mb, h->ma));
	HOT(vkfftgo_execute_cu(h->plan, VKFFTGO_FORWARD, 0, h->ma));
#elif VKFFTGO_BACKEND == 0
	HOT(vkfftgo_execute_vk(h->dead, VKFFTGO_FORWARD, h->mb, h->ma));
	HOT(vkfftgo_execute_vk(h->plan, VKFFTGO_FORWARD, NULL, h->ma));
#endif
	HOT(vkfftgo_last_error());
	HOT(vkfftgo_status_string(VKFFTGO_ERROR_CLOSED));
	if (h->entered)
		return NULL;
	{ /* control: a function that is Go does show */
		size_t cb = 0;
		vkfftgo_plan_bytes(h->plan, &cb, NULL);
		h->go_probe_works = has_signal_stack();
	}
	return NULL;
}

/* The convolutions and spectrometer of the hot thread, and dead ones; the
 * spectrometer's first host accumulation (which has Go make its host-streaming buffers,
 * once) is made here. */
static void make_fused(struct hot *h)
{
	vkfftgo_convolution_desc cd = VKFFTGO_CONVOLUTION_DESC_INIT;
	vkfftgo_spectrometer_desc sd = VKFFTGO_SPECTROMETER_DESC_INIT;
	float k[CONV_NY * CONV_NX];
	size_t i;
	h->cx = (float *)malloc(CONV_BYTES);
	h->cy = (float *)malloc(CONV_BYTES);
	h->psd = (float *)malloc(SP_N * sizeof(float));
	h->sx = (int8_t *)malloc(SP_BYTES);
	for (i = 0; i < CONV_NY * CONV_NX; i++) {
		h->cx[i] = (float)test_value(i + 3);
		k[i] = (float)test_value(i + 300);
	}
	for (i = 0; i < SP_BYTES; i++)
		h->sx[i] = (int8_t)(test_value(i + 30) * 100);
	memcpy(h->ha_ptr, h->sx, SP_BYTES);
	cd.kind = VKFFTGO_R2C;
	cd.rank = 2;
	cd.shape[0] = CONV_NY;
	cd.shape[1] = CONV_NX;
	CHECK(vkfftgo_convolution_create(dev, &cd, k, sizeof k, &h->conv));
	CHECK(vkfftgo_convolution_create(dev, &cd, k, sizeof k, &h->dead_conv));
	CHECK(vkfftgo_convolution_destroy(h->dead_conv));
	cd.kernel_shape[0] = cd.kernel_shape[1] = 3;
	CHECK(vkfftgo_convolution_create(dev, &cd, k, 9 * sizeof(float), &h->padded));
	sd.n = SP_N;
	sd.batch = 2;
	CHECK(vkfftgo_spectrometer_create(dev, &sd, &h->sp));
	CHECK(vkfftgo_spectrometer_create(dev, &sd, &h->dead_sp));
	CHECK(vkfftgo_spectrometer_destroy(h->dead_sp));
	CHECK(vkfftgo_buffer_create(dev, CONV_BYTES, &h->cin));
	CHECK(vkfftgo_buffer_create(dev, CONV_BYTES, &h->cout));
	CHECK(vkfftgo_buffer_create(dev, SP_BYTES, &h->samples));
	CHECK(vkfftgo_buffer_upload(h->cin, h->cx, CONV_BYTES));
	CHECK(vkfftgo_buffer_upload(h->samples, h->sx, SP_BYTES));
	CHECK(vkfftgo_spectrometer_accumulate(h->sp, h->sx, SP_BYTES));
}

static void free_fused(struct hot *h)
{
	CHECK(vkfftgo_buffer_destroy(h->cin));
	CHECK(vkfftgo_buffer_destroy(h->cout));
	CHECK(vkfftgo_buffer_destroy(h->samples));
	CHECK(vkfftgo_convolution_destroy(h->conv));
	CHECK(vkfftgo_convolution_destroy(h->padded));
	CHECK(vkfftgo_spectrometer_destroy(h->sp));
	free(h->cx);
	free(h->cy);
	free(h->psd);
	free(h->sx);
}

static void no_go_on_the_hot_path(void)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	struct hot h;
	pthread_t t;
	size_t i, bytes = N * 8;
	memset(&h, 0, sizeof h);
	desc.rank = 1;
	desc.shape[0] = N;
	CHECK(vkfftgo_plan_create(dev, &desc, &h.plan));
	CHECK(vkfftgo_plan_create(dev, &desc, &h.dead));
	CHECK(vkfftgo_plan_destroy(h.dead));
	CHECK(vkfftgo_buffer_create(dev, bytes, &h.a));
	CHECK(vkfftgo_buffer_create(dev, bytes, &h.b));
	CHECK(vkfftgo_buffer_create(dev, N * 4, &h.c));
	desc.kind = VKFFTGO_R2R; /* DCT-II of N reals */
	desc.r2r_kind = VKFFTGO_DCT2;
	CHECK(vkfftgo_plan_create(dev, &desc, &h.r2r));
	desc.kind = VKFFTGO_R2C; /* N-2 reals in place, padded to N */
	desc.r2r_kind = 0;
	desc.real_inplace = 1;
	desc.shape[0] = N - 2;
	CHECK(vkfftgo_plan_create(dev, &desc, &h.inplace));
	desc.kind = VKFFTGO_C2C; /* 2 rows of 100 in rows of 128: spans 228 values, in a and b */
	desc.real_inplace = 0;
	desc.rank = 2;
	desc.shape[0] = 2;
	desc.shape[1] = 100;
	desc.naxes = 1;
	desc.axes[0] = 1;
	desc.in_strides[0] = desc.out_strides[0] = 128;
	desc.in_strides[1] = desc.out_strides[1] = 1;
	CHECK(vkfftgo_plan_create(dev, &desc, &h.strided));
	h.x = (float *)malloc(bytes);
	h.y = (float *)malloc(bytes);
	for (i = 0; i < 2 * N; i++)
		h.x[i] = (float)test_value(i);
	CHECK(vkfftgo_buffer_upload(h.a, h.x, bytes));
#if VKFFTGO_BACKEND == 3
	CHECK(vkfftgo_buffer_cl_mem(h.a, &h.ma));
	CHECK(vkfftgo_buffer_cl_mem(h.b, &h.mb));
#elif VKFFTGO_BACKEND == 1
	CHECK(vkfftgo_buffer_cu_ptr(h.a, &h.ma));
	CHECK(vkfftgo_buffer_cu_ptr(h.b, &h.mb));
#elif VKFFTGO_BACKEND == 0
	CHECK(vkfftgo_buffer_vk_buffer(h.a, &h.ma));
	CHECK(vkfftgo_buffer_vk_buffer(h.b, &h.mb));
#endif
	/* a plan's first out-of-place transform builds its out-of-place kernels, through Go
	 * (tests/capi/oop.c); every later one stays in C */
	CHECK(vkfftgo_execute_buffer(h.plan, VKFFTGO_FORWARD, h.b, h.a));
	CHECK(vkfftgo_buffer_upload(h.a, h.x, bytes));
	CHECK(vkfftgo_stream_create(dev, &h.s));
	CHECK(vkfftgo_host_buffer_create(dev, bytes, &h.ha, &h.ha_ptr));
	CHECK(vkfftgo_host_buffer_create(dev, bytes, &h.hb, NULL));
	make_fused(&h);
	pthread_create(&t, NULL, hot_thread, &h);
	pthread_join(t, NULL);
	CHECK(vkfftgo_stream_wait(h.s));
	if (h.entered) {
		fprintf(stderr, "the thread entered the Go runtime in: %s\n", h.entered);
		exit(1);
	}
	if (!h.go_probe_works) {
		fprintf(stderr, "the probe cannot tell: a Go call left no signal stack on the thread\n");
		exit(1);
	}
	for (i = 0; i < SP_N; i++)
		if (!(h.psd[i] >= 0)) {
			fprintf(stderr, "bin %zu of the spectrometer read from the thread is %g\n", i, h.psd[i]);
			exit(1);
		}
	free_fused(&h);
	CHECK(vkfftgo_stream_destroy(h.s));
	CHECK(vkfftgo_host_buffer_destroy(h.ha));
	CHECK(vkfftgo_host_buffer_destroy(h.hb));
	CHECK(vkfftgo_buffer_destroy(h.a));
	CHECK(vkfftgo_buffer_destroy(h.b));
	CHECK(vkfftgo_buffer_destroy(h.c));
	CHECK(vkfftgo_plan_destroy(h.plan));
	CHECK(vkfftgo_plan_destroy(h.r2r));
	CHECK(vkfftgo_plan_destroy(h.inplace));
	CHECK(vkfftgo_plan_destroy(h.strided));
	free(h.x);
	free(h.y);
	printf("handles: the per-call functions (successes and errors; vkfftgo_execute_async, vkfftgo_stream_wait, "
	       "convolutions and the spectrometer too) never enter Go, for C2C, R2R, in-place R2C and strided plans: OK\n");
}

static void stale_handles(void)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *old = NULL, *fresh = NULL;
	vkfftgo_buffer *oldb = NULL, *freshb = NULL;
	vkfftgo_device *oldd = NULL, *freshd = NULL;
	float x[2 * N], y[2 * N];
	size_t bytes = sizeof x, i, cb;
	for (i = 0; i < 2 * N; i++)
		x[i] = (float)test_value(i);
	desc.rank = 1;
	desc.shape[0] = N;

	/* a plan: create, destroy, create another (it takes the freed slot), use the old one */
	CHECK(vkfftgo_plan_create(dev, &desc, &old));
	CHECK(vkfftgo_plan_destroy(old));
	CHECK(vkfftgo_plan_create(dev, &desc, &fresh));
	if (fresh == old) {
		fprintf(stderr, "a new plan got the destroyed plan's handle value\n");
		exit(1);
	}
	EXPECT_FAIL(vkfftgo_execute(old, VKFFTGO_FORWARD, y, bytes, x, bytes), VKFFTGO_ERROR_INVALID_HANDLE,
		    "vkfftgo_execute|not a live plan handle");
	EXPECT_FAIL(vkfftgo_forward(old, y, x), VKFFTGO_ERROR_INVALID_HANDLE, "not a live plan handle");
	EXPECT_FAIL(vkfftgo_plan_bytes(old, &cb, NULL), VKFFTGO_ERROR_INVALID_HANDLE, "vkfftgo_plan_bytes");
	EXPECT_FAIL(vkfftgo_plan_destroy(old), VKFFTGO_ERROR_INVALID_HANDLE, "vkfftgo_plan_destroy");
	/* the new one still works (and was not destroyed by the stale destroy) */
	CHECK(vkfftgo_execute(fresh, VKFFTGO_FORWARD, y, bytes, x, bytes));
	CHECK(vkfftgo_inverse(fresh, y, y));
	for (i = 0; i < 2 * N; i++)
		if (fabsf(y[i] - x[i]) > 1e-5f) {
			fprintf(stderr, "round trip through the new plan: element %zu is %g, want %g\n", i, y[i], x[i]);
			exit(1);
		}

	/* a buffer: the stale handle stays dead while new buffers come and go (handles that
	 * were addresses came back within a few dozen rounds, and then reached the new buffer) */
	CHECK(vkfftgo_buffer_create(dev, bytes, &oldb));
	CHECK(vkfftgo_buffer_destroy(oldb));
	for (i = 0; i < 64; i++) {
		CHECK(vkfftgo_buffer_create(dev, bytes, &freshb));
		EXPECT_FAIL(vkfftgo_buffer_upload(oldb, x, bytes), VKFFTGO_ERROR_INVALID_HANDLE,
			    "not a live buffer handle");
		EXPECT_FAIL(vkfftgo_execute_buffer(fresh, VKFFTGO_FORWARD, oldb, oldb), VKFFTGO_ERROR_INVALID_HANDLE,
			    "vkfftgo_execute_buffer|out|not a live buffer handle");
		if (i < 63)
			CHECK(vkfftgo_buffer_destroy(freshb));
	}
	EXPECT_FAIL(vkfftgo_buffer_destroy(oldb), VKFFTGO_ERROR_INVALID_HANDLE, "vkfftgo_buffer_destroy");
	CHECK(vkfftgo_buffer_upload(freshb, x, bytes));
	CHECK(vkfftgo_execute_buffer(fresh, VKFFTGO_FORWARD, freshb, freshb));
	CHECK(vkfftgo_execute_buffer(fresh, VKFFTGO_INVERSE, freshb, freshb));
	CHECK(vkfftgo_buffer_download(freshb, y, bytes));
	for (i = 0; i < 2 * N; i++)
		if (fabsf(y[i] - x[i]) > 1e-5f) {
			fprintf(stderr, "round trip through the new buffer: element %zu is %g\n", i, y[i]);
			exit(1);
		}
	CHECK(vkfftgo_buffer_destroy(freshb));
	CHECK(vkfftgo_plan_destroy(fresh));

	/* a convolution, a spectrometer and a stream: the stale handle is refused by every
	 * per-call function while a new object has the freed slot, which still works */
	{
		vkfftgo_convolution_desc cd = VKFFTGO_CONVOLUTION_DESC_INIT;
		vkfftgo_spectrometer_desc sd = VKFFTGO_SPECTROMETER_DESC_INIT;
		vkfftgo_convolution *oldc, *freshc;
		vkfftgo_spectrometer *olds, *freshs;
		vkfftgo_stream *olds_t, *fresh_t;
		vkfftgo_buffer *cb;
		float k[CONV_NY * CONV_NX], cx[CONV_NY * CONV_NX], psd[SP_N];
		int8_t samples[SP_BYTES];
		for (i = 0; i < CONV_NY * CONV_NX; i++)
			k[i] = cx[i] = (float)test_value(i);
		memset(samples, 1, sizeof samples);
		cd.kind = VKFFTGO_R2C;
		cd.rank = 2;
		cd.shape[0] = CONV_NY;
		cd.shape[1] = CONV_NX;
		sd.n = SP_N;
		sd.batch = 2;
		CHECK(vkfftgo_buffer_create(dev, CONV_BYTES, &cb));
		CHECK(vkfftgo_convolution_create(dev, &cd, k, sizeof k, &oldc));
		CHECK(vkfftgo_convolution_destroy(oldc));
		CHECK(vkfftgo_convolution_create(dev, &cd, k, sizeof k, &freshc));
		CHECK(vkfftgo_spectrometer_create(dev, &sd, &olds));
		CHECK(vkfftgo_spectrometer_destroy(olds));
		CHECK(vkfftgo_spectrometer_create(dev, &sd, &freshs));
		CHECK(vkfftgo_stream_create(dev, &olds_t));
		CHECK(vkfftgo_stream_destroy(olds_t));
		CHECK(vkfftgo_stream_create(dev, &fresh_t));
		if (freshc == oldc || freshs == olds || fresh_t == olds_t) {
			fprintf(stderr, "a new object got a destroyed object's handle value\n");
			exit(1);
		}
		EXPECT_FAIL(vkfftgo_convolution_apply(oldc, cx, CONV_BYTES, cx, CONV_BYTES), VKFFTGO_ERROR_INVALID_HANDLE,
			    "vkfftgo_convolution_apply|not a live convolution handle");
		EXPECT_FAIL(vkfftgo_convolution_apply_buffer(oldc, cb, cb), VKFFTGO_ERROR_INVALID_HANDLE,
			    "not a live convolution handle");
		EXPECT_FAIL(vkfftgo_convolution_destroy(oldc), VKFFTGO_ERROR_INVALID_HANDLE, "vkfftgo_convolution_destroy");
		EXPECT_FAIL(vkfftgo_spectrometer_accumulate(olds, samples, SP_BYTES), VKFFTGO_ERROR_INVALID_HANDLE,
			    "not a live spectrometer handle");
		EXPECT_FAIL(vkfftgo_spectrometer_read(olds, psd, SP_N), VKFFTGO_ERROR_INVALID_HANDLE,
			    "vkfftgo_spectrometer_read|not a live spectrometer handle");
		EXPECT_FAIL(vkfftgo_spectrometer_reset(olds), VKFFTGO_ERROR_INVALID_HANDLE, "not a live spectrometer handle");
		EXPECT_FAIL(vkfftgo_spectrometer_destroy(olds), VKFFTGO_ERROR_INVALID_HANDLE, "vkfftgo_spectrometer_destroy");
		EXPECT_FAIL(vkfftgo_stream_wait(olds_t), VKFFTGO_ERROR_INVALID_HANDLE, "vkfftgo_stream_wait|stream");
		/* and handles of one kind are refused by the others */
		EXPECT_FAIL(vkfftgo_convolution_apply((vkfftgo_convolution *)freshs, cx, CONV_BYTES, cx, CONV_BYTES),
			    VKFFTGO_ERROR_INVALID_HANDLE, "not a live convolution handle");
		EXPECT_FAIL(vkfftgo_spectrometer_reset((vkfftgo_spectrometer *)freshc), VKFFTGO_ERROR_INVALID_HANDLE,
			    "not a live spectrometer handle");
		EXPECT_FAIL(vkfftgo_stream_wait((vkfftgo_stream *)freshs), VKFFTGO_ERROR_INVALID_HANDLE, "stream");
		CHECK(vkfftgo_convolution_apply(freshc, cx, CONV_BYTES, cx, CONV_BYTES));
		CHECK(vkfftgo_spectrometer_accumulate(freshs, samples, SP_BYTES));
		CHECK(vkfftgo_spectrometer_read(freshs, psd, SP_N));
		if (!(psd[0] > 0)) { /* bin 0 of all-ones samples: (1+1i) summed */
			fprintf(stderr, "the new spectrometer's bin 0 is %g\n", psd[0]);
			exit(1);
		}
		CHECK(vkfftgo_stream_wait(fresh_t));
		CHECK(vkfftgo_stream_destroy(fresh_t));
		CHECK(vkfftgo_spectrometer_destroy(freshs));
		CHECK(vkfftgo_convolution_destroy(freshc));
		CHECK(vkfftgo_buffer_destroy(cb));
	}

	/* a device: the stale handle stays closed when another device is open */
	CHECK(vkfftgo_device_open(0, &oldd));
	CHECK(vkfftgo_device_close(oldd));
	CHECK(vkfftgo_device_open(0, &freshd));
	EXPECT_FAIL(vkfftgo_device_sync(oldd), VKFFTGO_ERROR_INVALID_HANDLE, "vkfftgo_device_sync|not an open device handle");
	EXPECT_FAIL(vkfftgo_plan_create(oldd, &desc, &old), VKFFTGO_ERROR_INVALID_HANDLE, "not an open device handle");
	EXPECT_FAIL(vkfftgo_device_close(oldd), VKFFTGO_ERROR_INVALID_HANDLE, "vkfftgo_device_close");
	CHECK(vkfftgo_device_sync(freshd));
	CHECK(vkfftgo_device_close(freshd));

	/* values that were never handles, and handles of another kind */
	{
		static const uintptr_t made_up[] = {1, 0x1000, 0xdeadbeef, (uintptr_t)-1, (uintptr_t)1 << 63,
						    ((uintptr_t)1 << 63) | ((uintptr_t)7 << 32) | (2u << 24) | 5u};
		for (i = 0; i < sizeof made_up / sizeof made_up[0]; i++) {
			EXPECT_FAIL(vkfftgo_forward((vkfftgo_plan *)made_up[i], y, x), VKFFTGO_ERROR_INVALID_HANDLE,
				    "not a live plan handle");
			EXPECT_FAIL(vkfftgo_device_sync((vkfftgo_device *)made_up[i]), VKFFTGO_ERROR_INVALID_HANDLE,
				    "not an open device handle");
			EXPECT_FAIL(vkfftgo_convolution_apply((vkfftgo_convolution *)made_up[i], y, bytes, x, bytes),
				    VKFFTGO_ERROR_INVALID_HANDLE, "not a live convolution handle");
			EXPECT_FAIL(vkfftgo_spectrometer_reset((vkfftgo_spectrometer *)made_up[i]),
				    VKFFTGO_ERROR_INVALID_HANDLE, "not a live spectrometer handle");
			EXPECT_FAIL(vkfftgo_stream_wait((vkfftgo_stream *)made_up[i]), VKFFTGO_ERROR_INVALID_HANDLE,
				    "not a live handle of its kind");
		}
		EXPECT_FAIL(vkfftgo_forward((vkfftgo_plan *)&x[0], y, x), VKFFTGO_ERROR_INVALID_HANDLE,
			    "not a live plan handle");
		EXPECT_FAIL(vkfftgo_plan_destroy((vkfftgo_plan *)dev), VKFFTGO_ERROR_INVALID_HANDLE,
			    "not a live plan handle");
	}
	printf("handles: destroyed, stale and made-up handles are refused; the new objects work: OK\n");
}

/* ---- destruction while other threads run ---- */

/* what a runner calls until its handle dies */
enum op { OP_HOST, OP_BUFFER, OP_CONV_HOST, OP_CONV_BUFFER, OP_SP_HOST, OP_SP_BUFFER, OP_SP_READ, OP_STREAM_WAIT };

struct runner {
	vkfftgo_plan *plan;
	vkfftgo_buffer *buf;
	vkfftgo_convolution *conv;
	vkfftgo_spectrometer *sp;
	vkfftgo_stream *stream;
	enum op op;
	int ok, dead;
	vkfftgo_status bad; /* a status other than success and INVALID_HANDLE */
	char msg[256];
	volatile int *stop;
};

static void *run_until_dead(void *arg)
{
	struct runner *r = (struct runner *)arg;
	float x[2 * N], psd[SP_N];
	int8_t samples[SP_BYTES];
	size_t i;
	for (i = 0; i < 2 * N; i++)
		x[i] = (float)test_value(i);
	for (i = 0; i < SP_BYTES; i++)
		samples[i] = (int8_t)(test_value(i) * 100);
	while (!*r->stop) {
		vkfftgo_status st = VKFFTGO_ERROR_INTERNAL;
		switch (r->op) {
		case OP_HOST: st = vkfftgo_forward(r->plan, x, x); break;
		case OP_BUFFER: st = vkfftgo_execute_buffer(r->plan, VKFFTGO_FORWARD, r->buf, r->buf); break;
		case OP_CONV_HOST: st = vkfftgo_convolution_apply(r->conv, x, CONV_BYTES, x, CONV_BYTES); break;
		case OP_CONV_BUFFER: st = vkfftgo_convolution_apply_buffer(r->conv, r->buf, r->buf); break;
		case OP_SP_HOST: st = vkfftgo_spectrometer_accumulate(r->sp, samples, SP_BYTES); break;
		case OP_SP_BUFFER: st = vkfftgo_spectrometer_accumulate_buffer(r->sp, r->buf); break;
		case OP_SP_READ: st = vkfftgo_spectrometer_read(r->sp, psd, SP_N); break;
		case OP_STREAM_WAIT: st = vkfftgo_stream_wait(r->stream); break;
		}
		if (st == VKFFTGO_SUCCESS) {
			__atomic_fetch_add(&r->ok, 1, __ATOMIC_RELAXED);
		} else if (st == VKFFTGO_ERROR_INVALID_HANDLE) {
			r->dead++;
			break; /* dead handles stay dead */
		} else {
			snprintf(r->msg, sizeof r->msg, "%s", vkfftgo_last_error());
			__atomic_store_n(&r->bad, st, __ATOMIC_RELAXED);
			break;
		}
	}
	return NULL;
}

static void start(struct runner *r, pthread_t *t, vkfftgo_plan *p, vkfftgo_buffer *b, int host, volatile int *stop)
{
	memset(r, 0, sizeof *r);
	r->plan = p;
	r->buf = b;
	r->op = host ? OP_HOST : OP_BUFFER;
	r->stop = stop;
	pthread_create(t, NULL, run_until_dead, r);
}

/* start_fused runs op on a convolution, spectrometer or stream (and buffer b) */
static void start_fused(struct runner *r, pthread_t *t, enum op op, vkfftgo_convolution *c, vkfftgo_spectrometer *sp,
			vkfftgo_stream *s, vkfftgo_buffer *b, volatile int *stop)
{
	memset(r, 0, sizeof *r);
	r->conv = c;
	r->sp = sp;
	r->stream = s;
	r->buf = b;
	r->op = op;
	r->stop = stop;
	pthread_create(t, NULL, run_until_dead, r);
}

static void finish(struct runner *r, pthread_t t, const char *what)
{
	pthread_join(t, NULL);
	if (r->bad) {
		fprintf(stderr, "%s: a call returned %s: %s\n", what, vkfftgo_status_string(r->bad), r->msg);
		exit(1);
	}
	if (!r->dead) {
		fprintf(stderr, "%s: the calls never saw the handle die\n", what);
		exit(1);
	}
}

/* spin until a runner has run at least once, so destruction meets a busy handle */
static void wait_running(struct runner *r)
{
	while (!__atomic_load_n(&r->ok, __ATOMIC_RELAXED) && !__atomic_load_n(&r->bad, __ATOMIC_RELAXED))
		;
}

static void destroy_while_running(void)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_device *d;
	vkfftgo_plan *p1, *p2, *p3;
	vkfftgo_buffer *b1, *b2;
	struct runner r[4];
	pthread_t t[4];
	volatile int stop = 0;
	size_t bytes = N * 8;
	desc.rank = 1;
	desc.shape[0] = N;
	CHECK(vkfftgo_device_open(0, &d));
	CHECK(vkfftgo_plan_create(d, &desc, &p1));
	CHECK(vkfftgo_plan_create(d, &desc, &p2));
	CHECK(vkfftgo_plan_create(d, &desc, &p3));
	CHECK(vkfftgo_buffer_create(d, bytes, &b1));
	CHECK(vkfftgo_buffer_create(d, bytes, &b2));

	/* a plan destroyed under host and buffer transforms */
	start(&r[0], &t[0], p1, b1, 1, &stop);
	start(&r[1], &t[1], p1, b1, 0, &stop);
	wait_running(&r[0]);
	wait_running(&r[1]);
	CHECK(vkfftgo_plan_destroy(p1));
	finish(&r[0], t[0], "plan destroyed under host transforms");
	finish(&r[1], t[1], "plan destroyed under buffer transforms");

	/* a buffer destroyed under a transform that uses it */
	start(&r[0], &t[0], p2, b1, 0, &stop);
	wait_running(&r[0]);
	CHECK(vkfftgo_buffer_destroy(b1));
	finish(&r[0], t[0], "buffer destroyed under transforms");

	/* the device closed under transforms of its plans */
	start(&r[0], &t[0], p2, b2, 0, &stop);
	start(&r[1], &t[1], p2, b2, 1, &stop);
	start(&r[2], &t[2], p3, b2, 1, &stop);
	start(&r[3], &t[3], p3, b2, 0, &stop);
	for (int i = 0; i < 4; i++)
		wait_running(&r[i]);
	CHECK(vkfftgo_device_close(d));
	for (int i = 0; i < 4; i++)
		finish(&r[i], t[i], "device closed under transforms");
	EXPECT_FAIL(vkfftgo_plan_destroy(p3), VKFFTGO_ERROR_INVALID_HANDLE, "vkfftgo_plan_destroy");
	EXPECT_FAIL(vkfftgo_buffer_destroy(b2), VKFFTGO_ERROR_INVALID_HANDLE, "vkfftgo_buffer_destroy");
	printf("handles: plans, buffers and the device destroyed under running transforms: errors, no crash: OK\n");
}

/* Convolutions, spectrometers, streams and their buffers destroyed, and their device
 * closed, under calls on them from other threads. */
static void fused_destroy_while_running(void)
{
	vkfftgo_convolution_desc cd = VKFFTGO_CONVOLUTION_DESC_INIT;
	vkfftgo_spectrometer_desc sd = VKFFTGO_SPECTROMETER_DESC_INIT;
	vkfftgo_device *d;
	vkfftgo_convolution *c1, *c2;
	vkfftgo_spectrometer *s1, *s2;
	vkfftgo_stream *st;
	vkfftgo_buffer *cb1, *cb2, *sb1, *sb2;
	float k[CONV_NY * CONV_NX];
	int8_t samples[SP_BYTES];
	struct runner r[6];
	pthread_t t[6];
	volatile int stop = 0;
	size_t i;
	for (i = 0; i < CONV_NY * CONV_NX; i++)
		k[i] = (float)test_value(i + 9);
	for (i = 0; i < SP_BYTES; i++)
		samples[i] = (int8_t)(test_value(i + 90) * 100);
	cd.kind = VKFFTGO_R2C;
	cd.rank = 2;
	cd.shape[0] = CONV_NY;
	cd.shape[1] = CONV_NX;
	sd.n = SP_N;
	sd.batch = 2;
	CHECK(vkfftgo_device_open(0, &d));
	CHECK(vkfftgo_convolution_create(d, &cd, k, sizeof k, &c1));
	CHECK(vkfftgo_convolution_create(d, &cd, k, sizeof k, &c2));
	CHECK(vkfftgo_spectrometer_create(d, &sd, &s1));
	CHECK(vkfftgo_spectrometer_create(d, &sd, &s2));
	CHECK(vkfftgo_stream_create(d, &st));
	CHECK(vkfftgo_buffer_create(d, CONV_BYTES, &cb1));
	CHECK(vkfftgo_buffer_create(d, CONV_BYTES, &cb2));
	CHECK(vkfftgo_buffer_create(d, SP_BYTES, &sb1));
	CHECK(vkfftgo_buffer_create(d, SP_BYTES, &sb2));
	CHECK(vkfftgo_buffer_upload(sb1, samples, SP_BYTES));
	CHECK(vkfftgo_buffer_upload(sb2, samples, SP_BYTES));

	/* a convolution destroyed under host and buffer calls; then a buffer under them */
	start_fused(&r[0], &t[0], OP_CONV_HOST, c1, NULL, NULL, NULL, &stop);
	start_fused(&r[1], &t[1], OP_CONV_BUFFER, c1, NULL, NULL, cb1, &stop);
	wait_running(&r[0]);
	wait_running(&r[1]);
	CHECK(vkfftgo_convolution_destroy(c1));
	finish(&r[0], t[0], "convolution destroyed under host calls");
	finish(&r[1], t[1], "convolution destroyed under buffer calls");
	start_fused(&r[0], &t[0], OP_CONV_BUFFER, c2, NULL, NULL, cb1, &stop);
	wait_running(&r[0]);
	CHECK(vkfftgo_buffer_destroy(cb1));
	finish(&r[0], t[0], "buffer destroyed under convolution calls");

	/* a spectrometer destroyed under host (its first one makes the host buffers, through
	 * Go, while the others run), device and read calls; then a samples buffer */
	start_fused(&r[0], &t[0], OP_SP_HOST, NULL, s1, NULL, NULL, &stop);
	start_fused(&r[1], &t[1], OP_SP_BUFFER, NULL, s1, NULL, sb1, &stop);
	start_fused(&r[2], &t[2], OP_SP_READ, NULL, s1, NULL, NULL, &stop);
	for (i = 0; i < 3; i++)
		wait_running(&r[i]);
	CHECK(vkfftgo_spectrometer_destroy(s1));
	finish(&r[0], t[0], "spectrometer destroyed under host accumulations");
	finish(&r[1], t[1], "spectrometer destroyed under device accumulations");
	finish(&r[2], t[2], "spectrometer destroyed under reads");
	start_fused(&r[0], &t[0], OP_SP_BUFFER, NULL, s2, NULL, sb1, &stop);
	wait_running(&r[0]);
	CHECK(vkfftgo_buffer_destroy(sb1));
	finish(&r[0], t[0], "buffer destroyed under spectrometer calls");

	/* a stream destroyed under waits */
	start_fused(&r[0], &t[0], OP_STREAM_WAIT, NULL, NULL, st, NULL, &stop);
	wait_running(&r[0]);
	CHECK(vkfftgo_stream_destroy(st));
	finish(&r[0], t[0], "stream destroyed under waits");
	CHECK(vkfftgo_stream_create(d, &st));

	/* the device closed under all of them */
	start_fused(&r[0], &t[0], OP_CONV_HOST, c2, NULL, NULL, NULL, &stop);
	start_fused(&r[1], &t[1], OP_CONV_BUFFER, c2, NULL, NULL, cb2, &stop);
	start_fused(&r[2], &t[2], OP_SP_HOST, NULL, s2, NULL, NULL, &stop);
	start_fused(&r[3], &t[3], OP_SP_BUFFER, NULL, s2, NULL, sb2, &stop);
	start_fused(&r[4], &t[4], OP_SP_READ, NULL, s2, NULL, NULL, &stop);
	start_fused(&r[5], &t[5], OP_STREAM_WAIT, NULL, NULL, st, NULL, &stop);
	for (i = 0; i < 6; i++)
		wait_running(&r[i]);
	CHECK(vkfftgo_device_close(d));
	for (i = 0; i < 6; i++)
		finish(&r[i], t[i], "device closed under convolution, spectrometer and stream calls");
	EXPECT_FAIL(vkfftgo_convolution_destroy(c2), VKFFTGO_ERROR_INVALID_HANDLE, "vkfftgo_convolution_destroy");
	EXPECT_FAIL(vkfftgo_spectrometer_destroy(s2), VKFFTGO_ERROR_INVALID_HANDLE, "vkfftgo_spectrometer_destroy");
	EXPECT_FAIL(vkfftgo_stream_destroy(st), VKFFTGO_ERROR_INVALID_HANDLE, "vkfftgo_stream_destroy");
	printf("handles: convolutions, spectrometers, streams, their buffers and the device destroyed under running "
	       "calls: errors, no crash: OK\n");
}

/* ---- the device closed while other threads create, use and destroy objects on it ---- */

struct maker {
	vkfftgo_device *d;
	int id, rounds;
	vkfftgo_status bad;
	char msg[256];
};

static int allowed(vkfftgo_status st)
{
	return st == VKFFTGO_SUCCESS || st == VKFFTGO_ERROR_INVALID_HANDLE || st == VKFFTGO_ERROR_CLOSED;
}

#define MAKER_CALL(call)                                                                           \
	do {                                                                                       \
		vkfftgo_status st_ = (call);                                                       \
		if (!allowed(st_)) {                                                               \
			snprintf(m->msg, sizeof m->msg, "%s: %s", #call, vkfftgo_last_error());     \
			__atomic_store_n(&m->bad, st_, __ATOMIC_RELAXED);                          \
			return NULL;                                                               \
		}                                                                                  \
	} while (0)

/* page-aligned host memory of each maker, for registration (CUDA pins whole pages) */
static char maker_host[4][4096] __attribute__((aligned(4096)));

static void *make_until_closed(void *arg)
{
	struct maker *m = (struct maker *)arg;
	char *host = maker_host[m->id];
	const size_t host_bytes = sizeof maker_host[0];
	for (;;) {
		vkfftgo_buffer *b = NULL;
		vkfftgo_mem_stats ms = VKFFTGO_MEM_STATS_INIT;
		size_t bytes;
		vkfftgo_status st = vkfftgo_buffer_create(m->d, 256 + 8 * (size_t)m->id, &b);
		if (st == VKFFTGO_ERROR_INVALID_HANDLE || st == VKFFTGO_ERROR_CLOSED)
			return NULL; /* the device is gone */
		MAKER_CALL(st);
		MAKER_CALL(vkfftgo_buffer_upload(b, host, 256 + 8 * (size_t)m->id));
		MAKER_CALL(vkfftgo_buffer_size(b, &bytes));
		MAKER_CALL(vkfftgo_host_register(m->d, host, host_bytes));
		MAKER_CALL(vkfftgo_device_mem_stats(m->d, &ms));
		MAKER_CALL(vkfftgo_device_sync(m->d));
		MAKER_CALL(vkfftgo_host_unregister(m->d, host));
		MAKER_CALL(vkfftgo_buffer_destroy(b));
		__atomic_fetch_add(&m->rounds, 1, __ATOMIC_RELAXED);
	}
}

static void close_under_go_calls(void)
{
	enum { MAKERS = 3 };
	struct maker m[MAKERS];
	pthread_t t[MAKERS];
	vkfftgo_device *d;
	vkfftgo_buffer *probe;
	int i, total = 0;
	CHECK(vkfftgo_device_open(0, &d));
	for (i = 0; i < MAKERS; i++) {
		memset(&m[i], 0, sizeof m[i]);
		m[i].d = d;
		m[i].id = i;
		pthread_create(&t[i], NULL, make_until_closed, &m[i]);
	}
	/* let each run a while, with more buffers coming and going from here */
	for (i = 0; i < MAKERS; i++)
		while (__atomic_load_n(&m[i].rounds, __ATOMIC_RELAXED) < 20 && !__atomic_load_n(&m[i].bad, __ATOMIC_RELAXED)) {
			CHECK(vkfftgo_buffer_create(d, 64, &probe));
			CHECK(vkfftgo_buffer_destroy(probe));
		}
	CHECK(vkfftgo_device_close(d));
	for (i = 0; i < MAKERS; i++) {
		pthread_join(t[i], NULL);
		if (m[i].bad) {
			fprintf(stderr, "thread %d: %s returned %s\n", i, m[i].msg, vkfftgo_status_string(m[i].bad));
			exit(1);
		}
		total += m[i].rounds;
	}
	printf("handles: the device closed under %d threads creating, using and destroying buffers "
	       "(%d rounds): errors, no crash: OK\n", MAKERS, total);
}

/* Many create/destroy rounds reuse slots, yet every earlier handle stays dead: none
 * reaches the buffer of a later round (handles that were freed addresses came back
 * within a few dozen rounds). */
static void churn(void)
{
	enum { ROUNDS = 300 };
	static vkfftgo_buffer *seen[ROUNDS];
	size_t bytes;
	int i, j;
	for (i = 0; i < ROUNDS; i++) {
		CHECK(vkfftgo_buffer_create(dev, 64 + 4 * (size_t)i, &seen[i]));
		for (j = 0; j < i; j++) {
			vkfftgo_status st = vkfftgo_buffer_size(seen[j], &bytes);
			if (st != VKFFTGO_ERROR_INVALID_HANDLE) {
				fprintf(stderr, "round %d: the destroyed handle of round %d returned %s%s\n", i, j,
					vkfftgo_status_string(st),
					seen[j] == seen[i] ? " (it is the new buffer's handle)" : "");
				exit(1);
			}
		}
		CHECK(vkfftgo_buffer_size(seen[i], &bytes));
		if (bytes != 64 + 4 * (size_t)i) {
			fprintf(stderr, "round %d: the buffer has %zu bytes\n", i, bytes);
			exit(1);
		}
		CHECK(vkfftgo_buffer_destroy(seen[i]));
	}
	printf("handles: %d create/destroy rounds, every earlier handle stays dead: OK\n", ROUNDS);
}

int main(void)
{
	CHECK(vkfftgo_device_open(0, &dev));
	no_go_on_the_hot_path();
	stale_handles();
	churn();
	destroy_while_running();
	fused_destroy_while_running();
	close_under_go_calls();
	CHECK(vkfftgo_device_close(dev));
	return 0;
}
