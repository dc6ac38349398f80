// cxx_consumer.cpp — C++11 round trips through find_package(VkFFTGo): C2C 3-D and R2C
// 3-D with std::complex, and an error check.
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include "../check.h"

#ifndef VKFFT_BACKEND
#error "VkFFTGo::vkfftgo should carry VKFFT_BACKEND in its INTERFACE_COMPILE_DEFINITIONS"
#endif
static_assert(VKFFT_BACKEND == VKFFTGO_BACKEND, "the target's define and the config header agree");

int main()
{
	vkfftgo_device *d = nullptr;
	vkfftgo_plan *p = nullptr, *r = nullptr;
	CHECK(vkfftgo_device_open(0, &d));
	const int64_t nz = 8, ny = 16, nx = 24;
	const size_t n = size_t(nz * ny * nx);

	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	desc.rank = 3;
	desc.shape[0] = nz;
	desc.shape[1] = ny;
	desc.shape[2] = nx;
	desc.batch = 1;
	CHECK(vkfftgo_plan_create(d, &desc, &p));
	std::vector<std::complex<float>> in(n), spec(n), back(n);
	for (size_t i = 0; i < n; i++)
		in[i] = std::complex<float>(float(test_value(i)), float(test_value(i + n)));
	CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, spec.data(), spec.size() * sizeof spec[0], in.data(),
			      in.size() * sizeof in[0]));
	CHECK(vkfftgo_inverse(p, back.data(), spec.data()));
	double err = 0;
	for (size_t i = 0; i < n; i++)
		err = std::max(err, double(std::abs(back[i] - in[i])));
	std::printf("  C2C single %lldx%lldx%lld round trip: max error %.3g\n", (long long)nz, (long long)ny,
		    (long long)nx, err);
	if (!(err < 1e-5))
		return 1;

	desc.kind = VKFFTGO_R2C;
	desc.precision = VKFFTGO_DOUBLE;
	CHECK(vkfftgo_plan_create(d, &desc, &r));
	std::vector<double> rin(n), rback(n);
	std::vector<std::complex<double>> rspec(size_t(nz * ny * (nx / 2 + 1)));
	for (size_t i = 0; i < n; i++)
		rin[i] = test_value(i);
	CHECK(vkfftgo_execute(r, VKFFTGO_FORWARD, rspec.data(), rspec.size() * sizeof rspec[0], rin.data(),
			      rin.size() * sizeof rin[0]));
	CHECK(vkfftgo_execute(r, VKFFTGO_INVERSE, rback.data(), rback.size() * sizeof rback[0], rspec.data(),
			      rspec.size() * sizeof rspec[0]));
	err = 0;
	for (size_t i = 0; i < n; i++)
		err = std::max(err, std::fabs(rback[i] - rin[i]));
	std::printf("  R2C double %lldx%lldx%lld round trip: max error %.3g\n", (long long)nz, (long long)ny,
		    (long long)nx, err);
	if (!(err < 1e-12))
		return 1;
	// a float vector where the plan takes doubles: an error, not an overread
	std::vector<float> wrong(n);
	EXPECT_FAIL(vkfftgo_execute(r, VKFFTGO_FORWARD, rspec.data(), rspec.size() * sizeof rspec[0], wrong.data(),
				    wrong.size() * sizeof wrong[0]),
		    VKFFTGO_ERROR_WRONG_SIZE, "vkfftgo_execute|the plan needs");
	CHECK(vkfftgo_plan_destroy(p));
	CHECK(vkfftgo_plan_destroy(r));
	CHECK(vkfftgo_device_close(d));
	std::printf("cxx_consumer: OK\n");
	return 0;
}
