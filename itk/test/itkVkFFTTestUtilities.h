/*=========================================================================
 * itkVkFFTTestUtilities.h — what the module's tests share: deterministic test images,
 * relative errors between images or buffers, a check that stops the test with a message,
 * and which precision runs which case of a sweep.
 *=========================================================================*/
#ifndef itkVkFFTTestUtilities_h
#define itkVkFFTTestUtilities_h

#include "itkImage.h"
#include "itkImageRegionIterator.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#define VK_CHECK(cond, msg)                                                                    \
  do                                                                                           \
  {                                                                                            \
    if (!(cond))                                                                               \
    {                                                                                          \
      std::ostringstream vk_check_msg_;                                                        \
      vk_check_msg_ << __FILE__ << ":" << __LINE__ << ": " << #cond << ": " << msg;            \
      std::cerr << "FAIL: " << vk_check_msg_.str() << std::endl;                               \
      std::exit(EXIT_FAILURE);                                                                 \
    }                                                                                          \
  } while (0)

namespace vktest
{
/** Whether a test runs its case i in precision TReal. A size sweep runs each case in one
 * precision of two, single when i % 4 is 0 or 3 and double otherwise (the Go suite's
 * split), so that both precisions meet every rank and kind of size across a test while a
 * CPU OpenCL compiles half the kernels; VKFFTGO_TEST_FULL=1 runs every case in both. */
template <typename TReal>
bool
Takes(unsigned int i)
{
  const char * full = std::getenv("VKFFTGO_TEST_FULL");
  if (full != nullptr && std::string(full) == "1")
  {
    return true;
  }
  const bool single = i % 4 == 0 || i % 4 == 3;
  return single == (sizeof(TReal) == sizeof(float));
}

/** A value in [-1, 1) from a counter, the same on every run. */
inline double
Value(uint64_t i)
{
  uint64_t x = i * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return static_cast<double>(x >> 11) * 0x1.0p-52 - 1.0;
}

template <typename T>
T
MakeValue(uint64_t i, T *)
{
  return static_cast<T>(Value(i));
}
template <typename T>
std::complex<T>
MakeValue(uint64_t i, std::complex<T> *)
{
  return std::complex<T>(static_cast<T>(Value(2 * i)), static_cast<T>(Value(2 * i + 1)));
}

/** An image of size with deterministic values (seed picks the sequence). */
template <typename TImage>
typename TImage::Pointer
MakeImage(const typename TImage::SizeType & size, uint64_t seed)
{
  auto image = TImage::New();
  image->SetRegions(typename TImage::RegionType(size));
  image->Allocate();
  itk::ImageRegionIterator<TImage> it(image, image->GetBufferedRegion());
  uint64_t                         i = seed * 1000003;
  for (it.GoToBegin(); !it.IsAtEnd(); ++it)
  {
    it.Set(MakeValue(i++, static_cast<typename TImage::PixelType *>(nullptr)));
  }
  return image;
}

inline double
Abs(double v)
{
  return std::fabs(v);
}
template <typename T>
double
Abs(const std::complex<T> & v)
{
  return std::abs(std::complex<double>(v));
}
inline double
Diff(double a, double b)
{
  return std::fabs(a - b);
}
template <typename T>
double
Diff(const std::complex<T> & a, const std::complex<T> & b)
{
  return std::abs(std::complex<double>(a) - std::complex<double>(b));
}

/** max |a - b| / max |b| over two buffers of n values. */
template <typename T>
double
RelativeError(const T * a, const T * b, size_t n)
{
  double err = 0, scale = 1e-300;
  for (size_t i = 0; i < n; ++i)
  {
    err = std::max(err, Diff(a[i], b[i]));
    scale = std::max(scale, Abs(b[i]));
  }
  return err / scale;
}

/** The same over two images, which must have the same buffered size. */
template <typename TImage>
double
RelativeError(const TImage * a, const TImage * b)
{
  VK_CHECK(a->GetBufferedRegion().GetSize() == b->GetBufferedRegion().GetSize(),
           "sizes differ: " << a->GetBufferedRegion().GetSize() << " and " << b->GetBufferedRegion().GetSize());
  return RelativeError(a->GetBufferPointer(), b->GetBufferPointer(), a->GetBufferedRegion().GetNumberOfPixels());
}

/** The tolerance of a transform of n points in precision T (float or double). */
template <typename T>
double
Tolerance(double n)
{
  const double lg = std::log10(std::max(n, 2.0));
  return sizeof(T) == sizeof(double) ? 1e-12 * (1 + lg) : 2e-6 * (1 + lg);
}
} // namespace vktest

#endif
