/*=========================================================================
 * itkVkForwardInverse1DFFTImageFilterTest — VkForward1DFFTImageFilter and
 * VkInverse1DFFTImageFilter along every dimension of 1-, 2- and 3-D images with even,
 * odd and prime lengths, against a direct DFT: the forward gives each line's whole
 * spectrum, the inverse of an arbitrary spectrum the real part of each line's inverse,
 * and forward then inverse the image. The object factory's Forward1DFFTImageFilter::New()
 * is also checked. Mirrors ITKVkFFTBackend's itkVkForwardInverse1DFFTImageFilterTest and
 * its Forward1D/Inverse1D baseline tests (with a reference instead of baseline files).
 *=========================================================================*/
#include "itkVkFFT1DReference.h"
#include "itkVkFFTImageFilterInitFactory.h"
#include "itkVkForward1DFFTImageFilter.h"
#include "itkVkInverse1DFFTImageFilter.h"
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
  auto image = vktest::MakeImage<RealImage>(size, 9);
  auto spectrum = vktest::MakeImage<ComplexImage>(size, 10);
  for (unsigned int dir = 0; dir < D; ++dir)
  {
    const double tol = vktest::Tolerance<TReal>(static_cast<double>(size[dir]));
    auto         fwd = itk::VkForward1DFFTImageFilter<RealImage, ComplexImage>::New();
    fwd->SetInput(image);
    fwd->SetDirection(dir);
    fwd->Update();
    VK_CHECK(!fwd->GetLastUpdateUsedFallback(), fwd->GetFallbackReason());
    const double eF = vktest::ErrorAgainst(fwd->GetOutput(), vktest::DFT1D(image.GetPointer(), dir, false).GetPointer());
    VK_CHECK(eF <= tol, size << " along " << dir << ": forward error " << eF);

    auto inv = itk::VkInverse1DFFTImageFilter<ComplexImage, RealImage>::New();
    inv->SetInput(spectrum);
    inv->SetDirection(dir);
    inv->Update();
    VK_CHECK(!inv->GetLastUpdateUsedFallback(), inv->GetFallbackReason());
    const double eI =
      vktest::ErrorAgainst(inv->GetOutput(), vktest::DFT1D(spectrum.GetPointer(), dir, true).GetPointer());
    VK_CHECK(eI <= tol, size << " along " << dir << ": inverse error " << eI);

    // the object factory: the base class's New() gives the Vk filter (registered in main)
    auto base = itk::Inverse1DFFTImageFilter<ComplexImage, RealImage>::New();
    using VkInverse = itk::VkInverse1DFFTImageFilter<ComplexImage, RealImage>;
    VK_CHECK(dynamic_cast<VkInverse *>(base.GetPointer()) != nullptr,
             "Inverse1DFFTImageFilter::New() gave " << base->GetNameOfClass());
    base->SetInput(fwd->GetOutput());
    base->SetDirection(dir);
    base->Update();
    const double eR = vktest::RelativeError(base->GetOutput(), image.GetPointer());
    VK_CHECK(eR <= 2 * tol, size << " along " << dir << ": round trip error " << eR);
    std::cout << "  " << size << " along " << dir << ": forward " << eF << ", inverse " << eI << ", round trip "
              << eR << std::endl;
  }
}

template <typename TReal>
void
CheckAll()
{
  Check<TReal, 1>(0, { { 32 } });
  Check<TReal, 1>(1, { { 19 } });
  Check<TReal, 3>(2, { { 13, 6, 9 } });
  Check<TReal, 3>(3, { { 5, 8, 7 } });
  Check<TReal, 2>(4, { { 9, 16 } });
}
} // namespace

int
itkVkForwardInverse1DFFTImageFilterTest(int argc, char * argv[])
{
  VK_CHECK(argc == 2, "usage: itkVkForwardInverse1DFFTImageFilterTest float|double");
  itk::VkFFTImageFilterInitFactory::RegisterFactories();
  if (std::string(argv[1]) == "float")
  {
    CheckAll<float>();
  }
  else
  {
    CheckAll<double>();
  }
  std::cout << "itkVkForwardInverse1DFFTImageFilterTest: passed" << std::endl;
  return EXIT_SUCCESS;
}
