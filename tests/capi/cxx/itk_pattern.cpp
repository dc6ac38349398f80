// itk_pattern.cpp — the ITK usage pattern that used to leak: one plan (one "filter")
// reused for 200 forward+inverse transforms of a 3-D image, every result checked, and
// device allocations and the process's RSS flat across the iterations.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include "../check.h"

int main()
{
	const int iterations = 200;
	const int64_t nz = 32, ny = 32, nx = 32;
	const size_t n = size_t(nz * ny * nx);
	vkfftgo_device *d = nullptr;
	vkfftgo_plan *p = nullptr;
	CHECK(vkfftgo_device_open(0, &d));
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	desc.kind = VKFFTGO_R2C; // image filters transform real images
	desc.rank = 3;
	desc.shape[0] = nz;
	desc.shape[1] = ny;
	desc.shape[2] = nx;
	CHECK(vkfftgo_plan_create(d, &desc, &p));

	std::vector<float> image(n), back(n);
	std::vector<std::complex<float>> spec(size_t(nz * ny * (nx / 2 + 1)));
	vkfftgo_mem_stats first = VKFFTGO_MEM_STATS_INIT, now = VKFFTGO_MEM_STATS_INIT;
	long rss_warm = 0, rss_max = 0;
	double worst = 0;
	for (int it = 0; it < iterations; it++) {
		for (size_t i = 0; i < n; i++)
			image[i] = float(test_value(i + size_t(it)));
		CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, spec.data(), spec.size() * sizeof spec[0], image.data(),
				      image.size() * sizeof image[0]));
		CHECK(vkfftgo_execute(p, VKFFTGO_INVERSE, back.data(), back.size() * sizeof back[0], spec.data(),
				      spec.size() * sizeof spec[0]));
		double err = 0;
		for (size_t i = 0; i < n; i++)
			err = std::max(err, double(std::fabs(back[i] - image[i])));
		worst = std::max(worst, err);
		if (!(err < 1e-5)) {
			std::fprintf(stderr, "iteration %d: round-trip error %g\n", it, err);
			return 1;
		}
		CHECK(vkfftgo_device_mem_stats(d, &now));
		if (it == 0)
			first = now;
		if (now.live_allocations != first.live_allocations || now.live_bytes != first.live_bytes ||
		    now.allocations != first.allocations) {
			std::fprintf(stderr, "iteration %d: device allocations changed: %lld live (%lld bytes), %lld made; at first %lld (%lld), %lld\n",
				     it, (long long)now.live_allocations, (long long)now.live_bytes,
				     (long long)now.allocations, (long long)first.live_allocations,
				     (long long)first.live_bytes, (long long)first.allocations);
			return 1;
		}
		long rss = test_rss_bytes();
		if (it == 20)
			rss_warm = rss;
		if (it >= 20)
			rss_max = std::max(rss_max, rss);
	}
	const long allowed = 8L << 20;
	std::printf("itk_pattern: %d forward+inverse on one %lldx%lldx%lld R2C plan: max error %.3g, "
		    "device: %lld live allocations (%lld bytes), %lld made in total; RSS %.1f MiB after warm-up, max %.1f MiB\n",
		    iterations, (long long)nz, (long long)ny, (long long)nx, worst, (long long)now.live_allocations,
		    (long long)now.live_bytes, (long long)now.allocations, rss_warm / 1048576.0, rss_max / 1048576.0);
	if (rss_max - rss_warm > allowed) {
		std::fprintf(stderr, "RSS grew by %ld bytes over the iterations\n", rss_max - rss_warm);
		return 1;
	}
	CHECK(vkfftgo_plan_destroy(p));
	CHECK(vkfftgo_device_mem_stats(d, &now));
	if (now.live_allocations != 0) {
		std::fprintf(stderr, "plan_destroy left %lld device allocations\n", (long long)now.live_allocations);
		return 1;
	}
	CHECK(vkfftgo_device_close(d));
	std::printf("itk_pattern: OK\n");
	return 0;
}
