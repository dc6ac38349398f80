/*=========================================================================
 * itkVkFFT1DFallback.h — the host transform of the 1-D Vk filters when the GPU cannot
 * take one (no device): every line of the output region along the filter's direction,
 * through vnl_fft_1d for lengths with prime factors 2, 3 and 5, and a direct sum
 * otherwise (correct for every length, slow for long prime ones). ITK 5.2 has no 1-D FFT
 * filters of its own to fall back to.
 *=========================================================================*/
#ifndef itkVkFFT1DFallback_h
#define itkVkFFT1DFallback_h

#include "itkImageLinearConstIteratorWithIndex.h"
#include "itkImageLinearIteratorWithIndex.h"
#include "itkMath.h"
#include "vnl/algo/vnl_fft_1d.h"

#include <complex>
#include <type_traits>
#include <vector>

namespace itk
{
namespace vkfft1d
{
/** Whether n's prime factors are all 2, 3 or 5 (what vnl_fft_1d transforms). */
inline bool
Smooth235(SizeValueType n)
{
  for (SizeValueType p : { 2, 3, 5 })
  {
    while (n % p == 0)
    {
      n /= p;
    }
  }
  return n == 1;
}

/** The unnormalised DFT of line, forward (e^-2πijk/n) or inverse (e^+2πijk/n). */
template <typename T>
void
Transform(std::vector<std::complex<T>> & line, bool inverse)
{
  const SizeValueType n = line.size();
  if (Smooth235(n))
  {
    // vnl's sign argument is the exponent's (its "fwd_transform" is e^{+2πijk/n})
    vnl_fft_1d<T> fft(static_cast<int>(n));
    fft.transform(line.data(), inverse ? +1 : -1);
    return;
  }
  std::vector<std::complex<T>> out(n);
  const double                 sign = inverse ? 2.0 : -2.0;
  for (SizeValueType k = 0; k < n; ++k)
  {
    std::complex<double> acc = 0;
    for (SizeValueType j = 0; j < n; ++j)
    {
      const double a = sign * Math::pi * static_cast<double>((j * k) % n) / static_cast<double>(n);
      acc += std::complex<double>(line[j]) * std::complex<double>(std::cos(a), std::sin(a));
    }
    out[k] = std::complex<T>(acc);
  }
  line.swap(out);
}

template <typename T>
std::complex<T>
ToComplex(const T & v)
{
  return std::complex<T>(v, 0);
}
template <typename T>
std::complex<T>
ToComplex(const std::complex<T> & v)
{
  return v;
}
template <typename TOut, typename T>
TOut
FromComplex(const std::complex<T> & v, std::true_type /* real output */)
{
  return static_cast<TOut>(v.real());
}
template <typename TOut, typename T>
TOut
FromComplex(const std::complex<T> & v, std::false_type)
{
  return static_cast<TOut>(v);
}
} // namespace vkfft1d

/** Transforms every line of output's buffered region along direction from the same
 * region of input: forward, or inverse divided by the line's length; a real output keeps
 * the real part. */
template <typename TInputImage, typename TOutputImage, typename TReal>
void
VkFFT1DOnHost(const TInputImage * input, TOutputImage * output, unsigned int direction, bool inverse)
{
  using OutPixel = typename TOutputImage::PixelType;
  using RealOut = std::integral_constant<bool, std::is_floating_point<OutPixel>::value>;
  const auto                                       region = output->GetBufferedRegion();
  ImageLinearConstIteratorWithIndex<TInputImage> in(input, region);
  ImageLinearIteratorWithIndex<TOutputImage>       out(output, region);
  in.SetDirection(direction);
  out.SetDirection(direction);
  std::vector<std::complex<TReal>> line(region.GetSize()[direction]);
  const TReal                      scale = inverse ? TReal(1) / static_cast<TReal>(line.size()) : TReal(1);
  for (in.GoToBegin(), out.GoToBegin(); !in.IsAtEnd(); in.NextLine(), out.NextLine())
  {
    for (auto & v : line)
    {
      v = vkfft1d::ToComplex(in.Get());
      ++in;
    }
    vkfft1d::Transform(line, inverse);
    for (const auto & v : line)
    {
      out.Set(vkfft1d::FromComplex<OutPixel>(v * scale, RealOut{}));
      ++out;
    }
  }
}
} // namespace itk

#endif
