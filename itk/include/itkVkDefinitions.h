/*=========================================================================
 * itkVkDefinitions.h — the backend numbers VkFFT and ITKVkFFTBackend use, and the one
 * this build runs on: libvkfftgo's (vkfftgo_config.h). Code written for ITKVkFFTBackend
 * tests VKFFT_BACKEND against these names; here it is always the installed library's,
 * never a choice of the includer (its CMake target exports it, and vkfftgo_config.h
 * stops a file compiled with another one).
 *=========================================================================*/
#ifndef itkVkDefinitions_h
#define itkVkDefinitions_h

#include "itkConfigure.h"
#include "itkMacro.h"
#include <vkfftgo.h>

#ifndef VULKAN
#  define VULKAN 0
#endif
#ifndef CUDA
#  define CUDA 1
#endif
#ifndef HIP
#  define HIP 2
#endif
#ifndef OPENCL
#  define OPENCL 3
#endif
#ifndef LEVEL_ZERO
#  define LEVEL_ZERO 4
#endif
#ifndef METAL
#  define METAL 5
#endif

#ifndef VKFFT_BACKEND
#  define VKFFT_BACKEND VKFFTGO_BACKEND
#endif

/* The run-time type macro of the ITK in use: itkOverrideGetNameOfClassMacro from 5.4,
 * itkTypeMacro before. */
#ifdef itkOverrideGetNameOfClassMacro
#  define itkVkTypeMacro(thisClass, superclass) itkOverrideGetNameOfClassMacro(thisClass)
#else
#  define itkVkTypeMacro(thisClass, superclass) itkTypeMacro(thisClass, superclass)
#endif

/* Whether ITK has the 1-D FFT filters and FFTImageFilterFactory (5.3 on); before, this
 * module's compat/ headers provide them. */
#if ITK_VERSION_MAJOR > 5 || (ITK_VERSION_MAJOR == 5 && ITK_VERSION_MINOR >= 3)
#  define ITK_VKFFT_ITK_HAS_FFT_FACTORY 1
#else
#  define ITK_VKFFT_ITK_HAS_FFT_FACTORY 0
#endif

#endif // itkVkDefinitions_h
