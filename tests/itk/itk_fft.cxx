// itk_fft.cxx — an unmodified ITK 5.2 program using ITK's FFTW-backed FFT filters
// (built by find_package(ITK); ITK plans through FFTW's fftwf_* API). tests/itk/run.sh
// runs it as built (FFTW) and with LD_PRELOAD=libvkfftgo_fftw3.so (the GPU), and
// compares the outputs; tests/gpu/steps/fftw.sh times it on the H200.
//
//   itk_fft run OUTDIR N K        forward + inverse FFT of an N^3 float image
//                                 (itk::ForwardFFTImageFilter, itk::InverseFFTImageFilter)
//                                 and itk::FFTConvolutionImageFilter with a K^3 kernel;
//                                 raw outputs into OUTDIR
//   itk_fft compare DIR_A DIR_B   relative L2 and max differences of the outputs; exit 1
//                                 above single-precision tolerance
//   itk_fft bench N K REPS WHAT   WHAT = fft (forward + inverse) or conv: REPS timed
//                                 filter Update()s after one untimed warm-up
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "itkFFTConvolutionImageFilter.h"
#include "itkForwardFFTImageFilter.h"
#include "itkImage.h"
#include "itkImageRegionIterator.h"
#include "itkInverseFFTImageFilter.h"
#include "itkMultiThreaderBase.h"

using ImageType = itk::Image<float, 3>;
using ComplexImageType = itk::Image<std::complex<float>, 3>;
using ForwardType = itk::ForwardFFTImageFilter<ImageType, ComplexImageType>;
using InverseType = itk::InverseFFTImageFilter<ComplexImageType, ImageType>;
using ConvolutionType = itk::FFTConvolutionImageFilter<ImageType, ImageType, ImageType>;

static ImageType::Pointer
MakeImage(unsigned n, bool kernel)
{
  auto img = ImageType::New();
  ImageType::RegionType region;
  region.SetSize({ { n, n, n } });
  img->SetRegions(region);
  img->Allocate();
  itk::ImageRegionIterator<ImageType> it(img, region);
  const double c = (n - 1) / 2.0, s = kernel ? n / 4.0 : n / 6.0;
  uint64_t h = 88172645463325252ull;
  for (it.GoToBegin(); !it.IsAtEnd(); ++it)
  {
    const auto i = it.GetIndex();
    const double dx = i[0] - c, dy = i[1] - c, dz = i[2] - c, r2 = dx * dx + dy * dy + dz * dz;
    double v = std::exp(-r2 / (2 * s * s));
    if (!kernel)
    {
      h ^= h << 13, h ^= h >> 7, h ^= h << 17;
      v += 0.5 * std::sin(0.11 * i[0]) * std::cos(0.07 * i[1] + 0.05 * i[2]) + 0.1 * ((h >> 11) * 0x1.0p-53 - 0.5);
    }
    it.Set(static_cast<float>(v));
  }
  return img;
}

template <typename TImage>
static void
Write(const std::string & path, const TImage * img)
{
  std::ofstream f(path, std::ios::binary);
  const auto n = img->GetBufferedRegion().GetNumberOfPixels();
  const uint64_t bytes = n * sizeof(typename TImage::PixelType);
  f.write(reinterpret_cast<const char *>(&bytes), sizeof bytes);
  f.write(reinterpret_cast<const char *>(img->GetBufferPointer()), static_cast<std::streamsize>(bytes));
}

static std::vector<float>
Read(const std::string & path)
{
  std::ifstream f(path, std::ios::binary);
  uint64_t bytes = 0;
  f.read(reinterpret_cast<char *>(&bytes), sizeof bytes);
  std::vector<float> v(bytes / sizeof(float));
  f.read(reinterpret_cast<char *>(v.data()), static_cast<std::streamsize>(bytes));
  if (!f)
    v.clear();
  return v;
}

static double
Ms(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b)
{
  return std::chrono::duration<double, std::milli>(b - a).count();
}

static int
Run(const std::string & dir, unsigned n, unsigned k)
{
  auto img = MakeImage(n, false);
  auto t0 = std::chrono::steady_clock::now();
  auto fwd = ForwardType::New();
  fwd->SetInput(img);
  fwd->Update();
  auto t1 = std::chrono::steady_clock::now();
  auto inv = InverseType::New();
  inv->SetInput(fwd->GetOutput());
  inv->Update();
  auto t2 = std::chrono::steady_clock::now();
  auto conv = ConvolutionType::New();
  conv->SetInput(img);
  conv->SetKernelImage(MakeImage(k, true));
  conv->NormalizeOn();
  conv->Update();
  auto t3 = std::chrono::steady_clock::now();
  Write(dir + "/forward.raw", fwd->GetOutput());
  Write(dir + "/inverse.raw", inv->GetOutput());
  Write(dir + "/convolution.raw", conv->GetOutput());
  std::printf("itk_fft run %u^3 (kernel %u^3, %u threads, %s): forward %.1f ms, inverse %.1f ms, convolution %.1f ms\n",
              n, k, itk::MultiThreaderBase::GetGlobalDefaultNumberOfThreads(), fwd->GetNameOfClass(), Ms(t0, t1),
              Ms(t1, t2), Ms(t2, t3));
  return 0;
}

static int
Compare(const std::string & a, const std::string & b)
{
  const char * names[] = { "forward", "inverse", "convolution" };
  int bad = 0;
  for (const char * name : names)
  {
    auto x = Read(a + "/" + name + ".raw"), y = Read(b + "/" + name + ".raw");
    if (x.empty() || x.size() != y.size())
    {
      std::printf("   %-12s missing or of different sizes\n", name);
      bad = 1;
      continue;
    }
    double num = 0, den = 0, maxd = 0, maxv = 0;
    for (size_t i = 0; i < x.size(); i++)
    {
      const double d = double(x[i]) - double(y[i]);
      num += d * d;
      den += double(x[i]) * double(x[i]);
      maxd = std::max(maxd, std::fabs(d));
      maxv = std::max(maxv, std::fabs(double(x[i])));
    }
    const double rel = std::sqrt(num / (den > 0 ? den : 1)), relmax = maxd / (maxv > 0 ? maxv : 1);
    // single precision: FFTW's own float transforms differ from exact ones by ~1e-7
    // relative (L2); both engines together stay well inside 1e-5, and 1e-4 of the peak
    const bool ok = rel <= 1e-5 && relmax <= 1e-4;
    std::printf("   %-12s %9zu floats: relative L2 difference %.2e, max difference %.2e of the peak %s\n", name, x.size(),
                rel, relmax, ok ? "ok" : "TOO LARGE");
    bad |= !ok;
  }
  return bad;
}

static int
Bench(unsigned n, unsigned k, int reps, const std::string & what)
{
  auto img = MakeImage(n, false);
  std::vector<double> a, b;
  if (what == "fft")
  {
    auto fwd = ForwardType::New();
    fwd->SetInput(img);
    auto inv = InverseType::New();
    inv->SetInput(fwd->GetOutput());
    for (int r = 0; r <= reps; r++)
    {
      auto t0 = std::chrono::steady_clock::now();
      fwd->Modified();
      fwd->Update();
      auto t1 = std::chrono::steady_clock::now();
      inv->Modified();
      inv->Update();
      auto t2 = std::chrono::steady_clock::now();
      std::printf("bench fft %u^3 round %d: forward %.2f ms, inverse %.2f ms\n", n, r, Ms(t0, t1), Ms(t1, t2));
      std::fflush(stdout);
      if (r > 0)
        a.push_back(Ms(t0, t1)), b.push_back(Ms(t1, t2));
    }
  }
  else
  {
    auto conv = ConvolutionType::New();
    conv->SetInput(img);
    conv->SetKernelImage(MakeImage(k, true));
    conv->NormalizeOn();
    for (int r = 0; r <= reps; r++)
    {
      auto t0 = std::chrono::steady_clock::now();
      conv->Modified();
      conv->Update();
      auto t1 = std::chrono::steady_clock::now();
      std::printf("bench conv %u^3 kernel %u^3 round %d: %.1f ms\n", n, k, r, Ms(t0, t1));
      std::fflush(stdout);
      if (r > 0)
        a.push_back(Ms(t0, t1));
    }
  }
  auto med = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  if (what == "fft")
    std::printf("RESULT fft %u^3 threads %u: forward median %.2f ms min %.2f, inverse median %.2f ms min %.2f, "
                "pair median %.2f ms\n",
                n, itk::MultiThreaderBase::GetGlobalDefaultNumberOfThreads(), med(a),
                *std::min_element(a.begin(), a.end()), med(b), *std::min_element(b.begin(), b.end()),
                med(a) + med(b));
  else
    std::printf("RESULT conv %u^3 kernel %u^3 threads %u: median %.1f ms min %.1f\n", n, k,
                itk::MultiThreaderBase::GetGlobalDefaultNumberOfThreads(), med(a),
                *std::min_element(a.begin(), a.end()));
  return 0;
}

int
main(int argc, char ** argv)
{
  try
  {
    if (argc == 5 && !std::strcmp(argv[1], "run"))
      return Run(argv[2], std::atoi(argv[3]), std::atoi(argv[4]));
    if (argc == 4 && !std::strcmp(argv[1], "compare"))
      return Compare(argv[2], argv[3]);
    if (argc == 6 && !std::strcmp(argv[1], "bench"))
      return Bench(std::atoi(argv[2]), std::atoi(argv[3]), std::max(1, std::atoi(argv[4])), argv[5]);
  }
  catch (const itk::ExceptionObject & e)
  {
    std::fprintf(stderr, "itk_fft: %s\n", e.what());
    return 3;
  }
  std::fprintf(stderr, "usage: itk_fft run OUTDIR N K | compare DIR_A DIR_B | bench N K REPS fft|conv\n");
  return 2;
}
