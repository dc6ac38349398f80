/*=========================================================================
 * itkVkFFTImageFilterSupport.h — what the Vk FFT filters share besides VkCommon: the
 * device settings every filter has (ITKVkFFTBackend's UseVkGlobalConfiguration and
 * DeviceID), the image size in VkCommon's terms, and the run of ITK's own
 * implementation when the GPU cannot take a transform.
 *=========================================================================*/
#ifndef itkVkFFTImageFilterSupport_h
#define itkVkFFTImageFilterSupport_h

#include "VkFFTBackendExport.h"
#include "itkObject.h"
#include "itkVkCommon.h"
#include "itkVkGlobalConfiguration.h"

#include <string>

/** The public device settings and fallback report of a Vk filter (inside its class). */
#define itkVkFFTDeviceSettingsMacro()                                                            \
  /** Whether the global device (VkGlobalConfiguration, the default) or DeviceID is used. */   \
  itkSetMacro(UseVkGlobalConfiguration, bool);                                                 \
  itkGetMacro(UseVkGlobalConfiguration, bool);                                                 \
  /** The device used when UseVkGlobalConfiguration is off. */                                 \
  itkSetMacro(DeviceID, uint64_t);                                                             \
  /** The device the filter runs on, as its settings say. */                                   \
  uint64_t GetDeviceID() const                                                                 \
  {                                                                                            \
    return uint64_t{ m_UseVkGlobalConfiguration ? VkGlobalConfiguration::GetDeviceID() : m_DeviceID }; \
  }                                                                                            \
  /** Whether the last Update ran ITK's default implementation instead of the GPU (a size or \
   *  dimension VkFFT refuses, no device); GetFallbackReason says why. */                      \
  bool GetLastUpdateUsedFallback() const { return m_VkState.usedFallback; }                    \
  const std::string & GetFallbackReason() const { return m_VkState.reason; }

/** The private members that go with itkVkFFTDeviceSettingsMacro. */
#define itkVkFFTDeviceMembersMacro()        \
  bool               m_UseVkGlobalConfiguration{ true }; \
  uint64_t           m_DeviceID{ 0UL };     \
  VkCommon           m_VkCommon{};          \
  VkFFTFallbackState m_VkState{}

namespace itk
{
/** What a Vk filter remembers of its fallbacks: whether the last Update used one, why,
 * and the reason it last warned about (each new reason is reported once). */
struct VkFFTFallbackState
{
  bool        usedFallback{ false };
  std::string reason;
  std::string warned;
};

/** Reports once per filter and reason that the GPU path is not taken, through ITK's
 * output window (a warning: the result is still computed, by ITK's implementation). */
VkFFTBackend_EXPORT void
VkFFTWarnFallback(const Object * filter, VkFFTFallbackState & state, const std::string & why);

/** Sets p's sizes (fastest first) from an ITK size; false when the image has more
 * dimensions than VkFFT transforms (four). */
template <typename TSize>
bool
VkFFTSetSize(VkCommon::VkParameters & p, const TSize & size)
{
  constexpr unsigned int D = TSize::Dimension;
  if (D > 4)
  {
    return false;
  }
  uint64_t dims[4] = { 1, 1, 1, 1 };
  for (unsigned int d = 0; d < D && d < 4; ++d)
  {
    dims[d] = size[d];
  }
  p.X = dims[0];
  p.Y = dims[1];
  p.Z = dims[2];
  p.W = dims[3];
  return true;
}

/** The precision of real type T. */
template <typename T>
constexpr VkCommon::PrecisionEnum
VkFFTPrecision()
{
  return sizeof(T) == sizeof(double) ? VkCommon::PrecisionEnum::DOUBLE : VkCommon::PrecisionEnum::FLOAT;
}

/** Runs p on the GPU; on failure records why in state (the caller then runs ITK's
 * implementation). */
VkFFTBackend_EXPORT bool
VkFFTRunOnDevice(const Object *                 filter,
                 VkCommon &                     common,
                 VkFFTFallbackState &           state,
                 uint64_t                       deviceID,
                 const VkCommon::VkParameters & p);

/** Records a fallback decided before the GPU is tried (a dimension it cannot take). */
VkFFTBackend_EXPORT void
VkFFTRecordFallback(const Object * filter, VkFFTFallbackState & state, const std::string & why);

/** Runs fallback (ITK's own filter, configured by the caller) in place of self: input,
 * output grafted both ways. */
template <typename TSelf, typename TFallback>
void
VkFFTRunFallback(TSelf * self, TFallback * fallback)
{
  fallback->SetInput(self->GetInput());
  fallback->SetNumberOfWorkUnits(self->GetNumberOfWorkUnits());
  fallback->GraftOutput(self->GetOutput());
  fallback->Update();
  self->GraftOutput(fallback->GetOutput());
}
} // namespace itk

#endif
