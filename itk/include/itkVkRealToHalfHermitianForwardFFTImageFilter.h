/*=========================================================================
 * itkVkRealToHalfHermitianForwardFFTImageFilter.h
 *=========================================================================*/
#ifndef itkVkRealToHalfHermitianForwardFFTImageFilter_h
#define itkVkRealToHalfHermitianForwardFFTImageFilter_h

#include "itkFFTImageFilterFactory.h"
#include "itkRealToHalfHermitianForwardFFTImageFilter.h"
#include "itkImage.h"
#include "itkVkCommon.h"
#include "itkVkFFTImageFilterSupport.h"
#include "itkVkGlobalConfiguration.h"

#include <complex>

namespace itk
{
/**
 *\class VkRealToHalfHermitianForwardFFTImageFilter
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
 * \sa RealToHalfHermitianForwardFFTImageFilter
 */
template <typename TInputImage,
          typename TOutputImage = Image<std::complex<typename TInputImage::PixelType>, TInputImage::ImageDimension>>
class VkRealToHalfHermitianForwardFFTImageFilter : public RealToHalfHermitianForwardFFTImageFilter<TInputImage, TOutputImage>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkRealToHalfHermitianForwardFFTImageFilter);

  using InputImageType = TInputImage;
  using OutputImageType = TOutputImage;
  static_assert(std::is_same<typename TInputImage::PixelType, float>::value ||
                  std::is_same<typename TInputImage::PixelType, double>::value,
                "Unsupported pixel type");
  static_assert(std::is_same<typename TOutputImage::PixelType, std::complex<float>>::value ||
                  std::is_same<typename TOutputImage::PixelType, std::complex<double>>::value,
                "Unsupported pixel type");

  using Self = VkRealToHalfHermitianForwardFFTImageFilter;
  using Superclass = RealToHalfHermitianForwardFFTImageFilter<InputImageType, OutputImageType>;
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
  itkVkTypeMacro(VkRealToHalfHermitianForwardFFTImageFilter, RealToHalfHermitianForwardFFTImageFilter);

  static constexpr unsigned int ImageDimension{ InputImageType::ImageDimension };

  itkVkFFTDeviceSettingsMacro();

  SizeValueType
  GetSizeGreatestPrimeFactor() const override;

protected:
  VkRealToHalfHermitianForwardFFTImageFilter() = default;
  ~VkRealToHalfHermitianForwardFFTImageFilter() override = default;

  void
  GenerateData() override;

  void
  PrintSelf(std::ostream & os, Indent indent) const override;

private:
  itkVkFFTDeviceMembersMacro();
};

// Real input, complex output: what the factory registers (FFTImageFilterFactory)
template <>
struct FFTImageFilterTraits<VkRealToHalfHermitianForwardFFTImageFilter>
{
  template <typename TUnderlying>
  using InputPixelType = TUnderlying;
  template <typename TUnderlying>
  using OutputPixelType = std::complex<TUnderlying>;
  using FilterDimensions = std::integer_sequence<unsigned int, 3, 2, 1>;
};

} // namespace itk

#ifndef ITK_MANUAL_INSTANTIATION
#  include "itkVkRealToHalfHermitianForwardFFTImageFilter.hxx"
#endif

#endif // itkVkRealToHalfHermitianForwardFFTImageFilter_h
