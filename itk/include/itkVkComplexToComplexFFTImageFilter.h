/*=========================================================================
 * itkVkComplexToComplexFFTImageFilter.h
 *=========================================================================*/
#ifndef itkVkComplexToComplexFFTImageFilter_h
#define itkVkComplexToComplexFFTImageFilter_h

#include "itkFFTImageFilterFactory.h"
#include "itkComplexToComplexFFTImageFilter.h"
#include "itkImage.h"
#include "itkVkCommon.h"
#include "itkVkFFTImageFilterSupport.h"
#include "itkVkGlobalConfiguration.h"

#include <complex>

namespace itk
{
/** The base class: ITK 5.2's takes one image type, later ones two. */
#if ITK_VKFFT_ITK_HAS_FFT_FACTORY
template <typename TInputImage, typename TOutputImage>
using VkFFTComplexToComplexBase = ComplexToComplexFFTImageFilter<TInputImage, TOutputImage>;
#else
template <typename TInputImage, typename TOutputImage>
using VkFFTComplexToComplexBase = ComplexToComplexFFTImageFilter<TInputImage>;
#endif

/**
 *\class VkComplexToComplexFFTImageFilter
 *
 * rief GPU forward FFT of a real image into the half of its spectrum that the other
 * half follows from (the first dimension has size/2+1 points), through libvkfftgo.
 *
 * Every size works; more than four dimensions, or no usable device, fall back to ITK's
 * default implementation with a warning.
 *
 * \ingroup FourierTransform
 * \ingroup ITKFFT
 * \ingroup VkFFTBackend
 *
 * \sa VkGlobalConfiguration
 * \sa ComplexToComplexFFTImageFilter
 */
template <typename TInputImage,
          typename TOutputImage = TInputImage>
class VkComplexToComplexFFTImageFilter : public VkFFTComplexToComplexBase<TInputImage, TOutputImage>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkComplexToComplexFFTImageFilter);

  using InputImageType = TInputImage;
  using OutputImageType = TOutputImage;
  static_assert(std::is_same<typename TInputImage::PixelType, std::complex<float>>::value ||
                  std::is_same<typename TInputImage::PixelType, std::complex<double>>::value,
                "Unsupported pixel type");
  static_assert(std::is_same<typename TOutputImage::PixelType, std::complex<float>>::value ||
                  std::is_same<typename TOutputImage::PixelType, std::complex<double>>::value,
                "Unsupported pixel type");
  static_assert(std::is_same<typename TInputImage::PixelType, typename TOutputImage::PixelType>::value,
                "the input and output pixel types differ");

  using Self = VkComplexToComplexFFTImageFilter;
  using Superclass = VkFFTComplexToComplexBase<TInputImage, TOutputImage>;
  using Pointer = SmartPointer<Self>;
  using ConstPointer = SmartPointer<const Self>;

  using InputPixelType = typename InputImageType::PixelType;
  using OutputPixelType = typename OutputImageType::PixelType;
  using ComplexType = InputPixelType;
  using RealType = typename ComplexType::value_type;
  using SizeType = typename InputImageType::SizeType;
  using SizeValueType = typename InputImageType::SizeValueType;
  using OutputImageRegionType = typename OutputImageType::RegionType;

  itkNewMacro(Self);
  itkVkTypeMacro(VkComplexToComplexFFTImageFilter, ComplexToComplexFFTImageFilter);

  static constexpr unsigned int ImageDimension{ InputImageType::ImageDimension };

  itkVkFFTDeviceSettingsMacro();

  /** VkFFT's largest radix (ITK 5.2's base class has no such method to override). */
  SizeValueType
  GetSizeGreatestPrimeFactor() const;

protected:
  VkComplexToComplexFFTImageFilter() = default;
  ~VkComplexToComplexFFTImageFilter() override = default;

  void
  GenerateData() override;

  void
  PrintSelf(std::ostream & os, Indent indent) const override;

private:
  itkVkFFTDeviceMembersMacro();
};

// Complex input, complex output: what the factory registers (FFTImageFilterFactory)
template <>
struct FFTImageFilterTraits<VkComplexToComplexFFTImageFilter>
{
  template <typename TUnderlying>
  using InputPixelType = std::complex<TUnderlying>;
  template <typename TUnderlying>
  using OutputPixelType = std::complex<TUnderlying>;
  using FilterDimensions = std::integer_sequence<unsigned int, 3, 2, 1>;
};

} // namespace itk

#ifndef ITK_MANUAL_INSTANTIATION
#  include "itkVkComplexToComplexFFTImageFilter.hxx"
#endif

#endif // itkVkComplexToComplexFFTImageFilter_h
