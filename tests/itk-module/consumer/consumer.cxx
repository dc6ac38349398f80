// consumer.cxx — code written for ITKVkFFTBackend's public API (its class templates,
// their default template arguments, methods, factories and VkCommon), compiled unchanged
// against this module; it checks the answers it gets. First, with ITK_AUTOLOAD_PATH set,
// ITK's own base classes already give the Vk filters.
#include "itkFFTImageFilterFactory.h"
#include "itkVkBlurringPerformanceMetric.h"
#include "itkVkCommon.h"
#include "itkVkComplexToComplex1DFFTImageFilter.h"
#include "itkVkComplexToComplexFFTImageFilter.h"
#include "itkVkDiscreteGaussianImageFilter.h"
#include "itkVkFFTImageFilterInitFactory.h"
#include "itkVkForward1DFFTImageFilter.h"
#include "itkVkForwardFFTImageFilter.h"
#include "itkVkGlobalConfiguration.h"
#include "itkVkHalfHermitianToRealInverseFFTImageFilter.h"
#include "itkVkInverse1DFFTImageFilter.h"
#include "itkVkInverseFFTImageFilter.h"
#include "itkVkMultiResolutionPyramidImageFilter.h"
#include "itkVkMultiResolutionPyramidImageFilterFactory.h"
#include "itkVkRealToHalfHermitianForwardFFTImageFilter.h"

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <vector>

#define EXPECT(cond)                                                      \
  do                                                                      \
  {                                                                       \
    if (!(cond))                                                          \
    {                                                                     \
      std::cerr << "FAIL: " << __LINE__ << ": " << #cond << std::endl;  \
      return EXIT_FAILURE;                                                \
    }                                                                     \
  } while (0)

int
main()
{
  using RealImageType = itk::Image<float, 3>;
  using ComplexImageType = itk::Image<std::complex<float>, 3>;

  // ITK_AUTOLOAD_PATH: the base class's New() is the Vk filter before any registration
  auto viaITK = itk::ForwardFFTImageFilter<RealImageType, ComplexImageType>::New();
  std::cout << "ForwardFFTImageFilter::New() through ITK_AUTOLOAD_PATH: " << viaITK->GetNameOfClass() << std::endl;
  EXPECT(std::string(viaITK->GetNameOfClass()) == "VkForwardFFTImageFilter");

  itk::VkFFTImageFilterInitFactory::RegisterFactories();
  itk::ObjectFactoryBase::RegisterFactory(itk::FFTImageFilterFactory<itk::VkForwardFFTImageFilter>::New());
  itk::VkMultiResolutionPyramidImageFilterFactory::RegisterOneFactory();
  itk::VkGlobalConfiguration::SetDeviceID(0);
  EXPECT(itk::VkGlobalConfiguration::GetDeviceID() == 0);

  RealImageType::SizeType size = { { 16, 12, 10 } };
  auto                    image = RealImageType::New();
  image->SetRegions(size);
  image->Allocate();
  for (size_t i = 0; i < image->GetBufferedRegion().GetNumberOfPixels(); ++i)
  {
    image->GetBufferPointer()[i] = std::sin(0.1f * i) + 0.01f * (i % 13);
  }

  using FFTType = itk::VkForwardFFTImageFilter<RealImageType>;
  auto fft = FFTType::New();
  fft->SetUseVkGlobalConfiguration(false);
  fft->SetDeviceID(0);
  EXPECT(!fft->GetUseVkGlobalConfiguration() && fft->GetDeviceID() == 0);
  EXPECT(fft->GetSizeGreatestPrimeFactor() == 13);
  fft->SetInput(image);
  using IFFTType = itk::VkInverseFFTImageFilter<FFTType::OutputImageType>;
  auto ifft = IFFTType::New();
  ifft->SetInput(fft->GetOutput());
  ifft->Update();
  double err = 0;
  for (size_t i = 0; i < image->GetBufferedRegion().GetNumberOfPixels(); ++i)
  {
    err = std::max(err, double(std::fabs(ifft->GetOutput()->GetBufferPointer()[i] - image->GetBufferPointer()[i])));
  }
  std::cout << "VkForwardFFTImageFilter + VkInverseFFTImageFilter: round trip error " << err << std::endl;
  EXPECT(err < 1e-4);

  auto half = itk::VkRealToHalfHermitianForwardFFTImageFilter<RealImageType>::New();
  half->SetInput(image);
  auto back = itk::VkHalfHermitianToRealInverseFFTImageFilter<ComplexImageType>::New();
  back->SetInput(half->GetOutput());
  back->SetActualXDimensionIsOdd(false);
  back->Update();
  EXPECT(back->GetOutput()->GetLargestPossibleRegion().GetSize() == size);

  using C2CType = itk::VkComplexToComplexFFTImageFilter<ComplexImageType>;
  auto c2c = C2CType::New();
  c2c->SetInput(fft->GetOutput());
  c2c->SetTransformDirection(C2CType::TransformDirectionEnum::INVERSE);
  c2c->Update();
  EXPECT(std::abs(c2c->GetOutput()->GetBufferPointer()[5].real() - image->GetBufferPointer()[5]) < 1e-4);

  auto fwd1 = itk::VkForward1DFFTImageFilter<RealImageType>::New();
  fwd1->SetInput(image);
  fwd1->SetDirection(1);
  auto inv1 = itk::VkInverse1DFFTImageFilter<ComplexImageType>::New();
  inv1->SetInput(fwd1->GetOutput());
  inv1->SetDirection(1);
  inv1->Update();
  EXPECT(std::fabs(inv1->GetOutput()->GetBufferPointer()[7] - image->GetBufferPointer()[7]) < 1e-4);
  auto c2c1 = itk::VkComplexToComplex1DFFTImageFilter<ComplexImageType>::New();
  c2c1->SetInput(fwd1->GetOutput());
  c2c1->SetDirection(1);
  c2c1->SetTransformDirection(itk::VkComplexToComplex1DFFTImageFilter<ComplexImageType>::Superclass::INVERSE);
  c2c1->Update();

  // VkCommon directly, as ITKVkFFTBackend's filters drive it
  std::vector<std::complex<float>> in(64, 1.0f), out(64);
  itk::VkCommon                    common;
  itk::VkCommon::VkGPU             gpu;
  gpu.device_id = 0;
  itk::VkCommon::VkParameters params;
  params.X = 64;
  params.P = itk::VkCommon::PrecisionEnum::FLOAT;
  params.fft = itk::VkCommon::FFTEnum::C2C;
  params.PSize = sizeof(float);
  params.I = itk::VkCommon::DirectionEnum::FORWARD;
  params.normalized = itk::VkCommon::NormalizationEnum::UNNORMALIZED;
  params.inputCPUBuffer = in.data();
  params.inputBufferBytes = in.size() * sizeof(in[0]);
  params.outputCPUBuffer = out.data();
  params.outputBufferBytes = out.size() * sizeof(out[0]);
  const itk::VkFFTResult resFFT{ common.Run(gpu, params) };
  EXPECT(resFFT == itk::VKFFT_SUCCESS);
  EXPECT(std::abs(out[0] - std::complex<float>(64)) < 1e-3 && std::abs(out[1]) < 1e-3);
  EXPECT(common.GetGreatestPrimeFactor() == 13);

  using GaussianType = itk::VkDiscreteGaussianImageFilter<RealImageType, RealImageType>;
  auto gauss = GaussianType::New();
  gauss->SetInput(image);
  gauss->SetVariance(4.0);
  gauss->SetAnticipatedPerformanceMetricThreshold(0.0f);
  const GaussianType::KernelSizeType ksize = gauss->GetKernelSize();
  EXPECT(ksize[0] == 2 * gauss->GetKernelRadius()[0] + 1);
  gauss->Update();
  EXPECT(gauss->GetUseFFT() && gauss->GetLastRunUsedFFT());
  std::cout << "VkDiscreteGaussianImageFilter: FFT, kernel " << ksize << ", metric "
            << itk::VkBlurringPerformanceMetric<RealImageType>::Compute(size, ksize) << std::endl;

  using PyramidType = itk::MultiResolutionPyramidImageFilter<RealImageType, RealImageType>;
  auto pyramid = PyramidType::New(); // the factory's VkMultiResolutionPyramidImageFilter
  auto * vkPyramid = dynamic_cast<itk::VkMultiResolutionPyramidImageFilter<RealImageType, RealImageType> *>(
    pyramid.GetPointer());
  EXPECT(vkPyramid != nullptr);
  pyramid->SetInput(image);
  pyramid->SetNumberOfLevels(2);
  vkPyramid->SetMetricThreshold(5.0f);
  pyramid->Update();
  std::cout << "VkMultiResolutionPyramidImageFilter: 2 levels, level 0 radius " << vkPyramid->GetKernelRadius(0)
            << ", variance " << vkPyramid->GetVariance(0) << ", FFT " << vkPyramid->GetUseFFT(vkPyramid->GetKernelRadius(0))
            << std::endl;
  std::cout << "consumer: ITKVkFFTBackend's API builds and runs" << std::endl;
  return EXIT_SUCCESS;
}
