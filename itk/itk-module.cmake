# The ITK module description, for builds through ITK's module machinery
# (ITKModuleExternal, or a remote module inside ITK's tree). Debian's ITK 5.2 installs
# no such machinery: CMakeLists.txt then builds the same library as a plain CMake
# project (see README.md).
get_filename_component(_vkfft_module_dir "${CMAKE_CURRENT_LIST_FILE}" PATH)
file(READ "${_vkfft_module_dir}/README.md" DOCUMENTATION)

itk_module(VkFFTBackend
  DEPENDS
    ITKCommon
    ITKFFT
    ITKConvolution
    ITKSmoothing
    ITKRegistrationCommon
    ITKImageGrid
  COMPILE_DEPENDS
    ITKImageSources
    ITKImageIntensity
  TEST_DEPENDS
    ITKTestKernel
    ITKImageCompose
  DESCRIPTION
    "${DOCUMENTATION}"
  FACTORY_NAMES
    "FFTImageFilterInit::Vk"
  EXCLUDE_FROM_DEFAULT
  ENABLE_SHARED
)
