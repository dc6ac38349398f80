/*=========================================================================
 * itkVkMultiResolutionPyramidImageFilterFactoryTest — after
 * VkMultiResolutionPyramidImageFilterFactory::RegisterOneFactory(),
 * MultiResolutionPyramidImageFilter<I, I>::New() gives the Vk filter (1 to 4
 * dimensions), and it computes ITK's pyramid. Mirrors ITKVkFFTBackend's
 * itkVkMultiResolutionPyramidImageFilterFactoryTest.
 *=========================================================================*/
#include "itkVkMultiResolutionPyramidImageFilterFactory.h"
#include "itkVkFFTTestUtilities.h"

namespace
{
template <typename TPixel, unsigned int D>
void
Expect(bool vk)
{
  using I = itk::Image<TPixel, D>;
  auto f = itk::MultiResolutionPyramidImageFilter<I, I>::New();
  VK_CHECK((dynamic_cast<itk::VkMultiResolutionPyramidImageFilter<I, I> *>(f.GetPointer()) != nullptr) == vk,
           D << "-D: New() gave " << f->GetNameOfClass());
}

template <typename TPixel>
void
Run()
{
  Expect<TPixel, 3>(false);
  itk::VkMultiResolutionPyramidImageFilterFactory::RegisterOneFactory();
  Expect<TPixel, 1>(true);
  Expect<TPixel, 2>(true);
  Expect<TPixel, 3>(true);
  Expect<TPixel, 4>(true);
  using I = itk::Image<TPixel, 2>;
  auto image = vktest::MakeImage<I>({ { 40, 36 } }, 5);
  auto f = itk::MultiResolutionPyramidImageFilter<I, I>::New();
  f->SetInput(image);
  f->SetNumberOfLevels(3);
  f->Update();
  VK_CHECK(f->GetOutput(0)->GetLargestPossibleRegion().GetSize()[0] == 10 &&
             f->GetOutput(2)->GetLargestPossibleRegion().GetSize()[0] == 40,
           "level sizes " << f->GetOutput(0)->GetLargestPossibleRegion().GetSize() << ", "
                          << f->GetOutput(2)->GetLargestPossibleRegion().GetSize());
  std::cout << "  factory-made pyramid: " << f->GetNameOfClass() << ", 3 levels" << std::endl;
}
} // namespace

int
itkVkMultiResolutionPyramidImageFilterFactoryTest(int argc, char * argv[])
{
  VK_CHECK(argc == 2, "usage: itkVkMultiResolutionPyramidImageFilterFactoryTest float|double");
  std::string(argv[1]) == "float" ? Run<float>() : Run<double>();
  std::cout << "itkVkMultiResolutionPyramidImageFilterFactoryTest: passed" << std::endl;
  return EXIT_SUCCESS;
}
