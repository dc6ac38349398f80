/*=========================================================================
 * itkVkForward1DFFTImageFilter.hxx
 *=========================================================================*/
#ifndef itkVkForward1DFFTImageFilter_hxx
#define itkVkForward1DFFTImageFilter_hxx

#include "itkVkFFTGenerateData.h"
#include "itkVkForward1DFFTImageFilter.h"

namespace itk
{

template <typename TInputImage, typename TOutputImage>
void
VkForward1DFFTImageFilter<TInputImage, TOutputImage>::GenerateData()
{
  VkFFT1DGenerateData<RealType>(this, m_VkCommon, m_VkState, VkCommon::FFTEnum::R2FullH, false);
}

template <typename TInputImage, typename TOutputImage>
void
VkForward1DFFTImageFilter<TInputImage, TOutputImage>::PrintSelf(std::ostream & os, Indent indent) const
{
  Superclass::PrintSelf(os, indent);
  VkFFTPrintDeviceSettings(os, indent, m_UseVkGlobalConfiguration, m_DeviceID, this->GetDeviceID(), m_VkState);
}

template <typename TInputImage, typename TOutputImage>
auto
VkForward1DFFTImageFilter<TInputImage, TOutputImage>::GetSizeGreatestPrimeFactor() const -> SizeValueType
{
  return SizeValueType{ m_VkCommon.GetGreatestPrimeFactor() };
}

} // namespace itk

#endif // itkVkForward1DFFTImageFilter_hxx
