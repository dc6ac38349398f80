/*=========================================================================
 * itkVkConvolution.cxx
 *=========================================================================*/
#include "itkVkConvolution.h"

#include <chrono>
#include <sstream>

namespace itk
{
bool
VkConvolution::Geometry::operator==(const Geometry & o) const
{
  for (int d = 0; d < 3; ++d)
  {
    if (size[d] != o.size[d] || kernelSize[d] != o.kernelSize[d])
    {
      return false;
    }
  }
  return rank == o.rank && precision == o.precision && boundary == o.boundary && batch == o.batch;
}

VkConvolution::~VkConvolution()
{
  this->Release();
}

void
VkConvolution::Release()
{
  if (m_Convolution)
  {
    vkfftgo_convolution_destroy(m_Convolution);
    m_Convolution = nullptr;
  }
}

VkFFTResult
VkConvolution::Apply(uint64_t         deviceID,
                     const Geometry & g,
                     const void *     kernel,
                     size_t           kernelBytes,
                     uint64_t         kernelStamp,
                     void *           out,
                     size_t           outBytes,
                     const void *     in,
                     size_t           inBytes)
{
  m_LastError.clear();
  const auto fail = [this](vkfftgo_status st, const char * what) {
    std::ostringstream s;
    s << what << ": " << vkfftgo_status_string(st) << ": " << vkfftgo_last_error();
    m_LastError = s.str();
    return st;
  };
  if (g.rank < 1 || g.rank > 3)
  {
    m_LastError = "VkConvolution: rank " + std::to_string(g.rank) + "; libvkfftgo convolves 1 to 3 dimensions";
    return VKFFTGO_ERROR_INVALID_SHAPE;
  }
  if (!m_Convolution || !(g == m_Geometry) || kernelStamp != m_KernelStamp || deviceID != m_DeviceID)
  {
    this->Release();
    std::string      why;
    vkfftgo_device * device = VkCommon::GetDevice(deviceID, &why);
    if (!device)
    {
      m_LastError = why;
      return VKFFTGO_ERROR_NO_DEVICE;
    }
    vkfftgo_convolution_desc desc = VKFFTGO_CONVOLUTION_DESC_INIT;
    desc.kind = VKFFTGO_R2C;
    desc.precision = g.precision;
    desc.rank = static_cast<int32_t>(g.rank);
    for (unsigned int d = 0; d < g.rank; ++d) // numpy's last axis is ITK's first
    {
      desc.shape[g.rank - 1 - d] = static_cast<int64_t>(g.size[d]);
      desc.kernel_shape[g.rank - 1 - d] = static_cast<int64_t>(g.kernelSize[d]);
    }
    desc.batch = static_cast<int64_t>(g.batch);
    desc.boundary = g.boundary;
    const vkfftgo_status st = vkfftgo_convolution_create(device, &desc, kernel, kernelBytes, &m_Convolution);
    if (st != VKFFTGO_SUCCESS)
    {
      m_Convolution = nullptr;
      return fail(st, "vkfftgo_convolution_create");
    }
    m_Geometry = g;
    m_KernelStamp = kernelStamp;
    m_DeviceID = deviceID;
  }
  const auto           t0 = std::chrono::steady_clock::now();
  const vkfftgo_status st = vkfftgo_convolution_apply(m_Convolution, out, outBytes, in, inBytes);
  VkCommon::AddDeviceTime(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  if (st != VKFFTGO_SUCCESS)
  {
    return fail(st, "vkfftgo_convolution_apply");
  }
  return VKFFT_SUCCESS;
}
} // namespace itk
