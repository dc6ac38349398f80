/*=========================================================================
 * compat/itkForward1DFFTImageFilter.h — for ITK before 5.3, which has no 1-D FFT filters: the
 * base class of the forward FFT of real data into complex data along one dimension with the interface ITK 5.3 gives it
 * (Direction, GetSizeGreatestPrimeFactor, New() through the object factory), so
 * code written against ITKVkFFTBackend builds here. New() returns the registered
 * override, else this module's VkForward1DFFTImageFilter (ITK 5.2 has no other).
 *=========================================================================*/
#ifndef itkForward1DFFTImageFilter_h
#define itkForward1DFFTImageFilter_h

#include "itkImage.h"
#include "itkImageToImageFilter.h"

#include <complex>

namespace itk
{
/** \class Forward1DFFTImageFilter
 * \brief The forward FFT of real data into complex data along Direction only.
 * \ingroup FourierTransform
 * \ingroup VkFFTBackend
 */
template <typename TInputImage,
          typename TOutputImage = Image<std::complex<typename TInputImage::PixelType>, TInputImage::ImageDimension>>
class ITK_TEMPLATE_EXPORT Forward1DFFTImageFilter : public ImageToImageFilter<TInputImage, TOutputImage>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(Forward1DFFTImageFilter);

  using InputImageType = TInputImage;
  using OutputImageType = TOutputImage;
  using OutputImageRegionType = typename OutputImageType::RegionType;

  using Self = Forward1DFFTImageFilter;
  using Superclass = ImageToImageFilter<InputImageType, OutputImageType>;
  using Pointer = SmartPointer<Self>;
  using ConstPointer = SmartPointer<const Self>;

  static constexpr unsigned int ImageDimension = InputImageType::ImageDimension;

  itkTypeMacro(Forward1DFFTImageFilter, ImageToImageFilter);

  /** The registered implementation, or VkFFTBackend's. */
  static Pointer
  New();

  /** The dimension the transform runs along. */
  itkGetMacro(Direction, unsigned int);
  itkSetClampMacro(Direction, unsigned int, 0, ImageDimension - 1);

  /** The largest prime factor of the lengths the implementation handles fast. */
  virtual SizeValueType
  GetSizeGreatestPrimeFactor() const
  {
    return 2;
  }

protected:
  Forward1DFFTImageFilter() = default;
  ~Forward1DFFTImageFilter() override = default;

  void
  PrintSelf(std::ostream & os, Indent indent) const override
  {
    Superclass::PrintSelf(os, indent);
    os << indent << "Direction: " << m_Direction << std::endl;
  }

  /** The whole input along Direction, the output's requested region otherwise. */
  void
  GenerateInputRequestedRegion() override;

  /** The whole output along Direction. */
  void
  EnlargeOutputRequestedRegion(DataObject * output) override;

  unsigned int m_Direction{ 0 };
};
} // namespace itk

#ifndef ITK_MANUAL_INSTANTIATION
#  include "itkForward1DFFTImageFilter.hxx"
#endif

#endif
