/*=========================================================================
 * itkVkFFTNormalizedCorrelationImageFilter.h
 *=========================================================================*/
#ifndef itkVkFFTNormalizedCorrelationImageFilter_h
#define itkVkFFTNormalizedCorrelationImageFilter_h

#include "itkFFTNormalizedCorrelationImageFilter.h"
#include "itkVkConvolution.h"
#include "itkVkFFTImageFilterSupport.h"

#include <vector>

namespace itk
{
/** \class VkFFTNormalizedCorrelationImageFilter
 * \brief FFTNormalizedCorrelationImageFilter with its six convolutions on the GPU.
 *
 * The normalized cross correlation of the fixed and the moving image (both without
 * masks) takes six full convolutions: the fixed image, its square and a box of ones, with
 * the rotated moving image, its square and a box of ones. They run as three libvkfftgo
 * convolutions of batches (one kernel spectrum each, computed on the device and kept
 * while the moving image stays the same), with the products on the device; the images are
 * laid into the transform's zero-padded size on the host, and the pointwise NCC formula,
 * the overlap and precision thresholds are ITK's, on the host. The output (size fixed +
 * moving - 1, its origin) is FFTNormalizedCorrelationImageFilter's. Masks, more than
 * three dimensions or no usable device run ITK's implementation (with a warning).
 *
 * Registered over FFTNormalizedCorrelationImageFilter<I, I> (float and double images of
 * 1 to 3 dimensions) by VkFFTImageFilterInitFactory.
 *
 * \ingroup FourierTransform
 * \ingroup VkFFTBackend
 */
template <typename TInputImage, typename TOutputImage>
class VkFFTNormalizedCorrelationImageFilter : public FFTNormalizedCorrelationImageFilter<TInputImage, TOutputImage>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkFFTNormalizedCorrelationImageFilter);

  using Self = VkFFTNormalizedCorrelationImageFilter;
  using Superclass = FFTNormalizedCorrelationImageFilter<TInputImage, TOutputImage>;
  using Pointer = SmartPointer<Self>;
  using ConstPointer = SmartPointer<const Self>;

  itkNewMacro(Self);
  itkVkTypeMacro(VkFFTNormalizedCorrelationImageFilter, FFTNormalizedCorrelationImageFilter);

  using InputImageType = TInputImage;
  using OutputImageType = TOutputImage;
  using RealPixelType = typename OutputImageType::PixelType;
  static constexpr unsigned int ImageDimension = TInputImage::ImageDimension;

  itkVkFFTDeviceSettingsMacro();

  /** The largest overlap (pixels) the last Update found on the GPU path. */
  itkGetConstMacro(MaximumOverlap, SizeValueType);

protected:
  VkFFTNormalizedCorrelationImageFilter() = default;
  ~VkFFTNormalizedCorrelationImageFilter() override = default;

  void
  GenerateData() override;

private:
  bool
  RunOnDevice(std::string & why);

  itkVkFFTDeviceMembersMacro();
  VkConvolution m_Box;    // kernel: ones of the moving image's size
  VkConvolution m_Moving; // kernel: the rotated moving image
  VkConvolution m_Square; // kernel: its square
  SizeValueType m_MaximumOverlap{ 0 };
};
} // namespace itk

#ifndef ITK_MANUAL_INSTANTIATION
#  include "itkVkFFTNormalizedCorrelationImageFilter.hxx"
#endif

#endif
