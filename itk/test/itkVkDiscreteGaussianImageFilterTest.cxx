/*=========================================================================
 * itkVkDiscreteGaussianImageFilterTest — VkDiscreteGaussianImageFilter against ITK's
 * spatial DiscreteGaussianImageFilter: with the metric threshold forcing the FFT path
 * (on the GPU) and the spatial path; 2-D and 3-D; isotropic and anisotropic variances;
 * zero-flux Neumann (default), periodic and zero boundary conditions; image spacing;
 * a requested region smaller than the image; FilterDimensionality; and the metric's
 * formula. Mirrors ITKVkFFTBackend's itkVkDiscreteGaussianImageFilterTest (against ITK's
 * filter instead of a baseline file).
 *=========================================================================*/
#include "itkConstantBoundaryCondition.h"
#include "itkDiscreteGaussianImageFilter.h"
#include "itkImageAlgorithm.h"
#include "itkPeriodicBoundaryCondition.h"
#include "itkVkBlurringPerformanceMetric.h"
#include "itkVkDiscreteGaussianImageFilter.h"
#include "itkVkFFTTestUtilities.h"

namespace
{
/** max |a - b| / max |b| over region (a and b may buffer more). */
template <typename TImage>
double
RegionError(const TImage * a, const TImage * b, const typename TImage::RegionType & region)
{
  itk::ImageRegionConstIterator<TImage> ia(a, region), ib(b, region);
  double                                err = 0, scale = 1e-300;
  for (; !ia.IsAtEnd(); ++ia, ++ib)
  {
    err = std::max(err, std::fabs(double(ia.Get()) - double(ib.Get())));
    scale = std::max(scale, std::fabs(double(ib.Get())));
  }
  return err / scale;
}

struct Case
{
  const char * name;
  double       variance[3];
  int          boundary; // 0 zero-flux, 1 periodic, 2 zero constant
  bool         spacing;
  bool         subregion;
  unsigned int dims;
};

template <typename TPixel, unsigned int D>
void
Check(const Case & c, const typename itk::Image<TPixel, D>::SizeType & size)
{
  using I = itk::Image<TPixel, D>;
  using Vk = itk::VkDiscreteGaussianImageFilter<I>;
  auto image = vktest::MakeImage<I>(size, 21);
  if (c.spacing)
  {
    typename I::SpacingType s;
    for (unsigned int d = 0; d < D; ++d)
    {
      s[d] = 0.5 + 0.25 * d;
    }
    image->SetSpacing(s);
  }
  itk::PeriodicBoundaryCondition<I>   periodic;
  itk::ConstantBoundaryCondition<I>   zero;
  typename I::RegionType              region = image->GetLargestPossibleRegion();
  if (c.subregion)
  {
    region.ShrinkByRadius(2);
  }
  for (bool fft : { true, false })
  {
    auto vk = Vk::New();
    auto ref = itk::DiscreteGaussianImageFilter<I>::New();
    for (auto * f : { static_cast<itk::DiscreteGaussianImageFilter<I> *>(vk.GetPointer()), ref.GetPointer() })
    {
      f->SetInput(image);
      f->SetVariance(c.variance);
      f->SetMaximumError(0.001);
      f->SetMaximumKernelWidth(64);
      f->SetUseImageSpacing(c.spacing);
      f->SetFilterDimensionality(c.dims);
      if (c.boundary == 1)
      {
        f->SetInputBoundaryCondition(&periodic);
        f->SetRealBoundaryCondition(&periodic);
      }
      else if (c.boundary == 2)
      {
        f->SetInputBoundaryCondition(&zero);
        f->SetRealBoundaryCondition(&zero);
      }
      f->GetOutput()->SetRequestedRegion(region);
      f->Update();
    }
    vk->SetAnticipatedPerformanceMetricThreshold(fft ? 0.0f : 100.0f);
    vk->Modified();
    vk->GetOutput()->SetRequestedRegion(region);
    vk->Update();
    VK_CHECK(vk->GetLastRunUsedFFT() == fft, c.name << ": the path");
    const double e = RegionError(vk->GetOutput(), ref->GetOutput(), region);
    const double tol = sizeof(TPixel) == 4 ? 2e-5 : 1e-11;
    VK_CHECK(e <= tol, c.name << " " << size << (fft ? " FFT" : " spatial") << ": error " << e << " > " << tol);
    std::cout << "  " << c.name << " " << size << (fft ? " FFT (GPU)" : " spatial") << ": error " << e
              << ", kernel radius " << vk->GetKernelRadius() << ", metric " << vk->GetAnticipatedPerformanceMetric()
              << std::endl;
  }
}

template <typename TPixel>
void
CheckAll()
{
  const Case cases[] = {
    { "isotropic", { 4.0, 4.0, 4.0 }, 0, false, false, 3 },
    { "anisotropic", { 1.0, 6.0, 2.5 }, 0, false, false, 3 },
    { "periodic", { 3.0, 2.0, 5.0 }, 1, false, false, 3 },
    { "zero boundary", { 2.0, 2.0, 2.0 }, 2, false, false, 3 },
    { "image spacing", { 1.0, 2.0, 0.5 }, 0, true, false, 3 },
    { "requested subregion", { 3.0, 3.0, 3.0 }, 0, false, true, 3 },
    { "filter dimensionality 1", { 4.0, 4.0, 4.0 }, 0, false, false, 1 },
  };
  for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i)
  {
    if (vktest::Takes<TPixel>(i))
    {
      Check<TPixel, 2>(cases[i], { { 33, 20 } });
    }
  }
  // the 3-D cases, one in each precision
  if (vktest::Takes<TPixel>(0))
  {
    Check<TPixel, 3>(cases[1], { { 17, 12, 10 } });
  }
  if (vktest::Takes<TPixel>(1))
  {
    Check<TPixel, 3>(cases[5], { { 15, 16, 9 } });
  }

  // the metric: log10(prod(region) * sum(kernel))
  using I = itk::Image<TPixel, 3>;
  const typename I::SizeType region = { { 100, 10, 10 } }, kernel = { { 5, 3, 2 } };
  const float m = itk::VkBlurringPerformanceMetric<I>::Compute(region, kernel);
  VK_CHECK(std::fabs(m - std::log10(10000.0 * 10)) < 1e-5, "metric " << m);
}
} // namespace

int
itkVkDiscreteGaussianImageFilterTest(int argc, char * argv[])
{
  VK_CHECK(argc == 2, "usage: itkVkDiscreteGaussianImageFilterTest float|double");
  std::string(argv[1]) == "float" ? CheckAll<float>() : CheckAll<double>();
  std::cout << "itkVkDiscreteGaussianImageFilterTest: passed" << std::endl;
  return EXIT_SUCCESS;
}
