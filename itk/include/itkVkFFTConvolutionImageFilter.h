/*=========================================================================
 * itkVkFFTConvolutionImageFilter.h
 *=========================================================================*/
#ifndef itkVkFFTConvolutionImageFilter_h
#define itkVkFFTConvolutionImageFilter_h

#include "itkFFTConvolutionImageFilter.h"
#include "itkVkConvolution.h"
#include "itkVkFFTImageFilterSupport.h"

#include <vector>

namespace itk
{
/** \class VkFFTConvolutionImageFilter
 * \brief FFTConvolutionImageFilter on the GPU: the padding with the boundary condition,
 * the kernel's transform, the product and both transforms run on the device through
 * libvkfftgo's convolution API (one call per Update), the image going straight from its
 * buffer to the device and the result back.
 *
 * The output is ITK's: the kernel centred at index size/2, the input extended beyond its
 * edges by the filter's boundary condition — ZeroFluxNeumannBoundaryCondition (the
 * default), PeriodicBoundaryCondition and a ConstantBoundaryCondition of 0 run on the
 * device — the SAME or VALID output region, Normalize, and FFTs in TInternalPrecision.
 * The kernel's spectrum stays on the device between Updates while the kernel image and
 * the geometry stay the same. Other boundary conditions, more than three dimensions or
 * no usable device run ITK's implementation (with a warning; its FFTs still come from
 * the object factory).
 *
 * Registered over FFTConvolutionImageFilter<I, I, I, double> (float and double images of
 * 1 to 3 dimensions) by VkFFTImageFilterInitFactory.
 *
 * \ingroup ITKConvolution
 * \ingroup VkFFTBackend
 */
template <typename TInputImage,
          typename TKernelImage = TInputImage,
          typename TOutputImage = TInputImage,
          typename TInternalPrecision = double>
class VkFFTConvolutionImageFilter
  : public FFTConvolutionImageFilter<TInputImage, TKernelImage, TOutputImage, TInternalPrecision>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkFFTConvolutionImageFilter);

  using Self = VkFFTConvolutionImageFilter;
  using Superclass = FFTConvolutionImageFilter<TInputImage, TKernelImage, TOutputImage, TInternalPrecision>;
  using Pointer = SmartPointer<Self>;
  using ConstPointer = SmartPointer<const Self>;

  itkNewMacro(Self);
  itkVkTypeMacro(VkFFTConvolutionImageFilter, FFTConvolutionImageFilter);

  using InputImageType = typename Superclass::InputImageType;
  using OutputImageType = typename Superclass::OutputImageType;
  using KernelImageType = typename Superclass::KernelImageType;
  using InternalImageType = typename Superclass::InternalImageType;
  using BoundaryConditionPointerType = typename Superclass::BoundaryConditionPointerType;
  static constexpr unsigned int ImageDimension = TInputImage::ImageDimension;

  itkVkFFTDeviceSettingsMacro();

protected:
  VkFFTConvolutionImageFilter() = default;
  ~VkFFTConvolutionImageFilter() override = default;

  void
  GenerateData() override;

  void
  PrintSelf(std::ostream & os, Indent indent) const override;

private:
  /** Runs the convolution on the device; false with why set when it cannot. */
  bool
  RunOnDevice(std::string & why);

  itkVkFFTDeviceMembersMacro();
  VkConvolution                   m_Convolution;
  std::vector<TInternalPrecision> m_Kernel; // as the device takes it, for m_KernelStamp
  uint64_t                        m_KernelStamp{ 0 };
};

/** The boundary mode (VKFFTGO_BOUNDARY_*) of one of ITK's boundary conditions, or false
 * when it has none: zero-flux Neumann, periodic and a zero constant have. */
template <typename TImage>
bool
VkFFTBoundaryOf(const ImageBoundaryCondition<TImage> * bc, int & mode);
} // namespace itk

#ifndef ITK_MANUAL_INSTANTIATION
#  include "itkVkFFTConvolutionImageFilter.hxx"
#endif

#endif
