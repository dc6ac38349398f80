/*=========================================================================
 * itkVkForwardInverseFFTImageFilterTest — VkForwardFFTImageFilter and
 * VkInverseFFTImageFilter (whole spectra) against ITK's FFTW and Vnl filters: 1-, 2- and
 * 3-D, even, odd and prime sizes, float and double. The forward must equal FFTW's (and
 * Vnl's where Vnl takes the size); the inverse of that spectrum must give the image back
 * and equal FFTW's inverse; the inverse of an arbitrary (not Hermitian) spectrum must
 * equal Vnl's, which keeps the real part of the complex inverse. Mirrors
 * ITKVkFFTBackend's itkVkForwardInverseFFTImageFilterTest, with references.
 *=========================================================================*/
#include "itkFFTWForwardFFTImageFilter.h"
#include "itkFFTWInverseFFTImageFilter.h"
#include "itkVkForwardFFTImageFilter.h"
#include "itkVkInverseFFTImageFilter.h"
#include "itkVnlForwardFFTImageFilter.h"
#include "itkVnlInverseFFTImageFilter.h"
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
  using RealImage = itk::Image<TReal, D>;
  using ComplexImage = itk::Image<std::complex<TReal>, D>;
  double n = 1;
  for (unsigned int d = 0; d < D; ++d)
  {
    n *= static_cast<double>(size[d]);
  }
  const double tol = vktest::Tolerance<TReal>(n);
  bool         smooth = true;
  for (unsigned int d = 0; d < D; ++d)
  {
    smooth = smooth && itk::VnlFFTCommon::IsDimensionSizeLegal(size[d]);
  }

  auto image = vktest::MakeImage<RealImage>(size, D);
  auto vk = itk::VkForwardFFTImageFilter<RealImage, ComplexImage>::New();
  vk->SetInput(image);
  vk->Update();
  VK_CHECK(!vk->GetLastUpdateUsedFallback(), "the GPU path was not taken: " << vk->GetFallbackReason());
  auto fftw = itk::FFTWForwardFFTImageFilter<RealImage, ComplexImage>::New();
  fftw->SetInput(image);
  fftw->Update();
  const double eFwd = vktest::RelativeError(vk->GetOutput(), fftw->GetOutput());
  VK_CHECK(eFwd <= tol, "forward " << size << ": error " << eFwd << " against FFTW > " << tol);
  double eVnl = 0;
  if (smooth)
  {
    auto vnl = itk::VnlForwardFFTImageFilter<RealImage, ComplexImage>::New();
    vnl->SetInput(image);
    vnl->Update();
    eVnl = vktest::RelativeError(vk->GetOutput(), vnl->GetOutput());
    VK_CHECK(eVnl <= tol, "forward " << size << ": error " << eVnl << " against Vnl > " << tol);
  }

  // the inverse of a Hermitian spectrum: the image again, and FFTW's inverse
  auto vkInv = itk::VkInverseFFTImageFilter<ComplexImage, RealImage>::New();
  vkInv->SetInput(fftw->GetOutput());
  vkInv->Update();
  VK_CHECK(!vkInv->GetLastUpdateUsedFallback(), vkInv->GetFallbackReason());
  const double eRound = vktest::RelativeError(vkInv->GetOutput(), image.GetPointer());
  VK_CHECK(eRound <= 2 * tol, "round trip " << size << ": error " << eRound);
  auto fftwInv = itk::FFTWInverseFFTImageFilter<ComplexImage, RealImage>::New();
  fftwInv->SetInput(fftw->GetOutput());
  fftwInv->Update();
  const double eInv = vktest::RelativeError(vkInv->GetOutput(), fftwInv->GetOutput());
  VK_CHECK(eInv <= 2 * tol, "inverse " << size << ": error " << eInv << " against FFTW");

  // the inverse of an arbitrary spectrum: the real part of its complex inverse, as Vnl
  if (smooth)
  {
    auto spectrum = vktest::MakeImage<ComplexImage>(size, 77);
    vkInv->SetInput(spectrum);
    vkInv->Update();
    auto vnlInv = itk::VnlInverseFFTImageFilter<ComplexImage, RealImage>::New();
    vnlInv->SetInput(spectrum);
    vnlInv->Update();
    const double e = vktest::RelativeError(vkInv->GetOutput(), vnlInv->GetOutput());
    VK_CHECK(e <= 2 * tol, "inverse of a non-Hermitian spectrum " << size << ": error " << e << " against Vnl");
  }
  std::cout << "  " << (sizeof(TReal) == 8 ? "double" : "float ") << " " << size << ": forward vs FFTW " << eFwd
            << (smooth ? " vs Vnl " : " (Vnl: not 2-3-5)") << (smooth ? std::to_string(eVnl * 1e7) + "e-7" : "") << ", inverse vs FFTW "
            << eInv << ", round trip " << eRound << std::endl;
}

template <typename TReal>
void
CheckAll()
{
  Check<TReal, 1>(0, { { 16 } });
  Check<TReal, 1>(1, { { 17 } });
  Check<TReal, 1>(2, { { 30 } });
  Check<TReal, 2>(3, { { 6, 9 } });
  Check<TReal, 2>(4, { { 13, 7 } });
  Check<TReal, 2>(5, { { 10, 8 } });
  Check<TReal, 3>(6, { { 8, 6, 5 } });
  Check<TReal, 3>(7, { { 7, 11, 3 } });
  Check<TReal, 3>(8, { { 9, 4, 10 } });
}
} // namespace

int
itkVkForwardInverseFFTImageFilterTest(int argc, char * argv[])
{
  VK_CHECK(argc == 2, "usage: itkVkForwardInverseFFTImageFilterTest float|double");
  if (std::string(argv[1]) == "float")
  {
    CheckAll<float>();
  }
  else
  {
    CheckAll<double>();
  }
  std::cout << "itkVkForwardInverseFFTImageFilterTest: passed" << std::endl;
  return EXIT_SUCCESS;
}
