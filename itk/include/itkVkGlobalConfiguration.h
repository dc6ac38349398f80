/*=========================================================================
 * itkVkGlobalConfiguration.h — the device the Vk filters use unless told otherwise.
 *=========================================================================*/
#ifndef itkVkGlobalConfiguration_h
#define itkVkGlobalConfiguration_h

#include "VkFFTBackendExport.h"
#include "itkLightObject.h"
#include "itkMacro.h"
#include "itkVkDefinitions.h"

#include <cstdint>

namespace itk
{
/** \class VkGlobalConfiguration
 * \brief The process-wide default GPU device (an ordinal among libvkfftgo's devices) of
 * every Vk filter whose UseVkGlobalConfiguration is on (the default), so filters made by
 * the object factory follow it too. Thread-safe.
 * \ingroup VkFFTBackend
 */
class VkFFTBackend_EXPORT VkGlobalConfiguration : public LightObject
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkGlobalConfiguration);

  using Self = VkGlobalConfiguration;
  using Superclass = LightObject;
  using Pointer = SmartPointer<Self>;
  using ConstPointer = SmartPointer<const Self>;

  itkVkTypeMacro(VkGlobalConfiguration, LightObject);

  /** Default accelerated platform identifier: the device ordinal. */
  static void
  SetDeviceID(const uint64_t id);

  /** Default accelerated platform identifier: the device ordinal (0 unless set). */
  static uint64_t
  GetDeviceID();

private:
  VkGlobalConfiguration() = default;
  ~VkGlobalConfiguration() override = default;
};
} // namespace itk

#endif // itkVkGlobalConfiguration_h
