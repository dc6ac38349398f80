/*=========================================================================
 * itkVkHalfHermitianFFTImageFilterTest — VkRealToHalfHermitianForwardFFTImageFilter and
 * VkHalfHermitianToRealInverseFFTImageFilter against ITK's FFTW and Vnl filters, even
 * and odd first dimensions (ActualXDimensionIsOdd), primes, 1 to 3 dimensions. Mirrors
 * ITKVkFFTBackend's itkVkHalfHermitianFFTImageFilterTest, with references.
 *=========================================================================*/
#include "itkFFTWHalfHermitianToRealInverseFFTImageFilter.h"
#include "itkFFTWRealToHalfHermitianForwardFFTImageFilter.h"
#include "itkVkHalfHermitianToRealInverseFFTImageFilter.h"
#include "itkVkRealToHalfHermitianForwardFFTImageFilter.h"
#include "itkVnlFFTCommon.h"
#include "itkVnlRealToHalfHermitianForwardFFTImageFilter.h"
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
  bool   smooth = true;
  for (unsigned int d = 0; d < D; ++d)
  {
    n *= static_cast<double>(size[d]);
    smooth = smooth && itk::VnlFFTCommon::IsDimensionSizeLegal(size[d]);
  }
  const double tol = vktest::Tolerance<TReal>(n);
  auto         image = vktest::MakeImage<RealImage>(size, 3);

  auto vk = itk::VkRealToHalfHermitianForwardFFTImageFilter<RealImage, ComplexImage>::New();
  vk->SetInput(image);
  vk->Update();
  VK_CHECK(!vk->GetLastUpdateUsedFallback(), vk->GetFallbackReason());
  VK_CHECK(vk->GetOutput()->GetLargestPossibleRegion().GetSize()[0] == size[0] / 2 + 1, "half spectrum size");
  auto fftw = itk::FFTWRealToHalfHermitianForwardFFTImageFilter<RealImage, ComplexImage>::New();
  fftw->SetInput(image);
  fftw->Update();
  const double eF = vktest::RelativeError(vk->GetOutput(), fftw->GetOutput());
  VK_CHECK(eF <= tol, "forward " << size << ": " << eF << " against FFTW");
  if (smooth)
  {
    auto vnl = itk::VnlRealToHalfHermitianForwardFFTImageFilter<RealImage, ComplexImage>::New();
    vnl->SetInput(image);
    vnl->Update();
    const double e = vktest::RelativeError(vk->GetOutput(), vnl->GetOutput());
    VK_CHECK(e <= tol, "forward " << size << ": " << e << " against Vnl");
  }

  auto inv = itk::VkHalfHermitianToRealInverseFFTImageFilter<ComplexImage, RealImage>::New();
  inv->SetInput(vk->GetOutput());
  inv->SetActualXDimensionIsOdd(size[0] % 2 == 1);
  inv->Update();
  VK_CHECK(!inv->GetLastUpdateUsedFallback(), inv->GetFallbackReason());
  VK_CHECK(inv->GetOutput()->GetLargestPossibleRegion().GetSize() == size, "inverse size");
  const double eR = vktest::RelativeError(inv->GetOutput(), image.GetPointer());
  VK_CHECK(eR <= 2 * tol, "round trip " << size << ": " << eR);
  auto fftwInv = itk::FFTWHalfHermitianToRealInverseFFTImageFilter<ComplexImage, RealImage>::New();
  fftwInv->SetInput(fftw->GetOutput());
  fftwInv->SetActualXDimensionIsOdd(size[0] % 2 == 1);
  fftwInv->Update();
  const double eI = vktest::RelativeError(inv->GetOutput(), fftwInv->GetOutput());
  VK_CHECK(eI <= 2 * tol, "inverse " << size << ": " << eI << " against FFTW");
  std::cout << "  " << size << ": forward " << eF << ", inverse " << eI << ", round trip " << eR << std::endl;
}

template <typename TReal>
void
CheckAll()
{
  Check<TReal, 1>(0, { { 64 } });
  Check<TReal, 1>(1, { { 31 } });
  Check<TReal, 2>(2, { { 9, 6 } });
  Check<TReal, 2>(3, { { 10, 13 } });
  Check<TReal, 3>(4, { { 7, 5, 4 } });
  Check<TReal, 3>(5, { { 12, 3, 11 } });
}
} // namespace

int
itkVkHalfHermitianFFTImageFilterTest(int argc, char * argv[])
{
  VK_CHECK(argc == 2, "usage: itkVkHalfHermitianFFTImageFilterTest float|double");
  if (std::string(argv[1]) == "float")
  {
    CheckAll<float>();
  }
  else
  {
    CheckAll<double>();
  }
  std::cout << "itkVkHalfHermitianFFTImageFilterTest: passed" << std::endl;
  return EXIT_SUCCESS;
}
