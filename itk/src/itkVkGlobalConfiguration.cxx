/*=========================================================================
 * itkVkGlobalConfiguration.cxx
 *=========================================================================*/
#include "itkVkGlobalConfiguration.h"

#include <atomic>

namespace itk
{
namespace
{
std::atomic<uint64_t> g_DeviceID{ 0 };
}

void
VkGlobalConfiguration::SetDeviceID(const uint64_t id)
{
  g_DeviceID.store(id);
}

uint64_t
VkGlobalConfiguration::GetDeviceID()
{
  return g_DeviceID.load();
}

} // namespace itk
