/*=========================================================================
 * itkVkDiscreteGaussianImageFilter.hxx
 *=========================================================================*/
#ifndef itkVkDiscreteGaussianImageFilter_hxx
#define itkVkDiscreteGaussianImageFilter_hxx

#include "itkVkBlurringPerformanceMetric.h"
#include "itkVkDiscreteGaussianImageFilter.h"

namespace itk
{
template <typename TInputImage, typename TOutputImage>
void
VkDiscreteGaussianImageFilter<TInputImage, TOutputImage>::Configure(FFTBlurringFilterType * f) const
{
  f->SetVariance(this->GetVariance());
  f->SetMaximumError(this->GetMaximumError());
  f->SetMaximumKernelWidth(this->GetMaximumKernelWidth());
  f->SetFilterDimensionality(this->GetFilterDimensionality());
  f->SetUseImageSpacing(this->GetUseImageSpacing());
  f->SetInputBoundaryCondition(this->GetInputBoundaryCondition());
  f->SetRealBoundaryCondition(this->GetRealBoundaryCondition());
  f->SetNumberOfWorkUnits(this->GetNumberOfWorkUnits());
}

template <typename TInputImage, typename TOutputImage>
auto
VkDiscreteGaussianImageFilter<TInputImage, TOutputImage>::GetKernelRadius() const -> RadiusType
{
  // the operators as the filters build them, with this filter's parameters and input
  auto f = FFTBlurringFilterType::New();
  this->Configure(f);
  f->SetInput(this->GetInput());
  return f->GetKernelRadius();
}

template <typename TInputImage, typename TOutputImage>
auto
VkDiscreteGaussianImageFilter<TInputImage, TOutputImage>::GetKernelSize() const -> KernelSizeType
{
  KernelSizeType size;
  const auto     radius = this->GetKernelRadius();
  for (unsigned int d = 0; d < ImageDimension; ++d)
  {
    size[d] = radius[d] * 2 + 1;
  }
  return size;
}

template <typename TInputImage, typename TOutputImage>
float
VkDiscreteGaussianImageFilter<TInputImage, TOutputImage>::GetAnticipatedPerformanceMetric() const
{
  if (!this->GetInput() || !this->GetOutput())
  {
    return 0.0f;
  }
  return VkBlurringPerformanceMetric<OutputImageType>::Compute(this->GetOutput()->GetRequestedRegion().GetSize(),
                                                               this->GetKernelSize());
}

template <typename TInputImage, typename TOutputImage>
bool
VkDiscreteGaussianImageFilter<TInputImage, TOutputImage>::GetUseFFT() const
{
  return this->GetAnticipatedPerformanceMetric() > m_AnticipatedPerformanceMetricThreshold;
}

template <typename TInputImage, typename TOutputImage>
void
VkDiscreteGaussianImageFilter<TInputImage, TOutputImage>::GenerateInputRequestedRegion()
{
  if (!this->GetUseFFT())
  {
    Superclass::GenerateInputRequestedRegion();
    return;
  }
  ImageToImageFilter<TInputImage, TOutputImage>::GenerateInputRequestedRegion();
  if (auto * input = const_cast<InputImageType *>(this->GetInput()))
  {
    input->SetRequestedRegionToLargestPossibleRegion();
  }
}

template <typename TInputImage, typename TOutputImage>
void
VkDiscreteGaussianImageFilter<TInputImage, TOutputImage>::GenerateData()
{
  if (!this->GetUseFFT())
  {
    m_LastRunUsedFFT = false;
    Superclass::GenerateData();
    return;
  }
  m_LastRunUsedFFT = true;
  OutputImageType * output = this->GetOutput();
  // a local input keeps the caller's image's regions as they are
  auto localInput = InputImageType::New();
  localInput->Graft(this->GetInput());
  this->Configure(m_FFTBlurringFilter);
  m_FFTBlurringFilter->SetInput(localInput);
  m_FFTBlurringFilter->GraftOutput(output);
  m_FFTBlurringFilter->Update();
  this->GraftOutput(m_FFTBlurringFilter->GetOutput());
}

template <typename TInputImage, typename TOutputImage>
void
VkDiscreteGaussianImageFilter<TInputImage, TOutputImage>::PrintSelf(std::ostream & os, Indent indent) const
{
  Superclass::PrintSelf(os, indent);
  os << indent << "FFT blurring filter member: " << m_FFTBlurringFilter.GetPointer() << std::endl;
  os << indent << "Kernel radius: " << this->GetKernelRadius() << std::endl;
  os << indent << "Anticipated performance metric threshold: " << m_AnticipatedPerformanceMetricThreshold << std::endl;
  os << indent << "Anticipated performance metric: " << this->GetAnticipatedPerformanceMetric() << std::endl;
  os << indent << "Last run used FFT: " << m_LastRunUsedFFT << std::endl;
}
} // end namespace itk

#endif
