/*=========================================================================
 * itkVkComplexToComplexFFTImageFilterTest — VkComplexToComplexFFTImageFilter, forward
 * and inverse, against ITK's FFTW and Vnl filters; the inverse of the forward gives the
 * image back. Mirrors ITKVkFFTBackend's itkVkComplexToComplexFFTImageFilterTest, with
 * references instead of a baseline file.
 *=========================================================================*/
#include "itkOutputWindow.h"
#include "itkVkFFT1DReference.h"
#include "itkVkComplexToComplexFFTImageFilter.h"
#include "itkVnlComplexToComplexFFTImageFilter.h"
#include "itkVnlFFTCommon.h"
#include "itkVkFFTTestUtilities.h"

namespace
{
template <typename TReal, unsigned int D>
void
Check(unsigned int index, const typename itk::Image<TReal, D>::SizeType & size)
{
  if (!vktest::Takes<TReal>(index))
  {
    return;
  }
  using ComplexImage = itk::Image<std::complex<TReal>, D>;
  using Vk = itk::VkComplexToComplexFFTImageFilter<ComplexImage>;
  double n = 1;
  bool   smooth = true;
  for (unsigned int d = 0; d < D; ++d)
  {
    n *= static_cast<double>(size[d]);
    smooth = smooth && itk::VnlFFTCommon::IsDimensionSizeLegal(size[d]);
  }
  const double tol = vktest::Tolerance<TReal>(n);
  auto         image = vktest::MakeImage<ComplexImage>(size, 5);
  for (auto direction : { Vk::TransformDirectionEnum::FORWARD, Vk::TransformDirectionEnum::INVERSE })
  {
    auto vk = Vk::New();
    vk->SetInput(image);
    vk->SetTransformDirection(direction);
    vk->Update();
    VK_CHECK(!vk->GetLastUpdateUsedFallback(), vk->GetFallbackReason());
    // the direct DFT, one dimension after the other
    const bool inverse = direction == Vk::TransformDirectionEnum::INVERSE;
    auto       want = vktest::DFT1D(image.GetPointer(), 0, inverse);
    for (unsigned int d = 1; d < D; ++d)
    {
      want = vktest::DFT1D(want.GetPointer(), d, inverse);
    }
    const double e = vktest::ErrorAgainst(vk->GetOutput(), want.GetPointer());
    VK_CHECK(e <= tol, size << " " << direction << ": " << e << " against a direct DFT");
    if (smooth)
    {
      auto vnl = itk::VnlComplexToComplexFFTImageFilter<ComplexImage>::New();
      vnl->SetInput(image);
      vnl->SetTransformDirection(direction);
      vnl->Update();
      const double ev = vktest::RelativeError(vk->GetOutput(), vnl->GetOutput());
      VK_CHECK(ev <= tol, size << " " << direction << ": " << ev << " against Vnl");
    }
    // the fallback, forced by a device that does not exist
    itk::Object::GlobalWarningDisplayOff();
    auto fb = Vk::New();
    fb->SetInput(image);
    fb->SetTransformDirection(direction);
    fb->SetUseVkGlobalConfiguration(false);
    fb->SetDeviceID(1000);
    fb->Update();
    itk::Object::GlobalWarningDisplayOn();
    VK_CHECK(fb->GetLastUpdateUsedFallback(), "device 1000");
    const double ef = vktest::ErrorAgainst(fb->GetOutput(), want.GetPointer());
    VK_CHECK(ef <= tol, size << " " << direction << ": the fallback's error " << ef);
    std::cout << "  " << size << " " << direction << ": " << e << " against a direct DFT, fallback " << ef
              << std::endl;
  }
  auto fwd = Vk::New();
  fwd->SetInput(image);
  auto inv = Vk::New();
  inv->SetInput(fwd->GetOutput());
  inv->SetTransformDirection(Vk::TransformDirectionEnum::INVERSE);
  inv->Update();
  const double e = vktest::RelativeError(inv->GetOutput(), image.GetPointer());
  VK_CHECK(e <= 2 * tol, size << " round trip: " << e);
}

template <typename TReal>
void
CheckAll()
{
  Check<TReal, 1>(0, { { 20 } });
  Check<TReal, 1>(1, { { 23 } });
  Check<TReal, 2>(2, { { 8, 15 } });
  Check<TReal, 2>(3, { { 11, 6 } });
  Check<TReal, 3>(4, { { 6, 5, 4 } });
  Check<TReal, 3>(5, { { 3, 7, 13 } });
}
} // namespace

int
itkVkComplexToComplexFFTImageFilterTest(int argc, char * argv[])
{
  VK_CHECK(argc == 2, "usage: itkVkComplexToComplexFFTImageFilterTest float|double");
  if (std::string(argv[1]) == "float")
  {
    CheckAll<float>();
  }
  else
  {
    CheckAll<double>();
  }
  std::cout << "itkVkComplexToComplexFFTImageFilterTest: passed" << std::endl;
  return EXIT_SUCCESS;
}
