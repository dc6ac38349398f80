/*=========================================================================
 * itkVkFFTConvolutionImageFilter.hxx
 *=========================================================================*/
#ifndef itkVkFFTConvolutionImageFilter_hxx
#define itkVkFFTConvolutionImageFilter_hxx

#include "itkConstantBoundaryCondition.h"
#include "itkImageAlgorithm.h"
#include "itkImageRegionConstIterator.h"
#include "itkPeriodicBoundaryCondition.h"
#include "itkVkFFTConvolutionImageFilter.h"
#include "itkZeroFluxNeumannBoundaryCondition.h"

#include <numeric>

namespace itk
{
template <typename TImage>
bool
VkFFTBoundaryOf(const ImageBoundaryCondition<TImage> * bc, int & mode)
{
  if (dynamic_cast<const ZeroFluxNeumannBoundaryCondition<TImage> *>(bc))
  {
    mode = VKFFTGO_BOUNDARY_REPLICATE;
    return true;
  }
  if (dynamic_cast<const PeriodicBoundaryCondition<TImage> *>(bc))
  {
    mode = VKFFTGO_BOUNDARY_PERIODIC;
    return true;
  }
  const auto * c = dynamic_cast<const ConstantBoundaryCondition<TImage> *>(bc);
  if (c && c->GetConstant() == NumericTraits<typename TImage::PixelType>::ZeroValue())
  {
    mode = VKFFTGO_BOUNDARY_ZERO;
    return true;
  }
  return false;
}

namespace vkconv
{
/** An image of T over region whose pixels live in data (not owned). */
template <typename T, unsigned int D, typename TRegion>
typename Image<T, D>::Pointer
Wrap(T * data, const TRegion & region)
{
  auto image = Image<T, D>::New();
  image->SetRegions(region);
  image->GetPixelContainer()->SetImportPointer(data, region.GetNumberOfPixels(), false);
  return image;
}

/** A 64-bit identity of the kernel's contents as ITK's pipeline tracks them. */
inline uint64_t
Stamp(const void * kernel, ModifiedTimeType mtime, bool normalize)
{
  uint64_t h = 1469598103934665603ull;
  for (uint64_t v : { static_cast<uint64_t>(reinterpret_cast<uintptr_t>(kernel)), static_cast<uint64_t>(mtime),
                      static_cast<uint64_t>(normalize) })
  {
    h = (h ^ v) * 1099511628211ull;
  }
  return h | 1; // never 0, which means none yet
}
} // namespace vkconv

template <typename TInputImage, typename TKernelImage, typename TOutputImage, typename TInternalPrecision>
bool
VkFFTConvolutionImageFilter<TInputImage, TKernelImage, TOutputImage, TInternalPrecision>::RunOnDevice(
  std::string & why)
{
  using T = TInternalPrecision;
  const InputImageType *  input = this->GetInput();
  const KernelImageType * kernel = this->GetKernelImage();
  OutputImageType *       output = this->GetOutput();
  int                     boundary = VKFFTGO_BOUNDARY_ZERO;
  if (ImageDimension > 3)
  {
    why = "libvkfftgo convolves up to 3 dimensions, the image has " + std::to_string(ImageDimension);
    return false;
  }
  if (!VkFFTBoundaryOf(this->GetBoundaryCondition(), boundary))
  {
    why = "the boundary condition has no GPU form (zero-flux Neumann, periodic and a zero constant have)";
    return false;
  }
  const auto & inRegion = input->GetLargestPossibleRegion();
  const auto & kRegion = kernel->GetLargestPossibleRegion();
  if (input->GetBufferedRegion() != inRegion || kernel->GetBufferedRegion() != kRegion)
  {
    why = "the input or kernel does not hold its whole image";
    return false;
  }

  // The kernel as the device takes it: centred at (K'-1)/2 along each axis, which is
  // ITK's K/2 once an even axis has a zero appended; normalised if asked.
  VkConvolution::Geometry g;
  g.rank = ImageDimension;
  g.precision = sizeof(T) == sizeof(double) ? VKFFTGO_DOUBLE : VKFFTGO_SINGLE;
  g.boundary = boundary;
  typename KernelImageType::SizeType kp;
  for (unsigned int d = 0; d < ImageDimension; ++d)
  {
    g.size[d] = inRegion.GetSize(d);
    kp[d] = kRegion.GetSize(d) + (kRegion.GetSize(d) % 2 == 0 ? 1 : 0);
    g.kernelSize[d] = kp[d];
  }
  const uint64_t stamp = vkconv::Stamp(kernel, kernel->GetMTime(), this->GetNormalize());
  if (stamp != m_KernelStamp || m_Kernel.size() != typename KernelImageType::RegionType(kp).GetNumberOfPixels())
  {
    typename KernelImageType::RegionType kpRegion(kRegion.GetIndex(), kp);
    m_Kernel.assign(kpRegion.GetNumberOfPixels(), T(0));
    auto wrapped = vkconv::Wrap<T, ImageDimension>(m_Kernel.data(), kpRegion);
    ImageAlgorithm::Copy(kernel, wrapped.GetPointer(), kRegion, kRegion);
    if (this->GetNormalize())
    {
      const T sum = std::accumulate(m_Kernel.begin(), m_Kernel.end(), T(0));
      for (auto & v : m_Kernel)
      {
        v /= sum;
      }
    }
    m_KernelStamp = stamp;
  }

  // the input as TInternalPrecision: itself when it is already, else a copy
  const size_t   n = inRegion.GetNumberOfPixels();
  std::vector<T> inCopy;
  const T *      in = nullptr;
  if (std::is_same<typename InputImageType::PixelType, T>::value)
  {
    in = reinterpret_cast<const T *>(input->GetBufferPointer());
  }
  else
  {
    inCopy.resize(n);
    auto wrapped = vkconv::Wrap<T, ImageDimension>(inCopy.data(), inRegion);
    ImageAlgorithm::Copy(input, wrapped.GetPointer(), inRegion, inRegion);
    in = inCopy.data();
  }

  // the result, the input's whole region: straight into the output when that is all
  const auto & outRegion = output->GetBufferedRegion();
  const bool   direct = std::is_same<typename OutputImageType::PixelType, T>::value && outRegion == inRegion;
  std::vector<T> outCopy;
  T *            out = nullptr;
  if (direct)
  {
    out = reinterpret_cast<T *>(output->GetBufferPointer());
  }
  else
  {
    outCopy.resize(n);
    out = outCopy.data();
  }
  if (m_Convolution.Apply(this->GetDeviceID(), g, m_Kernel.data(), m_Kernel.size() * sizeof(T), m_KernelStamp, out,
                          n * sizeof(T), in, n * sizeof(T)) != VKFFT_SUCCESS)
  {
    why = m_Convolution.GetLastError();
    return false;
  }
  if (!direct)
  {
    // the output's region (SAME: a part of the input's; VALID: the input's shrunk by the
    // kernel radius), in the input's index space
    auto result = vkconv::Wrap<T, ImageDimension>(outCopy.data(), inRegion);
    ImageAlgorithm::Copy(result.GetPointer(), output, outRegion, outRegion);
  }
  return true;
}

template <typename TInputImage, typename TKernelImage, typename TOutputImage, typename TInternalPrecision>
void
VkFFTConvolutionImageFilter<TInputImage, TKernelImage, TOutputImage, TInternalPrecision>::GenerateData()
{
  this->AllocateOutputs();
  this->UpdateProgress(0.0f);
  std::string why;
  if (this->RunOnDevice(why))
  {
    m_VkState.usedFallback = false;
    m_VkState.reason.clear();
    this->UpdateProgress(1.0f);
    return;
  }
  VkFFTRecordFallback(this, m_VkState, why);
  Superclass::GenerateData();
}

template <typename TInputImage, typename TKernelImage, typename TOutputImage, typename TInternalPrecision>
void
VkFFTConvolutionImageFilter<TInputImage, TKernelImage, TOutputImage, TInternalPrecision>::PrintSelf(
  std::ostream & os,
  Indent         indent) const
{
  Superclass::PrintSelf(os, indent);
  os << indent << "UseVkGlobalConfiguration: " << m_UseVkGlobalConfiguration << std::endl;
  os << indent << "Preferred DeviceID: " << this->GetDeviceID() << std::endl;
  os << indent << "Last Update used the fallback: " << m_VkState.usedFallback << std::endl;
}
} // namespace itk

#endif
