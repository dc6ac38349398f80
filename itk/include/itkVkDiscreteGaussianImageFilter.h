/*=========================================================================
 * itkVkDiscreteGaussianImageFilter.h
 *=========================================================================*/
#ifndef itkVkDiscreteGaussianImageFilter_h
#define itkVkDiscreteGaussianImageFilter_h

#include "itkDiscreteGaussianImageFilter.h"
#include "itkMacro.h"
#include "itkVkFFTDiscreteGaussianImageFilter.h"

namespace itk
{
/**
 * \class VkDiscreteGaussianImageFilter
 * \brief Blurs an image with a discrete Gaussian, choosing separable spatial
 * convolution or one GPU FFT convolution by the size of the work.
 *
 * Spatial blurring (DiscreteGaussianImageFilter) is fast for small kernels and grows with
 * the kernel; FFT blurring (VkFFTDiscreteGaussianImageFilter, on the GPU through
 * libvkfftgo) costs about the same for any kernel. VkBlurringPerformanceMetric of the
 * output's requested region and the kernel size is compared with
 * AnticipatedPerformanceMetricThreshold (8 by default; measure it on the machine): above,
 * FFT blurring runs. Both give DiscreteGaussianImageFilter's result.
 *
 * \sa DiscreteGaussianImageFilter
 * \sa VkFFTDiscreteGaussianImageFilter
 * \sa VkBlurringPerformanceMetric
 * \ingroup ImageEnhancement
 * \ingroup ITKSmoothing
 * \ingroup VkFFTBackend
 */
template <typename TInputImage, typename TOutputImage = TInputImage>
class VkDiscreteGaussianImageFilter : public DiscreteGaussianImageFilter<TInputImage, TOutputImage>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkDiscreteGaussianImageFilter);

  using Self = VkDiscreteGaussianImageFilter;
  using Superclass = DiscreteGaussianImageFilter<TInputImage, TOutputImage>;
  using Pointer = SmartPointer<Self>;
  using ConstPointer = SmartPointer<const Self>;

  itkNewMacro(Self);
  itkVkTypeMacro(VkDiscreteGaussianImageFilter, DiscreteGaussianImageFilter);

  using InputImageType = typename Superclass::InputImageType;
  using OutputImageType = typename Superclass::OutputImageType;
  static constexpr unsigned int ImageDimension = Superclass::ImageDimension;

  /** The blurring filters. */
  using BaseBlurringFilterType = DiscreteGaussianImageFilter<InputImageType, OutputImageType>;
  using SpatialBlurringFilterType = DiscreteGaussianImageFilter<InputImageType, OutputImageType>;
  using FFTBlurringFilterType = VkFFTDiscreteGaussianImageFilter<InputImageType, OutputImageType>;

  /** The kernel (ITKVkFFTBackend's names, as ITK 5.3's). */
  using KernelType = typename FFTBlurringFilterType::KernelType;
  using RadiusType = typename FFTBlurringFilterType::RadiusType;
  using KernelSizeType = RadiusType;
  using RegionSizeType = typename OutputImageType::SizeType;

  /** The metric at which spatial and FFT blurring take about the same time. */
  itkSetMacro(AnticipatedPerformanceMetricThreshold, float);
  itkGetMacro(AnticipatedPerformanceMetricThreshold, float);

  /** Whether the last Update blurred by FFT. */
  itkGetMacro(LastRunUsedFFT, bool);

  /** Whether FFT blurring is expected to be faster for the current input and output. */
  bool
  GetUseFFT() const;

  /** VkBlurringPerformanceMetric of the output's requested region and the kernel size
   * (0 without an input). */
  float
  GetAnticipatedPerformanceMetric() const;

  /** The Gaussian kernel's radius along each dimension. */
  RadiusType
  GetKernelRadius() const;

  /** The kernel's size, radius * 2 + 1. */
  KernelSizeType
  GetKernelSize() const;

protected:
  VkDiscreteGaussianImageFilter() = default;
  ~VkDiscreteGaussianImageFilter() override = default;

  /** The whole input for FFT blurring, the region padded by the radius for spatial. */
  void
  GenerateInputRequestedRegion() override;

  void
  GenerateData() override;

  void
  PrintSelf(std::ostream & os, Indent indent) const override;

private:
  /** The FFT filter with this filter's parameters. */
  void
  Configure(FFTBlurringFilterType * f) const;

  float m_AnticipatedPerformanceMetricThreshold{ 8.0f };
  bool  m_LastRunUsedFFT{ false };

  typename FFTBlurringFilterType::Pointer m_FFTBlurringFilter{ FFTBlurringFilterType::New() };
};
} // end namespace itk

#ifndef ITK_MANUAL_INSTANTIATION
#  include "itkVkDiscreteGaussianImageFilter.hxx"
#endif

#endif
