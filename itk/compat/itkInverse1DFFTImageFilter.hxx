/*=========================================================================
 * compat/itkInverse1DFFTImageFilter.hxx
 *=========================================================================*/
#ifndef itkInverse1DFFTImageFilter_hxx
#define itkInverse1DFFTImageFilter_hxx

#include "itkObjectFactory.h"

namespace itk
{
// the default implementation (this module's); its header comes last, as it includes this one
template <typename TInputImage, typename TOutputImage>
class VkInverse1DFFTImageFilter;

template <typename TInputImage, typename TOutputImage>
auto
Inverse1DFFTImageFilter<TInputImage, TOutputImage>::New() -> Pointer
{
  Pointer p = ObjectFactory<Self>::Create();
  if (p.IsNull())
  {
    p = VkInverse1DFFTImageFilter<TInputImage, TOutputImage>::New().GetPointer();
  }
  return p;
}

template <typename TInputImage, typename TOutputImage>
void
Inverse1DFFTImageFilter<TInputImage, TOutputImage>::GenerateInputRequestedRegion()
{
  Superclass::GenerateInputRequestedRegion();
  auto * input = const_cast<InputImageType *>(this->GetInput());
  if (!input)
  {
    return;
  }
  typename InputImageType::RegionType region = this->GetOutput()->GetRequestedRegion();
  const auto &                        whole = input->GetLargestPossibleRegion();
  region.SetSize(m_Direction, whole.GetSize(m_Direction));
  region.SetIndex(m_Direction, whole.GetIndex(m_Direction));
  input->SetRequestedRegion(region);
}

template <typename TInputImage, typename TOutputImage>
void
Inverse1DFFTImageFilter<TInputImage, TOutputImage>::EnlargeOutputRequestedRegion(DataObject * out)
{
  auto * output = dynamic_cast<OutputImageType *>(out);
  if (!output)
  {
    return;
  }
  typename OutputImageType::RegionType region = output->GetRequestedRegion();
  const auto &                         whole = output->GetLargestPossibleRegion();
  region.SetSize(m_Direction, whole.GetSize(m_Direction));
  region.SetIndex(m_Direction, whole.GetIndex(m_Direction));
  output->SetRequestedRegion(region);
}
} // namespace itk

#include "itkVkInverse1DFFTImageFilter.h"

#endif
