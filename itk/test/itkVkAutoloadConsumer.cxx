/*=========================================================================
 * itkVkAutoloadConsumer — an ordinary ITK program: it links ITK only, never this
 * module, and asks ITK for a forward FFT, an inverse FFT and an FFT convolution. Run
 * with the module's factory directory in ITK_AUTOLOAD_PATH it gets the Vk filters;
 * without, ITK's. It prints the classes it got and checks the results against FFTW and
 * the input.
 *
 *   itkVkAutoloadConsumer vk|itk    the implementation it must get
 *=========================================================================*/
#include "itkFFTConvolutionImageFilter.h"
#include "itkFFTWForwardFFTImageFilter.h"
#include "itkForwardFFTImageFilter.h"
#include "itkImageRegionIterator.h"
#include "itkInverseFFTImageFilter.h"

#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <iostream>

int
main(int argc, char * argv[])
{
  if (argc != 2)
  {
    std::cerr << "usage: itkVkAutoloadConsumer vk|itk" << std::endl;
    return EXIT_FAILURE;
  }
  const bool wantVk = std::strcmp(argv[1], "vk") == 0;
  using R = itk::Image<float, 3>;
  using C = itk::Image<std::complex<float>, 3>;
  auto image = R::New();
  R::SizeType size = { { 12, 10, 6 } };
  image->SetRegions(size);
  image->Allocate();
  itk::ImageRegionIterator<R> it(image, image->GetBufferedRegion());
  for (unsigned i = 0; !it.IsAtEnd(); ++it, ++i)
  {
    it.Set(std::sin(0.37f * i) + 0.1f * (i % 7));
  }
  auto fwd = itk::ForwardFFTImageFilter<R, C>::New();
  auto inv = itk::InverseFFTImageFilter<C, R>::New();
  auto conv = itk::FFTConvolutionImageFilter<R>::New();
  fwd->SetInput(image);
  inv->SetInput(fwd->GetOutput());
  conv->SetInput(image);
  conv->SetKernelImage(image);
  inv->Update();
  conv->Update();
  const std::string classes =
    std::string(fwd->GetNameOfClass()) + " " + inv->GetNameOfClass() + " " + conv->GetNameOfClass();
  std::cout << "classes: " << classes << std::endl;
  const bool gotVk = std::strncmp(fwd->GetNameOfClass(), "Vk", 2) == 0 &&
                     std::strncmp(inv->GetNameOfClass(), "Vk", 2) == 0 &&
                     std::strncmp(conv->GetNameOfClass(), "Vk", 2) == 0;
  if (gotVk != wantVk)
  {
    std::cerr << "FAIL: expected " << (wantVk ? "the Vk filters" : "ITK's filters") << std::endl;
    return EXIT_FAILURE;
  }
  auto ref = itk::FFTWForwardFFTImageFilter<R, C>::New();
  ref->SetInput(image);
  ref->Update();
  double e = 0, s = 0, r = 0;
  const size_t n = image->GetBufferedRegion().GetNumberOfPixels();
  for (size_t i = 0; i < n; ++i)
  {
    e = std::max(e, double(std::abs(fwd->GetOutput()->GetBufferPointer()[i] - ref->GetOutput()->GetBufferPointer()[i])));
    s = std::max(s, double(std::abs(ref->GetOutput()->GetBufferPointer()[i])));
    r = std::max(r, double(std::fabs(inv->GetOutput()->GetBufferPointer()[i] - image->GetBufferPointer()[i])));
  }
  std::cout << "forward error against FFTW " << e / s << ", round trip error " << r << std::endl;
  if (e / s > 1e-5 || r > 1e-4)
  {
    std::cerr << "FAIL: wrong results" << std::endl;
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
