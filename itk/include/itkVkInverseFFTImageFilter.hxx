/*=========================================================================
 * itkVkInverseFFTImageFilter.hxx
 *=========================================================================*/
#ifndef itkVkInverseFFTImageFilter_hxx
#define itkVkInverseFFTImageFilter_hxx

#include "itkVkFFTDefaults.h"
#include "itkVkFFTGenerateData.h"
#include "itkVkInverseFFTImageFilter.h"

namespace itk
{

template <typename TInputImage, typename TOutputImage>
void
VkInverseFFTImageFilter<TInputImage, TOutputImage>::GenerateData()
{
  VkCommon::VkParameters p;
  p.fft = VkCommon::FFTEnum::R2FullH;
  p.I = VkCommon::DirectionEnum::INVERSE;
  p.normalized = VkCommon::NormalizationEnum::NORMALIZED;
  VkFFTGenerateData<RealType>(this, m_VkCommon, m_VkState, p, true, [this] {
    auto fallback = VkFFTDefaultInverse<TInputImage, TOutputImage, RealType>::New();
    VkFFTRunFallback(this, fallback.GetPointer());
  });
}

template <typename TInputImage, typename TOutputImage>
void
VkInverseFFTImageFilter<TInputImage, TOutputImage>::PrintSelf(std::ostream & os, Indent indent) const
{
  Superclass::PrintSelf(os, indent);
  VkFFTPrintDeviceSettings(os, indent, m_UseVkGlobalConfiguration, m_DeviceID, this->GetDeviceID(), m_VkState);
}

template <typename TInputImage, typename TOutputImage>
auto
VkInverseFFTImageFilter<TInputImage, TOutputImage>::GetSizeGreatestPrimeFactor() const -> SizeValueType
{
  return SizeValueType{ m_VkCommon.GetGreatestPrimeFactor() };
}

} // namespace itk

#endif // itkVkInverseFFTImageFilter_hxx
