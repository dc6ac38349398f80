/*=========================================================================
 * itkVkInverse1DFFTImageFilter.hxx
 *=========================================================================*/
#ifndef itkVkInverse1DFFTImageFilter_hxx
#define itkVkInverse1DFFTImageFilter_hxx

#include "itkProgressReporter.h"
#include "itkVkFFT1DFallback.h"
#include "itkVkInverse1DFFTImageFilter.h"

namespace itk
{

template <typename TInputImage, typename TOutputImage>
void
VkInverse1DFFTImageFilter<TInputImage, TOutputImage>::GenerateData()
{
  const InputImageType * const input = this->GetInput();
  OutputImageType * const      output = this->GetOutput();
  if (!input || !output)
  {
    return;
  }
  const ProgressReporter progress(this, 0, 1);
  output->SetBufferedRegion(output->GetRequestedRegion());
  output->Allocate();

  const unsigned int direction = this->GetDirection();
  const bool         inverse = true;
  // the image as the lines along direction: the dimensions before it (faster) and after
  // it (slower) are batches, merged into one each
  const auto & region = output->GetBufferedRegion();
  uint64_t     inner = 1, outer = 1;
  for (unsigned int d = 0; d < ImageDimension; ++d)
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
  p.P = VkFFTPrecision<RealType>();
  p.PSize = sizeof(RealType);
  p.fft = VkCommon::FFTEnum::R2FullH;
  p.I = inverse ? VkCommon::DirectionEnum::INVERSE : VkCommon::DirectionEnum::FORWARD;
  p.normalized = inverse ? VkCommon::NormalizationEnum::NORMALIZED : VkCommon::NormalizationEnum::UNNORMALIZED;
  p.inputCPUBuffer = input->GetBufferPointer();
  p.inputBufferBytes = input->GetBufferedRegion().GetNumberOfPixels() * sizeof(InputPixelType);
  p.outputCPUBuffer = output->GetBufferPointer();
  p.outputBufferBytes = region.GetNumberOfPixels() * sizeof(OutputPixelType);
  if (input->GetBufferedRegion() != region)
  {
    // the upstream filter gave more than was asked for: the host walks the region
    VkFFTRecordFallback(this, m_VkState, "the input's buffered region is not the output's");
  }
  else if (VkFFTRunOnDevice(this, m_VkCommon, m_VkState, this->GetDeviceID(), p))
  {
    return;
  }
  VkFFT1DOnHost<TInputImage, TOutputImage, RealType>(input, output, direction, inverse);
}

template <typename TInputImage, typename TOutputImage>
void
VkInverse1DFFTImageFilter<TInputImage, TOutputImage>::PrintSelf(std::ostream & os, Indent indent) const
{
  Superclass::PrintSelf(os, indent);
  os << indent << "UseVkGlobalConfiguration: " << m_UseVkGlobalConfiguration << std::endl;
  os << indent << "Local DeviceID: " << m_DeviceID << std::endl;
  os << indent << "Global DeviceID: " << VkGlobalConfiguration::GetDeviceID() << std::endl;
  os << indent << "Preferred DeviceID: " << this->GetDeviceID() << std::endl;
  os << indent << "Last Update used the fallback: " << m_VkState.usedFallback << std::endl;
}

template <typename TInputImage, typename TOutputImage>
auto
VkInverse1DFFTImageFilter<TInputImage, TOutputImage>::GetSizeGreatestPrimeFactor() const -> SizeValueType
{
  return SizeValueType{ m_VkCommon.GetGreatestPrimeFactor() };
}

} // namespace itk

#endif // itkVkInverse1DFFTImageFilter_hxx
