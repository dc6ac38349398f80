/*=========================================================================
 * itkVkMultiResolutionPyramidImageFilter.hxx
 *=========================================================================*/
#ifndef itkVkMultiResolutionPyramidImageFilter_hxx
#define itkVkMultiResolutionPyramidImageFilter_hxx

#include "itkCastImageFilter.h"
#include "itkGaussianOperator.h"
#include "itkIdentityTransform.h"
#include "itkLinearInterpolateImageFunction.h"
#include "itkMath.h"
#include "itkResampleImageFilter.h"
#include "itkShrinkImageFilter.h"
#include "itkVkBlurringPerformanceMetric.h"
#include "itkVkMultiResolutionPyramidImageFilter.h"

namespace itk
{
template <typename TInputImage, typename TOutputImage>
void
VkMultiResolutionPyramidImageFilter<TInputImage, TOutputImage>::GenerateData()
{
  // MultiResolutionPyramidImageFilter's levels, each with the faster smoother
  using CasterType = CastImageFilter<TInputImage, TOutputImage>;
  using ImageToImageType = ImageToImageFilter<TOutputImage, TOutputImage>;
  using ResampleShrinkerType = ResampleImageFilter<TOutputImage, TOutputImage>;
  using ShrinkerType = ShrinkImageFilter<TOutputImage, TOutputImage>;

  auto caster = CasterType::New();
  caster->SetInput(this->GetInput());
  typename ImageToImageType::Pointer     shrinkerFilter;
  typename ResampleShrinkerType::Pointer resampleShrinker;
  typename ShrinkerType::Pointer         shrinker;
  if (this->GetUseShrinkImageFilter())
  {
    shrinker = ShrinkerType::New();
    shrinkerFilter = shrinker.GetPointer();
  }
  else
  {
    resampleShrinker = ResampleShrinkerType::New();
    resampleShrinker->SetInterpolator(LinearInterpolateImageFunction<OutputImageType, double>::New());
    resampleShrinker->SetDefaultPixelValue(0);
    shrinkerFilter = resampleShrinker.GetPointer();
  }

  m_LevelsBlurredByFFT = 0;
  while (m_FFTSmoothers.size() < this->m_NumberOfLevels)
  {
    m_FFTSmoothers.push_back(FFTSmootherType::New());
  }
  for (unsigned int ilevel = 0; ilevel < this->m_NumberOfLevels; ++ilevel)
  {
    this->UpdateProgress(static_cast<float>(ilevel) / static_cast<float>(this->m_NumberOfLevels));
    OutputImagePointer outputPtr = this->GetOutput(ilevel);
    outputPtr->SetBufferedRegion(outputPtr->GetRequestedRegion());
    outputPtr->Allocate();

    unsigned int factors[ImageDimension];
    for (unsigned int d = 0; d < ImageDimension; ++d)
    {
      factors[d] = this->m_Schedule[ilevel][d];
    }
    if (this->GetUseShrinkImageFilter())
    {
      shrinker->SetShrinkFactors(factors);
    }
    else
    {
      resampleShrinker->SetOutputParametersFromImage(outputPtr);
      resampleShrinker->SetTransform(IdentityTransform<double, ImageDimension>::New());
    }

    BaseSmootherType * smoother = m_SpatialSmoother;
    if (this->GetUseFFT(this->GetKernelRadius(ilevel)))
    {
      smoother = m_FFTSmoothers[ilevel];
      ++m_LevelsBlurredByFFT;
    }
    smoother->SetUseImageSpacing(false);
    smoother->SetInput(caster->GetOutput());
    smoother->SetMaximumError(this->m_MaximumError);
    const VarianceType variance = this->GetVariance(ilevel);
    double             v[ImageDimension];
    for (unsigned int d = 0; d < ImageDimension; ++d)
    {
      v[d] = variance[d];
    }
    smoother->SetVariance(v);
    shrinkerFilter->SetInput(smoother->GetOutput());
    shrinkerFilter->GraftOutput(outputPtr);
    shrinkerFilter->Modified(); // shrink factors may repeat
    shrinkerFilter->UpdateLargestPossibleRegion();
    this->GraftNthOutput(ilevel, shrinkerFilter->GetOutput());
  }
}

template <typename TInputImage, typename TOutputImage>
float
VkMultiResolutionPyramidImageFilter<TInputImage, TOutputImage>::ComputeMetricValue(
  const InputSizeType &  inputSize,
  const KernelSizeType & kernelRadius) const
{
  KernelSizeType kernelSize;
  for (unsigned int d = 0; d < ImageDimension; ++d)
  {
    kernelSize[d] = kernelRadius[d] * 2 + 1;
  }
  return VkBlurringPerformanceMetric<InputImageType, OutputImageType>::Compute(inputSize, kernelSize);
}

template <typename TInputImage, typename TOutputImage>
bool
VkMultiResolutionPyramidImageFilter<TInputImage, TOutputImage>::GetUseFFT(const KernelSizeType & kernelRadius) const
{
  return this->ComputeMetricValue(this->GetInput()->GetRequestedRegion().GetSize(), kernelRadius) > m_MetricThreshold;
}

template <typename TInputImage, typename TOutputImage>
auto
VkMultiResolutionPyramidImageFilter<TInputImage, TOutputImage>::GetKernelRadius(unsigned int ilevel) const
  -> KernelSizeType
{
  // the operators DiscreteGaussianImageFilter builds for the level
  KernelSizeType     radius;
  const VarianceType variance = this->GetVariance(ilevel);
  for (unsigned int d = 0; d < ImageDimension; ++d)
  {
    GaussianOperator<typename NumericTraits<OutputPixelType>::RealType, ImageDimension> oper;
    oper.SetDirection(d);
    oper.SetMaximumError(this->m_MaximumError);
    oper.SetVariance(variance[d]);
    oper.CreateDirectional();
    radius[d] = oper.GetRadius()[d];
  }
  return radius;
}

template <typename TInputImage, typename TOutputImage>
auto
VkMultiResolutionPyramidImageFilter<TInputImage, TOutputImage>::GetVariance(unsigned int ilevel) const -> VarianceType
{
  VarianceType variance;
  for (unsigned int d = 0; d < ImageDimension; ++d)
  {
    variance[d] = Math::sqr(0.5 * static_cast<float>(this->m_Schedule[ilevel][d]));
  }
  return variance;
}

template <typename TInputImage, typename TOutputImage>
void
VkMultiResolutionPyramidImageFilter<TInputImage, TOutputImage>::PrintSelf(std::ostream & os, Indent indent) const
{
  Superclass::PrintSelf(os, indent);
  os << indent << "Kernel/image size metric threshold: " << m_MetricThreshold << std::endl;
  os << indent << "Levels blurred by FFT in the last Update: " << m_LevelsBlurredByFFT << std::endl;
}
} // namespace itk

#endif
