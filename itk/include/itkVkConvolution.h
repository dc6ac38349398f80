/*=========================================================================
 * itkVkConvolution.h — one convolution (or batch of them) of real data on the GPU
 * through libvkfftgo's convolution API: the kernel's spectrum computed once on the
 * device and kept while the geometry and the kernel stay the same, the padding (with a
 * boundary condition), the product and both transforms on the device, the data straight
 * from and to host buffers. The convolution filters build on it.
 *=========================================================================*/
#ifndef itkVkConvolution_h
#define itkVkConvolution_h

#include "VkFFTBackendExport.h"
#include "itkMacro.h"
#include "itkVkCommon.h"

#include <cstdint>
#include <string>

namespace itk
{
/** \class VkConvolution
 * \brief A vkfftgo_convolution kept between runs of the same geometry and kernel.
 * \ingroup VkFFTBackend
 */
class VkFFTBackend_EXPORT VkConvolution
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkConvolution);

  /** The convolution: sizes fastest first (ITK's order), the kernel's when linear
   * ("same" output, the data extended by boundary: VKFFTGO_BOUNDARY_*), none for a
   * circular one; precision VKFFTGO_SINGLE or VKFFTGO_DOUBLE; batch items share the
   * kernel. */
  struct Geometry
  {
    unsigned int rank{ 1 };
    uint64_t     size[3]{ 1, 1, 1 };
    uint64_t     kernelSize[3]{ 0, 0, 0 }; // all 0: circular over size
    int          precision{ VKFFTGO_SINGLE };
    int          boundary{ VKFFTGO_BOUNDARY_ZERO };
    uint64_t     batch{ 1 };

    bool
    operator==(const Geometry & o) const;
  };

  VkConvolution() = default;
  ~VkConvolution();

  /** Convolves in (batch items of prod(size) reals of the precision) with kernel
   * (prod(kernelSize) reals, or prod(size) for a circular one) into out. kernelStamp
   * names the kernel's contents: the kernel is transformed again only when it or the
   * geometry changes. Returns VKFFT_SUCCESS, or a vkfftgo_status with GetLastError(). */
  VkFFTResult
  Apply(uint64_t         deviceID,
        const Geometry & geometry,
        const void *     kernel,
        size_t           kernelBytes,
        uint64_t         kernelStamp,
        void *           out,
        size_t           outBytes,
        const void *     in,
        size_t           inBytes);

  /** Frees the device convolution. */
  void
  Release();

  const std::string &
  GetLastError() const
  {
    return m_LastError;
  }

private:
  vkfftgo_convolution * m_Convolution{ nullptr };
  Geometry              m_Geometry{};
  uint64_t              m_KernelStamp{ 0 };
  uint64_t              m_DeviceID{ 0 };
  std::string           m_LastError;
};
} // namespace itk

#endif
