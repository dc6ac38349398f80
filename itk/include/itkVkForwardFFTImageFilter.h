/*=========================================================================
 * itkVkForwardFFTImageFilter.h
 *=========================================================================*/
#ifndef itkVkForwardFFTImageFilter_h
#define itkVkForwardFFTImageFilter_h

#include "itkFFTImageFilterFactory.h"
#include "itkForwardFFTImageFilter.h"
#include "itkImage.h"
#include "itkVkCommon.h"
#include "itkVkFFTImageFilterSupport.h"
#include "itkVkGlobalConfiguration.h"

#include <complex>

namespace itk
{
/**
 *\class VkForwardFFTImageFilter
 *
 * \brief GPU forward FFT of a real image into the whole complex spectrum, through
 * libvkfftgo.
 *
 * The image goes straight from its buffer to the device; VkFFT's real-to-complex
 * transform and a companion kernel that writes the other half of the spectrum (from
 * its Hermitian symmetry) run there, and the whole spectrum comes straight back into
 * the output's buffer: ITK's own expansion of the half spectrum is not needed. Every
 * size works (lengths with prime factors above 13 through Bluestein's algorithm); an
 * image of more than four dimensions, or no usable device, falls back to ITK's default
 * implementation with a warning.
 *
 * \ingroup FourierTransform
 * \ingroup ITKFFT
 * \ingroup VkFFTBackend
 *
 * \sa VkGlobalConfiguration
 * \sa ForwardFFTImageFilter
 */
template <typename TInputImage,
          typename TOutputImage = Image<std::complex<typename TInputImage::PixelType>, TInputImage::ImageDimension>>
class VkForwardFFTImageFilter : public ForwardFFTImageFilter<TInputImage, TOutputImage>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkForwardFFTImageFilter);

  using InputImageType = TInputImage;
  using OutputImageType = TOutputImage;
  static_assert(std::is_same<typename TInputImage::PixelType, float>::value ||
                  std::is_same<typename TInputImage::PixelType, double>::value,
                "Unsupported pixel type");
  static_assert(std::is_same<typename TOutputImage::PixelType, std::complex<float>>::value ||
                  std::is_same<typename TOutputImage::PixelType, std::complex<double>>::value,
                "Unsupported pixel type");

  using Self = VkForwardFFTImageFilter;
  using Superclass = ForwardFFTImageFilter<InputImageType, OutputImageType>;
  using Pointer = SmartPointer<Self>;
  using ConstPointer = SmartPointer<const Self>;

  using InputPixelType = typename InputImageType::PixelType;
  using OutputPixelType = typename OutputImageType::PixelType;
  using ComplexType = OutputPixelType;
  using RealType = typename ComplexType::value_type;
  using SizeType = typename InputImageType::SizeType;
  using SizeValueType = typename InputImageType::SizeValueType;
  using OutputImageRegionType = typename OutputImageType::RegionType;

  itkNewMacro(Self);
  itkVkTypeMacro(VkForwardFFTImageFilter, ForwardFFTImageFilter);

  static constexpr unsigned int ImageDimension{ InputImageType::ImageDimension };

  itkVkFFTDeviceSettingsMacro();

  SizeValueType
  GetSizeGreatestPrimeFactor() const override;

protected:
  VkForwardFFTImageFilter() = default;
  ~VkForwardFFTImageFilter() override = default;

  void
  GenerateData() override;

  void
  PrintSelf(std::ostream & os, Indent indent) const override;

private:
  itkVkFFTDeviceMembersMacro();
};

// Real input, complex output: what the factory registers (FFTImageFilterFactory)
template <>
struct FFTImageFilterTraits<VkForwardFFTImageFilter>
{
  template <typename TUnderlying>
  using InputPixelType = TUnderlying;
  template <typename TUnderlying>
  using OutputPixelType = std::complex<TUnderlying>;
  using FilterDimensions = std::integer_sequence<unsigned int, 3, 2, 1>;
};

} // namespace itk

#ifndef ITK_MANUAL_INSTANTIATION
#  include "itkVkForwardFFTImageFilter.hxx"
#endif

#endif // itkVkForwardFFTImageFilter_h
