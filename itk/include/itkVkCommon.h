/*=========================================================================
 * itkVkCommon.h — what every Vk filter shares: the process's GPU devices (one context
 * per device, opened on first use) and a transform run on leased plans.
 *
 * A VkCommon holds one plan leased from libvkfftgo's plan cache for as long as the
 * transform's shape and device stay the same, so repeated Update() calls of one filter
 * only copy and launch; a new filter of a known shape leases an idle cached plan (a
 * registration loop that makes a filter per iteration compiles once). Nothing here
 * depends on the GPU backend: vkfftgo's handles are opaque, so the layout of this class
 * is the same in every translation unit whatever it was compiled with.
 *=========================================================================*/
#ifndef itkVkCommon_h
#define itkVkCommon_h

#include "VkFFTBackendExport.h"
#include "itkMacro.h"
#include "itkVkDefinitions.h"

#include <cstdint>
#include <string>

namespace itk
{

/** A transform's status: a vkfftgo_status (VKFFTGO_SUCCESS, 0, is VKFFT_SUCCESS). The
 * name is ITKVkFFTBackend's, where it was VkFFT's own result type. */
using VkFFTResult = int;
constexpr VkFFTResult VKFFT_SUCCESS = 0;

/** \class VkCommon
 * \brief Runs one FFT of host buffers on a process-wide GPU device, through a plan
 * leased from libvkfftgo's plan cache and kept while the shape stays the same.
 * \ingroup VkFFTBackend
 */
class VkFFTBackend_EXPORT VkCommon
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkCommon);

  enum class PrecisionEnum
  {
    FLOAT = 0,
    DOUBLE = 1,
  };

  enum class FFTEnum
  {
    C2C = 0,     // complex to complex
    R2HalfH = 1, // real to half Hermitian (and back)
    R2FullH = 2  // real to the whole (Hermitian) spectrum, expanded and folded on the device
  };

  enum class DirectionEnum
  {
    FORWARD = -1,
    INVERSE = 1
  };

  enum class NormalizationEnum
  {
    UNNORMALIZED = 0,
    NORMALIZED = 1 // the inverse divides by the number of transformed points
  };

  /** The transform: sizes fastest dimension first (ITK's index order), dimensions left
   * out (omitDimension 1: a batch dimension), precision, kind, direction and the host
   * buffers. For R2HalfH and R2FullH X is the real data's length. W, the fourth
   * dimension, is this module's addition (VkFFT transforms up to four). */
  struct VkParameters
  {
    uint64_t          X{ 0 };
    uint64_t          Y{ 1 };
    uint64_t          Z{ 1 };
    uint64_t          omitDimension[4] = { 0, 0, 0, 0 };
    PrecisionEnum     P{ PrecisionEnum::FLOAT };
    uint64_t          B{ 1 }; // transforms one after another
    uint64_t          N{ 1 }; // kept for ITKVkFFTBackend's layout; always one run
    FFTEnum           fft{ FFTEnum::C2C };
    uint64_t          PSize{ 4 }; // sizeof one real number
    DirectionEnum     I{ DirectionEnum::FORWARD };
    NormalizationEnum normalized{ NormalizationEnum::UNNORMALIZED };
    const void *      inputCPUBuffer{ nullptr };
    uint64_t          inputBufferBytes{ 0 };
    void *            outputCPUBuffer{ nullptr };
    uint64_t          outputBufferBytes{ 0 };
    uint64_t          W{ 1 };

    /** Whether rhs describes the same transform (buffers aside). */
    bool
    SameShapeAs(const VkParameters & rhs) const;
  };

  /** The device: an ordinal among the backend's devices. */
  struct VkGPU
  {
    uint64_t device_id{ 0 };

    bool
    operator!=(const VkGPU & rhs) const
    {
      return device_id != rhs.device_id;
    }
  };

  VkCommon() = default;
  ~VkCommon();

  /** Transforms vkParameters' input buffer into its output buffer on device vkGPU and
   * returns VKFFT_SUCCESS, or a vkfftgo_status with GetLastError() saying why (no
   * device, a transform VkFFT cannot do, wrong buffer sizes). */
  VkFFTResult
  Run(const VkGPU & vkGPU, const VkParameters & vkParameters);

  /** Gives the leased plan back to the device's plan cache. */
  VkFFTResult
  ReleaseBackend();

  /** VkFFT's largest radix: longer prime factors run through Bluestein's algorithm
   * (any length works; these are the fast ones). */
  uint64_t
  GetGreatestPrimeFactor() const
  {
    return 13UL;
  }

  /** Why the last Run failed ("" after a success). */
  const std::string &
  GetLastError() const
  {
    return m_LastError;
  }

  /** The process's device of ordinal id, opened on first use and kept open until the
   * process exits (one GPU context per device), or nullptr with *why set. */
  static vkfftgo_device *
  GetDevice(uint64_t id, std::string * why = nullptr);

  /** Device memory held by the device's plans and buffers (vkfftgo_device_mem_stats);
   * false if the device cannot be opened. */
  static bool
  GetDeviceMemoryStats(uint64_t id, vkfftgo_mem_stats & stats);

  /** The time this process's Vk filters spent in libvkfftgo's per-call functions (host
   * transfers and the device's work: vkfftgo_execute, vkfftgo_convolution_apply), and
   * how many calls: a filter's Update minus the difference is ITK's own work. */
  struct DeviceTime
  {
    uint64_t calls{ 0 };
    double   milliseconds{ 0 };
  };
  static DeviceTime
  GetDeviceTime();
  /** Adds one call of ms to GetDeviceTime (VkConvolution's too). */
  static void
  AddDeviceTime(double ms);

private:
  VkFFTResult
  Fail(VkFFTResult status, const std::string & why);

  vkfftgo_plan * m_Plan{ nullptr };
  VkGPU          m_PlanGPU{};
  VkParameters   m_PlanShape{};
  std::string    m_LastError;
};

} // namespace itk
#endif
