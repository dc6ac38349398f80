/* capi.h — private declarations of the C API's own C files (not installed). */
#ifndef VKGCAPI_H
#define VKGCAPI_H
#include <stddef.h>

#include "vkfftgo.h"
#include "vkg.h"

#define VKGCAPI_ERROR_LEN 2048

/* What the C API keeps per calling thread: its vkfftgo_last_error message and the
 * statuses the per-call paths hand the core. On the heap, reached through one pointer in
 * thread-local storage (threadstate.c): the library's static TLS stays a few bytes, so it
 * can be dlopen'ed after the process started (Python's ctypes, ITK_AUTOLOAD_PATH). */
typedef struct vkgcapi_thread {
	char last_error[VKGCAPI_ERROR_LEN];
	vkg_status call_st;  /* hotpath.c */
	vkg_status async_st; /* hotpath_async.c */
	vkg_status fuse_st;  /* hotpath_fuse.c */
} vkgcapi_thread;
/* The calling thread's state, allocated on its first call and freed when it exits;
 * never NULL (without host memory for it, one shared record, whose messages threads may
 * then overwrite). */
vkgcapi_thread *vkgcapi_thread_state(void);

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
