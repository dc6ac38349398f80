/*=========================================================================
 * itkVkGlobalConfigurationTest — the device settings: VkGlobalConfiguration's device is
 * every filter's unless UseVkGlobalConfiguration is off, then DeviceID is; a device that
 * does not exist makes the filter fall back to ITK's implementation with a warning (the
 * same result as FFTW), Print shows these settings, and going back to device 0 runs on the
 * GPU again. Mirrors ITKVkFFTBackend's itkVkGlobalConfigurationTest.
 *=========================================================================*/
#include "itkFFTWForwardFFTImageFilter.h"
#include "itkOutputWindow.h"
#include "itkVkForwardFFTImageFilter.h"
#include "itkVkFFTTestUtilities.h"

#include <sstream>

namespace
{
/** Counts ITK's warnings. */
class CountingOutputWindow : public itk::OutputWindow
{
public:
  using Self = CountingOutputWindow;
  using Pointer = itk::SmartPointer<Self>;
  itkNewMacro(Self);
  void
  DisplayWarningText(const char * text) override
  {
    ++warnings;
    last = text;
  }
  int         warnings{ 0 };
  std::string last;
};

template <typename TReal>
void
Run()
{
  using R = itk::Image<TReal, 2>;
  using C = itk::Image<std::complex<TReal>, 2>;
  auto window = CountingOutputWindow::New();
  itk::OutputWindow::SetInstance(window);

  VK_CHECK(itk::VkGlobalConfiguration::GetDeviceID() == 0, "the default device is 0");
  auto f = itk::VkForwardFFTImageFilter<R, C>::New();
  VK_CHECK(f->GetUseVkGlobalConfiguration(), "filters follow the global device by default");
  itk::VkGlobalConfiguration::SetDeviceID(7);
  VK_CHECK(itk::VkGlobalConfiguration::GetDeviceID() == 7 && f->GetDeviceID() == 7, "global device 7");
  f->SetDeviceID(3);
  VK_CHECK(f->GetDeviceID() == 7, "the local device is ignored while the global one is used");
  f->SetUseVkGlobalConfiguration(false);
  VK_CHECK(f->GetDeviceID() == 3, "the local device when the global one is off");
  itk::VkGlobalConfiguration::SetDeviceID(0);

  auto image = vktest::MakeImage<R>({ { 12, 10 } }, 4);
  auto ref = itk::FFTWForwardFFTImageFilter<R, C>::New();
  ref->SetInput(image);
  ref->Update();
  const double tol = vktest::Tolerance<TReal>(120);

  // device 1000 does not exist: ITK's implementation runs, with one warning
  f->SetDeviceID(1000);
  f->SetInput(image);
  f->Update();
  VK_CHECK(f->GetLastUpdateUsedFallback(), "device 1000 should not exist");
  VK_CHECK(window->warnings == 1 && window->last.find("GPU") != std::string::npos,
           window->warnings << " warnings: " << window->last);
  VK_CHECK(vktest::RelativeError(f->GetOutput(), ref->GetOutput()) <= tol, "the fallback's result");
  f->Modified();
  f->Update();
  VK_CHECK(window->warnings == 1, "the same reason is reported once per filter, not per Update");
  std::cout << "  fallback: " << f->GetFallbackReason() << std::endl;
  {
    // Print shows the settings the filter ran with
    itk::VkGlobalConfiguration::SetDeviceID(5);
    std::ostringstream printed;
    f->Print(printed);
    itk::VkGlobalConfiguration::SetDeviceID(0);
    for (const char * line : { "UseVkGlobalConfiguration: 0", "Local DeviceID: 1000", "Global DeviceID: 5",
                               "Preferred DeviceID: 1000", "Last Update used the fallback: 1" })
    {
      VK_CHECK(printed.str().find(line) != std::string::npos, "Print lacks \"" << line << "\": " << printed.str());
    }
  }

  // back on device 0: the GPU
  f->SetDeviceID(0);
  f->Update();
  VK_CHECK(!f->GetLastUpdateUsedFallback(), f->GetFallbackReason());
  VK_CHECK(vktest::RelativeError(f->GetOutput(), ref->GetOutput()) <= tol, "the GPU's result");
  itk::OutputWindow::SetInstance(nullptr);
}
} // namespace

int
itkVkGlobalConfigurationTest(int argc, char * argv[])
{
  VK_CHECK(argc == 2, "usage: itkVkGlobalConfigurationTest float|double");
  std::string(argv[1]) == "float" ? Run<float>() : Run<double>();
  std::cout << "itkVkGlobalConfigurationTest: passed" << std::endl;
  return EXIT_SUCCESS;
}
