/*=========================================================================
 * itkVkFFTImageFilterInitFactory.h
 *=========================================================================*/
#ifndef itkVkFFTImageFilterInitFactory_h
#define itkVkFFTImageFilterInitFactory_h

#include "VkFFTBackendExport.h"
#include "itkLightObject.h"
#include "itkVkDefinitions.h"

namespace itk
{
/**
 *\class VkFFTImageFilterInitFactory
 * \brief Registers the Vk filters with ITK's object factory, once: afterwards
 * ForwardFFTImageFilter<...>::New() and its siblings (inverse, half Hermitian, complex,
 * the 1-D ones), FFTConvolutionImageFilter<...>::New() and
 * FFTNormalizedCorrelationImageFilter<...>::New() return the Vk implementations, for
 * float and double pixels of 1 to 4 dimensions.
 *
 * The same happens without code when the directory of this library's factory module is
 * in ITK_AUTOLOAD_PATH (ITK calls its itkLoad()), and, for ITK 5.3 and later built with
 * this module, through FACTORY_NAMES "FFTImageFilterInit::Vk".
 *
 * \ingroup FourierTransform
 * \ingroup ITKFFT
 * \ingroup ITKSystemObjects
 * \ingroup VkFFTBackend
 */
class VkFFTBackend_EXPORT VkFFTImageFilterInitFactory : public LightObject
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkFFTImageFilterInitFactory);

  using Self = VkFFTImageFilterInitFactory;
  using Superclass = LightObject;
  using Pointer = SmartPointer<Self>;
  using ConstPointer = SmartPointer<const Self>;

  itkFactorylessNewMacro(Self);
  itkVkTypeMacro(VkFFTImageFilterInitFactory, LightObject);

  /** For Python's factory initialisation, as ITK's other factories. */
  static void
  RegisterOneFactory()
  {
    RegisterFactories();
  }

  /** Registers every Vk filter factory at the front of ITK's list (idempotent: a second
   * call registers nothing more). */
  static void
  RegisterFactories();

protected:
  VkFFTImageFilterInitFactory();
  ~VkFFTImageFilterInitFactory() override = default;
};
} // end namespace itk

#endif
