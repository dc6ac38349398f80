/*=========================================================================
 * itkVkFFTConvolutionImageFilterTest — VkFFTConvolutionImageFilter against ITK's
 * FFTConvolutionImageFilter (its FFTW filters): odd and even kernels, the zero-flux
 * Neumann (default), periodic and zero-constant boundary conditions on the GPU and a
 * non-zero constant (ITK's implementation, with a warning), SAME and VALID output
 * regions, Normalize, a requested region smaller than the output, 1 to 3 dimensions,
 * float images in double (ITK's default) and in float, double images; the kernel's
 * spectrum is kept on the device between Updates. New: ITKVkFFTBackend has no such
 * filter.
 *=========================================================================*/
#include "itkConstantBoundaryCondition.h"
#include "itkFFTConvolutionImageFilter.h"
#include "itkOutputWindow.h"
#include "itkPeriodicBoundaryCondition.h"
#include "itkVkFFTConvolutionImageFilter.h"
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

enum Boundary
{
  ZeroFlux,
  Periodic,
  Zero,
  Constant
};

template <typename TPixel, unsigned int D, typename TInternal>
void
Check(const char *                                    name,
      const typename itk::Image<TPixel, D>::SizeType & size,
      const typename itk::Image<TPixel, D>::SizeType & ksize,
      Boundary                                        boundary,
      bool                                            valid,
      bool                                            normalize,
      bool                                            subregion)
{
  using I = itk::Image<TPixel, D>;
  using Vk = itk::VkFFTConvolutionImageFilter<I, I, I, TInternal>;
  using Ref = itk::FFTConvolutionImageFilter<I, I, I, TInternal>;
  auto window = QuietOutputWindow::New();
  itk::OutputWindow::SetInstance(window);
  auto image = vktest::MakeImage<I>(size, 41);
  auto kernel = vktest::MakeImage<I>(ksize, 42);
  itk::PeriodicBoundaryCondition<I> periodic;
  itk::ConstantBoundaryCondition<I> constant;
  constant.SetConstant(boundary == Constant ? TPixel(2) : TPixel(0));
  auto vk = Vk::New();
  auto ref = Ref::New();
  for (auto * f : { static_cast<Ref *>(vk.GetPointer()), ref.GetPointer() })
  {
    f->SetInput(image);
    f->SetKernelImage(kernel);
    f->SetNormalize(normalize);
    if (boundary == Periodic)
    {
      f->SetBoundaryCondition(&periodic);
    }
    else if (boundary == Zero || boundary == Constant)
    {
      f->SetBoundaryCondition(&constant);
    }
    if (valid)
    {
      f->SetOutputRegionModeToValid();
    }
    f->UpdateOutputInformation();
  }
  typename I::RegionType region = ref->GetOutput()->GetLargestPossibleRegion();
  if (subregion)
  {
    region.ShrinkByRadius(1);
  }
  ref->GetOutput()->SetRequestedRegion(region);
  vk->GetOutput()->SetRequestedRegion(region);
  ref->Update();
  vk->Update();
  const bool onGPU = boundary != Constant;
  VK_CHECK(vk->GetLastUpdateUsedFallback() == !onGPU, name << ": " << vk->GetFallbackReason());
  VK_CHECK(window->warnings == (onGPU ? 0 : 1), name << ": " << window->warnings << " warnings");
  VK_CHECK(vk->GetOutput()->GetLargestPossibleRegion() == ref->GetOutput()->GetLargestPossibleRegion(),
           name << ": output region " << vk->GetOutput()->GetLargestPossibleRegion());
  const double tol = sizeof(TInternal) == 4 ? 5e-5 : 1e-10;
  const double e = RegionError(vk->GetOutput(), ref->GetOutput(), region);
  VK_CHECK(e <= tol, name << ": error " << e << " > " << tol);

  // a second Update with the same kernel reuses its spectrum; a new kernel is seen
  vk->Modified();
  vk->Update();
  VK_CHECK(RegionError(vk->GetOutput(), ref->GetOutput(), region) <= tol, name << ": second Update");
  if (onGPU)
  {
    auto kernel2 = vktest::MakeImage<I>(ksize, 43);
    vk->SetKernelImage(kernel2);
    ref->SetKernelImage(kernel2);
    vk->Update();
    ref->Update();
    VK_CHECK(RegionError(vk->GetOutput(), ref->GetOutput(), region) <= tol, name << ": a new kernel");
  }
  std::cout << "  " << name << " " << size << " * " << ksize << (onGPU ? " (GPU)" : " (ITK, warned)") << ": error "
            << e << std::endl;
  itk::OutputWindow::SetInstance(nullptr);
}
} // namespace

int
itkVkFFTConvolutionImageFilterTest(int argc, char * argv[])
{
  VK_CHECK(argc == 2, "usage: itkVkFFTConvolutionImageFilterTest float|double");
  if (std::string(argv[1]) == "float")
  {
    // float images convolved in double (ITK's default internal precision) and in float
    Check<float, 2, double>("odd kernel", { { 20, 17 } }, { { 5, 3 } }, ZeroFlux, false, false, false);
    Check<float, 2, double>("even kernel", { { 16, 13 } }, { { 4, 6 } }, ZeroFlux, false, false, false);
    Check<float, 2, double>("periodic", { { 15, 12 } }, { { 3, 5 } }, Periodic, false, false, false);
    Check<float, 2, double>("zero constant", { { 14, 11 } }, { { 5, 4 } }, Zero, false, false, false);
    Check<float, 2, double>("constant 2", { { 12, 10 } }, { { 3, 3 } }, Constant, false, false, false);
    Check<float, 2, double>("valid", { { 18, 15 } }, { { 5, 4 } }, ZeroFlux, true, false, false);
    Check<float, 2, double>("normalize", { { 13, 16 } }, { { 3, 3 } }, ZeroFlux, false, true, false);
    Check<float, 2, double>("requested subregion", { { 17, 14 } }, { { 5, 5 } }, ZeroFlux, false, false, true);
    Check<float, 1, double>("1-D", { { 40 } }, { { 7 } }, ZeroFlux, false, false, false);
    Check<float, 3, double>("3-D", { { 10, 9, 8 } }, { { 3, 4, 5 } }, ZeroFlux, false, false, false);
    Check<float, 3, float>("3-D in float", { { 11, 8, 7 } }, { { 5, 3, 3 } }, Periodic, true, true, false);
  }
  else
  {
    Check<double, 2, double>("odd kernel", { { 20, 17 } }, { { 5, 3 } }, ZeroFlux, false, false, false);
    Check<double, 3, double>("even kernel", { { 9, 10, 7 } }, { { 4, 2, 3 } }, Periodic, true, false, true);
  }
  std::cout << "itkVkFFTConvolutionImageFilterTest: passed" << std::endl;
  return EXIT_SUCCESS;
}
