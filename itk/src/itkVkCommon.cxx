/*=========================================================================
 * itkVkCommon.cxx — the process's devices and the leased-plan transform (itkVkCommon.h).
 *=========================================================================*/
#include "itkVkCommon.h"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <sstream>

namespace itk
{
namespace
{
/* One entry per device ordinal: the open device, or why it could not be opened (a
 * missing GPU is not retried on every Update). Devices stay open for the process's
 * life: plans leased from them may live in filters until the very end. */
struct DeviceEntry
{
  vkfftgo_device * device{ nullptr };
  std::string      why;
};

std::mutex &
DevicesMutex()
{
  static std::mutex m;
  return m;
}

std::map<uint64_t, DeviceEntry> &
Devices()
{
  static auto * devices = new std::map<uint64_t, DeviceEntry>; // never destroyed: see above
  return *devices;
}

std::atomic<uint64_t> g_DeviceCalls{ 0 };
std::atomic<uint64_t> g_DeviceNanoseconds{ 0 };

std::string
LastError(const char * what, vkfftgo_status status)
{
  std::ostringstream s;
  s << what << ": " << vkfftgo_status_string(status) << ": " << vkfftgo_last_error();
  return s.str();
}

/* The vkfftgo descriptor of a VkParameters: sizes in numpy's order (the slowest axis
 * first), the transformed axes, kind, precision and normalisation. */
vkfftgo_plan_desc
DescOf(const VkCommon::VkParameters & p)
{
  vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
  const uint64_t    dims[4] = { p.X, p.Y, p.Z, p.W };
  int               rank = 1;
  for (int d = 1; d < 4; ++d)
  {
    if (dims[d] > 1)
    {
      rank = d + 1;
    }
  }
  desc.rank = rank;
  for (int d = 0; d < rank; ++d)
  {
    const int axis = rank - 1 - d; // numpy's last axis is ITK's first; rank 4's goes in shape3
    if (axis < VKFFTGO_MAX_RANK)
    {
      desc.shape[axis] = static_cast<int64_t>(dims[d]);
    }
    else
    {
      desc.shape3 = static_cast<int64_t>(dims[d]);
    }
  }
  bool all = true;
  for (int d = 0; d < rank; ++d)
  {
    all = all && p.omitDimension[d] == 0;
  }
  if (!all)
  {
    for (int d = 0; d < rank; ++d)
    {
      if (p.omitDimension[d] == 0)
      {
        desc.axes[desc.naxes++] = rank - 1 - d;
      }
    }
  }
  desc.batch = static_cast<int64_t>(p.B);
  desc.precision = p.P == VkCommon::PrecisionEnum::DOUBLE ? VKFFTGO_DOUBLE : VKFFTGO_SINGLE;
  switch (p.fft)
  {
    case VkCommon::FFTEnum::C2C:
      desc.kind = VKFFTGO_C2C;
      break;
    case VkCommon::FFTEnum::R2HalfH:
      desc.kind = VKFFTGO_R2C;
      break;
    case VkCommon::FFTEnum::R2FullH:
      desc.kind = VKFFTGO_R2C;
      desc.full_spectrum = 1;
      break;
  }
  // forward transforms are never scaled; an inverse divides by the transformed points
  // (numpy's "backward") unless it is asked not to, which "forward" norm gives
  const bool unscaledInverse =
    p.I == VkCommon::DirectionEnum::INVERSE && p.normalized == VkCommon::NormalizationEnum::UNNORMALIZED;
  desc.norm = unscaledInverse ? VKFFTGO_NORM_FORWARD : VKFFTGO_NORM_BACKWARD;
  return desc;
}
} // namespace

bool
VkCommon::VkParameters::SameShapeAs(const VkParameters & rhs) const
{
  for (int d = 0; d < 4; ++d)
  {
    if (omitDimension[d] != rhs.omitDimension[d])
    {
      return false;
    }
  }
  return X == rhs.X && Y == rhs.Y && Z == rhs.Z && W == rhs.W && P == rhs.P && B == rhs.B && fft == rhs.fft &&
         I == rhs.I && normalized == rhs.normalized;
}

VkCommon::~VkCommon()
{
  this->ReleaseBackend();
}

VkFFTResult
VkCommon::Fail(VkFFTResult status, const std::string & why)
{
  m_LastError = why;
  return status;
}

vkfftgo_device *
VkCommon::GetDevice(uint64_t id, std::string * why)
{
  std::lock_guard<std::mutex> lock(DevicesMutex());
  auto                        it = Devices().find(id);
  if (it == Devices().end())
  {
    DeviceEntry e;
    if (id > static_cast<uint64_t>(INT32_MAX))
    {
      e.why = "device " + std::to_string(id) + " does not exist";
    }
    else
    {
      const vkfftgo_status st = vkfftgo_device_open(static_cast<int>(id), &e.device);
      if (st != VKFFTGO_SUCCESS)
      {
        e.device = nullptr;
        e.why = LastError("vkfftgo_device_open", st);
      }
    }
    it = Devices().emplace(id, e).first;
  }
  if (!it->second.device && why)
  {
    *why = it->second.why;
  }
  return it->second.device;
}

bool
VkCommon::GetDeviceMemoryStats(uint64_t id, vkfftgo_mem_stats & stats)
{
  vkfftgo_device * d = GetDevice(id);
  if (!d)
  {
    return false;
  }
  stats = VKFFTGO_MEM_STATS_INIT;
  return vkfftgo_device_mem_stats(d, &stats) == VKFFTGO_SUCCESS;
}

VkCommon::DeviceTime
VkCommon::GetDeviceTime()
{
  DeviceTime t;
  t.calls = g_DeviceCalls.load();
  t.milliseconds = static_cast<double>(g_DeviceNanoseconds.load()) * 1e-6;
  return t;
}

void
VkCommon::AddDeviceTime(double ms)
{
  g_DeviceCalls.fetch_add(1);
  g_DeviceNanoseconds.fetch_add(static_cast<uint64_t>(ms * 1e6));
}

VkFFTResult
VkCommon::ReleaseBackend()
{
  if (m_Plan)
  {
    vkfftgo_plan_release(m_Plan); // a failure means the plan is gone already
    m_Plan = nullptr;
  }
  return VKFFT_SUCCESS;
}

VkFFTResult
VkCommon::Run(const VkGPU & vkGPU, const VkParameters & p)
{
  m_LastError.clear();
  if (!p.inputCPUBuffer || !p.outputCPUBuffer)
  {
    return Fail(VKFFTGO_ERROR_NULL_POINTER, "VkCommon::Run: an input or output buffer is null");
  }
  if (p.X == 0 || p.Y == 0 || p.Z == 0 || p.W == 0 || p.B == 0)
  {
    return Fail(VKFFTGO_ERROR_INVALID_SHAPE, "VkCommon::Run: a size is zero");
  }
  if (!m_Plan || vkGPU != m_PlanGPU || !p.SameShapeAs(m_PlanShape))
  {
    this->ReleaseBackend();
    std::string      why;
    vkfftgo_device * device = GetDevice(vkGPU.device_id, &why);
    if (!device)
    {
      return Fail(VKFFTGO_ERROR_NO_DEVICE, why);
    }
    const vkfftgo_plan_desc desc = DescOf(p);
    const vkfftgo_status    st = vkfftgo_plan_acquire(device, &desc, &m_Plan);
    if (st != VKFFTGO_SUCCESS)
    {
      m_Plan = nullptr;
      return Fail(st, LastError("vkfftgo_plan_acquire", st));
    }
    m_PlanGPU = vkGPU;
    m_PlanShape = p;
  }
  const int            direction = p.I == DirectionEnum::INVERSE ? VKFFTGO_INVERSE : VKFFTGO_FORWARD;
  const auto           t0 = std::chrono::steady_clock::now();
  const vkfftgo_status st = vkfftgo_execute(m_Plan, direction, p.outputCPUBuffer, p.outputBufferBytes,
                                            p.inputCPUBuffer, p.inputBufferBytes);
  AddDeviceTime(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  if (st != VKFFTGO_SUCCESS)
  {
    return Fail(st, LastError("vkfftgo_execute", st));
  }
  return VKFFT_SUCCESS;
}

} // namespace itk
