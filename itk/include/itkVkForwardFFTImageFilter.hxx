/*=========================================================================
 * itkVkForwardFFTImageFilter.hxx
 *=========================================================================*/
#ifndef itkVkForwardFFTImageFilter_hxx
#define itkVkForwardFFTImageFilter_hxx

#include "itkVkFFTDefaults.h"
#include "itkVkFFTGenerateData.h"
#include "itkVkForwardFFTImageFilter.h"

namespace itk
{

template <typename TInputImage, typename TOutputImage>
void
VkForwardFFTImageFilter<TInputImage, TOutputImage>::GenerateData()
{
  VkCommon::VkParameters p;
  p.fft = VkCommon::FFTEnum::R2FullH;
  p.I = VkCommon::DirectionEnum::FORWARD;
  VkFFTGenerateData<RealType>(this, m_VkCommon, m_VkState, p, false, [this] {
    auto fallback = VkFFTDefaultForward<TInputImage, TOutputImage, RealType>::New();
    VkFFTRunFallback(this, fallback.GetPointer());
  });
}

template <typename TInputImage, typename TOutputImage>
void
VkForwardFFTImageFilter<TInputImage, TOutputImage>::PrintSelf(std::ostream & os, Indent indent) const
{
  Superclass::PrintSelf(os, indent);
  VkFFTPrintDeviceSettings(os, indent, m_UseVkGlobalConfiguration, m_DeviceID, this->GetDeviceID(), m_VkState);
}

template <typename TInputImage, typename TOutputImage>
auto
VkForwardFFTImageFilter<TInputImage, TOutputImage>::GetSizeGreatestPrimeFactor() const -> SizeValueType
{
  return SizeValueType{ m_VkCommon.GetGreatestPrimeFactor() };
}

} // namespace itk

#endif // itkVkForwardFFTImageFilter_hxx
