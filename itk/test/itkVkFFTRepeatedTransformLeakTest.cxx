/*=========================================================================
 * itkVkFFTRepeatedTransformLeakTest — the iterative-registration pattern: 10,000
 * forward+inverse Updates of one filter pair on a small image, then 1,000 iterations
 * that make new filters every time. Device memory (libvkfftgo's counts of the device's
 * allocations) must stay exactly flat after the first round, no plan may be built after
 * it (the plan cache serves the new filters), host memory must not grow, and the round
 * trip must stay exact. Mirrors ITKVkFFTBackend's itkVkFFTRepeatedTransformLeakTest
 * (200 iterations there), with the memory measured.
 *=========================================================================*/
#include "itkVkForwardFFTImageFilter.h"
#include "itkVkInverseFFTImageFilter.h"
#include "itkVkFFTTestUtilities.h"

#include <cstdio>

namespace
{
long
RSSBytes()
{
  long  pages = 0, resident = 0;
  FILE * f = std::fopen("/proc/self/statm", "r");
  if (!f)
  {
    return -1;
  }
  if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2)
  {
    resident = -1;
  }
  std::fclose(f);
  return resident * 4096;
}

struct Snapshot
{
  vkfftgo_mem_stats        mem = VKFFTGO_MEM_STATS_INIT;
  vkfftgo_plan_cache_stats plans = VKFFTGO_PLAN_CACHE_STATS_INIT;
  long                     rss{ 0 };
};

Snapshot
Take()
{
  Snapshot s;
  VK_CHECK(itk::VkCommon::GetDeviceMemoryStats(0, s.mem), "no device 0");
  VK_CHECK(vkfftgo_plan_cache_get_stats(itk::VkCommon::GetDevice(0), &s.plans) == VKFFTGO_SUCCESS,
           vkfftgo_last_error());
  s.rss = RSSBytes();
  return s;
}

void
ExpectFlat(const Snapshot & a, const Snapshot & b, const char * phase)
{
  std::cout << "  " << phase << ": device live " << a.mem.live_allocations << " allocations / " << a.mem.live_bytes
            << " bytes -> " << b.mem.live_allocations << " / " << b.mem.live_bytes << "; allocations made "
            << a.mem.allocations << " -> " << b.mem.allocations << "; plans built " << a.plans.misses << " -> "
            << b.plans.misses << ", leases served from the cache " << a.plans.hits << " -> " << b.plans.hits
            << "; host RSS " << a.rss / 1024 << " -> " << b.rss / 1024 << " KiB" << std::endl;
  VK_CHECK(b.mem.live_allocations == a.mem.live_allocations && b.mem.live_bytes == a.mem.live_bytes,
           phase << ": device memory grew");
  VK_CHECK(b.mem.allocations == a.mem.allocations, phase << ": device allocations were made");
  VK_CHECK(b.plans.misses == a.plans.misses, phase << ": plans were built");
  VK_CHECK(b.rss - a.rss < 16L << 20, phase << ": host memory grew by " << (b.rss - a.rss) / 1024 << " KiB");
}
} // namespace

int
itkVkFFTRepeatedTransformLeakTest(int argc, char * argv[])
{
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 10000;
  using R = itk::Image<float, 3>;
  using C = itk::Image<std::complex<float>, 3>;
  auto image = vktest::MakeImage<R>({ { 8, 6, 4 } }, 2);
  auto fwd = itk::VkForwardFFTImageFilter<R, C>::New();
  auto inv = itk::VkInverseFFTImageFilter<C, R>::New();
  fwd->SetInput(image);
  inv->SetInput(fwd->GetOutput());
  inv->Update(); // the first round builds the plan and the buffers
  VK_CHECK(!fwd->GetLastUpdateUsedFallback() && !inv->GetLastUpdateUsedFallback(), "the GPU path");
  const Snapshot first = Take();
  double         worst = 0;
  for (int i = 0; i < iterations; ++i)
  {
    fwd->Modified();
    inv->Update();
    if (i % 1000 == 0 || i == iterations - 1)
    {
      worst = std::max(worst, vktest::RelativeError(inv->GetOutput(), image.GetPointer()));
    }
  }
  VK_CHECK(worst <= 1e-5, "round trip error " << worst);
  const Snapshot afterRepeat = Take();
  std::cout << "  " << iterations << " forward+inverse Updates of one filter pair, round trip error " << worst
            << std::endl;
  ExpectFlat(first, afterRepeat, "one filter pair");

  // new filters every iteration, as a registration loop that builds its pipeline anew
  fwd = nullptr;
  inv = nullptr;
  {
    auto f = itk::VkForwardFFTImageFilter<R, C>::New();
    auto g = itk::VkInverseFFTImageFilter<C, R>::New();
    f->SetInput(image);
    g->SetInput(f->GetOutput());
    g->Update();
  }
  const Snapshot before = Take();
  for (int i = 0; i < iterations / 10; ++i)
  {
    auto f = itk::VkForwardFFTImageFilter<R, C>::New();
    auto g = itk::VkInverseFFTImageFilter<C, R>::New();
    f->SetInput(image);
    g->SetInput(f->GetOutput());
    g->Update();
  }
  const Snapshot after = Take();
  VK_CHECK(after.plans.hits - before.plans.hits == 2 * (iterations / 10), "each new filter leases a cached plan");
  ExpectFlat(before, after, "a new filter pair per iteration");
  std::cout << "itkVkFFTRepeatedTransformLeakTest: passed" << std::endl;
  return EXIT_SUCCESS;
}
