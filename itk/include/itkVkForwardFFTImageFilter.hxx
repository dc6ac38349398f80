/*=========================================================================
 * itkVkForwardFFTImageFilter.hxx
 *=========================================================================*/
#ifndef itkVkForwardFFTImageFilter_hxx
#define itkVkForwardFFTImageFilter_hxx

#include "itkProgressReporter.h"
#include "itkVkFFTDefaults.h"
#include "itkVkForwardFFTImageFilter.h"

namespace itk
{

template <typename TInputImage, typename TOutputImage>
void
VkForwardFFTImageFilter<TInputImage, TOutputImage>::GenerateData()
{
  const InputImageType * const input = this->GetInput();
  OutputImageType * const      output = this->GetOutput();
  if (!input || !output)
  {
    return;
  }
  const ProgressReporter progress(this, 0, 1);

  VkCommon::VkParameters p;
  const bool             fits = VkFFTSetSize(p, input->GetLargestPossibleRegion().GetSize());
  if (fits)
  {
    output->SetBufferedRegion(output->GetRequestedRegion());
    output->Allocate();
    p.P = VkFFTPrecision<RealType>();
    p.PSize = sizeof(RealType);
    p.fft = VkCommon::FFTEnum::R2FullH;
    p.I = VkCommon::DirectionEnum::FORWARD;
    p.inputCPUBuffer = input->GetBufferPointer();
    p.inputBufferBytes = input->GetLargestPossibleRegion().GetNumberOfPixels() * sizeof(InputPixelType);
    p.outputCPUBuffer = output->GetBufferPointer();
    p.outputBufferBytes = output->GetLargestPossibleRegion().GetNumberOfPixels() * sizeof(OutputPixelType);
    if (VkFFTRunOnDevice(this, m_VkCommon, m_VkState, this->GetDeviceID(), p))
    {
      return;
    }
  }
  else
  {
    VkFFTRecordFallback(this, m_VkState, "VkFFT transforms up to 4 dimensions, the image has " +
                                            std::to_string(ImageDimension));
  }
  using Fallback = VkFFTDefaultForward<TInputImage, TOutputImage, RealType>;
  auto fallback = Fallback::New();
  VkFFTRunFallback(this, fallback.GetPointer());
}

template <typename TInputImage, typename TOutputImage>
void
VkForwardFFTImageFilter<TInputImage, TOutputImage>::PrintSelf(std::ostream & os, Indent indent) const
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
VkForwardFFTImageFilter<TInputImage, TOutputImage>::GetSizeGreatestPrimeFactor() const -> SizeValueType
{
  return SizeValueType{ m_VkCommon.GetGreatestPrimeFactor() };
}

} // namespace itk

#endif // itkVkForwardFFTImageFilter_hxx
