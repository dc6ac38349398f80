/*=========================================================================
 * itkVkBlurringPerformanceMetric.h
 *=========================================================================*/
#ifndef itkVkBlurringPerformanceMetric_h
#define itkVkBlurringPerformanceMetric_h

#include "itkLightObject.h"
#include "itkObjectFactory.h"
#include "itkVkDefinitions.h"

#include <cmath>

namespace itk
{
/**
 *\class VkBlurringPerformanceMetric
 * \brief How much faster FFT blurring is expected to be than separable spatial blurring
 * for a region and a kernel size.
 *
 * Separable spatial smoothing touches every pixel once per kernel point along each axis,
 * while FFT smoothing costs about the same whatever the kernel; the metric
 *
 *   f(R, K) = log10(R0 * R1 * ... * (K0 + K1 + ...))
 *
 * (R the region's size, K the kernel's) grows with the work spatial smoothing does.
 * Compared with a threshold measured on the machine (8 by default in the filters), it
 * picks the faster path.
 *
 * \sa VkDiscreteGaussianImageFilter
 * \sa VkMultiResolutionPyramidImageFilter
 * \ingroup VkFFTBackend
 */
template <typename TImage, typename TKernel = TImage>
class VkBlurringPerformanceMetric : public LightObject
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkBlurringPerformanceMetric);

  using Self = VkBlurringPerformanceMetric;
  using Superclass = LightObject;
  using Pointer = SmartPointer<Self>;
  using ConstPointer = SmartPointer<const Self>;

  itkNewMacro(Self);
  itkVkTypeMacro(VkBlurringPerformanceMetric, LightObject);

  using ImageType = TImage;
  using KernelType = TKernel;
  using RegionSizeType = typename ImageType::SizeType;
  using KernelSizeType = typename KernelType::SizeType;

  static constexpr unsigned int ImageDimension = ImageType::ImageDimension;

  /** f(R, K) = log10(R0 * R1 * ... * (K0 + K1 + ...)). */
  static float
  Compute(const RegionSizeType & regionSize, const KernelSizeType & kernelSize)
  {
    double points = 1.0, kernelSum = 0.0;
    for (unsigned int d = 0; d < ImageDimension; ++d)
    {
      points *= static_cast<double>(regionSize[d]);
      kernelSum += static_cast<double>(kernelSize[d]);
    }
    return static_cast<float>(std::log10(points * kernelSum));
  }

protected:
  VkBlurringPerformanceMetric() = default;
  ~VkBlurringPerformanceMetric() override = default;
};
} // namespace itk

#endif // itkVkBlurringPerformanceMetric_h
