/*=========================================================================
 * itkVkFFTImageFilterSupport.cxx
 *=========================================================================*/
#include "itkVkFFTImageFilterSupport.h"

#include "itkOutputWindow.h"

#include <sstream>

namespace itk
{
void
VkFFTWarnFallback(const Object * filter, VkFFTFallbackState & state, const std::string & why)
{
  if (state.warned == why || !Object::GetGlobalWarningDisplay())
  {
    return;
  }
  state.warned = why;
  std::ostringstream msg;
  msg << "WARNING: In " << (filter ? filter->GetNameOfClass() : "a Vk filter") << " (" << filter
      << "): the GPU cannot run this transform, so ITK's default implementation does: " << why << "\n";
  OutputWindowDisplayWarningText(msg.str().c_str());
}

void
VkFFTRecordFallback(const Object * filter, VkFFTFallbackState & state, const std::string & why)
{
  state.usedFallback = true;
  state.reason = why;
  VkFFTWarnFallback(filter, state, why);
}

bool
VkFFTRunOnDevice(const Object *                 filter,
                 VkCommon &                     common,
                 VkFFTFallbackState &           state,
                 uint64_t                       deviceID,
                 const VkCommon::VkParameters & p)
{
  VkCommon::VkGPU gpu;
  gpu.device_id = deviceID;
  if (common.Run(gpu, p) == VKFFT_SUCCESS)
  {
    state.usedFallback = false;
    state.reason.clear();
    return true;
  }
  VkFFTRecordFallback(filter, state, common.GetLastError());
  return false;
}
} // namespace itk
