/*=========================================================================
 * itkVkMultiResolutionPyramidImageFilterFactory.h
 *=========================================================================*/
#ifndef itkVkMultiResolutionPyramidImageFilterFactory_h
#define itkVkMultiResolutionPyramidImageFilterFactory_h

#include "itkImage.h"
#include "itkObjectFactoryBase.h"
#include "itkVersion.h"
#include "itkVkMultiResolutionPyramidImageFilter.h"

#include <utility>

namespace itk
{
/** \class VkMultiResolutionPyramidImageFilterFactory
 * \brief Makes MultiResolutionPyramidImageFilter<I, I>::New() return
 * VkMultiResolutionPyramidImageFilter, for float and double images of 1 to 4 dimensions.
 * \sa VkMultiResolutionPyramidImageFilter
 * \ingroup VkFFTBackend
 */
class VkMultiResolutionPyramidImageFilterFactory : public ObjectFactoryBase
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(VkMultiResolutionPyramidImageFilterFactory);

  using Self = VkMultiResolutionPyramidImageFilterFactory;
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
    return "A VkMultiResolutionPyramidImageFilter factory";
  }

  itkFactorylessNewMacro(Self);
  itkVkTypeMacro(VkMultiResolutionPyramidImageFilterFactory, ObjectFactoryBase);

  /** Registers one factory of this type. */
  static void
  RegisterOneFactory()
  {
    ObjectFactoryBase::RegisterFactoryInternal(Self::New());
  }

protected:
  template <typename TInputPixel, typename TOutputPixel, unsigned int... D>
  void
  OverrideSuperclassType(const std::integer_sequence<unsigned int, D...> &)
  {
    int expand[] = { 0,
                     (this->RegisterOverride(
                        typeid(typename VkMultiResolutionPyramidImageFilter<Image<TInputPixel, D>,
                                                                            Image<TOutputPixel, D>>::Superclass)
                          .name(),
                        typeid(VkMultiResolutionPyramidImageFilter<Image<TInputPixel, D>, Image<TOutputPixel, D>>).name(),
                        "VkMultiResolutionPyramidImageFilter Override",
                        true,
                        CreateObjectFunction<
                          VkMultiResolutionPyramidImageFilter<Image<TInputPixel, D>, Image<TOutputPixel, D>>>::New()),
                      0)... };
    (void)expand;
  }

  VkMultiResolutionPyramidImageFilterFactory()
  {
    OverrideSuperclassType<float, float>(std::integer_sequence<unsigned int, 4, 3, 2, 1>{});
    OverrideSuperclassType<double, double>(std::integer_sequence<unsigned int, 4, 3, 2, 1>{});
  }
};
} // namespace itk

#endif
