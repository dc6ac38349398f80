/*=========================================================================
 * itkVkHalfHermitianToRealInverseFFTImageFilter.hxx
 *=========================================================================*/
#ifndef itkVkHalfHermitianToRealInverseFFTImageFilter_hxx
#define itkVkHalfHermitianToRealInverseFFTImageFilter_hxx

#include "itkVkFFTDefaults.h"
#include "itkVkFFTGenerateData.h"
#include "itkVkHalfHermitianToRealInverseFFTImageFilter.h"

namespace itk
{

template <typename TInputImage, typename TOutputImage>
void
VkHalfHermitianToRealInverseFFTImageFilter<TInputImage, TOutputImage>::GenerateData()
{
  VkCommon::VkParameters p;
  p.fft = VkCommon::FFTEnum::R2HalfH;
  p.I = VkCommon::DirectionEnum::INVERSE;
  p.normalized = VkCommon::NormalizationEnum::NORMALIZED;
  VkFFTGenerateData<RealType>(this, m_VkCommon, m_VkState, p, true, [this] {
    auto fallback = VkFFTDefaultHalfHermitianToRealInverse<TInputImage, TOutputImage, RealType>::New();
    fallback->SetActualXDimensionIsOdd(this->GetActualXDimensionIsOdd());
    VkFFTRunFallback(this, fallback.GetPointer());
  });
}

template <typename TInputImage, typename TOutputImage>
void
VkHalfHermitianToRealInverseFFTImageFilter<TInputImage, TOutputImage>::PrintSelf(std::ostream & os, Indent indent) const
{
  Superclass::PrintSelf(os, indent);
  VkFFTPrintDeviceSettings(os, indent, m_UseVkGlobalConfiguration, m_DeviceID, this->GetDeviceID(), m_VkState);
}

template <typename TInputImage, typename TOutputImage>
auto
VkHalfHermitianToRealInverseFFTImageFilter<TInputImage, TOutputImage>::GetSizeGreatestPrimeFactor() const -> SizeValueType
{
  return SizeValueType{ m_VkCommon.GetGreatestPrimeFactor() };
}

} // namespace itk

#endif // itkVkHalfHermitianToRealInverseFFTImageFilter_hxx
