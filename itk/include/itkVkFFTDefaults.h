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
// ITK 5.2's complex-to-complex filters take one image type (later ones default the second)
#if defined(ITK_USE_FFTWF) || defined(ITK_USE_FFTWD)
template <typename TImage, typename TReal>
using VkFFTDefaultComplexToComplex = std::conditional_t<VkFFTHasFFTW<TReal>::value,
                                                        FFTWComplexToComplexFFTImageFilter<TImage>,
                                                        VnlComplexToComplexFFTImageFilter<TImage>>;
#else
template <typename TImage, typename TReal>
using VkFFTDefaultComplexToComplex = VnlComplexToComplexFFTImageFilter<TImage>;
#endif

#undef itkVkFFTDefaultMacro
} // namespace itk

#endif
