/*=========================================================================
 * itkVkInverse1DFFTImageFilter.h
 *=========================================================================*/
#ifndef itkVkInverse1DFFTImageFilter_h
#define itkVkInverse1DFFTImageFilter_h

#include "itkInverse1DFFTImageFilter.h"
#include "itkFFTImageFilterFactory.h"
#include "itkImage.h"
#include "itkVkCommon.h"
#include "itkVkFFTImageFilterSupport.h"
#include "itkVkGlobalConfiguration.h"

#include <complex>

namespace itk
{
/**
 *\class VkInverse1DFFTImageFilter
 *
 * \brief GPU inverse FFT (divided by the length) of complex lines into a real image along one dimension (Direction) of an image, through libvkfftgo.
 *
 * The result is the real part of each line's inverse (its Hermitian part folded on the
 * device along the first dimension, the real part kept along the others).
 * The other dimensions are batches of the transform; the data go straight between the
 * image buffers and the device. Any length works; with no usable device the lines are
 * transformed on the host (vnl_fft_1d, or a direct sum), with a warning.
 *
 * \ingroup FourierTransform
 * \ingroup ITKFFT
 * \ingroup VkFFTBackend
 *
 * \sa VkGlobalConfiguration
 * \sa Inverse1DFFTImageFilter
 */
template <typename TInputImage,
          typename TOutputImage = Image<typename TInputImage::PixelType::value_type, TInputImage::ImageDimension>>
class VkInverse1DFFTImageFilter : public Inverse1DFFTImageFilter<TInputImage, TOutputImage>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkInverse1DFFTImageFilter);

  using InputImageType = TInputImage;
  using OutputImageType = TOutputImage;
  static_assert(std::is_same<typename TInputImage::PixelType, std::complex<float>>::value ||
                  std::is_same<typename TInputImage::PixelType, std::complex<double>>::value,
                "Unsupported pixel type");
  static_assert(std::is_same<typename TOutputImage::PixelType, float>::value ||
                  std::is_same<typename TOutputImage::PixelType, double>::value,
                "Unsupported pixel type");

  using Self = VkInverse1DFFTImageFilter;
  using Superclass = Inverse1DFFTImageFilter<TInputImage, TOutputImage>;
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
  itkVkTypeMacro(VkInverse1DFFTImageFilter, Inverse1DFFTImageFilter);

  static constexpr unsigned int ImageDimension{ InputImageType::ImageDimension };

  itkVkFFTDeviceSettingsMacro();

  SizeValueType
  GetSizeGreatestPrimeFactor() const override;

protected:
  VkInverse1DFFTImageFilter() = default;
  ~VkInverse1DFFTImageFilter() override = default;

  void
  GenerateData() override;

  void
  PrintSelf(std::ostream & os, Indent indent) const override;

private:
  itkVkFFTDeviceMembersMacro();
};

// Complex input, real output: what the factory registers (FFTImageFilterFactory)
template <>
struct FFTImageFilterTraits<VkInverse1DFFTImageFilter>
{
  template <typename TUnderlying>
  using InputPixelType = std::complex<TUnderlying>;
  template <typename TUnderlying>
  using OutputPixelType = TUnderlying;
  using FilterDimensions = std::integer_sequence<unsigned int, 3, 2, 1>;
};

} // namespace itk

#ifndef ITK_MANUAL_INSTANTIATION
#  include "itkVkInverse1DFFTImageFilter.hxx"
#endif

#endif // itkVkInverse1DFFTImageFilter_h
