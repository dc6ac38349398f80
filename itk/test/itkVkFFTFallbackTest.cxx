/*=========================================================================
 * itkVkFFTFallbackTest — what VkFFT cannot take still works: a 5-D image (VkFFT
 * transforms at most four dimensions) through the factory-made forward, inverse,
 * half-Hermitian and complex filters runs ITK's FFTW implementation, with a warning and
 * GetLastUpdateUsedFallback() set, and gives FFTW's result; a 4-D image runs on the GPU.
 * Also the 1-D filters' host path (no device). No ITKVkFFTBackend counterpart (it does
 * not compile such images).
 *=========================================================================*/
#include "itkFFTWForwardFFTImageFilter.h"
#include "itkFFTWHalfHermitianToRealInverseFFTImageFilter.h"
#include "itkFFTWInverseFFTImageFilter.h"
#include "itkFFTWRealToHalfHermitianForwardFFTImageFilter.h"
#include "itkOutputWindow.h"
#include "itkVkFFT1DReference.h"
#include "itkVkForward1DFFTImageFilter.h"
#include "itkVkForwardFFTImageFilter.h"
#include "itkVkHalfHermitianToRealInverseFFTImageFilter.h"
#include "itkVkInverseFFTImageFilter.h"
#include "itkVkRealToHalfHermitianForwardFFTImageFilter.h"
#include "itkVkFFTTestUtilities.h"

namespace
{
class CountingOutputWindow : public itk::OutputWindow
{
public:
  using Self = CountingOutputWindow;
  using Pointer = itk::SmartPointer<Self>;
  itkNewMacro(Self);
  void
  DisplayWarningText(const char * text) override
  {
    ++warnings;
    last = text;
  }
  int         warnings{ 0 };
  std::string last;
};

template <typename TReal, unsigned int D>
void
Run(bool expectFallback, const typename itk::Image<TReal, D>::SizeType & size)
{
  using R = itk::Image<TReal, D>;
  using C = itk::Image<std::complex<TReal>, D>;
  auto   window = CountingOutputWindow::New();
  itk::OutputWindow::SetInstance(window);
  double n = 1;
  for (unsigned int d = 0; d < D; ++d)
  {
    n *= static_cast<double>(size[d]);
  }
  const double tol = vktest::Tolerance<TReal>(n);
  auto         image = vktest::MakeImage<R>(size, 6);

  auto fwd = itk::VkForwardFFTImageFilter<R, C>::New();
  fwd->SetInput(image);
  fwd->Update();
  auto ref = itk::FFTWForwardFFTImageFilter<R, C>::New();
  ref->SetInput(image);
  ref->Update();
  VK_CHECK(fwd->GetLastUpdateUsedFallback() == expectFallback, D << "-D forward: " << fwd->GetFallbackReason());
  VK_CHECK(vktest::RelativeError(fwd->GetOutput(), ref->GetOutput()) <= tol, D << "-D forward result");

  auto inv = itk::VkInverseFFTImageFilter<C, R>::New();
  inv->SetInput(ref->GetOutput());
  inv->Update();
  VK_CHECK(inv->GetLastUpdateUsedFallback() == expectFallback, D << "-D inverse");
  VK_CHECK(vktest::RelativeError(inv->GetOutput(), image.GetPointer()) <= 2 * tol, D << "-D inverse result");

  auto half = itk::VkRealToHalfHermitianForwardFFTImageFilter<R, C>::New();
  half->SetInput(image);
  half->Update();
  auto halfRef = itk::FFTWRealToHalfHermitianForwardFFTImageFilter<R, C>::New();
  halfRef->SetInput(image);
  halfRef->Update();
  VK_CHECK(half->GetLastUpdateUsedFallback() == expectFallback, D << "-D half forward");
  VK_CHECK(vktest::RelativeError(half->GetOutput(), halfRef->GetOutput()) <= tol, D << "-D half forward result");
  auto back = itk::VkHalfHermitianToRealInverseFFTImageFilter<C, R>::New();
  back->SetInput(half->GetOutput());
  back->SetActualXDimensionIsOdd(size[0] % 2 == 1);
  back->Update();
  VK_CHECK(back->GetLastUpdateUsedFallback() == expectFallback, D << "-D half inverse");
  VK_CHECK(vktest::RelativeError(back->GetOutput(), image.GetPointer()) <= 2 * tol, D << "-D half inverse result");

  // one warning per filter that fell back
  VK_CHECK(window->warnings == (expectFallback ? 4 : 0), window->warnings << " warnings: " << window->last);
  if (expectFallback)
  {
    VK_CHECK(window->last.find("4 dimensions") != std::string::npos, window->last);
  }
  std::cout << "  " << D << "-D " << size << ": " << (expectFallback ? "ITK's FFTW (fallback)" : "GPU")
            << ", results agree; " << window->warnings << " warnings" << std::endl;
  itk::OutputWindow::SetInstance(nullptr);
}

/** The 1-D filters' host path: a device that does not exist. */
template <typename TReal>
void
HostPath1D()
{
  using R = itk::Image<TReal, 2>;
  using C = itk::Image<std::complex<TReal>, 2>;
  auto window = CountingOutputWindow::New();
  itk::OutputWindow::SetInstance(window);
  auto image = vktest::MakeImage<R>({ { 7, 12 } }, 8);
  for (unsigned int dir = 0; dir < 2; ++dir)
  {
    auto f = itk::VkForward1DFFTImageFilter<R, C>::New();
    f->SetUseVkGlobalConfiguration(false);
    f->SetDeviceID(1000);
    f->SetDirection(dir);
    f->SetInput(image);
    f->Update();
    VK_CHECK(f->GetLastUpdateUsedFallback(), "device 1000");
    const double e = vktest::ErrorAgainst(f->GetOutput(), vktest::DFT1D(image.GetPointer(), dir, false).GetPointer());
    VK_CHECK(e <= vktest::Tolerance<TReal>(12), "the host 1-D path along " << dir << ": error " << e);
  }
  VK_CHECK(window->warnings == 2, window->warnings << " warnings");
  std::cout << "  1-D host path (no device): results agree with a direct DFT" << std::endl;
  itk::OutputWindow::SetInstance(nullptr);
}
} // namespace

int
itkVkFFTFallbackTest(int argc, char * argv[])
{
  VK_CHECK(argc == 2, "usage: itkVkFFTFallbackTest float|double");
  if (std::string(argv[1]) == "float")
  {
    Run<float, 5>(true, { { 3, 4, 2, 3, 2 } });
    Run<float, 4>(false, { { 3, 4, 2, 5 } });
    HostPath1D<float>();
  }
  else
  {
    Run<double, 5>(true, { { 4, 3, 2, 2, 3 } });
    Run<double, 4>(false, { { 5, 2, 3, 4 } });
    HostPath1D<double>();
  }
  std::cout << "itkVkFFTFallbackTest: passed" << std::endl;
  return EXIT_SUCCESS;
}
