/*=========================================================================
 * itkVkFFTNormalizedCorrelationImageFilter.hxx
 *=========================================================================*/
#ifndef itkVkFFTNormalizedCorrelationImageFilter_hxx
#define itkVkFFTNormalizedCorrelationImageFilter_hxx

#include "itkImageRegionConstIteratorWithIndex.h"
#include "itkMath.h"
#include "itkVkFFTNormalizedCorrelationImageFilter.h"

#include <cmath>
#include <limits>

namespace itk
{
namespace vkncc
{
/** The smallest m >= n whose prime factors are 2, 3, 5 and 7 (fast for VkFFT). */
inline uint64_t
GoodSize(uint64_t n)
{
  for (uint64_t m = std::max<uint64_t>(n, 1);; ++m)
  {
    uint64_t r = m;
    for (uint64_t p : { 2, 3, 5, 7 })
    {
      while (r % p == 0)
      {
        r /= p;
      }
    }
    if (r == 1)
    {
      return m;
    }
  }
}

/** Offset of index idx (fastest first) in an array of sizes p. */
template <unsigned int D>
inline size_t
Offset(const uint64_t (&idx)[3], const uint64_t (&p)[3])
{
  size_t o = 0;
  for (int d = static_cast<int>(D) - 1; d >= 0; --d)
  {
    o = o * p[d] + idx[d];
  }
  return o;
}
} // namespace vkncc

template <typename TInputImage, typename TOutputImage>
bool
VkFFTNormalizedCorrelationImageFilter<TInputImage, TOutputImage>::RunOnDevice(std::string & why)
{
  using T = RealPixelType;
  const InputImageType * fixed = this->GetFixedImage();
  const InputImageType * moving = this->GetMovingImage();
  OutputImageType *      output = this->GetOutput();
  if (ImageDimension > 3)
  {
    why = "libvkfftgo convolves up to 3 dimensions";
    return false;
  }
  if (this->GetFixedImageMask() || this->GetMovingImageMask())
  {
    why = "masks are not run on the GPU";
    return false;
  }
  const auto & fr = fixed->GetLargestPossibleRegion();
  const auto & mr = moving->GetLargestPossibleRegion();
  if (fixed->GetBufferedRegion() != fr || moving->GetBufferedRegion() != mr)
  {
    why = "the fixed or moving image does not hold its whole image";
    return false;
  }
  VkConvolution::Geometry g;
  g.rank = ImageDimension;
  g.precision = sizeof(T) == sizeof(double) ? VKFFTGO_DOUBLE : VKFFTGO_SINGLE;
  uint64_t fs[3] = { 1, 1, 1 }, ms[3] = { 1, 1, 1 }, cs[3] = { 1, 1, 1 };
  for (unsigned int d = 0; d < ImageDimension; ++d)
  {
    fs[d] = fr.GetSize(d);
    ms[d] = mr.GetSize(d);
    cs[d] = fs[d] + ms[d] - 1;
    g.size[d] = vkncc::GoodSize(cs[d]); // circular over this is linear over cs
  }
  const size_t p = static_cast<size_t>(g.size[0] * g.size[1] * g.size[2]);

  // the operands, zero-padded: fixed, fixed², ones (a batch of 3); the kernels: ones over
  // the moving image's size, the rotated moving image, its square
  std::vector<T> a(3 * p, T(0)), box(p, T(0)), rot(p, T(0)), rot2(p, T(0));
  {
    ImageRegionConstIteratorWithIndex<InputImageType> it(fixed, fr);
    for (it.GoToBegin(); !it.IsAtEnd(); ++it)
    {
      uint64_t idx[3] = { 0, 0, 0 };
      for (unsigned int d = 0; d < ImageDimension; ++d)
      {
        idx[d] = static_cast<uint64_t>(it.GetIndex()[d] - fr.GetIndex(d));
      }
      const size_t o = vkncc::Offset<ImageDimension>(idx, g.size);
      const T      v = static_cast<T>(it.Get());
      a[o] = v;
      a[p + o] = v * v;
      a[2 * p + o] = T(1);
    }
  }
  {
    ImageRegionConstIteratorWithIndex<InputImageType> it(moving, mr);
    for (it.GoToBegin(); !it.IsAtEnd(); ++it)
    {
      uint64_t idx[3] = { 0, 0, 0 };
      for (unsigned int d = 0; d < ImageDimension; ++d)
      {
        idx[d] = ms[d] - 1 - static_cast<uint64_t>(it.GetIndex()[d] - mr.GetIndex(d)); // rotated by 180°
      }
      const size_t o = vkncc::Offset<ImageDimension>(idx, g.size);
      const T      v = static_cast<T>(it.Get());
      box[o] = T(1);
      rot[o] = v;
      rot2[o] = v * v;
    }
  }
  const uint64_t stamp = (static_cast<uint64_t>(reinterpret_cast<uintptr_t>(moving)) * 31 + moving->GetMTime()) | 1;

  // box: fixed ⊛ 1, fixed² ⊛ 1, 1 ⊛ 1 (the overlap); moving: fixed ⊛ R, 1 ⊛ R; square: 1 ⊛ R²
  std::vector<T> sums(3 * p), withMoving(2 * p), withSquare(p);
  const uint64_t dev = this->GetDeviceID();
  g.batch = 3;
  if (m_Box.Apply(dev, g, box.data(), p * sizeof(T), stamp, sums.data(), 3 * p * sizeof(T), a.data(),
                  3 * p * sizeof(T)) != VKFFT_SUCCESS)
  {
    why = m_Box.GetLastError();
    return false;
  }
  // the second batch is fixed and ones: a's first and third items, laid one after another
  std::copy(a.begin() + 2 * p, a.end(), a.begin() + p);
  g.batch = 2;
  if (m_Moving.Apply(dev, g, rot.data(), p * sizeof(T), stamp, withMoving.data(), 2 * p * sizeof(T), a.data(),
                     2 * p * sizeof(T)) != VKFFT_SUCCESS)
  {
    why = m_Moving.GetLastError();
    return false;
  }
  g.batch = 1;
  if (m_Square.Apply(dev, g, rot2.data(), p * sizeof(T), stamp, withSquare.data(), p * sizeof(T), a.data() + p,
                     p * sizeof(T)) != VKFFT_SUCCESS)
  {
    why = m_Square.GetLastError();
    return false;
  }

  // ITK's formula, pointwise over the output (the first cs points of each axis)
  const auto &                  outRegion = output->GetBufferedRegion();
  std::vector<T>                ncc(outRegion.GetNumberOfPixels()), denom(ncc.size()), overlap(ncc.size());
  ImageRegionIteratorWithIndex<OutputImageType> ot(output, outRegion);
  const auto &                  lpr = output->GetLargestPossibleRegion();
  size_t                        k = 0;
  double                        maxDenom = 0, maxOverlap = 0;
  for (ot.GoToBegin(); !ot.IsAtEnd(); ++ot, ++k)
  {
    uint64_t idx[3] = { 0, 0, 0 };
    for (unsigned int d = 0; d < ImageDimension; ++d)
    {
      idx[d] = static_cast<uint64_t>(ot.GetIndex()[d] - lpr.GetIndex(d));
    }
    const size_t o = vkncc::Offset<ImageDimension>(idx, g.size);
    const T      n = std::max(T(0), static_cast<T>(std::round(sums[2 * p + o])));
    const T      fixedCum = sums[o], movingCum = withMoving[p + o];
    T            numerator = withMoving[o], fixedDenom = sums[p + o], movingDenom = withSquare[o];
    if (n > 0)
    {
      numerator -= fixedCum * movingCum / n;
      fixedDenom -= fixedCum * fixedCum / n;
      movingDenom -= movingCum * movingCum / n;
    }
    denom[k] = std::sqrt(std::max(T(0), fixedDenom) * std::max(T(0), movingDenom));
    ncc[k] = denom[k] > 0 ? numerator / denom[k] : T(0);
    overlap[k] = n;
    maxDenom = std::max(maxDenom, static_cast<double>(denom[k]));
    maxOverlap = std::max(maxOverlap, static_cast<double>(n));
  }
  // the post-processing of MaskedFFTNormalizedCorrelationImageFilter
  const double eps = sizeof(T) == sizeof(double) ? std::pow(2.0, -52) : std::pow(2.0, -23);
  const double tolerance = 1000.0 * eps * std::pow(2.0, std::floor(std::log(maxDenom) / std::log(2.0)));
  m_MaximumOverlap = static_cast<SizeValueType>(maxOverlap);
  const SizeValueType required =
    std::max(static_cast<SizeValueType>(this->GetRequiredFractionOfOverlappingPixels() * m_MaximumOverlap),
             std::min(this->GetRequiredNumberOfOverlappingPixels(), m_MaximumOverlap));
  k = 0;
  for (ot.GoToBegin(); !ot.IsAtEnd(); ++ot, ++k)
  {
    T v = ncc[k];
    if (denom[k] < tolerance || overlap[k] == 0 || overlap[k] < static_cast<T>(required))
    {
      v = 0;
    }
    ot.Set(std::min(T(1), std::max(T(-1), v)));
  }
  return true;
}

template <typename TInputImage, typename TOutputImage>
void
VkFFTNormalizedCorrelationImageFilter<TInputImage, TOutputImage>::GenerateData()
{
  this->AllocateOutputs();
  std::string why;
  if (this->RunOnDevice(why))
  {
    m_VkState.usedFallback = false;
    m_VkState.reason.clear();
    return;
  }
  VkFFTRecordFallback(this, m_VkState, why);
  Superclass::GenerateData();
}
} // namespace itk

#endif
