/*=========================================================================
 * compat/itkInverse1DFFTImageFilter.h — for ITK before 5.3, which has no 1-D FFT filters: the
 * base class of the inverse FFT (divided by the length) of complex data into real data along one dimension with the interface ITK 5.3 gives it
 * (Direction, GetSizeGreatestPrimeFactor, New() through the object factory), so
 * code written against ITKVkFFTBackend builds here. New() returns the registered
 * override, else this module's VkInverse1DFFTImageFilter (ITK 5.2 has no other).
 *=========================================================================*/
#ifndef itkInverse1DFFTImageFilter_h
#define itkInverse1DFFTImageFilter_h

#include "itkImage.h"
#include "itkImageToImageFilter.h"

#include <complex>

namespace itk
{
/** \class Inverse1DFFTImageFilter
 * \brief The inverse FFT (divided by the length) of complex data into real data along Direction only.
 * \ingroup FourierTransform
 * \ingroup VkFFTBackend
 */
template <typename TInputImage,
          typename TOutputImage = Image<typename TInputImage::PixelType::value_type, TInputImage::ImageDimension>>
class ITK_TEMPLATE_EXPORT Inverse1DFFTImageFilter : public ImageToImageFilter<TInputImage, TOutputImage>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(Inverse1DFFTImageFilter);

  using InputImageType = TInputImage;
  using OutputImageType = TOutputImage;
  using OutputImageRegionType = typename OutputImageType::RegionType;

  using Self = Inverse1DFFTImageFilter;
  using Superclass = ImageToImageFilter<InputImageType, OutputImageType>;
  using Pointer = SmartPointer<Self>;
  using ConstPointer = SmartPointer<const Self>;

  static constexpr unsigned int ImageDimension = InputImageType::ImageDimension;

  itkTypeMacro(Inverse1DFFTImageFilter, ImageToImageFilter);

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
  Inverse1DFFTImageFilter() = default;
  ~Inverse1DFFTImageFilter() override = default;

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
#  include "itkInverse1DFFTImageFilter.hxx"
#endif

#endif
