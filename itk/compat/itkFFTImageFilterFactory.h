/*=========================================================================
 * compat/itkFFTImageFilterFactory.h — for ITK before 5.3, which lacks it: the object
 * factory that makes an FFT implementation template replace its base class in New()
 * (float and double pixels, the dimensions its FFTImageFilterTraits lists), with the
 * interface ITK 5.3 gives it, so code written against ITKVkFFTBackend builds here. Only
 * on the include path when ITK has none of its own (see CMakeLists.txt).
 *=========================================================================*/
#ifndef itkFFTImageFilterFactory_h
#define itkFFTImageFilterFactory_h

#include "itkCreateObjectFunction.h"
#include "itkImage.h"
#include "itkObjectFactoryBase.h"
#include "itkVersion.h"

#include <type_traits>
#include <utility>

namespace itk
{
/** Whether a templated FFT filter is registered for float and for double pixels. */
template <template <typename, typename> class TFFTImageFilter>
struct FFTImageFilterEnableFloat : std::true_type
{};
template <template <typename, typename> class TFFTImageFilter>
struct FFTImageFilterEnableDouble : std::true_type
{};

/** \class FFTImageFilterTraits
 * \brief The pixel types (as templates of the underlying real type) and the image
 * dimensions an FFT filter template is registered for; each filter specializes it.
 * \ingroup VkFFTBackend
 */
template <template <typename, typename> class TFFTImageFilter>
struct FFTImageFilterTraits
{};

/** \class FFTImageFilterFactory
 * \brief Registers TFFTImageFilter<TInput<P, D>, TOutput<Q, D>> as the implementation of
 * its Superclass for the pixel types and dimensions its FFTImageFilterTraits gives.
 * \ingroup VkFFTBackend
 */
template <template <typename, typename> class TFFTImageFilter,
          template <typename, unsigned int> class TInput = Image,
          template <typename, unsigned int> class TOutput = Image>
class FFTImageFilterFactory : public ObjectFactoryBase
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(FFTImageFilterFactory);

  using Self = FFTImageFilterFactory;
  using Superclass = ObjectFactoryBase;
  using Pointer = SmartPointer<Self>;
  using ConstPointer = SmartPointer<const Self>;

  const char *
  GetITKSourceVersion() const override
  {
    return ITK_SOURCE_VERSION;
  }
  const char *
  GetDescription() const override
  {
    return "An FFTImageFilter factory";
  }

  itkFactorylessNewMacro(Self);
  itkTypeMacro(FFTImageFilterFactory, ObjectFactoryBase);

  static void
  RegisterOneFactory()
  {
    ObjectFactoryBase::RegisterFactoryInternal(Self::New());
  }

protected:
  template <typename TInputPixel, typename TOutputPixel, unsigned int D, unsigned int... Rest>
  void
  Override(const std::integer_sequence<unsigned int, D, Rest...> &)
  {
    using FilterType = TFFTImageFilter<TInput<TInputPixel, D>, TOutput<TOutputPixel, D>>;
    this->RegisterOverride(typeid(typename FilterType::Superclass).name(),
                           typeid(FilterType).name(),
                           "FFT Image Filter Override",
                           true,
                           CreateObjectFunction<FilterType>::New());
    Override<TInputPixel, TOutputPixel>(std::integer_sequence<unsigned int, Rest...>{});
  }
  template <typename TInputPixel, typename TOutputPixel>
  void
  Override(const std::integer_sequence<unsigned int> &)
  {}

  template <typename TReal>
  void
  OverrideFor(std::true_type)
  {
    using Traits = FFTImageFilterTraits<TFFTImageFilter>;
    Override<typename Traits::template InputPixelType<TReal>, typename Traits::template OutputPixelType<TReal>>(
      typename Traits::FilterDimensions{});
  }
  template <typename TReal>
  void
  OverrideFor(std::false_type)
  {}

  FFTImageFilterFactory()
  {
    OverrideFor<float>(std::integral_constant<bool, FFTImageFilterEnableFloat<TFFTImageFilter>::value>{});
    OverrideFor<double>(std::integral_constant<bool, FFTImageFilterEnableDouble<TFFTImageFilter>::value>{});
  }
};
} // namespace itk

#endif // itkFFTImageFilterFactory_h
