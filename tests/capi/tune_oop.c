/* tune_oop.c — the C side of autotuning and true out-of-place transforms:
 *  - desc.tune: a measured tuning is reported by vkfftgo_plan_tuned and found again by a
 *    later plan (and by a second run of this program: argv[1] = "stored");
 *  - descriptors of the oldest header's size still work, and vkfftgo_plan_tuned writes
 *    no further than the caller's size;
 *  - out-of-place C2C and R2C, both directions, through buffers and native handles, give
 *    what in place gives, and leave a C2C input untouched.
 * Run with VKFFTGO_CACHE_DIR pointing at a fresh directory and VKFFTGO_TUNE_BUDGET=1ms
 * (the search stops after VkFFT's defaults: a measured tuning in milliseconds).
 *   cc tune_oop.c $(pkg-config --cflags --libs vkfftgo) -lm */
#include <math.h>
#include <stddef.h>

#include "check.h"

static vkfftgo_device *dev;

static vkfftgo_plan *make_plan(int kind, int rank, const int64_t *shape, int64_t batch, int tune)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p = NULL;
	desc.kind = kind;
	desc.rank = rank;
	for (int i = 0; i < rank; i++)
		desc.shape[i] = shape[i];
	desc.batch = batch;
	desc.tune = tune;
	CHECK(vkfftgo_plan_create(dev, &desc, &p));
	return p;
}

static int tuned_source(vkfftgo_plan *p, vkfftgo_plan_desc *out, double *def_ms)
{
	vkfftgo_plan_desc d = VKFFTGO_PLAN_DESC_INIT;
	int source = -1;
	double tuned_ms = 0;
	CHECK(vkfftgo_plan_tuned(p, &d, &source, def_ms, &tuned_ms));
	if (out)
		*out = d;
	return source;
}

static void tune(int second_run)
{
	const int64_t shape[1] = {64};
	vkfftgo_plan_desc d;
	double def_ms = 0;
	vkfftgo_plan *p;
	if (!second_run) {
		p = make_plan(VKFFTGO_C2C, 1, shape, 4, VKFFTGO_TUNE_MEASURE);
		if (tuned_source(p, &d, &def_ms) != VKFFTGO_TUNED_MEASURED || !(def_ms > 0)) {
			fprintf(stderr, "tune=MEASURE: source %d, default_ms %g\n", tuned_source(p, NULL, NULL), def_ms);
			exit(1);
		}
		if (d.rank != 1 || d.shape[0] != 64 || d.batch != 4 || d.tune != VKFFTGO_TUNE_MEASURE) {
			fprintf(stderr, "vkfftgo_plan_tuned: desc rank %d shape %lld batch %lld tune %d\n", d.rank,
				(long long)d.shape[0], (long long)d.batch, d.tune);
			exit(1);
		}
		CHECK(vkfftgo_plan_destroy(p));
	}
	/* a later plan (in this process, or in the second run) takes the stored tuning */
	p = make_plan(VKFFTGO_C2C, 1, shape, 4, VKFFTGO_TUNE_CACHED);
	if (tuned_source(p, NULL, &def_ms) != VKFFTGO_TUNED_STORED || !(def_ms > 0)) {
		fprintf(stderr, "tune=CACHED after MEASURE: source %d\n", tuned_source(p, NULL, NULL));
		exit(1);
	}
	CHECK(vkfftgo_plan_destroy(p));
	p = make_plan(VKFFTGO_C2C, 1, shape, 4, VKFFTGO_TUNE_OFF);
	if (tuned_source(p, NULL, NULL) != VKFFTGO_TUNED_NONE) {
		fprintf(stderr, "tune=OFF: not the defaults\n");
		exit(1);
	}
	CHECK(vkfftgo_plan_destroy(p));
	printf("  tune: %s tuning found by a later plan (defaults %.4f ms)\n", second_run ? "another process's" : "a measured",
	       def_ms);
	if (second_run)
		return;

	/* knobs by hand */
	{
		vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
		desc.rank = 1;
		desc.shape[0] = 64;
		desc.aim_threads = 64;
		desc.grouped_batch[0] = 8;
		desc.tune = VKFFTGO_TUNE_MEASURE;
		CHECK(vkfftgo_plan_create(dev, &desc, &p));
		if (tuned_source(p, &d, NULL) != VKFFTGO_TUNED_BY_HAND || d.aim_threads != 64 || d.grouped_batch[0] != 8) {
			fprintf(stderr, "knobs by hand: source %d aim %lld\n", tuned_source(p, NULL, NULL),
				(long long)d.aim_threads);
			exit(1);
		}
		CHECK(vkfftgo_plan_destroy(p));
		desc.tune = 9;
		EXPECT_FAIL(vkfftgo_plan_create(dev, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->tune is 9");
		desc.tune = VKFFTGO_TUNE_DEFAULT;
		desc.grouped_batch[1] = 4; /* the shape has one axis */
		EXPECT_FAIL(vkfftgo_plan_create(dev, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "GroupedBatch[1]");
		desc.grouped_batch[1] = 0;
		desc.tuning_lut = 7;
		EXPECT_FAIL(vkfftgo_plan_create(dev, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->tuning_lut is 7");
	}
	/* descriptors of older headers: the first one (ending before shape3) and 0.2's before
	 * the tuning fields (ending before tune); what lies beyond their size is not read */
	{
		size_t sizes[2] = {offsetof(vkfftgo_plan_desc, shape3), offsetof(vkfftgo_plan_desc, tune)};
		for (int k = 0; k < 2; k++) {
			vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
			desc.size = (uint32_t)sizes[k];
			desc.rank = 1;
			desc.shape[0] = 64;
			desc.tune = 77; /* beyond the caller's size: ignored */
			CHECK(vkfftgo_plan_create(dev, &desc, &p));
			memset(&d, 0xAB, sizeof d);
			d.size = (uint32_t)sizes[k];
			CHECK(vkfftgo_plan_tuned(p, &d, NULL, NULL, NULL));
			if (d.shape[0] != 64 || d.tune != (int32_t)0xABABABAB) {
				fprintf(stderr, "descriptor of %zu bytes: shape %lld, tune written past the size (%d)\n",
					sizes[k], (long long)d.shape[0], d.tune);
				exit(1);
			}
			CHECK(vkfftgo_plan_destroy(p));
		}
		vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
		desc.size = (uint32_t)sizes[0] - 8;
		desc.rank = 1;
		desc.shape[0] = 64;
		EXPECT_FAIL(vkfftgo_plan_create(dev, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "VKFFTGO_PLAN_DESC_INIT");
		printf("  descriptors of %zu, %zu (older headers) and %zu bytes (this one) all work\n", sizes[0], sizes[1],
		       sizeof(vkfftgo_plan_desc));
	}
}

static double max_diff(const float *a, const float *b, size_t n)
{
	double m = 0;
	for (size_t i = 0; i < n; i++)
		if (fabs((double)a[i] - b[i]) > m)
			m = fabs((double)a[i] - b[i]);
	return m;
}

static void download(vkfftgo_buffer *b, float *dst, size_t bytes) { CHECK(vkfftgo_buffer_download(b, dst, bytes)); }

/* Out of place equals in place: C2C through buffers (and cl_mem), both directions, with
 * the input left as it was. */
static void oop_c2c(void)
{
	const int64_t shape[3] = {8, 16, 32};
	vkfftgo_plan *p = make_plan(VKFFTGO_C2C, 3, shape, 2, VKFFTGO_TUNE_OFF);
	size_t bytes, n;
	CHECK(vkfftgo_plan_bytes(p, &bytes, NULL));
	n = bytes / sizeof(float);
	float *x = malloc(bytes), *ref = malloc(bytes), *got = malloc(bytes), *src = malloc(bytes);
	for (size_t i = 0; i < n; i++)
		x[i] = (float)test_value(i);
	vkfftgo_buffer *a, *b;
	CHECK(vkfftgo_buffer_create(dev, bytes, &a));
	CHECK(vkfftgo_buffer_create(dev, bytes, &b));
	for (int dir = VKFFTGO_FORWARD; dir <= VKFFTGO_INVERSE; dir += 2) {
		/* in place: the reference */
		CHECK(vkfftgo_buffer_upload(a, x, bytes));
		CHECK(vkfftgo_execute_buffer(p, dir, a, a));
		download(a, ref, bytes);
		/* out of place: a -> b */
		CHECK(vkfftgo_buffer_upload(a, x, bytes));
		CHECK(vkfftgo_buffer_upload(b, ref, bytes)); /* stale data in the output */
		CHECK(vkfftgo_execute_buffer(p, dir, b, a));
		download(b, got, bytes);
		download(a, src, bytes);
		double e = max_diff(got, ref, n), s = max_diff(src, x, n);
		if (!(e <= 1e-5 * (dir == VKFFTGO_FORWARD ? 64 : 1)) || s != 0) {
			fprintf(stderr, "C2C %s out of place: differs by %g from in place; input changed by %g\n",
				dir == VKFFTGO_FORWARD ? "forward" : "inverse", e, s);
			exit(1);
		}
#if VKFFTGO_BACKEND == 3
		{
			struct _cl_mem *ma, *mb;
			CHECK(vkfftgo_buffer_cl_mem(a, &ma));
			CHECK(vkfftgo_buffer_cl_mem(b, &mb));
			CHECK(vkfftgo_buffer_upload(b, x, bytes));
			CHECK(vkfftgo_execute_cl(p, dir, ma, mb)); /* b -> a */
			download(a, got, bytes);
			download(b, src, bytes);
			if (!(max_diff(got, ref, n) <= 1e-5 * 64) || max_diff(src, x, n) != 0) {
				fprintf(stderr, "C2C cl_mem out of place differs\n");
				exit(1);
			}
		}
#endif
	}
	CHECK(vkfftgo_buffer_destroy(a));
	CHECK(vkfftgo_buffer_destroy(b));
	CHECK(vkfftgo_plan_destroy(p));
	free(x);
	free(ref);
	free(got);
	free(src);
	printf("  C2C 8x16x32 x2 out of place (buffers%s) equals in place, input untouched, both directions\n",
	       VKFFTGO_BACKEND == 3 ? ", cl_mem" : "");
}

/* R2C: the device-buffer transforms equal the host ones in both directions. */
static void oop_r2c(void)
{
	const int64_t shape[2] = {16, 30};
	vkfftgo_plan *p = make_plan(VKFFTGO_R2C, 2, shape, 1, VKFFTGO_TUNE_OFF);
	size_t cb, rb;
	CHECK(vkfftgo_plan_bytes(p, &cb, &rb));
	float *x = malloc(rb), *spec = malloc(cb), *got = malloc(cb), *back = malloc(rb), *gotr = malloc(rb);
	for (size_t i = 0; i < rb / sizeof(float); i++)
		x[i] = (float)test_value(i + 7);
	CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, spec, cb, x, rb));
	CHECK(vkfftgo_execute(p, VKFFTGO_INVERSE, back, rb, spec, cb));
	vkfftgo_buffer *r, *c;
	CHECK(vkfftgo_buffer_create(dev, rb, &r));
	CHECK(vkfftgo_buffer_create(dev, cb, &c));
	CHECK(vkfftgo_buffer_upload(r, x, rb));
	CHECK(vkfftgo_execute_buffer(p, VKFFTGO_FORWARD, c, r));
	download(c, got, cb);
	CHECK(vkfftgo_execute_buffer(p, VKFFTGO_INVERSE, r, c));
	download(r, gotr, rb);
	if (max_diff(got, spec, cb / sizeof(float)) != 0 || max_diff(gotr, back, rb / sizeof(float)) != 0) {
		fprintf(stderr, "R2C buffers differ from host transforms\n");
		exit(1);
	}
	CHECK(vkfftgo_buffer_destroy(r));
	CHECK(vkfftgo_buffer_destroy(c));
	CHECK(vkfftgo_plan_destroy(p));
	free(x);
	free(spec);
	free(got);
	free(back);
	free(gotr);
	printf("  R2C 16x30 device buffers equal host transforms, both directions\n");
}

int main(int argc, char **argv)
{
	int second = argc > 1 && strcmp(argv[1], "stored") == 0;
	CHECK(vkfftgo_device_open(0, &dev));
	tune(second);
	if (!second) {
		oop_c2c();
		oop_r2c();
	}
	CHECK(vkfftgo_device_close(dev));
	return 0;
}
