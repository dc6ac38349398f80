/*=========================================================================
 * itkVkFFT1DReference.h — the tests' reference 1-D DFT: a direct sum in double along one
 * dimension of an image, forward, or inverse divided by the length.
 *=========================================================================*/
#ifndef itkVkFFT1DReference_h
#define itkVkFFT1DReference_h

#include "itkImageLinearConstIteratorWithIndex.h"
#include "itkImageLinearIteratorWithIndex.h"
#include "itkMath.h"

#include <complex>
#include <vector>

namespace vktest
{
/** The DFT along direction of input into a complex double image. */
template <typename TInput>
typename itk::Image<std::complex<double>, TInput::ImageDimension>::Pointer
DFT1D(const TInput * input, unsigned int direction, bool inverse)
{
  using Out = itk::Image<std::complex<double>, TInput::ImageDimension>;
  auto out = Out::New();
  out->SetRegions(input->GetLargestPossibleRegion());
  out->Allocate();
  itk::ImageLinearConstIteratorWithIndex<TInput> in(input, input->GetLargestPossibleRegion());
  itk::ImageLinearIteratorWithIndex<Out>         ot(out, out->GetLargestPossibleRegion());
  in.SetDirection(direction);
  ot.SetDirection(direction);
  const size_t                      n = input->GetLargestPossibleRegion().GetSize()[direction];
  std::vector<std::complex<double>> line(n);
  for (in.GoToBegin(), ot.GoToBegin(); !in.IsAtEnd(); in.NextLine(), ot.NextLine())
  {
    for (auto & v : line)
    {
      v = std::complex<double>(in.Get());
      ++in;
    }
    for (size_t k = 0; k < n; ++k)
    {
      std::complex<double> acc = 0;
      for (size_t j = 0; j < n; ++j)
      {
        const double a = (inverse ? 2.0 : -2.0) * itk::Math::pi * static_cast<double>((j * k) % n) / n;
        acc += line[j] * std::complex<double>(std::cos(a), std::sin(a));
      }
      ot.Set(inverse ? acc / static_cast<double>(n) : acc);
      ++ot;
    }
  }
  return out;
}

/** max |got - want| / max |want|, got complex or real (compared with want's real part). */
template <typename TGot>
double
ErrorAgainst(const TGot * got, const itk::Image<std::complex<double>, TGot::ImageDimension> * want)
{
  const auto * g = got->GetBufferPointer();
  const auto * w = want->GetBufferPointer();
  const size_t n = want->GetBufferedRegion().GetNumberOfPixels();
  double       err = 0, scale = 1e-300;
  for (size_t i = 0; i < n; ++i)
  {
    const std::complex<double> gi(g[i]);
    const std::complex<double> wi = std::is_floating_point<typename TGot::PixelType>::value ? w[i].real() : w[i];
    err = std::max(err, std::abs(gi - wi));
    scale = std::max(scale, std::abs(wi));
  }
  return err / scale;
}
} // namespace vktest

#endif
