//go:build cgo && cuda

// Package cudatest plays, for the cuda tests of package vkfft, a C host with CUDA
// contexts and streams of its own. It opens the driver (libcuda.so.1) itself and uses
// only the driver's stable v2 entry points, so it needs no CUDA headers; none of it is
// part of the library.
package cudatest

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

typedef int (*ctx_create_t)(void **ctx, unsigned flags, int dev);
typedef int (*ptr_t)(void *p);
typedef int (*pptr_t)(void **p);
typedef int (*stream_create_t)(void **s, unsigned flags);
typedef int (*device_get_t)(int *dev, int ordinal);

static struct {
	int loaded;
	ctx_create_t ctx_create;
	ptr_t ctx_destroy, ctx_set_current, ctx_push, stream_destroy, stream_sync;
	pptr_t ctx_get_current, ctx_pop;
	stream_create_t stream_create;
	device_get_t device_get;
	char err[256];
} cu;

static int load(void)
{
	void *h;
	if (cu.loaded)
		return cu.loaded > 0 ? 0 : -1;
	cu.loaded = -1;
	h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(cu.err, sizeof cu.err, "%s", dlerror());
		return -1;
	}
#define SYM(field, name)                                                                           \
	if (!(*(void **)&cu.field = dlsym(h, name))) {                                             \
		snprintf(cu.err, sizeof cu.err, "libcuda.so.1 has no %s", name);                   \
		return -1;                                                                         \
	}
	SYM(ctx_create, "cuCtxCreate_v2")
	SYM(ctx_destroy, "cuCtxDestroy_v2")
	SYM(ctx_set_current, "cuCtxSetCurrent")
	SYM(ctx_get_current, "cuCtxGetCurrent")
	SYM(ctx_push, "cuCtxPushCurrent_v2")
	SYM(ctx_pop, "cuCtxPopCurrent_v2")
	SYM(stream_create, "cuStreamCreate")
	SYM(stream_destroy, "cuStreamDestroy_v2")
	SYM(stream_sync, "cuStreamSynchronize")
	SYM(device_get, "cuDeviceGet")
#undef SYM
	cu.loaded = 1;
	return 0;
}

static const char *load_error(void) { return cu.err; }

// ctx_create makes a context on device ordinal and leaves the calling thread as it was.
static int ctx_create(int ordinal, uint64_t *out)
{
	void *c = NULL, *prev;
	int dev, r;
	if (load())
		return -1;
	if ((r = cu.device_get(&dev, ordinal)) != 0)
		return r;
	if ((r = cu.ctx_create(&c, 0, dev)) != 0)
		return r;
	cu.ctx_pop(&prev);
	*out = (uint64_t)(uintptr_t)c;
	return 0;
}

static void ctx_destroy(uint64_t c) { if (!load() && c) cu.ctx_destroy((void *)(uintptr_t)c); }

static uint64_t ctx_current(void)
{
	void *c = NULL;
	if (load() || cu.ctx_get_current(&c))
		return 0;
	return (uint64_t)(uintptr_t)c;
}

static int ctx_set_current(uint64_t c) { return load() ? -1 : cu.ctx_set_current((void *)(uintptr_t)c); }

// in_ctx runs one stream call with ctx pushed.
static int stream_create(uint64_t ctx, uint64_t *out)
{
	void *s = NULL, *prev;
	int r;
	if (load())
		return -1;
	if ((r = cu.ctx_push((void *)(uintptr_t)ctx)) != 0)
		return r;
	r = cu.stream_create(&s, 1); // CU_STREAM_NON_BLOCKING
	cu.ctx_pop(&prev);
	*out = (uint64_t)(uintptr_t)s;
	return r;
}

static int stream_call(uint64_t ctx, uint64_t s, int destroy)
{
	void *prev;
	int r;
	if (load())
		return -1;
	if ((r = cu.ctx_push((void *)(uintptr_t)ctx)) != 0)
		return r;
	r = cu.stream_sync((void *)(uintptr_t)s);
	if (destroy)
		r = cu.stream_destroy((void *)(uintptr_t)s);
	cu.ctx_pop(&prev);
	return r;
}
*/
import "C"

import "fmt"

func fail(what string, r C.int) error {
	if r == -1 {
		return fmt.Errorf("cudatest: %s: %s", what, C.GoString(C.load_error()))
	}
	return fmt.Errorf("cudatest: %s failed: CUDA error %d", what, int(r))
}

// CreateContext makes a (non-primary) context on device ordinal, as a host might; the
// calling thread's current context is left as it was.
func CreateContext(ordinal int) (uintptr, error) {
	var c C.uint64_t
	if r := C.ctx_create(C.int(ordinal), &c); r != 0 {
		return 0, fail("cuCtxCreate", r)
	}
	return uintptr(c), nil
}

// DestroyContext destroys a context from CreateContext.
func DestroyContext(ctx uintptr) { C.ctx_destroy(C.uint64_t(ctx)) }

// CurrentContext is the calling OS thread's current context (lock the goroutine to it).
func CurrentContext() uintptr { return uintptr(C.ctx_current()) }

// SetCurrent makes ctx current on the calling OS thread; it returns CUDA's result code.
func SetCurrent(ctx uintptr) int { return int(C.ctx_set_current(C.uint64_t(ctx))) }

// CreateStream makes a non-blocking stream in ctx.
func CreateStream(ctx uintptr) (uintptr, error) {
	var s C.uint64_t
	if r := C.stream_create(C.uint64_t(ctx), &s); r != 0 {
		return 0, fail("cuStreamCreate", r)
	}
	return uintptr(s), nil
}

// SyncStream waits for stream s of ctx.
func SyncStream(ctx, s uintptr) error {
	if r := C.stream_call(C.uint64_t(ctx), C.uint64_t(s), 0); r != 0 {
		return fail("cuStreamSynchronize", r)
	}
	return nil
}

// DestroyStream waits for stream s of ctx and destroys it.
func DestroyStream(ctx, s uintptr) { C.stream_call(C.uint64_t(ctx), C.uint64_t(s), 1) }
