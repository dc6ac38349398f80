/*=========================================================================
 * itkVkComplexToComplex1DFFTImageFilter.hxx
 *=========================================================================*/
#ifndef itkVkComplexToComplex1DFFTImageFilter_hxx
#define itkVkComplexToComplex1DFFTImageFilter_hxx

#include "itkVkFFTGenerateData.h"
#include "itkVkComplexToComplex1DFFTImageFilter.h"

namespace itk
{

template <typename TInputImage, typename TOutputImage>
void
VkComplexToComplex1DFFTImageFilter<TInputImage, TOutputImage>::GenerateData()
{
  VkFFT1DGenerateData<RealType>(this, m_VkCommon, m_VkState, VkCommon::FFTEnum::C2C,
                                this->GetTransformDirection() == Superclass::INVERSE);
}

template <typename TInputImage, typename TOutputImage>
void
VkComplexToComplex1DFFTImageFilter<TInputImage, TOutputImage>::PrintSelf(std::ostream & os, Indent indent) const
{
  Superclass::PrintSelf(os, indent);
  VkFFTPrintDeviceSettings(os, indent, m_UseVkGlobalConfiguration, m_DeviceID, this->GetDeviceID(), m_VkState);
}

template <typename TInputImage, typename TOutputImage>
auto
VkComplexToComplex1DFFTImageFilter<TInputImage, TOutputImage>::GetSizeGreatestPrimeFactor() const -> SizeValueType
{
  return SizeValueType{ m_VkCommon.GetGreatestPrimeFactor() };
}

} // namespace itk

#endif // itkVkComplexToComplex1DFFTImageFilter_hxx
