/*=========================================================================
 * itkVkFFTImageFilterFactoryTest — ITK's object factory hands out the Vk filters.
 *
 *   itkVkFFTImageFilterFactoryTest float|double            explicit registration
 *   itkVkFFTImageFilterFactoryTest float|double autoload   through ITK_AUTOLOAD_PATH
 *
 * Before registration every base class's New() gives ITK's own implementation; after
 * VkFFTImageFilterInitFactory::RegisterFactories() (or with the module's factory
 * directory in ITK_AUTOLOAD_PATH, without any call) ForwardFFTImageFilter and its
 * siblings, the 1-D filters, FFTConvolutionImageFilter and
 * FFTNormalizedCorrelationImageFilter give the Vk ones, for 1 to 3 dimensions, and a
 * factory-made forward FFT computes what FFTW does. Mirrors ITKVkFFTBackend's
 * itkVkFFTImageFilterFactoryTest.
 *=========================================================================*/
#include "itkFFTConvolutionImageFilter.h"
#include "itkFFTNormalizedCorrelationImageFilter.h"
#include "itkFFTWForwardFFTImageFilter.h"
#include "itkVkComplexToComplex1DFFTImageFilter.h"
#include "itkVkComplexToComplexFFTImageFilter.h"
#include "itkVkFFTConvolutionImageFilter.h"
#include "itkVkFFTImageFilterInitFactory.h"
#include "itkVkFFTNormalizedCorrelationImageFilter.h"
#include "itkVkForward1DFFTImageFilter.h"
#include "itkVkForwardFFTImageFilter.h"
#include "itkVkHalfHermitianToRealInverseFFTImageFilter.h"
#include "itkVkInverse1DFFTImageFilter.h"
#include "itkVkInverseFFTImageFilter.h"
#include "itkVkRealToHalfHermitianForwardFFTImageFilter.h"
#include "itkVkFFTTestUtilities.h"

namespace
{
/** Whether Base::New() gives a TVk (vk) or not. */
template <typename TBase, typename TVk>
void
Expect(bool vk, const char * what)
{
  auto       f = TBase::New();
  const bool isVk = dynamic_cast<TVk *>(f.GetPointer()) != nullptr;
  VK_CHECK(isVk == vk, what << "::New() gave " << f->GetNameOfClass() << (vk ? ", not the Vk filter" : ""));
}

template <typename TReal, unsigned int D>
void
ExpectAll(bool vk)
{
  using R = itk::Image<TReal, D>;
  using C = itk::Image<std::complex<TReal>, D>;
  Expect<itk::ForwardFFTImageFilter<R, C>, itk::VkForwardFFTImageFilter<R, C>>(vk, "ForwardFFTImageFilter");
  Expect<itk::InverseFFTImageFilter<C, R>, itk::VkInverseFFTImageFilter<C, R>>(vk, "InverseFFTImageFilter");
  Expect<itk::RealToHalfHermitianForwardFFTImageFilter<R, C>, itk::VkRealToHalfHermitianForwardFFTImageFilter<R, C>>(
    vk, "RealToHalfHermitianForwardFFTImageFilter");
  Expect<itk::HalfHermitianToRealInverseFFTImageFilter<C, R>, itk::VkHalfHermitianToRealInverseFFTImageFilter<C, R>>(
    vk, "HalfHermitianToRealInverseFFTImageFilter");
  Expect<typename itk::VkComplexToComplexFFTImageFilter<C>::Superclass, itk::VkComplexToComplexFFTImageFilter<C>>(
    vk, "ComplexToComplexFFTImageFilter");
  Expect<itk::FFTConvolutionImageFilter<R>, itk::VkFFTConvolutionImageFilter<R>>(vk, "FFTConvolutionImageFilter");
  Expect<itk::FFTNormalizedCorrelationImageFilter<R, R>, itk::VkFFTNormalizedCorrelationImageFilter<R, R>>(
    vk, "FFTNormalizedCorrelationImageFilter");
  if (vk) // ITK 5.2 has no 1-D filters of its own: their New() is this module's either way
  {
    Expect<itk::Forward1DFFTImageFilter<R, C>, itk::VkForward1DFFTImageFilter<R, C>>(vk, "Forward1DFFTImageFilter");
    Expect<itk::Inverse1DFFTImageFilter<C, R>, itk::VkInverse1DFFTImageFilter<C, R>>(vk, "Inverse1DFFTImageFilter");
    Expect<itk::ComplexToComplex1DFFTImageFilter<C>, itk::VkComplexToComplex1DFFTImageFilter<C>>(
      vk, "ComplexToComplex1DFFTImageFilter");
  }
}

template <typename TReal>
void
Run(bool autoload)
{
  if (!autoload)
  {
    ExpectAll<TReal, 3>(false);
    itk::VkFFTImageFilterInitFactory::RegisterFactories();
    itk::VkFFTImageFilterInitFactory::RegisterFactories(); // idempotent
  }
  ExpectAll<TReal, 1>(true);
  ExpectAll<TReal, 2>(true);
  ExpectAll<TReal, 3>(true);

  // a factory-made transform computes what FFTW does
  using R = itk::Image<TReal, 3>;
  using C = itk::Image<std::complex<TReal>, 3>;
  auto image = vktest::MakeImage<R>({ { 6, 5, 4 } }, 1);
  auto f = itk::ForwardFFTImageFilter<R, C>::New();
  f->SetInput(image);
  f->Update();
  auto ref = itk::FFTWForwardFFTImageFilter<R, C>::New();
  ref->SetInput(image);
  ref->Update();
  const double e = vktest::RelativeError(f->GetOutput(), ref->GetOutput());
  VK_CHECK(e <= vktest::Tolerance<TReal>(120), "factory-made forward FFT: error " << e);
  std::cout << "  " << (autoload ? "ITK_AUTOLOAD_PATH" : "RegisterFactories") << ": " << f->GetNameOfClass()
            << ", error against FFTW " << e << std::endl;
}
} // namespace

int
itkVkFFTImageFilterFactoryTest(int argc, char * argv[])
{
  VK_CHECK(argc >= 2, "usage: itkVkFFTImageFilterFactoryTest float|double [autoload]");
  const bool autoload = argc > 2 && std::string(argv[2]) == "autoload";
  if (autoload)
  {
    VK_CHECK(itksys::SystemTools::GetEnv("ITK_AUTOLOAD_PATH") != nullptr, "ITK_AUTOLOAD_PATH is not set");
  }
  if (std::string(argv[1]) == "float")
  {
    Run<float>(autoload);
  }
  else
  {
    Run<double>(autoload);
  }
  std::cout << "itkVkFFTImageFilterFactoryTest: passed" << std::endl;
  return EXIT_SUCCESS;
}
