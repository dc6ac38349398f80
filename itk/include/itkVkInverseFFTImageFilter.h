/*=========================================================================
 * itkVkInverseFFTImageFilter.h
 *=========================================================================*/
#ifndef itkVkInverseFFTImageFilter_h
#define itkVkInverseFFTImageFilter_h

#include "itkFFTImageFilterFactory.h"
#include "itkInverseFFTImageFilter.h"
#include "itkImage.h"
#include "itkVkCommon.h"
#include "itkVkFFTImageFilterSupport.h"
#include "itkVkGlobalConfiguration.h"

#include <complex>

namespace itk
{
/**
 *\class VkInverseFFTImageFilter
 *
 * rief GPU inverse FFT of a whole complex spectrum into a real image, through
 * libvkfftgo.
 *
 * The whole spectrum goes straight from the input's buffer to the device, where a
 * companion kernel folds it into the half spectrum of its Hermitian part
 * (X + conj(X[-k]))/2 and VkFFT's complex-to-real transform runs; the real image comes
 * straight back into the output's buffer, divided by the number of pixels. The result
 * is the real part of the inverse of X (its inverse, for a spectrum of real data). Every
 * size works; more than four dimensions, or no usable device, fall back to ITK's
 * default implementation with a warning.
 *
 * \ingroup FourierTransform
 * \ingroup ITKFFT
 * \ingroup VkFFTBackend
 *
 * \sa VkGlobalConfiguration
 * \sa InverseFFTImageFilter
 */
template <typename TInputImage,
          typename TOutputImage = Image<typename TInputImage::PixelType::value_type, TInputImage::ImageDimension>>
class VkInverseFFTImageFilter : public InverseFFTImageFilter<TInputImage, TOutputImage>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkInverseFFTImageFilter);

  using InputImageType = TInputImage;
  using OutputImageType = TOutputImage;
  static_assert(std::is_same<typename TInputImage::PixelType, std::complex<float>>::value ||
                  std::is_same<typename TInputImage::PixelType, std::complex<double>>::value,
                "Unsupported pixel type");
  static_assert(std::is_same<typename TOutputImage::PixelType, float>::value ||
                  std::is_same<typename TOutputImage::PixelType, double>::value,
                "Unsupported pixel type");

  using Self = VkInverseFFTImageFilter;
  using Superclass = InverseFFTImageFilter<InputImageType, OutputImageType>;
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
  itkVkTypeMacro(VkInverseFFTImageFilter, InverseFFTImageFilter);

  static constexpr unsigned int ImageDimension{ InputImageType::ImageDimension };

  itkVkFFTDeviceSettingsMacro();

  SizeValueType
  GetSizeGreatestPrimeFactor() const override;

protected:
  VkInverseFFTImageFilter() = default;
  ~VkInverseFFTImageFilter() override = default;

  void
  GenerateData() override;

  void
  PrintSelf(std::ostream & os, Indent indent) const override;

private:
  itkVkFFTDeviceMembersMacro();
};

// Complex input, real output: what the factory registers (FFTImageFilterFactory)
template <>
struct FFTImageFilterTraits<VkInverseFFTImageFilter>
{
  template <typename TUnderlying>
  using InputPixelType = std::complex<TUnderlying>;
  template <typename TUnderlying>
  using OutputPixelType = TUnderlying;
  using FilterDimensions = std::integer_sequence<unsigned int, 3, 2, 1>;
};

} // namespace itk

#ifndef ITK_MANUAL_INSTANTIATION
#  include "itkVkInverseFFTImageFilter.hxx"
#endif

#endif // itkVkInverseFFTImageFilter_h
