/* threadstate.c — the C API's per-thread state on the heap (capi.h, vkgcapi_thread).
 *
 * A library marked STATIC_TLS, as Go's c-shared libraries are, must fit its whole
 * thread-local segment into the static TLS the C library keeps spare for modules loaded
 * after start-up (on glibc a little over 1.5 KiB): with the error message and the
 * statuses as thread-local arrays (4 KiB) dlopen failed with "cannot allocate memory in
 * static TLS block". Here each thread holds one pointer; its record is allocated on its
 * first call and freed by a pthread key's destructor when it exits. */
#include <pthread.h>
#include <stdlib.h>

#include "capi.h"

static __thread vkgcapi_thread *state;
static pthread_key_t state_key;
static pthread_once_t state_once = PTHREAD_ONCE_INIT;
static int state_key_ok;
static vkgcapi_thread shared_fallback; /* when there is no memory for a thread's own */

static void free_state(void *p)
{
	vkgcapi_thread *t = p;
	if (t && t != &shared_fallback) {
		vkg_status_clear(&t->call_st);
		vkg_status_clear(&t->async_st);
		vkg_status_clear(&t->fuse_st);
		free(t);
	}
	state = NULL;
}

static void make_key(void) { state_key_ok = pthread_key_create(&state_key, free_state) == 0; }

vkgcapi_thread *vkgcapi_thread_state(void)
{
	vkgcapi_thread *t = state;
	if (__builtin_expect(t != NULL, 1))
		return t;
	pthread_once(&state_once, make_key);
	t = calloc(1, sizeof *t);
	if (!t || !state_key_ok || pthread_setspecific(state_key, t) != 0) {
		free(t);
		t = &shared_fallback;
	}
	state = t;
	return t;
}
