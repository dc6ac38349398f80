/*=========================================================================
 * itkVkComplexToComplexFFTImageFilter.hxx
 *=========================================================================*/
#ifndef itkVkComplexToComplexFFTImageFilter_hxx
#define itkVkComplexToComplexFFTImageFilter_hxx

#include "itkVkFFTDefaults.h"
#include "itkVkFFTGenerateData.h"
#include "itkVkComplexToComplexFFTImageFilter.h"

namespace itk
{

template <typename TInputImage, typename TOutputImage>
void
VkComplexToComplexFFTImageFilter<TInputImage, TOutputImage>::GenerateData()
{
  const bool             inverse = this->GetTransformDirection() == Superclass::TransformDirectionEnum::INVERSE;
  VkCommon::VkParameters p;
  p.fft = VkCommon::FFTEnum::C2C;
  p.I = inverse ? VkCommon::DirectionEnum::INVERSE : VkCommon::DirectionEnum::FORWARD;
  p.normalized = inverse ? VkCommon::NormalizationEnum::NORMALIZED : VkCommon::NormalizationEnum::UNNORMALIZED;
  VkFFTGenerateData<RealType>(this, m_VkCommon, m_VkState, p, false, [this] {
    VkFFTRunComplexToComplexFallback<TInputImage, RealType>(this, this->GetTransformDirection());
  });
}

template <typename TInputImage, typename TOutputImage>
void
VkComplexToComplexFFTImageFilter<TInputImage, TOutputImage>::PrintSelf(std::ostream & os, Indent indent) const
{
  Superclass::PrintSelf(os, indent);
  VkFFTPrintDeviceSettings(os, indent, m_UseVkGlobalConfiguration, m_DeviceID, this->GetDeviceID(), m_VkState);
}

template <typename TInputImage, typename TOutputImage>
auto
VkComplexToComplexFFTImageFilter<TInputImage, TOutputImage>::GetSizeGreatestPrimeFactor() const -> SizeValueType
{
  return SizeValueType{ m_VkCommon.GetGreatestPrimeFactor() };
}

} // namespace itk

#endif // itkVkComplexToComplexFFTImageFilter_hxx
