/*=========================================================================
 * itkVkFFTDefaults.h — ITK's own implementation of each transform, which a Vk filter
 * runs when the GPU cannot (a dimension above VkFFT's four, no device): FFTW where ITK
 * was built with it for the precision, else Vnl. They are named directly, not through
 * the base classes' New(), which would return the Vk filter again once its factory is
 * registered.
 *=========================================================================*/
#ifndef itkVkFFTDefaults_h
#define itkVkFFTDefaults_h

#include "itkConfigure.h"
#include "itkVkFFTImageFilterSupport.h"
#include "itkVnlFFTCommon.h"
#include "itkVnlComplexToComplexFFTImageFilter.h"
#include "itkVnlForwardFFTImageFilter.h"
#include "itkVnlHalfHermitianToRealInverseFFTImageFilter.h"
#include "itkVnlInverseFFTImageFilter.h"
#include "itkVnlRealToHalfHermitianForwardFFTImageFilter.h"
#if defined(ITK_USE_FFTWF) || defined(ITK_USE_FFTWD)
#  include "itkFFTWComplexToComplexFFTImageFilter.h"
#  include "itkFFTWForwardFFTImageFilter.h"
#  include "itkFFTWHalfHermitianToRealInverseFFTImageFilter.h"
#  include "itkFFTWInverseFFTImageFilter.h"
#  include "itkFFTWRealToHalfHermitianForwardFFTImageFilter.h"
#endif

#include <type_traits>

namespace itk
{
/** Whether ITK was built with FFTW for real type T. */
template <typename T>
struct VkFFTHasFFTW : std::false_type
{};
#ifdef ITK_USE_FFTWF
template <>
struct VkFFTHasFFTW<float> : std::true_type
{};
#endif
#ifdef ITK_USE_FFTWD
template <>
struct VkFFTHasFFTW<double> : std::true_type
{};
#endif

#if defined(ITK_USE_FFTWF) || defined(ITK_USE_FFTWD)
#  define itkVkFFTDefaultMacro(Name, TIn, TOut, TReal)                                                     \
    std::conditional_t<VkFFTHasFFTW<TReal>::value, FFTW##Name##FFTImageFilter<TIn, TOut>,               \
                       Vnl##Name##FFTImageFilter<TIn, TOut>>
#else
#  define itkVkFFTDefaultMacro(Name, TIn, TOut, TReal) Vnl##Name##FFTImageFilter<TIn, TOut>
#endif

template <typename TIn, typename TOut, typename TReal>
using VkFFTDefaultForward = itkVkFFTDefaultMacro(Forward, TIn, TOut, TReal);
template <typename TIn, typename TOut, typename TReal>
using VkFFTDefaultInverse = itkVkFFTDefaultMacro(Inverse, TIn, TOut, TReal);
template <typename TIn, typename TOut, typename TReal>
using VkFFTDefaultRealToHalfHermitianForward = itkVkFFTDefaultMacro(RealToHalfHermitianForward, TIn, TOut, TReal);
template <typename TIn, typename TOut, typename TReal>
using VkFFTDefaultHalfHermitianToRealInverse = itkVkFFTDefaultMacro(HalfHermitianToRealInverse, TIn, TOut, TReal);
#undef itkVkFFTDefaultMacro

#if defined(ITK_USE_FFTWF) || defined(ITK_USE_FFTWD)
/** Whether ITK's FFTW complex filter's FORWARD computes sum x e^{+2πijk/n} (ITK 5.2
 * passes FFTW the sign +1 for it), found once by transforming a shifted impulse; the Vk
 * filters, Vnl, numpy and VkFFT use e^{-2πijk/n}. */
template <typename TReal>
bool
VkFFTWComplexForwardIsPlus()
{
  static const bool plus = [] {
    using I = Image<std::complex<TReal>, 1>;
    auto image = I::New();
    image->SetRegions(typename I::SizeType{ { 4 } });
    image->Allocate();
    image->FillBuffer(std::complex<TReal>(0));
    image->GetBufferPointer()[1] = std::complex<TReal>(1);
    auto f = FFTWComplexToComplexFFTImageFilter<I>::New();
    f->SetInput(image);
    f->Update();
    return f->GetOutput()->GetBufferPointer()[1].imag() > 0; // e^{+iπ/2} = +i
  }();
  return plus;
}
#endif

/** Runs ITK's complex-to-complex implementation in place of self in direction: Vnl when
 * every size has the prime factors 2, 3 and 5 only, else FFTW, whose direction is turned
 * round (and the scale put right) where its forward sign is not the Vk filter's. */
template <typename TImage, typename TReal, typename TSelf, typename TDirection>
void
VkFFTRunComplexToComplexFallback(TSelf * self, TDirection direction)
{
  bool smooth = true;
  for (unsigned int d = 0; d < TImage::ImageDimension; ++d)
  {
    smooth = smooth && VnlFFTCommon::IsDimensionSizeLegal(self->GetInput()->GetLargestPossibleRegion().GetSize(d));
  }
#if defined(ITK_USE_FFTWF) || defined(ITK_USE_FFTWD)
  if (!smooth && VkFFTHasFFTW<TReal>::value)
  {
    auto       f = FFTWComplexToComplexFFTImageFilter<TImage>::New();
    const bool flip = VkFFTWComplexForwardIsPlus<TReal>();
    const bool inverse = direction == TSelf::Superclass::TransformDirectionEnum::INVERSE;
    f->SetTransformDirection((inverse != flip) ? TSelf::Superclass::TransformDirectionEnum::INVERSE
                                               : TSelf::Superclass::TransformDirectionEnum::FORWARD);
    f->SetInput(self->GetInput());
    f->GraftOutput(self->GetOutput());
    f->Update();
    self->GraftOutput(f->GetOutput());
    if (flip) // FFTW's inverse divides by n and its forward does not: the other way round
    {
      auto *       out = self->GetOutput()->GetBufferPointer();
      const size_t n = self->GetOutput()->GetBufferedRegion().GetNumberOfPixels();
      const TReal  scale = inverse ? TReal(1) / static_cast<TReal>(n) : static_cast<TReal>(n);
      for (size_t i = 0; i < n; ++i)
      {
        out[i] *= scale;
      }
    }
    return;
  }
#endif
  auto f = VnlComplexToComplexFFTImageFilter<TImage>::New();
  f->SetTransformDirection(direction);
  VkFFTRunFallback(self, f.GetPointer());
}
} // namespace itk

#endif
