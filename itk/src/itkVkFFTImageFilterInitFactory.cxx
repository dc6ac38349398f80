/*=========================================================================
 * itkVkFFTImageFilterInitFactory.cxx — the module's object factory: every Vk filter
 * as the implementation of its ITK base class, registered explicitly
 * (VkFFTImageFilterInitFactory::RegisterFactories), by ITK 5.3's factory manager
 * (FACTORY_NAMES), or loaded from ITK_AUTOLOAD_PATH (itkLoad).
 *=========================================================================*/
#include "itkVkFFTImageFilterInitFactory.h"

#include "itkVkComplexToComplex1DFFTImageFilter.h"
#include "itkVkComplexToComplexFFTImageFilter.h"
#include "itkVkFFTConvolutionImageFilter.h"
#include "itkVkFFTNormalizedCorrelationImageFilter.h"
#include "itkVkForward1DFFTImageFilter.h"
#include "itkVkForwardFFTImageFilter.h"
#include "itkVkHalfHermitianToRealInverseFFTImageFilter.h"
#include "itkVkInverse1DFFTImageFilter.h"
#include "itkVkInverseFFTImageFilter.h"
#include "itkVkRealToHalfHermitianForwardFFTImageFilter.h"

#include "itkObjectFactoryBase.h"
#include "itkVersion.h"

#include <mutex>

namespace itk
{
namespace
{
/** One factory with every override: what ITK_AUTOLOAD_PATH's itkLoad hands ITK, and what
 * RegisterFactories registers. */
class VkFFTBackendFactory : public ObjectFactoryBase
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkFFTBackendFactory);
  using Self = VkFFTBackendFactory;
  using Pointer = SmartPointer<Self>;

  const char *
  GetITKSourceVersion() const override
  {
    return ITK_SOURCE_VERSION;
  }
  const char *
  GetDescription() const override
  {
    return "VkFFTBackend: GPU FFT, convolution and correlation filters through libvkfftgo";
  }
  itkFactorylessNewMacro(Self);
  itkVkTypeMacro(VkFFTBackendFactory, ObjectFactoryBase);

protected:
  VkFFTBackendFactory()
  {
    AddFFT<VkForwardFFTImageFilter>();
    AddFFT<VkInverseFFTImageFilter>();
    AddFFT<VkRealToHalfHermitianForwardFFTImageFilter>();
    AddFFT<VkHalfHermitianToRealInverseFFTImageFilter>();
    AddFFT<VkComplexToComplexFFTImageFilter>();
    AddFFT<VkForward1DFFTImageFilter>();
    AddFFT<VkInverse1DFFTImageFilter>();
    AddFFT<VkComplexToComplex1DFFTImageFilter>();
    AddConvolutions<float>(std::integer_sequence<unsigned int, 3, 2, 1>{});
    AddConvolutions<double>(std::integer_sequence<unsigned int, 3, 2, 1>{});
  }

private:
  template <typename TFilter>
  void
  Add(const char * what)
  {
    this->RegisterOverride(typeid(typename TFilter::Superclass).name(), typeid(TFilter).name(), what, true,
                           CreateObjectFunction<TFilter>::New());
  }

  template <template <typename, typename> class TFFT, typename TReal, unsigned int... D>
  void
  AddFFTDims(std::integer_sequence<unsigned int, D...>)
  {
    using Traits = FFTImageFilterTraits<TFFT>;
    using In = typename Traits::template InputPixelType<TReal>;
    using Out = typename Traits::template OutputPixelType<TReal>;
    int expand[] = { 0, (Add<TFFT<Image<In, D>, Image<Out, D>>>("Vk FFT Image Filter Override"), 0)... };
    (void)expand;
  }

  template <template <typename, typename> class TFFT>
  void
  AddFFT()
  {
    AddFFTDims<TFFT, float>(typename FFTImageFilterTraits<TFFT>::FilterDimensions{});
    AddFFTDims<TFFT, double>(typename FFTImageFilterTraits<TFFT>::FilterDimensions{});
  }

  /** FFTConvolutionImageFilter<I, I, I, double> and FFTNormalizedCorrelationImageFilter
   * <I, I> for images I of TPixel: the types ITK's defaults give. */
  template <typename TPixel, unsigned int... D>
  void
  AddConvolutions(std::integer_sequence<unsigned int, D...>)
  {
    int expand[] = { 0,
                     (Add<VkFFTConvolutionImageFilter<Image<TPixel, D>>>("Vk FFT Convolution Override"),
                      Add<VkFFTNormalizedCorrelationImageFilter<Image<TPixel, D>, Image<TPixel, D>>>(
                        "Vk FFT Normalized Correlation Override"),
                      0)... };
    (void)expand;
  }
};
} // namespace

VkFFTImageFilterInitFactory::VkFFTImageFilterInitFactory()
{
  VkFFTImageFilterInitFactory::RegisterFactories();
}

void
VkFFTImageFilterInitFactory::RegisterFactories()
{
  static std::once_flag once;
  std::call_once(once, [] {
    ObjectFactoryBase::RegisterFactory(VkFFTBackendFactory::New(), ObjectFactoryEnums::InsertionPosition::INSERT_AT_FRONT);
  });
}

// Undocumented API used to register during static initialization (ITK 5.3's factory
// registration manager, FACTORY_NAMES "FFTImageFilterInit::Vk"). DO NOT CALL DIRECTLY.
void VkFFTBackend_EXPORT
     VkFFTImageFilterInitFactoryRegister__Private()
{
  VkFFTImageFilterInitFactory::RegisterFactories();
}

} // end namespace itk

/** ITK_AUTOLOAD_PATH: ITK loads every shared library there and calls this. */
extern "C" VkFFTBackend_EXPORT itk::ObjectFactoryBase *
itkLoad()
{
  static itk::ObjectFactoryBase::Pointer factory = itk::VkFFTBackendFactory::New().GetPointer();
  return factory;
}
