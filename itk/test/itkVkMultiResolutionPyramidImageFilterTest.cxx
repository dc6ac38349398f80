/*=========================================================================
 * itkVkMultiResolutionPyramidImageFilterTest — VkMultiResolutionPyramidImageFilter
 * against ITK's MultiResolutionPyramidImageFilter: four levels of a 3-D image with the
 * metric threshold forcing FFT blurring (on the GPU) at every level, and the default
 * threshold (spatial for small levels), with the resampling and the shrinking
 * (UseShrinkImageFilter) paths; every level must match ITK's. Mirrors ITKVkFFTBackend's
 * itkVkMultiResolutionPyramidImageFilterTest (against ITK's filter instead of baseline
 * files).
 *=========================================================================*/
#include "itkMultiResolutionPyramidImageFilter.h"
#include "itkVkMultiResolutionPyramidImageFilter.h"
#include "itkVkFFTTestUtilities.h"

namespace
{
template <typename TPixel>
void
Check(float threshold, bool shrink, unsigned int expectFFT)
{
  using I = itk::Image<TPixel, 3>;
  auto image = vktest::MakeImage<I>({ { 24, 20, 16 } }, 31);
  auto vk = itk::VkMultiResolutionPyramidImageFilter<I, I>::New();
  auto ref = itk::MultiResolutionPyramidImageFilter<I, I>::New();
  for (itk::MultiResolutionPyramidImageFilter<I, I> * f : { static_cast<itk::MultiResolutionPyramidImageFilter<I, I> *>(vk.GetPointer()), ref.GetPointer() })
  {
    f->SetInput(image);
    f->SetNumberOfLevels(4);
    f->SetUseShrinkImageFilter(shrink);
  }
  vk->SetMetricThreshold(threshold);
  vk->Update();
  ref->Update();
  VK_CHECK(vk->GetLevelsBlurredByFFT() == expectFFT, vk->GetLevelsBlurredByFFT() << " levels blurred by FFT");
  const double tol = sizeof(TPixel) == 4 ? 2e-5 : 1e-11;
  for (unsigned int l = 0; l < 4; ++l)
  {
    const double e = vktest::RelativeError(vk->GetOutput(l), ref->GetOutput(l));
    VK_CHECK(e <= tol, "level " << l << ": error " << e);
    std::cout << "  threshold " << threshold << (shrink ? " shrink" : " resample") << ", level " << l << " "
              << vk->GetOutput(l)->GetLargestPossibleRegion().GetSize() << ": error " << e << std::endl;
  }
}
} // namespace

int
itkVkMultiResolutionPyramidImageFilterTest(int argc, char * argv[])
{
  VK_CHECK(argc == 2, "usage: itkVkMultiResolutionPyramidImageFilterTest float|double");
  if (std::string(argv[1]) == "float")
  {
    Check<float>(0.0f, false, 4);
    Check<float>(0.0f, true, 4);
    Check<float>(100.0f, false, 0);
  }
  else
  {
    Check<double>(0.0f, false, 4);
    Check<double>(100.0f, true, 0);
  }
  std::cout << "itkVkMultiResolutionPyramidImageFilterTest: passed" << std::endl;
  return EXIT_SUCCESS;
}
