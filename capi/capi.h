/* capi.h — private declarations of the C API's own C files (not installed). */
#ifndef VKGCAPI_H
#define VKGCAPI_H
#include <stddef.h>

#include "vkfftgo.h"
#include "vkg.h"

#define VKGCAPI_ERROR_LEN 2048

/* Sets the calling thread's vkfftgo_last_error message (truncated to fit). */
void vkgcapi_set_error(const char *msg, size_t n);
/* Formats the calling thread's message and returns code (for the C entry points). */
vkfftgo_status vkgcapi_fail(vkfftgo_status code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Sets "fn: <why>" as the calling thread's message and returns VKFFTGO_ERROR_FORKED. */
vkfftgo_status vkgcapi_forked(const char *fn);
/* In a child forked without exec, every entry point that touches state returns
 * VKFFTGO_ERROR_FORKED first thing: before any lock (another thread may have held it at
 * fork time, and is gone) and before entering Go (whose runtime's other threads are gone
 * too). The mark is the engine's (vkg_forked, vkfft/vkg_fork.c). */
#define VKGCAPI_FORK_GUARD(fn)                         \
	do {                                           \
		if (__builtin_expect(vkg_forked(), 0)) \
			return vkgcapi_forked(fn);     \
	} while (0)
#endif
