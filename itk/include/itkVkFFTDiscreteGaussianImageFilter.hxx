/*=========================================================================
 * itkVkFFTDiscreteGaussianImageFilter.hxx
 *=========================================================================*/
#ifndef itkVkFFTDiscreteGaussianImageFilter_hxx
#define itkVkFFTDiscreteGaussianImageFilter_hxx

#include "itkImageRegionIteratorWithIndex.h"
#include "itkVkFFTDiscreteGaussianImageFilter.h"

namespace itk
{
template <typename TInputImage, typename TOutputImage>
std::vector<std::vector<double>>
VkFFTDiscreteGaussianImageFilter<TInputImage, TOutputImage>::Coefficients() const
{
  std::vector<std::vector<double>> coef(ImageDimension, std::vector<double>{ 1.0 });
  const unsigned int               dims = std::min(this->GetFilterDimensionality(), unsigned{ ImageDimension });
  const InputImageType *           input = this->GetInput();
  for (unsigned int d = 0; d < dims; ++d)
  {
    double variance = this->GetVariance()[d];
    if (this->GetUseImageSpacing())
    {
      if (!input)
      {
        continue; // no spacing to convert with yet: radius 0
      }
      const double s = input->GetSpacing()[d];
      if (s == 0.0)
      {
        itkExceptionMacro(<< "Pixel spacing cannot be zero");
      }
      variance /= s * s;
    }
    // as DiscreteGaussianImageFilter builds its operators
    GaussianOperator<RealOutputPixelValueType, ImageDimension> oper;
    oper.SetDirection(d);
    oper.SetVariance(variance);
    oper.SetMaximumKernelWidth(this->GetMaximumKernelWidth());
    oper.SetMaximumError(this->GetMaximumError()[d]);
    oper.CreateDirectional();
    coef[d].resize(oper.Size());
    for (size_t i = 0; i < oper.Size(); ++i)
    {
      coef[d][i] = oper[i];
    }
  }
  return coef;
}

template <typename TInputImage, typename TOutputImage>
auto
VkFFTDiscreteGaussianImageFilter<TInputImage, TOutputImage>::GetKernelRadius() const -> RadiusType
{
  RadiusType radius;
  const auto coef = this->Coefficients();
  for (unsigned int d = 0; d < ImageDimension; ++d)
  {
    radius[d] = coef[d].size() / 2;
  }
  return radius;
}

template <typename TInputImage, typename TOutputImage>
auto
VkFFTDiscreteGaussianImageFilter<TInputImage, TOutputImage>::MakeKernelImage() const ->
  typename KernelImageType::Pointer
{
  const auto                         coef = this->Coefficients();
  typename KernelImageType::SizeType size;
  for (unsigned int d = 0; d < ImageDimension; ++d)
  {
    size[d] = coef[d].size();
  }
  auto kernel = KernelImageType::New();
  kernel->SetRegions(typename KernelImageType::RegionType(size));
  kernel->Allocate();
  ImageRegionIteratorWithIndex<KernelImageType> it(kernel, kernel->GetBufferedRegion());
  for (it.GoToBegin(); !it.IsAtEnd(); ++it)
  {
    double v = 1.0;
    for (unsigned int d = 0; d < ImageDimension; ++d)
    {
      v *= coef[d][it.GetIndex()[d]];
    }
    it.Set(static_cast<InternalPrecisionType>(v));
  }
  return kernel;
}

template <typename TInputImage, typename TOutputImage>
void
VkFFTDiscreteGaussianImageFilter<TInputImage, TOutputImage>::GenerateInputRequestedRegion()
{
  ImageToImageFilter<TInputImage, TOutputImage>::GenerateInputRequestedRegion();
  if (auto * input = const_cast<InputImageType *>(this->GetInput()))
  {
    input->SetRequestedRegionToLargestPossibleRegion();
  }
}

template <typename TInputImage, typename TOutputImage>
void
VkFFTDiscreteGaussianImageFilter<TInputImage, TOutputImage>::GenerateData()
{
  OutputImageType * output = this->GetOutput();
  int               inputMode = 0, realMode = 0;
  std::string       why;
  if (ImageDimension > 3)
  {
    why = "libvkfftgo convolves up to 3 dimensions";
  }
  else if (!VkFFTBoundaryOf(this->GetInputBoundaryCondition(), inputMode) ||
           !VkFFTBoundaryOf(this->GetRealBoundaryCondition(), realMode) || inputMode != realMode)
  {
    why = "the input and real boundary conditions differ or have no GPU form";
  }
  if (why.empty())
  {
    auto coef = this->Coefficients();
    if (!m_Kernel || coef != m_KernelCoefficients)
    {
      m_Kernel = this->MakeKernelImage(); // a new kernel image: the convolution transforms it anew
      m_KernelCoefficients = coef;
    }
    auto localInput = InputImageType::New();
    localInput->Graft(this->GetInput());
    m_Convolution->SetInput(localInput);
    m_Convolution->SetKernelImage(m_Kernel);
    m_Convolution->SetBoundaryCondition(this->GetInputBoundaryCondition());
    m_Convolution->SetNormalize(false); // the operators are normalised already
    m_Convolution->SetOutputRegionModeToSame();
    m_Convolution->SetUseVkGlobalConfiguration(this->GetUseVkGlobalConfiguration());
    m_Convolution->SetDeviceID(m_DeviceID);
    m_Convolution->GraftOutput(output);
    m_Convolution->Update();
    // ITK's FFT convolution, when the device could not take it, gives the same result
    this->GraftOutput(m_Convolution->GetOutput());
    m_VkState.usedFallback = m_Convolution->GetLastUpdateUsedFallback();
    m_VkState.reason = m_Convolution->GetFallbackReason();
    return;
  }
  // the spatial filter; it wants its input padded by the kernel radius, and has all of it
  VkFFTRecordFallback(this, m_VkState, why);
  Superclass::GenerateData();
}
} // namespace itk

#endif
