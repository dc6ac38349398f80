/*=========================================================================
 * itkVkFFTGenerateData.h — the GenerateData every Vk FFT filter shares: the transform
 * on the device, straight between the images' buffers, or, where the GPU cannot take it,
 * ITK's implementation (the N-D filters) or the host transform of itkVkFFT1DFallback.h
 * (the 1-D filters); and the device settings their PrintSelf shows.
 *=========================================================================*/
#ifndef itkVkFFTGenerateData_h
#define itkVkFFTGenerateData_h

#include "itkIndent.h"
#include "itkProgressReporter.h"
#include "itkVkFFT1DFallback.h"
#include "itkVkFFTImageFilterSupport.h"
#include "itkVkGlobalConfiguration.h"

#include <ostream>
#include <string>

namespace itk
{
/** GenerateData of an N-D Vk filter in precision TReal. p names the transform (fft, I,
 * normalized); its sizes are the image's: the input's, or the output's where
 * sizeOfOutput (the half-spectrum input of a complex-to-real transform is narrower).
 * Where VkFFT cannot take the image, or the device fails, runFallback() computes the
 * output with ITK's implementation. */
template <typename TReal, typename TFilter, typename TRunFallback>
void
VkFFTGenerateData(TFilter *              self,
                  VkCommon &             common,
                  VkFFTFallbackState &   state,
                  VkCommon::VkParameters p,
                  bool                   sizeOfOutput,
                  const TRunFallback &   runFallback)
{
  const auto * const input = self->GetInput();
  auto * const       output = self->GetOutput();
  if (!input || !output)
  {
    return;
  }
  const ProgressReporter progress(self, 0, 1);
  const auto & logical = sizeOfOutput ? output->GetLargestPossibleRegion() : input->GetLargestPossibleRegion();
  if (!VkFFTSetSize(p, logical.GetSize()))
  {
    VkFFTRecordFallback(self, state, "VkFFT transforms up to 4 dimensions, the image has " +
                                       std::to_string(TFilter::ImageDimension));
    runFallback();
    return;
  }
  output->SetBufferedRegion(output->GetRequestedRegion());
  output->Allocate();
  p.P = VkFFTPrecision<TReal>();
  p.PSize = sizeof(TReal);
  p.inputCPUBuffer = input->GetBufferPointer();
  p.inputBufferBytes =
    input->GetLargestPossibleRegion().GetNumberOfPixels() * sizeof(typename TFilter::InputPixelType);
  p.outputCPUBuffer = output->GetBufferPointer();
  p.outputBufferBytes =
    output->GetLargestPossibleRegion().GetNumberOfPixels() * sizeof(typename TFilter::OutputPixelType);
  if (!VkFFTRunOnDevice(self, common, state, self->GetDeviceID(), p))
  {
    runFallback();
  }
}

/** GenerateData of a 1-D Vk filter in precision TReal: the transform fft of every line
 * along the filter's direction, inverse (normalised) or forward; on the host where the
 * GPU cannot take it. */
template <typename TReal, typename TFilter>
void
VkFFT1DGenerateData(TFilter *            self,
                    VkCommon &           common,
                    VkFFTFallbackState & state,
                    VkCommon::FFTEnum    fft,
                    bool                 inverse)
{
  const auto * const input = self->GetInput();
  auto * const       output = self->GetOutput();
  if (!input || !output)
  {
    return;
  }
  const ProgressReporter progress(self, 0, 1);
  output->SetBufferedRegion(output->GetRequestedRegion());
  output->Allocate();

  const unsigned int direction = self->GetDirection();
  // the image as the lines along direction: the dimensions before it (faster) and after
  // it (slower) are batches, merged into one each
  const auto & region = output->GetBufferedRegion();
  uint64_t     inner = 1, outer = 1;
  for (unsigned int d = 0; d < TFilter::ImageDimension; ++d)
  {
    if (d < direction)
    {
      inner *= region.GetSize(d);
    }
    else if (d > direction)
    {
      outer *= region.GetSize(d);
    }
  }
  const uint64_t         n = region.GetSize(direction);
  VkCommon::VkParameters p;
  if (inner == 1)
  {
    p.X = n;
    p.Y = outer;
    p.omitDimension[1] = 1;
  }
  else
  {
    p.X = inner;
    p.Y = n;
    p.Z = outer;
    p.omitDimension[0] = 1;
    p.omitDimension[2] = 1;
  }
  p.P = VkFFTPrecision<TReal>();
  p.PSize = sizeof(TReal);
  p.fft = fft;
  p.I = inverse ? VkCommon::DirectionEnum::INVERSE : VkCommon::DirectionEnum::FORWARD;
  p.normalized = inverse ? VkCommon::NormalizationEnum::NORMALIZED : VkCommon::NormalizationEnum::UNNORMALIZED;
  p.inputCPUBuffer = input->GetBufferPointer();
  p.inputBufferBytes = input->GetBufferedRegion().GetNumberOfPixels() * sizeof(typename TFilter::InputPixelType);
  p.outputCPUBuffer = output->GetBufferPointer();
  p.outputBufferBytes = region.GetNumberOfPixels() * sizeof(typename TFilter::OutputPixelType);
  if (input->GetBufferedRegion() != region)
  {
    // the upstream filter gave more than was asked for: the host walks the region
    VkFFTRecordFallback(self, state, "the input's buffered region is not the output's");
  }
  else if (VkFFTRunOnDevice(self, common, state, self->GetDeviceID(), p))
  {
    return;
  }
  VkFFT1DOnHost<typename TFilter::InputImageType, typename TFilter::OutputImageType, TReal>(
    input, output, direction, inverse);
}

/** The device settings a Vk filter's PrintSelf shows after its superclass's. */
inline void
VkFFTPrintDeviceSettings(std::ostream &             os,
                         Indent                     indent,
                         bool                       useGlobalConfiguration,
                         uint64_t                   localDeviceID,
                         uint64_t                   preferredDeviceID,
                         const VkFFTFallbackState & state)
{
  os << indent << "UseVkGlobalConfiguration: " << useGlobalConfiguration << std::endl;
  os << indent << "Local DeviceID: " << localDeviceID << std::endl;
  os << indent << "Global DeviceID: " << VkGlobalConfiguration::GetDeviceID() << std::endl;
  os << indent << "Preferred DeviceID: " << preferredDeviceID << std::endl;
  os << indent << "Last Update used the fallback: " << state.usedFallback << std::endl;
}
} // namespace itk

#endif // itkVkFFTGenerateData_h
