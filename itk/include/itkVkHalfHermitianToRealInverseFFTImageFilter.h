/*=========================================================================
 * itkVkHalfHermitianToRealInverseFFTImageFilter.h
 *=========================================================================*/
#ifndef itkVkHalfHermitianToRealInverseFFTImageFilter_h
#define itkVkHalfHermitianToRealInverseFFTImageFilter_h

#include "itkFFTImageFilterFactory.h"
#include "itkHalfHermitianToRealInverseFFTImageFilter.h"
#include "itkImage.h"
#include "itkVkCommon.h"
#include "itkVkFFTImageFilterSupport.h"
#include "itkVkGlobalConfiguration.h"

#include <complex>

namespace itk
{
/**
 *\class VkHalfHermitianToRealInverseFFTImageFilter
 *
 * rief GPU inverse FFT of a half spectrum (the first dimension size/2+1 points; see
 * ActualXDimensionIsOdd) into a real image, divided by the number of pixels, through
 * libvkfftgo.
 *
 * Every size works; more than four dimensions, or no usable device, fall back to ITK's
 * default implementation with a warning.
 *
 * \ingroup FourierTransform
 * \ingroup ITKFFT
 * \ingroup VkFFTBackend
 *
 * \sa VkGlobalConfiguration
 * \sa HalfHermitianToRealInverseFFTImageFilter
 */
template <typename TInputImage,
          typename TOutputImage = Image<typename TInputImage::PixelType::value_type, TInputImage::ImageDimension>>
class VkHalfHermitianToRealInverseFFTImageFilter : public HalfHermitianToRealInverseFFTImageFilter<TInputImage, TOutputImage>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkHalfHermitianToRealInverseFFTImageFilter);

  using InputImageType = TInputImage;
  using OutputImageType = TOutputImage;
  static_assert(std::is_same<typename TInputImage::PixelType, std::complex<float>>::value ||
                  std::is_same<typename TInputImage::PixelType, std::complex<double>>::value,
                "Unsupported pixel type");
  static_assert(std::is_same<typename TOutputImage::PixelType, float>::value ||
                  std::is_same<typename TOutputImage::PixelType, double>::value,
                "Unsupported pixel type");

  using Self = VkHalfHermitianToRealInverseFFTImageFilter;
  using Superclass = HalfHermitianToRealInverseFFTImageFilter<InputImageType, OutputImageType>;
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
  itkVkTypeMacro(VkHalfHermitianToRealInverseFFTImageFilter, HalfHermitianToRealInverseFFTImageFilter);

  static constexpr unsigned int ImageDimension{ InputImageType::ImageDimension };

  itkVkFFTDeviceSettingsMacro();

  SizeValueType
  GetSizeGreatestPrimeFactor() const override;

protected:
  VkHalfHermitianToRealInverseFFTImageFilter() = default;
  ~VkHalfHermitianToRealInverseFFTImageFilter() override = default;

  void
  GenerateData() override;

  void
  PrintSelf(std::ostream & os, Indent indent) const override;

private:
  itkVkFFTDeviceMembersMacro();
};

// Complex input, real output: what the factory registers (FFTImageFilterFactory)
template <>
struct FFTImageFilterTraits<VkHalfHermitianToRealInverseFFTImageFilter>
{
  template <typename TUnderlying>
  using InputPixelType = std::complex<TUnderlying>;
  template <typename TUnderlying>
  using OutputPixelType = TUnderlying;
  using FilterDimensions = std::integer_sequence<unsigned int, 3, 2, 1>;
};

} // namespace itk

#ifndef ITK_MANUAL_INSTANTIATION
#  include "itkVkHalfHermitianToRealInverseFFTImageFilter.hxx"
#endif

#endif // itkVkHalfHermitianToRealInverseFFTImageFilter_h
