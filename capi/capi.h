/* capi.h — private declarations of the C API's own C files (not installed). */
#ifndef VKGCAPI_H
#define VKGCAPI_H
#include <stddef.h>

#define VKGCAPI_ERROR_LEN 2048

/* Sets the calling thread's vkfftgo_last_error message (truncated to fit). */
void vkgcapi_set_error(const char *msg, size_t n);
#endif
