/*=========================================================================
 * itkVkMultiResolutionPyramidImageFilter.h
 *=========================================================================*/
#ifndef itkVkMultiResolutionPyramidImageFilter_h
#define itkVkMultiResolutionPyramidImageFilter_h

#include "itkDiscreteGaussianImageFilter.h"
#include "itkMultiResolutionPyramidImageFilter.h"
#include "itkVector.h"
#include "itkVkFFTDiscreteGaussianImageFilter.h"

#include <vector>

namespace itk
{
/** \class VkMultiResolutionPyramidImageFilter
 * \brief MultiResolutionPyramidImageFilter whose levels are each smoothed the faster
 * way: separable spatial blurring, or one GPU FFT convolution (libvkfftgo) where the
 * kernel is large for the region.
 *
 * VkBlurringPerformanceMetric of the input's requested region and each level's kernel
 * is compared with MetricThreshold (8 by default): above, the level is blurred by FFT.
 * Otherwise the schedule, shrinking and outputs are MultiResolutionPyramidImageFilter's.
 * VkMultiResolutionPyramidImageFilterFactory makes MultiResolutionPyramidImageFilter's
 * New() return it.
 *
 * \sa MultiResolutionPyramidImageFilter
 * \sa VkBlurringPerformanceMetric
 * \ingroup PyramidImageFilter
 * \ingroup VkFFTBackend
 */
template <typename TInputImage, typename TOutputImage>
class ITK_TEMPLATE_EXPORT VkMultiResolutionPyramidImageFilter
  : public MultiResolutionPyramidImageFilter<TInputImage, TOutputImage>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkMultiResolutionPyramidImageFilter);

  using Self = VkMultiResolutionPyramidImageFilter;
  using Superclass = MultiResolutionPyramidImageFilter<TInputImage, TOutputImage>;
  using Pointer = SmartPointer<Self>;
  using ConstPointer = SmartPointer<const Self>;

  itkNewMacro(Self);
  itkVkTypeMacro(VkMultiResolutionPyramidImageFilter, MultiResolutionPyramidImageFilter);

  static constexpr unsigned int ImageDimension = TInputImage::ImageDimension;

  using typename Superclass::InputImageType;
  using typename Superclass::OutputImageType;
  using typename Superclass::InputImagePointer;
  using typename Superclass::OutputImagePointer;
  using typename Superclass::InputImageConstPointer;
  using InputSizeType = typename InputImageType::SizeType;
  using OutputPixelType = typename OutputImageType::PixelType;
  using OutputSizeType = typename OutputImageType::SizeType;
  using typename Superclass::ScheduleType;

  using VarianceType = Vector<double, ImageDimension>;
  using KernelSizeType = OutputSizeType;

  /** The smoothers. */
  using BaseSmootherType = DiscreteGaussianImageFilter<OutputImageType, OutputImageType>;
  using SpatialSmootherType = DiscreteGaussianImageFilter<OutputImageType, OutputImageType>;
  using FFTSmootherType = VkFFTDiscreteGaussianImageFilter<OutputImageType, OutputImageType>;

  /** The metric above which a level is blurred by FFT. */
  itkSetMacro(MetricThreshold, float);
  itkGetMacro(MetricThreshold, float);

  /** The threshold from an input size and kernel radius measured to take as long either way. */
  void
  SetMetricThreshold(const InputSizeType & inputSize, const KernelSizeType & kernelRadius)
  {
    this->SetMetricThreshold(ComputeMetricValue(inputSize, kernelRadius));
  }

  /** VkBlurringPerformanceMetric of inputSize and a kernel of kernelRadius. */
  float
  ComputeMetricValue(const InputSizeType & inputSize, const KernelSizeType & kernelRadius) const;

  /** The kernel radius of level ilevel. */
  KernelSizeType
  GetKernelRadius(unsigned int ilevel) const;

  /** The variance of level ilevel: (factor/2)^2 along each dimension. */
  VarianceType
  GetVariance(unsigned int ilevel) const;

  /** Whether a level of this kernel radius is blurred by FFT. */
  bool
  GetUseFFT(const KernelSizeType & kernelRadius) const;

  /** How many levels the last Update blurred by FFT. */
  itkGetConstMacro(LevelsBlurredByFFT, unsigned int);

protected:
  VkMultiResolutionPyramidImageFilter() = default;
  ~VkMultiResolutionPyramidImageFilter() override = default;

  void
  GenerateData() override;

  void
  PrintSelf(std::ostream & os, Indent indent) const override;

private:
  float                                 m_MetricThreshold{ 8.0f };
  unsigned int                          m_LevelsBlurredByFFT{ 0 };
  typename SpatialSmootherType::Pointer m_SpatialSmoother{ SpatialSmootherType::New() };
  // one per level: each keeps its kernel's spectrum on the device between Updates
  std::vector<typename FFTSmootherType::Pointer> m_FFTSmoothers;
};
} // namespace itk

#ifndef ITK_MANUAL_INSTANTIATION
#  include "itkVkMultiResolutionPyramidImageFilter.hxx"
#endif

#endif
