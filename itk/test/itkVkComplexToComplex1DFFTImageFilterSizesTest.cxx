/*=========================================================================
 * itkVkComplexToComplex1DFFTImageFilterSizesTest — VkComplexToComplex1DFFTImageFilter,
 * forward and inverse, of many lengths (1 to 17 and the prime 97, each in one precision
 * of two: vktest::Takes) along the first (contiguous) and the second dimension of 3-D
 * images, against a direct DFT, and the round trip (every direction:
 * itkVkForwardInverse1DFFTImageFilterTest). Mirrors ITKVkFFTBackend's
 * itkVkComplexToComplex1DFFTImageFilterSizesTest and ...BaselineTest.
 *=========================================================================*/
#include "itkVkComplexToComplex1DFFTImageFilter.h"
#include "itkVkFFT1DReference.h"
#include "itkVkFFTTestUtilities.h"

namespace
{
template <typename TReal>
void
Check(const itk::Size<3> & size, unsigned int dir)
{
  using ComplexImage = itk::Image<std::complex<TReal>, 3>;
  using Vk = itk::VkComplexToComplex1DFFTImageFilter<ComplexImage>;
  auto         image = vktest::MakeImage<ComplexImage>(size, 12);
  const double tol = vktest::Tolerance<TReal>(static_cast<double>(size[dir]));
  for (bool inverse : { false, true })
  {
    auto f = Vk::New();
    f->SetInput(image);
    f->SetDirection(dir);
    f->SetTransformDirection(inverse ? Vk::INVERSE : Vk::DIRECT);
    f->Update();
    VK_CHECK(!f->GetLastUpdateUsedFallback(), f->GetFallbackReason());
    const double e = vktest::ErrorAgainst(f->GetOutput(), vktest::DFT1D(image.GetPointer(), dir, inverse).GetPointer());
    VK_CHECK(e <= tol, size << " along " << dir << (inverse ? " inverse" : " forward") << ": error " << e);
  }
  auto fwd = Vk::New();
  fwd->SetInput(image);
  fwd->SetDirection(dir);
  auto inv = Vk::New();
  inv->SetInput(fwd->GetOutput());
  inv->SetDirection(dir);
  inv->SetTransformDirection(Vk::INVERSE);
  inv->Update();
  const double e = vktest::RelativeError(inv->GetOutput(), image.GetPointer());
  VK_CHECK(e <= 2 * tol, size << " along " << dir << ": round trip error " << e);
}
} // namespace

int
itkVkComplexToComplex1DFFTImageFilterSizesTest(int argc, char * argv[])
{
  VK_CHECK(argc == 2, "usage: itkVkComplexToComplex1DFFTImageFilterSizesTest float|double");
  const bool dbl = std::string(argv[1]) == "double";
  int        cases = 0;
  const itk::SizeValueType lengths[] = { 1, 2, 3, 4, 5, 7, 9, 12, 16, 17, 97 };
  for (unsigned int i = 0; i < sizeof(lengths) / sizeof(lengths[0]); ++i)
  {
    if (!(dbl ? vktest::Takes<double>(i) : vktest::Takes<float>(i)))
    {
      continue;
    }
    const itk::SizeValueType n = lengths[i];
    const itk::Size<3> size = { { n, 3, 2 } };
    const itk::Size<3> across = { { 2, n, 3 } };
    dbl ? Check<double>(size, 0) : Check<float>(size, 0);
    dbl ? Check<double>(across, 1) : Check<float>(across, 1);
    cases += 2;
  }
  std::cout << "itkVkComplexToComplex1DFFTImageFilterSizesTest: " << cases << " lengths and directions passed"
            << std::endl;
  return EXIT_SUCCESS;
}
