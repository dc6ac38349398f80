/* hotpath.c — the C API's per-call entry points, in C: no call here enters the Go
 * runtime, but for a plan's first out-of-place transform, which has Go build its
 * out-of-place kernels once (vkgc_plan_oop, capi/oop.go). Each checks its arguments,
 * looks its handles up in the slot table (handles.h) and holds them locked for the call
 * — a plan exclusively, since a VkFFT application is not reentrant; buffers and devices
 * shared — then runs the C core's entry point (vkg.h) on the records Go made at creation
 * (core.h). A handle destroyed,
 * or whose device was closed, before the lock was taken is not live any more; one
 * destroyed after it waits for the call to return. Errors set the calling thread's
 * message (lasterror.c), worded as the Go API's. */
#include <stdint.h>
#include <stdio.h>

#include "vkfftgo.h"
#include "capi.h"
#include "core.h"
#include "handles.h"
#include "hotpath.h"

/* one status per thread (capi.h, vkgcapi_thread): the core writes its messages there */
#define call_st (vkgcapi_thread_state()->call_st)

vkfftgo_status vkgc_core_status(int code)
{
	switch (code) {
	case VKG_OK: return VKFFTGO_SUCCESS;
	case VKG_ERR_INVALID: return VKFFTGO_ERROR_INVALID_ARGUMENT;
	case VKG_ERR_NO_DEVICE: return VKFFTGO_ERROR_NO_DEVICE;
	case VKG_ERR_OUT_OF_MEMORY: return VKFFTGO_ERROR_OUT_OF_MEMORY;
	case VKG_ERR_UNSUPPORTED: return VKFFTGO_ERROR_UNSUPPORTED;
	case VKG_ERR_BACKEND: return VKFFTGO_ERROR_BACKEND;
	case VKG_ERR_VKFFT: return VKFFTGO_ERROR_VKFFT;
	case VKG_ERR_VERSION: return VKFFTGO_ERROR_VERSION;
	case VKG_ERR_FORKED: return VKFFTGO_ERROR_FORKED;
	}
	return VKFFTGO_ERROR_INTERNAL;
}

const char *vkgc_core_sentinel(int code)
{
	switch (code) {
	case VKG_ERR_INVALID: return "invalid argument";
	case VKG_ERR_NO_DEVICE: return "no such device";
	case VKG_ERR_OUT_OF_MEMORY: return "out of device memory";
	case VKG_ERR_UNSUPPORTED: return "unsupported";
	case VKG_ERR_VKFFT: return "VkFFT error";
	case VKG_ERR_VERSION: return "VkFFT version too old";
	case VKG_ERR_FORKED: return "forked child process (fork without exec)";
	}
	return "GPU API error";
}

static vkfftgo_status core_fail(const char *fn, int inverse, int rc, const vkg_status *st)
{
	return vkgcapi_fail(vkgc_core_status(rc), "%s: %s: %s", fn, inverse ? "inverse" : "forward", st->msg);
}

int vkgc_direction(const char *fn, int direction, int *inverse)
{
	switch (direction) {
	case VKFFTGO_FORWARD:
		*inverse = 0;
		return 0;
	case VKFFTGO_INVERSE:
		*inverse = 1;
		return 0;
	}
	vkgcapi_fail(VKFFTGO_ERROR_INVALID_ARGUMENT,
		     "%s: direction is %d; want VKFFTGO_FORWARD (-1) or VKFFTGO_INVERSE (1)", fn, direction);
	return -1;
}

vkgc_slot *vkgc_plan_acquire(const char *fn, const vkfftgo_plan *h)
{
	vkgc_slot *s;
	if (!h) {
		vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: plan handle is NULL", fn);
		return NULL;
	}
	s = vkgc_acquire(h, VKGC_PLAN, 1);
	if (!s)
		vkgcapi_fail(VKFFTGO_ERROR_INVALID_HANDLE,
			     "%s: %p is not a live plan handle (destroyed, its device closed, or a handle of another kind?)",
			     fn, (const void *)h);
	return s;
}

vkgc_slot *vkgc_buffer_acquire(const char *fn, const char *what, const vkfftgo_buffer *h)
{
	vkgc_slot *s = vkgc_acquire(h, VKGC_BUFFER, 0);
	if (!s)
		vkgcapi_fail(VKFFTGO_ERROR_INVALID_HANDLE,
			     "%s: %s %p is not a live buffer handle (destroyed, its device closed, or a handle of another kind?)",
			     fn, what, (const void *)h);
	return s;
}

int vkgc_buffer_pair_acquire(const char *fn, const vkfftgo_buffer *outh, const vkfftgo_buffer *inh, vkgc_slot **os,
			     vkgc_slot **is)
{
	*os = *is = NULL;
	if ((uintptr_t)inh < (uintptr_t)outh) {
		if ((*is = vkgc_buffer_acquire(fn, "in", inh)) && (*os = vkgc_buffer_acquire(fn, "out", outh)))
			return 0;
	} else if ((*os = vkgc_buffer_acquire(fn, "out", outh)) &&
		   (inh == outh || (*is = vkgc_buffer_acquire(fn, "in", inh)))) {
		return 0;
	}
	if (*is)
		vkgc_release(*is);
	if (*os)
		vkgc_release(*os);
	*os = *is = NULL;
	return -1;
}

static vkgc_slot *device_acquire(const char *fn, const vkfftgo_device *h)
{
	vkgc_slot *s;
	if (!h) {
		vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: device handle is NULL", fn);
		return NULL;
	}
	s = vkgc_acquire(h, VKGC_DEVICE, 0);
	if (!s)
		vkgcapi_fail(VKFFTGO_ERROR_INVALID_HANDLE,
			     "%s: %p is not an open device handle (closed, or a handle of another kind?)", fn,
			     (const void *)h);
	return s;
}

static vkfftgo_status wrong_size(const char *fn, int inverse, uint64_t out, uint64_t in, uint64_t want_out,
				 uint64_t want_in, int at_least)
{
	return vkgcapi_fail(VKFFTGO_ERROR_WRONG_SIZE,
			    "%s: %s: out has %llu bytes and in %llu; the plan needs out %s%llu and in %llu bytes", fn,
			    inverse ? "inverse" : "forward", (unsigned long long)out, (unsigned long long)in,
			    at_least ? "at least " : "", (unsigned long long)want_out, (unsigned long long)want_in);
}

/* check_inplace refuses out and in that break the plan's in-place rule. */
static vkfftgo_status check_inplace(const char *fn, const vkgc_plan *p, int same, const char *what)
{
	switch (p->inplace) {
	case VKGC_INPLACE_REFUSED_R2C:
		if (same)
			return vkgcapi_fail(VKFFTGO_ERROR_INVALID_ARGUMENT, "%s: an R2C plan needs distinct in and out %s",
					    fn, what);
		break;
	case VKGC_INPLACE_REFUSED_STRIDES:
		if (same)
			return vkgcapi_fail(VKFFTGO_ERROR_INVALID_ARGUMENT,
					    "%s: in place (out == in) needs in_strides equal to out_strides", fn);
		break;
	case VKGC_INPLACE_REQUIRED:
		if (!same)
			return vkgcapi_fail(VKFFTGO_ERROR_INVALID_ARGUMENT,
					    "%s: an in-place R2C plan (real_inplace) transforms one %s: out must equal in",
					    fn, what);
		break;
	}
	return VKFFTGO_SUCCESS;
}

/* host_call is the host round trip of vkfftgo_forward/inverse/execute; checked says the
 * caller gave the sizes. */
static vkfftgo_status host_call(const char *fn, vkfftgo_plan *h, int inverse, void *out, size_t out_bytes,
				const void *in, size_t in_bytes, int checked)
{
	vkgc_slot *s;
	vkgc_plan *p;
	uint64_t want_out, want_in;
	int rc;
	if (!h)
		return vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: plan handle is NULL", fn);
	if (!out)
		return vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: out is NULL", fn);
	if (!in)
		return vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: in is NULL", fn);
	s = vkgc_plan_acquire(fn, h);
	if (!s)
		return VKFFTGO_ERROR_INVALID_HANDLE;
	p = s->obj;
	if (p->strided) {
		vkgc_release(s);
		return vkgcapi_fail(VKFFTGO_ERROR_UNSUPPORTED,
				    "%s: a plan with in_strides/out_strides runs on device buffers and native memory "
				    "(vkfftgo_execute_buffer, vkfftgo_execute_cu/_cl); host memory is contiguous",
				    fn);
	}
	vkgc_plan_io(p, inverse, &want_out, &want_in);
	if (checked && (out_bytes != want_out || in_bytes != want_in)) {
		vkgc_release(s);
		return wrong_size(fn, inverse, out_bytes, in_bytes, want_out, want_in, 0);
	}
	if (check_inplace(fn, p, out == in, "array")) {
		vkgc_release(s);
		return VKFFTGO_ERROR_INVALID_ARGUMENT;
	}
	rc = vkgc_run_host(p, inverse, out, want_out, in, want_in, &call_st);
	vkgc_release(s);
	return rc ? core_fail(fn, inverse, rc, &call_st) : VKFFTGO_SUCCESS;
}

vkfftgo_status vkfftgo_forward(vkfftgo_plan *plan, void *out, const void *in)
{
	VKGCAPI_FORK_GUARD("vkfftgo_forward");
	return host_call("vkfftgo_forward", plan, 0, out, 0, in, 0, 0);
}

vkfftgo_status vkfftgo_inverse(vkfftgo_plan *plan, void *out, const void *in)
{
	VKGCAPI_FORK_GUARD("vkfftgo_inverse");
	return host_call("vkfftgo_inverse", plan, 1, out, 0, in, 0, 0);
}

vkfftgo_status vkfftgo_execute(vkfftgo_plan *plan, int direction, void *out, size_t out_bytes, const void *in,
			       size_t in_bytes)
{
	int inverse;
	VKGCAPI_FORK_GUARD("vkfftgo_execute");
	if (vkgc_direction("vkfftgo_execute", direction, &inverse))
		return VKFFTGO_ERROR_INVALID_ARGUMENT;
	return host_call("vkfftgo_execute", plan, inverse, out, out_bytes, in, in_bytes, 1);
}

vkfftgo_status vkfftgo_execute_buffer(vkfftgo_plan *plan, int direction, vkfftgo_buffer *outh,
				      vkfftgo_buffer *inh)
{
	static const char fn[] = "vkfftgo_execute_buffer";
	vkgc_slot *ps, *os = NULL, *is = NULL;
	vkgc_plan *p;
	vkgc_buffer *out, *in;
	uint64_t want_out, want_in;
	vkfftgo_status ret = VKFFTGO_SUCCESS;
	int inverse, rc;
	VKGCAPI_FORK_GUARD(fn);
	if (vkgc_direction(fn, direction, &inverse))
		return VKFFTGO_ERROR_INVALID_ARGUMENT;
	if (!plan)
		return vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: plan handle is NULL", fn);
	if (!outh)
		return vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: out is NULL", fn);
	if (!inh)
		return vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: in is NULL", fn);
	/* lock order: the plan, then its buffers (vkgc_buffer_pair_acquire) */
	ps = vkgc_plan_acquire(fn, plan);
	if (!ps)
		return VKFFTGO_ERROR_INVALID_HANDLE;
	p = ps->obj;
	if (vkgc_buffer_pair_acquire(fn, outh, inh, &os, &is)) {
		ret = VKFFTGO_ERROR_INVALID_HANDLE;
		goto done;
	}
	out = os->obj;
	in = is ? is->obj : out;
	if (out->dev != p->dev || in->dev != p->dev) {
		ret = vkgcapi_fail(VKFFTGO_ERROR_WRONG_DEVICE, "%s: a buffer belongs to another device than the plan", fn);
		goto done;
	}
	vkgc_plan_io(p, inverse, &want_out, &want_in);
	if (p->strided ? out->bytes < want_out || in->bytes < want_in
		       : out->bytes != want_out || in->bytes != want_in) {
		ret = wrong_size(fn, inverse, out->bytes, in->bytes, want_out, want_in, p->strided);
		goto done;
	}
	if ((ret = check_inplace(fn, p, out == in, "buffers")) != VKFFTGO_SUCCESS)
		goto done;
	rc = vkg_plan_run_out_in_oop(p->core, vkgc_plan_oop(p, out->mem, in->mem), inverse, out->mem, in->mem,
				     &call_st);
	if (rc)
		ret = core_fail(fn, inverse, rc, &call_st);
done:
	if (is)
		vkgc_release(is);
	if (os)
		vkgc_release(os);
	vkgc_release(ps);
	return ret;
}

vkfftgo_status vkgc_run_native(const char *fn, vkfftgo_plan *plan, int direction, vkg_mem out, vkg_mem in,
			       const char *null_what)
{
	vkgc_slot *s;
	vkgc_plan *p;
	int inverse, rc;
	VKGCAPI_FORK_GUARD(fn);
	if (vkgc_direction(fn, direction, &inverse))
		return VKFFTGO_ERROR_INVALID_ARGUMENT;
	if (!plan)
		return vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: plan handle is NULL", fn);
	if (!out || !in)
		return vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: %s is NULL", fn,
				    null_what ? null_what : (!out ? "out" : "in"));
	s = vkgc_plan_acquire(fn, plan);
	if (!s)
		return VKFFTGO_ERROR_INVALID_HANDLE;
	p = s->obj;
	if (check_inplace(fn, p, out == in, "memory")) {
		vkgc_release(s);
		return VKFFTGO_ERROR_INVALID_ARGUMENT;
	}
	rc = vkg_plan_run_out_in_oop(p->core, vkgc_plan_oop(p, out, in), inverse, out, in, &call_st);
	vkgc_release(s);
	return rc ? core_fail(fn, inverse, rc, &call_st) : VKFFTGO_SUCCESS;
}

vkfftgo_status vkfftgo_plan_io_bytes(vkfftgo_plan *plan, int direction, size_t *out_bytes, size_t *in_bytes)
{
	static const char fn[] = "vkfftgo_plan_io_bytes";
	vkgc_slot *s;
	uint64_t out, in;
	int inverse;
	VKGCAPI_FORK_GUARD(fn);
	if (vkgc_direction(fn, direction, &inverse))
		return VKFFTGO_ERROR_INVALID_ARGUMENT;
	if (!out_bytes || !in_bytes)
		return vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: out_bytes or in_bytes is NULL", fn);
	if (!plan)
		return vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: plan handle is NULL", fn);
	s = vkgc_acquire(plan, VKGC_PLAN, 0); /* the sizes never change: shared */
	if (!s)
		return vkgcapi_fail(VKFFTGO_ERROR_INVALID_HANDLE,
				    "%s: %p is not a live plan handle (destroyed, its device closed, or a handle of another kind?)",
				    fn, (const void *)plan);
	vkgc_plan_io(s->obj, inverse, &out, &in);
	vkgc_release(s);
	*out_bytes = (size_t)out;
	*in_bytes = (size_t)in;
	return VKFFTGO_SUCCESS;
}

vkfftgo_status vkfftgo_device_sync(vkfftgo_device *device)
{
	static const char fn[] = "vkfftgo_device_sync";
	vkgc_slot *s;
	vkgc_device *d;
	int rc;
	VKGCAPI_FORK_GUARD(fn);
	s = device_acquire(fn, device);
	if (!s)
		return device ? VKFFTGO_ERROR_INVALID_HANDLE : VKFFTGO_ERROR_NULL_POINTER;
	d = s->obj;
	rc = vkg_sync(d->dev, &call_st);
	vkgc_release(s);
	return rc ? vkgcapi_fail(vkgc_core_status(rc), "%s: %s", fn, call_st.msg) : VKFFTGO_SUCCESS;
}

vkfftgo_status vkfftgo_device_set_staging_threshold(vkfftgo_device *device, int64_t bytes)
{
	vkgc_slot *s;
	VKGCAPI_FORK_GUARD("vkfftgo_device_set_staging_threshold");
	s = device_acquire("vkfftgo_device_set_staging_threshold", device);
	if (!s)
		return device ? VKFFTGO_ERROR_INVALID_HANDLE : VKFFTGO_ERROR_NULL_POINTER;
	__atomic_store_n(&((vkgc_device *)s->obj)->stage_min, bytes, __ATOMIC_RELAXED);
	vkgc_release(s);
	return VKFFTGO_SUCCESS;
}

int vkfftgo_vkfft_version(void) { return vkg_vkfft_version(); }
