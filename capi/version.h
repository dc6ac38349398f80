/* The library's version: the one place it is written. mk/capi.mk, CMakeLists.txt and
 * scripts/vkfftgo-gen.sh read it from here; the SONAME follows the major version. */
#ifndef VKFFTGO_CAPI_VERSION_H
#define VKFFTGO_CAPI_VERSION_H
#define VKFFTGO_LIB_VERSION_MAJOR 0
#define VKFFTGO_LIB_VERSION_MINOR 2
#define VKFFTGO_LIB_VERSION_PATCH 0
#endif
