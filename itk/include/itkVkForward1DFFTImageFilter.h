/*=========================================================================
 * itkVkForward1DFFTImageFilter.h
 *=========================================================================*/
#ifndef itkVkForward1DFFTImageFilter_h
#define itkVkForward1DFFTImageFilter_h

#include "itkForward1DFFTImageFilter.h"
#include "itkFFTImageFilterFactory.h"
#include "itkImage.h"
#include "itkVkCommon.h"
#include "itkVkFFTImageFilterSupport.h"
#include "itkVkGlobalConfiguration.h"

#include <complex>

namespace itk
{
/**
 *\class VkForward1DFFTImageFilter
 *
 * \brief GPU forward FFT of a real image into complex lines of the whole spectrum along one dimension (Direction) of an image, through libvkfftgo.
 *
 * Along the first dimension VkFFT's real-to-complex transform runs and a companion kernel
 * writes the other half of each line; along the others the widened real data get a
 * complex transform. Both on the device.
 * The other dimensions are batches of the transform; the data go straight between the
 * image buffers and the device. Any length works; with no usable device the lines are
 * transformed on the host (vnl_fft_1d, or a direct sum), with a warning.
 *
 * \ingroup FourierTransform
 * \ingroup ITKFFT
 * \ingroup VkFFTBackend
 *
 * \sa VkGlobalConfiguration
 * \sa Forward1DFFTImageFilter
 */
template <typename TInputImage,
          typename TOutputImage = Image<std::complex<typename TInputImage::PixelType>, TInputImage::ImageDimension>>
class VkForward1DFFTImageFilter : public Forward1DFFTImageFilter<TInputImage, TOutputImage>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkForward1DFFTImageFilter);

  using InputImageType = TInputImage;
  using OutputImageType = TOutputImage;
  static_assert(std::is_same<typename TInputImage::PixelType, float>::value ||
                  std::is_same<typename TInputImage::PixelType, double>::value,
                "Unsupported pixel type");
  static_assert(std::is_same<typename TOutputImage::PixelType, std::complex<float>>::value ||
                  std::is_same<typename TOutputImage::PixelType, std::complex<double>>::value,
                "Unsupported pixel type");

  using Self = VkForward1DFFTImageFilter;
  using Superclass = Forward1DFFTImageFilter<TInputImage, TOutputImage>;
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
  itkVkTypeMacro(VkForward1DFFTImageFilter, Forward1DFFTImageFilter);

  static constexpr unsigned int ImageDimension{ InputImageType::ImageDimension };

  itkVkFFTDeviceSettingsMacro();

  SizeValueType
  GetSizeGreatestPrimeFactor() const override;

protected:
  VkForward1DFFTImageFilter() = default;
  ~VkForward1DFFTImageFilter() override = default;

  void
  GenerateData() override;

  void
  PrintSelf(std::ostream & os, Indent indent) const override;

private:
  itkVkFFTDeviceMembersMacro();
};

// Real input, complex output: what the factory registers (FFTImageFilterFactory)
template <>
struct FFTImageFilterTraits<VkForward1DFFTImageFilter>
{
  template <typename TUnderlying>
  using InputPixelType = TUnderlying;
  template <typename TUnderlying>
  using OutputPixelType = std::complex<TUnderlying>;
  using FilterDimensions = std::integer_sequence<unsigned int, 3, 2, 1>;
};

} // namespace itk

#ifndef ITK_MANUAL_INSTANTIATION
#  include "itkVkForward1DFFTImageFilter.hxx"
#endif

#endif // itkVkForward1DFFTImageFilter_h
