/*=========================================================================
 * itkVkInverse1DFFTImageFilter.hxx
 *=========================================================================*/
#ifndef itkVkInverse1DFFTImageFilter_hxx
#define itkVkInverse1DFFTImageFilter_hxx

#include "itkVkFFTGenerateData.h"
#include "itkVkInverse1DFFTImageFilter.h"

namespace itk
{

template <typename TInputImage, typename TOutputImage>
void
VkInverse1DFFTImageFilter<TInputImage, TOutputImage>::GenerateData()
{
  VkFFT1DGenerateData<RealType>(this, m_VkCommon, m_VkState, VkCommon::FFTEnum::R2FullH, true);
}

template <typename TInputImage, typename TOutputImage>
void
VkInverse1DFFTImageFilter<TInputImage, TOutputImage>::PrintSelf(std::ostream & os, Indent indent) const
{
  Superclass::PrintSelf(os, indent);
  VkFFTPrintDeviceSettings(os, indent, m_UseVkGlobalConfiguration, m_DeviceID, this->GetDeviceID(), m_VkState);
}

template <typename TInputImage, typename TOutputImage>
auto
VkInverse1DFFTImageFilter<TInputImage, TOutputImage>::GetSizeGreatestPrimeFactor() const -> SizeValueType
{
  return SizeValueType{ m_VkCommon.GetGreatestPrimeFactor() };
}

} // namespace itk

#endif // itkVkInverse1DFFTImageFilter_hxx
