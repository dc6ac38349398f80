/*=========================================================================
 * itkVkRealToHalfHermitianForwardFFTImageFilter.hxx
 *=========================================================================*/
#ifndef itkVkRealToHalfHermitianForwardFFTImageFilter_hxx
#define itkVkRealToHalfHermitianForwardFFTImageFilter_hxx

#include "itkVkFFTDefaults.h"
#include "itkVkFFTGenerateData.h"
#include "itkVkRealToHalfHermitianForwardFFTImageFilter.h"

namespace itk
{

template <typename TInputImage, typename TOutputImage>
void
VkRealToHalfHermitianForwardFFTImageFilter<TInputImage, TOutputImage>::GenerateData()
{
  VkCommon::VkParameters p;
  p.fft = VkCommon::FFTEnum::R2HalfH;
  p.I = VkCommon::DirectionEnum::FORWARD;
  p.normalized = VkCommon::NormalizationEnum::UNNORMALIZED;
  VkFFTGenerateData<RealType>(this, m_VkCommon, m_VkState, p, false, [this] {
    auto fallback = VkFFTDefaultRealToHalfHermitianForward<TInputImage, TOutputImage, RealType>::New();
    VkFFTRunFallback(this, fallback.GetPointer());
  });
}

template <typename TInputImage, typename TOutputImage>
void
VkRealToHalfHermitianForwardFFTImageFilter<TInputImage, TOutputImage>::PrintSelf(std::ostream & os, Indent indent) const
{
  Superclass::PrintSelf(os, indent);
  VkFFTPrintDeviceSettings(os, indent, m_UseVkGlobalConfiguration, m_DeviceID, this->GetDeviceID(), m_VkState);
}

template <typename TInputImage, typename TOutputImage>
auto
VkRealToHalfHermitianForwardFFTImageFilter<TInputImage, TOutputImage>::GetSizeGreatestPrimeFactor() const -> SizeValueType
{
  return SizeValueType{ m_VkCommon.GetGreatestPrimeFactor() };
}

} // namespace itk

#endif // itkVkRealToHalfHermitianForwardFFTImageFilter_hxx
