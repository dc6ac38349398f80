/*=========================================================================
 * itkVkFFTNormalizedCorrelationImageFilterTest — VkFFTNormalizedCorrelationImageFilter
 * against ITK's FFTNormalizedCorrelationImageFilter: 2-D and 3-D, a moving image that is
 * a shifted part of the fixed one (the peak must be 1 at the shift), the required
 * number and fraction of overlapping pixels, and masks (ITK's implementation, with a
 * warning). The output's region and origin are ITK's. New: ITKVkFFTBackend has no
 * such filter.
 *=========================================================================*/
#include "itkFFTNormalizedCorrelationImageFilter.h"
#include "itkMinimumMaximumImageCalculator.h"
#include "itkOutputWindow.h"
#include "itkRegionOfInterestImageFilter.h"
#include "itkVkFFTNormalizedCorrelationImageFilter.h"
#include "itkVkFFTTestUtilities.h"

namespace
{
class QuietOutputWindow : public itk::OutputWindow
{
public:
  using Self = QuietOutputWindow;
  using Pointer = itk::SmartPointer<Self>;
  itkNewMacro(Self);
  void
  DisplayWarningText(const char *) override
  {
    ++warnings;
  }
  int warnings{ 0 };
};

template <typename TPixel, unsigned int D>
void
Check(const char *                                    name,
      const typename itk::Image<TPixel, D>::SizeType & fsize,
      const typename itk::Image<TPixel, D>::SizeType & msize,
      itk::SizeValueType                              required,
      float                                           fraction,
      bool                                            mask)
{
  using I = itk::Image<TPixel, D>;
  using Vk = itk::VkFFTNormalizedCorrelationImageFilter<I, I>;
  using Ref = itk::FFTNormalizedCorrelationImageFilter<I, I>;
  auto window = QuietOutputWindow::New();
  itk::OutputWindow::SetInstance(window);
  auto fixed = vktest::MakeImage<I>(fsize, 51);
  // the moving image: a part of the fixed one starting at offset
  typename I::RegionType part;
  for (unsigned int d = 0; d < D; ++d)
  {
    part.SetIndex(d, 2 + d);
    part.SetSize(d, msize[d]);
  }
  auto roi = itk::RegionOfInterestImageFilter<I, I>::New();
  roi->SetInput(fixed);
  roi->SetRegionOfInterest(part);
  roi->Update();
  typename I::Pointer moving = roi->GetOutput();
  moving->DisconnectPipeline();
  moving->SetOrigin(fixed->GetOrigin()); // the filter wants both in the same physical space
  using MaskImage = typename Ref::MaskImageType;
  typename MaskImage::Pointer maskImage;
  if (mask)
  {
    maskImage = MaskImage::New();
    maskImage->SetRegions(fixed->GetLargestPossibleRegion());
    maskImage->Allocate();
    maskImage->FillBuffer(1);
  }
  auto vk = Vk::New();
  auto ref = Ref::New();
  for (auto * f : { static_cast<Ref *>(vk.GetPointer()), ref.GetPointer() })
  {
    f->SetFixedImage(fixed);
    f->SetMovingImage(moving);
    f->SetRequiredNumberOfOverlappingPixels(required);
    f->SetRequiredFractionOfOverlappingPixels(fraction);
    if (mask)
    {
      f->SetFixedImageMask(maskImage);
    }
    f->Update();
  }
  VK_CHECK(vk->GetLastUpdateUsedFallback() == mask, name << ": " << vk->GetFallbackReason());
  VK_CHECK(window->warnings == (mask ? 1 : 0), name << ": warnings");
  VK_CHECK(vk->GetOutput()->GetLargestPossibleRegion() == ref->GetOutput()->GetLargestPossibleRegion(),
           name << ": region");
  VK_CHECK(vk->GetOutput()->GetOrigin() == ref->GetOutput()->GetOrigin(), name << ": origin");
  const double tol = sizeof(TPixel) == 4 ? 1e-4 : 1e-9;
  const double e = vktest::RelativeError(vk->GetOutput(), ref->GetOutput());
  VK_CHECK(e <= tol, name << ": error " << e << " > " << tol);
  auto mm = itk::MinimumMaximumImageCalculator<I>::New();
  mm->SetImage(vk->GetOutput());
  mm->ComputeMaximum();
  VK_CHECK(std::fabs(mm->GetMaximum() - 1.0) < (sizeof(TPixel) == 4 ? 1e-3 : 1e-9),
           name << ": the peak is " << mm->GetMaximum());
  std::cout << "  " << name << " " << fsize << " with " << msize << (mask ? " (ITK, masks)" : " (GPU)")
            << ": error " << e << ", peak " << mm->GetMaximum() << " at " << mm->GetIndexOfMaximum() << std::endl;
  itk::OutputWindow::SetInstance(nullptr);
}
} // namespace

int
itkVkFFTNormalizedCorrelationImageFilterTest(int argc, char * argv[])
{
  VK_CHECK(argc == 2, "usage: itkVkFFTNormalizedCorrelationImageFilterTest float|double");
  if (std::string(argv[1]) == "float")
  {
    Check<float, 2>("2-D", { { 24, 20 } }, { { 9, 7 } }, 0, 0.0f, false);
    Check<float, 2>("required overlap", { { 21, 18 } }, { { 8, 8 } }, 30, 0.0f, false);
    Check<float, 2>("required fraction", { { 20, 22 } }, { { 6, 9 } }, 0, 0.5f, false);
    Check<float, 3>("3-D", { { 12, 10, 9 } }, { { 5, 4, 3 } }, 0, 0.0f, false);
    Check<float, 2>("masks", { { 16, 14 } }, { { 5, 5 } }, 0, 0.0f, true);
  }
  else
  {
    Check<double, 2>("2-D", { { 23, 19 } }, { { 8, 6 } }, 0, 0.0f, false);
    Check<double, 3>("3-D", { { 11, 9, 8 } }, { { 4, 5, 3 } }, 10, 0.0f, false);
  }
  std::cout << "itkVkFFTNormalizedCorrelationImageFilterTest: passed" << std::endl;
  return EXIT_SUCCESS;
}
