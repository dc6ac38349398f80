// itk_vk_bench — ITK's defaults against the VkFFTBackend module, per filter Update().
//
//   itk_vk_bench fft N REPS            ForwardFFT + InverseFFT of an N^3 float image
//   itk_vk_bench gaussian N REPS S     DiscreteGaussian, sigma S
//   itk_vk_bench conv N REPS K         FFTConvolutionImageFilter with a K^3 kernel
//   itk_vk_bench pyramid N REPS L      an L-level MultiResolutionPyramid
//
// ITK's side: FFTW on all cores (ITK's FFTW filters; ITK's default work units) and the
// spatial DiscreteGaussianImageFilter. The Vk side: the module's filters on device 0.
// Each figure is the median of REPS timed Updates after one untimed one. The split of a
// Vk Update: "device" is the time inside libvkfftgo's per-call functions (host
// transfers and the device's work, VkCommon::GetDeviceTime), of which "gpu" is the same
// work on device-resident buffers (no host transfer; a separate run through the C API),
// so transfer = device - gpu, and "itk" = total - device is ITK's own work around it.
// For ITK's FFTW filters "fft" is FFTW's own execution (the same plan through ITK's
// FFTW proxy), "itk" the rest (the Hermitian expansion, copies). Lines start RESULT.
#include "itkDiscreteGaussianImageFilter.h"
#include "itkFFTConvolutionImageFilter.h"
#include "itkFFTWCommon.h"
#include "itkFFTWForwardFFTImageFilter.h"
#include "itkFFTWInverseFFTImageFilter.h"
#include "itkMultiResolutionPyramidImageFilter.h"
#include "itkMultiThreaderBase.h"
#include "itkVkDiscreteGaussianImageFilter.h"
#include "itkVkFFTConvolutionImageFilter.h"
#include "itkVkForwardFFTImageFilter.h"
#include "itkVkInverseFFTImageFilter.h"
#include "itkVkMultiResolutionPyramidImageFilter.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

namespace
{
using R = itk::Image<float, 3>;
using C = itk::Image<std::complex<float>, 3>;
using Clock = std::chrono::steady_clock;

double
Ms(Clock::time_point a, Clock::time_point b)
{
  return std::chrono::duration<double, std::milli>(b - a).count();
}

double
Median(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

R::Pointer
Image(unsigned n, unsigned seed)
{
  auto image = R::New();
  image->SetRegions(R::SizeType{ { n, n, n } });
  image->Allocate();
  uint64_t h = 88172645463325252ull + seed;
  auto *   p = image->GetBufferPointer();
  for (size_t i = 0; i < image->GetBufferedRegion().GetNumberOfPixels(); ++i)
  {
    h ^= h << 13, h ^= h >> 7, h ^= h << 17;
    p[i] = static_cast<float>((h >> 11) * 0x1.0p-53);
  }
  return image;
}

/** One Update's time and its device part, medians over reps after a warm-up. */
struct Timing
{
  double total{ 0 }, device{ 0 };
};

Timing
Time(int reps, const std::function<void()> & update)
{
  update(); // untimed: the first builds plans, compiles kernels, allocates
  std::vector<double> total, device;
  for (int r = 0; r < reps; ++r)
  {
    const auto d0 = itk::VkCommon::GetDeviceTime();
    const auto t0 = Clock::now();
    update();
    const auto t1 = Clock::now();
    total.push_back(Ms(t0, t1));
    device.push_back(itk::VkCommon::GetDeviceTime().milliseconds - d0.milliseconds);
  }
  return { Median(total), Median(device) };
}

/** A device-resident run of a plan of desc in one direction: the GPU's work alone. */
double
DevicePlanMs(const vkfftgo_plan_desc & desc, int direction, int reps)
{
  vkfftgo_device * d = itk::VkCommon::GetDevice(0);
  vkfftgo_plan *   p = nullptr;
  size_t           out = 0, in = 0;
  if (!d || vkfftgo_plan_acquire(d, &desc, &p) != VKFFTGO_SUCCESS ||
      vkfftgo_plan_io_bytes(p, direction, &out, &in) != VKFFTGO_SUCCESS)
  {
    std::cerr << "device plan: " << vkfftgo_last_error() << std::endl;
    return 0;
  }
  vkfftgo_buffer *bo = nullptr, *bi = nullptr;
  vkfftgo_buffer_create(d, out, &bo);
  vkfftgo_buffer_create(d, in, &bi);
  std::vector<double> t;
  for (int r = 0; r <= reps; ++r)
  {
    const auto t0 = Clock::now();
    vkfftgo_execute_buffer(p, direction, bo, bi);
    vkfftgo_device_sync(d);
    if (r > 0)
    {
      t.push_back(Ms(t0, Clock::now()));
    }
  }
  vkfftgo_buffer_destroy(bo);
  vkfftgo_buffer_destroy(bi);
  vkfftgo_plan_release(p);
  return Median(t);
}

/** A device-resident convolution of desc (kernel all ones): the GPU's work alone. */
double
DeviceConvolutionMs(const vkfftgo_convolution_desc & desc, size_t kernelValues, int reps)
{
  vkfftgo_device *      d = itk::VkCommon::GetDevice(0);
  vkfftgo_convolution * c = nullptr;
  const size_t          elem = desc.precision == VKFFTGO_DOUBLE ? 8 : 4;
  std::vector<char>     kernel(kernelValues * elem, 0);
  size_t                in = 0, out = 0;
  if (!d || vkfftgo_convolution_create(d, &desc, kernel.data(), kernel.size(), &c) != VKFFTGO_SUCCESS ||
      vkfftgo_convolution_bytes(c, &in, &out) != VKFFTGO_SUCCESS)
  {
    std::cerr << "device convolution: " << vkfftgo_last_error() << std::endl;
    return 0;
  }
  vkfftgo_buffer *bi = nullptr, *bo = nullptr;
  vkfftgo_buffer_create(d, in, &bi);
  vkfftgo_buffer_create(d, out, &bo);
  std::vector<double> t;
  for (int r = 0; r <= reps; ++r)
  {
    const auto t0 = Clock::now();
    vkfftgo_convolution_apply_buffer(c, bo, bi);
    vkfftgo_device_sync(d);
    if (r > 0)
    {
      t.push_back(Ms(t0, Clock::now()));
    }
  }
  vkfftgo_buffer_destroy(bi);
  vkfftgo_buffer_destroy(bo);
  vkfftgo_convolution_destroy(c);
  return Median(t);
}

/** One result line. itkFFT < 0: ITK's side is not split; gpu < 0: no device-resident
 * timing, the device part is given whole. */
void
Report(const std::string & what, const Timing & itk, double itkFFT, const Timing & vk, double gpu)
{
  char itkPart[96] = "", vkPart[128];
  if (itkFFT >= 0)
  {
    std::snprintf(itkPart, sizeof itkPart, " (fft %.1f, itk %.1f)", itkFFT, itk.total - itkFFT);
  }
  if (gpu >= 0)
  {
    std::snprintf(vkPart, sizeof vkPart, "transfer %.1f, gpu %.1f, itk %.1f", vk.device - gpu, gpu,
                  vk.total - vk.device);
  }
  else
  {
    std::snprintf(vkPart, sizeof vkPart, "in libvkfftgo %.1f, itk %.1f", vk.device, vk.total - vk.device);
  }
  std::printf("RESULT %s: itk %.1f ms%s | vk %.1f ms (%s) | ratio %.2fx\n", what.c_str(), itk.total, itkPart, vk.total,
              vkPart, vk.total > 0 ? itk.total / vk.total : 0.0);
}

int
BenchFFT(unsigned n, int reps)
{
  auto image = Image(n, 1);
  // ITK's default: FFTW (ITK_USE_FFTWF), its threads on every core
  auto f = itk::FFTWForwardFFTImageFilter<R, C>::New();
  auto g = itk::FFTWInverseFFTImageFilter<C, R>::New();
  f->SetInput(image);
  g->SetInput(f->GetOutput());
  const Timing itkF = Time(reps, [&] { f->Modified(); f->Update(); });
  const Timing itkI = Time(reps, [&] { g->Modified(); g->Update(); });
  // FFTW's own execution of the same transforms (ITK's proxy, ITK's plan rigor and threads)
  using Proxy = itk::fftw::Proxy<float>;
  int                               sizes[3] = { int(n), int(n), int(n) };
  std::vector<float>                real(size_t(n) * n * n);
  std::vector<std::complex<float>>  half(size_t(n) * n * (n / 2 + 1));
  const int                         threads = int(itk::MultiThreaderBase::GetGlobalDefaultNumberOfThreads());
  auto pf = Proxy::Plan_dft_r2c(3, sizes, real.data(), reinterpret_cast<Proxy::ComplexType *>(half.data()),
                                FFTW_ESTIMATE, threads);
  auto pi = Proxy::Plan_dft_c2r(3, sizes, reinterpret_cast<Proxy::ComplexType *>(half.data()), real.data(),
                                FFTW_ESTIMATE, threads);
  const Timing fftwF = Time(reps, [&] { Proxy::Execute(pf); });
  const Timing fftwI = Time(reps, [&] { Proxy::Execute(pi); });
  Proxy::DestroyPlan(pf);
  Proxy::DestroyPlan(pi);

  auto vf = itk::VkForwardFFTImageFilter<R, C>::New();
  auto vi = itk::VkInverseFFTImageFilter<C, R>::New();
  vf->SetInput(image);
  vi->SetInput(vf->GetOutput());
  const Timing vkF = Time(reps, [&] { vf->Modified(); vf->Update(); });
  const Timing vkI = Time(reps, [&] { vi->Modified(); vi->Update(); });
  vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
  desc.kind = VKFFTGO_R2C;
  desc.full_spectrum = 1;
  desc.rank = 3;
  desc.shape[0] = desc.shape[1] = desc.shape[2] = n;
  const double gpuF = DevicePlanMs(desc, VKFFTGO_FORWARD, reps), gpuI = DevicePlanMs(desc, VKFFTGO_INVERSE, reps);
  const std::string sz = std::to_string(n) + "^3 float";
  Report("fft forward " + sz, itkF, fftwF.total, vkF, gpuF);
  Report("fft inverse " + sz, itkI, fftwI.total, vkI, gpuI);
  Report("fft forward+inverse " + sz, { itkF.total + itkI.total, 0 }, fftwF.total + fftwI.total,
         { vkF.total + vkI.total, vkF.device + vkI.device }, gpuF + gpuI);
  std::printf("INFO vk used the fallback: forward %d inverse %d\n", vf->GetLastUpdateUsedFallback(),
              vi->GetLastUpdateUsedFallback());
  return 0;
}

int
BenchGaussian(unsigned n, int reps, double sigma)
{
  auto image = Image(n, 2);
  auto spatial = itk::DiscreteGaussianImageFilter<R, R>::New();
  spatial->SetInput(image);
  spatial->SetVariance(sigma * sigma);
  const Timing itk = Time(reps, [&] { spatial->Modified(); spatial->Update(); });
  auto vk = itk::VkDiscreteGaussianImageFilter<R, R>::New();
  vk->SetInput(image);
  vk->SetVariance(sigma * sigma);
  vk->SetAnticipatedPerformanceMetricThreshold(0.0f); // FFT blurring
  const Timing fft = Time(reps, [&] { vk->Modified(); vk->Update(); });
  const float  metric = vk->GetAnticipatedPerformanceMetric(); // of the output region, known now
  const auto   k = vk->GetKernelSize();
  vkfftgo_convolution_desc desc = VKFFTGO_CONVOLUTION_DESC_INIT;
  desc.kind = VKFFTGO_R2C;
  desc.rank = 3;
  desc.shape[0] = desc.shape[1] = desc.shape[2] = n;
  for (int d = 0; d < 3; ++d)
  {
    desc.kernel_shape[2 - d] = k[d] + (k[d] % 2 == 0 ? 1 : 0);
  }
  desc.boundary = VKFFTGO_BOUNDARY_REPLICATE;
  const double gpu = DeviceConvolutionMs(desc, size_t(desc.kernel_shape[0] * desc.kernel_shape[1] * desc.kernel_shape[2]), reps);
  std::printf("INFO gaussian sigma %.1f: kernel %lux%lux%lu, metric %.2f (default threshold 8: %s)\n", sigma, k[0],
              k[1], k[2], metric, metric > 8 ? "FFT" : "spatial");
  Report("gaussian " + std::to_string(n) + "^3 sigma " + std::to_string(int(sigma)) + " (ITK spatial vs Vk FFT)", itk,
         -1, fft, gpu);
  return 0;
}

int
BenchConvolution(unsigned n, int reps, unsigned k)
{
  auto image = Image(n, 3);
  auto kernel = R::New();
  kernel->SetRegions(R::SizeType{ { k, k, k } });
  kernel->Allocate();
  kernel->FillBuffer(1.0f / float(k * k * k));
  auto ref = itk::FFTConvolutionImageFilter<R>::New(); // ITK's: FFTW, double precision inside
  ref->SetInput(image);
  ref->SetKernelImage(kernel);
  const Timing itk = Time(reps, [&] { ref->Modified(); ref->Update(); });
  auto vk = itk::VkFFTConvolutionImageFilter<R>::New(); // the same, on the GPU
  vk->SetInput(image);
  vk->SetKernelImage(kernel);
  const Timing vkt = Time(reps, [&] { vk->Modified(); vk->Update(); });
  auto vkf = itk::VkFFTConvolutionImageFilter<R, R, R, float>::New(); // single precision inside
  vkf->SetInput(image);
  vkf->SetKernelImage(kernel);
  const Timing vktf = Time(reps, [&] { vkf->Modified(); vkf->Update(); });
  vkfftgo_convolution_desc desc = VKFFTGO_CONVOLUTION_DESC_INIT;
  desc.kind = VKFFTGO_R2C;
  desc.precision = VKFFTGO_DOUBLE;
  desc.rank = 3;
  desc.shape[0] = desc.shape[1] = desc.shape[2] = n;
  desc.kernel_shape[0] = desc.kernel_shape[1] = desc.kernel_shape[2] = k + (k % 2 == 0 ? 1 : 0);
  desc.boundary = VKFFTGO_BOUNDARY_REPLICATE;
  const size_t kv = size_t(desc.kernel_shape[0] * desc.kernel_shape[1] * desc.kernel_shape[2]);
  const double gpu = DeviceConvolutionMs(desc, kv, reps);
  desc.precision = VKFFTGO_SINGLE;
  const double gpuf = DeviceConvolutionMs(desc, kv, reps);
  const std::string sz = std::to_string(n) + "^3 * " + std::to_string(k) + "^3";
  Report("conv " + sz + " double inside", itk, -1, vkt, gpu);
  Report("conv " + sz + " float inside (vk only)", itk, -1, vktf, gpuf);
  return 0;
}

int
BenchPyramid(unsigned n, int reps, unsigned levels)
{
  auto image = Image(n, 4);
  auto ref = itk::MultiResolutionPyramidImageFilter<R, R>::New();
  ref->SetInput(image);
  ref->SetNumberOfLevels(levels);
  const Timing itk = Time(reps, [&] { ref->Modified(); ref->Update(); });
  auto vk = itk::VkMultiResolutionPyramidImageFilter<R, R>::New();
  vk->SetInput(image);
  vk->SetNumberOfLevels(levels);
  const Timing vkt = Time(reps, [&] { vk->Modified(); vk->Update(); });
  const unsigned byDefault = vk->GetLevelsBlurredByFFT();
  vk->SetMetricThreshold(0.0f);
  const Timing vkAll = Time(reps, [&] { vk->Modified(); vk->Update(); });
  const std::string sz = std::to_string(n) + "^3, " + std::to_string(levels) + " levels";
  std::printf("INFO pyramid: the default threshold blurs %u of %u levels by FFT\n", byDefault, levels);
  Report("pyramid " + sz + " (default threshold)", itk, -1, vkt, -1);
  Report("pyramid " + sz + " (every level by FFT)", itk, -1, vkAll, -1);
  return 0;
}
} // namespace

int
main(int argc, char * argv[])
{
  if (argc < 4)
  {
    std::cerr << "usage: itk_vk_bench fft|gaussian|conv|pyramid N REPS [S|K|L]" << std::endl;
    return 2;
  }
  const std::string what = argv[1];
  const unsigned    n = unsigned(std::atoi(argv[2]));
  const int         reps = std::atoi(argv[3]);
  const double      arg = argc > 4 ? std::atof(argv[4]) : 0;
  std::printf("INFO itk_vk_bench %s N=%u reps=%d, ITK work units %u, libvkfftgo %s (%s)\n", what.c_str(), n, reps,
              itk::MultiThreaderBase::GetGlobalDefaultNumberOfThreads(), vkfftgo_version_string(),
              vkfftgo_backend_name());
  if (what == "fft")
  {
    return BenchFFT(n, reps);
  }
  if (what == "gaussian")
  {
    return BenchGaussian(n, reps, arg > 0 ? arg : 4.0);
  }
  if (what == "conv")
  {
    return BenchConvolution(n, reps, arg > 0 ? unsigned(arg) : 15);
  }
  if (what == "pyramid")
  {
    return BenchPyramid(n, reps, arg > 0 ? unsigned(arg) : 4);
  }
  std::cerr << "unknown benchmark " << what << std::endl;
  return 2;
}
