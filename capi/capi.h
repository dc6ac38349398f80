/* capi.h — private declarations of the C API's own C files (not installed). */
#ifndef VKGCAPI_H
#define VKGCAPI_H
#include <stddef.h>

#include "vkfftgo.h"

#define VKGCAPI_ERROR_LEN 2048

/* Sets the calling thread's vkfftgo_last_error message (truncated to fit). */
void vkgcapi_set_error(const char *msg, size_t n);
/* Formats the calling thread's message and returns code (for the C entry points). */
vkfftgo_status vkgcapi_fail(vkfftgo_status code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
