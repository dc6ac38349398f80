/*=========================================================================
 * itkVkFFTDiscreteGaussianImageFilter.h
 *=========================================================================*/
#ifndef itkVkFFTDiscreteGaussianImageFilter_h
#define itkVkFFTDiscreteGaussianImageFilter_h

#include "itkDiscreteGaussianImageFilter.h"
#include "itkGaussianOperator.h"
#include "itkVkFFTConvolutionImageFilter.h"

#include <type_traits>
#include <vector>

namespace itk
{
/** \class VkFFTDiscreteGaussianImageFilter
 * \brief DiscreteGaussianImageFilter as one FFT convolution on the GPU (libvkfftgo).
 *
 * The kernel is the product of the one-dimensional GaussianOperators ITK's spatial filter
 * applies one after another (the same variance, MaximumError, MaximumKernelWidth,
 * UseImageSpacing and FilterDimensionality), and the input is extended by the
 * InputBoundaryCondition on the device, so the result is the spatial filter's up to
 * rounding: a zero-flux Neumann condition on every axis of the separable filter is the
 * same as one on the image (the same holds for periodic and zero ones). The kernel's
 * spectrum stays on the device while the parameters and the size stay the same. Float
 * images are convolved in single precision, others in double. A boundary condition with
 * no GPU form, differing input and real conditions, more than three dimensions or no
 * usable device run the spatial filter.
 *
 * \sa DiscreteGaussianImageFilter
 * \sa VkDiscreteGaussianImageFilter
 * \ingroup ImageEnhancement
 * \ingroup VkFFTBackend
 */
template <typename TInputImage, typename TOutputImage = TInputImage>
class VkFFTDiscreteGaussianImageFilter : public DiscreteGaussianImageFilter<TInputImage, TOutputImage>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkFFTDiscreteGaussianImageFilter);

  using Self = VkFFTDiscreteGaussianImageFilter;
  using Superclass = DiscreteGaussianImageFilter<TInputImage, TOutputImage>;
  using Pointer = SmartPointer<Self>;
  using ConstPointer = SmartPointer<const Self>;

  itkNewMacro(Self);
  itkVkTypeMacro(VkFFTDiscreteGaussianImageFilter, DiscreteGaussianImageFilter);

  using InputImageType = typename Superclass::InputImageType;
  using OutputImageType = typename Superclass::OutputImageType;
  using RealOutputPixelValueType = typename Superclass::RealOutputPixelValueType;
  static constexpr unsigned int ImageDimension = Superclass::ImageDimension;

  /** The operators and the kernel (ITKVkFFTBackend's names, as ITK 5.3's). */
  using KernelType = GaussianOperator<RealOutputPixelValueType, ImageDimension>;
  using RadiusType = typename KernelType::RadiusType;

  /** The precision of the convolution: float for float images, else double. */
  using InternalPrecisionType =
    std::conditional_t<std::is_same<typename InputImageType::PixelType, float>::value &&
                         std::is_same<typename OutputImageType::PixelType, float>::value,
                       float,
                       double>;
  using KernelImageType = Image<InternalPrecisionType, ImageDimension>;
  using ConvolutionType = VkFFTConvolutionImageFilter<TInputImage, KernelImageType, TOutputImage, InternalPrecisionType>;

  /** The radius of the kernel along each dimension (0 where it does not smooth), from
   * the parameters and, with UseImageSpacing, the input's spacing (0 without an input). */
  RadiusType
  GetKernelRadius() const;

  /** The kernel as an image (dimension 0 fastest, centred at its radius). */
  typename KernelImageType::Pointer
  MakeKernelImage() const;

  itkVkFFTDeviceSettingsMacro();

protected:
  VkFFTDiscreteGaussianImageFilter() = default;
  ~VkFFTDiscreteGaussianImageFilter() override = default;

  /** The whole input: the convolution extends it by the boundary condition itself. */
  void
  GenerateInputRequestedRegion() override;

  void
  GenerateData() override;

private:
  /** The 1-D coefficients along each dimension (a single 1 where none). */
  std::vector<std::vector<double>>
  Coefficients() const;

  itkVkFFTDeviceMembersMacro();
  typename ConvolutionType::Pointer m_Convolution{ ConvolutionType::New() };
  typename KernelImageType::Pointer m_Kernel;
  std::vector<std::vector<double>>  m_KernelCoefficients;
};
} // namespace itk

#ifndef ITK_MANUAL_INSTANTIATION
#  include "itkVkFFTDiscreteGaussianImageFilter.hxx"
#endif

#endif
