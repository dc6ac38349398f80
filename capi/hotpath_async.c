/* hotpath_async.c — vkfftgo_execute_async and vkfftgo_stream_wait in C, like the other
 * per-call entry points (hotpath.c): they queue BytePlan.ForwardAsync/InverseAsync's work
 * through the same core entry point (vkg_run_host_async), and wait as Stream.Wait does
 * (vkg_stream_sync), on the records Go made for the plan, the stream and the host
 * buffers (core.h), with vkfft's checks and messages, and never enter Go.
 * Locks: the plan exclusively (a VkFFT application is not reentrant), then the stream
 * exclusively (one submission to it at a time, as vkfft.Stream's own lock made it), then
 * the host buffers shared, in a fixed order; a destroy of any of them waits for the call. */
#include <stdint.h>

#include "vkfftgo.h"
#include "capi.h"
#include "core.h"
#include "handles.h"
#include "hotpath.h"

#define async_st (vkgcapi_thread_state()->async_st) /* one per thread: capi.h */

/* obj_acquire locks the slot of a stream or host buffer handle; NULL with the message of
 * capi/streams.go's holdObj set if the handle is NULL or not a live one of kind. */
static vkgc_slot *obj_acquire(const char *fn, const char *what, const void *h, unsigned kind, int exclusive,
			      vkfftgo_status *ret)
{
	vkgc_slot *s;
	if (!h) {
		*ret = vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: %s is NULL", fn, what);
		return NULL;
	}
	s = vkgc_acquire(h, kind, exclusive);
	if (!s)
		*ret = vkgcapi_fail(VKFFTGO_ERROR_INVALID_HANDLE,
				    "%s: %s %p is not a live handle of its kind (destroyed, its device closed, or a handle "
				    "of another kind?)",
				    fn, what, h);
	return s;
}

/* check_host is vkfft's check of one host buffer of an asynchronous call: its length in
 * bytes, then its device. */
static vkfftgo_status check_host(const char *fn, const char *op, const char *name, const vkgc_host_buffer *b,
				 uint64_t want, const vkgc_plan *p)
{
	if (b->bytes != want)
		return vkgcapi_fail(VKFFTGO_ERROR_WRONG_SIZE, "%s: vkfft: %s: wrong length: %s has %llu elements, the plan needs %llu",
				    fn, op, name, (unsigned long long)b->bytes, (unsigned long long)want);
	if (b->dev != p->dev)
		return vkgcapi_fail(VKFFTGO_ERROR_WRONG_DEVICE, "%s: vkfft: %s: buffer of another device", fn, op);
	return VKFFTGO_SUCCESS;
}

vkfftgo_status vkfftgo_execute_async(vkfftgo_plan *plan, vkfftgo_stream *stream, int direction,
				     vkfftgo_host_buffer *outh, vkfftgo_host_buffer *inh)
{
	static const char fn[] = "vkfftgo_execute_async";
	vkgc_slot *ps, *ss = NULL, *os = NULL, *is = NULL;
	vkgc_plan *p;
	vkgc_stream *s;
	vkgc_host_buffer *out, *in;
	uint64_t want_out, want_in;
	vkfftgo_status ret = VKFFTGO_SUCCESS;
	const char *op;
	int inverse, rc;
	VKGCAPI_FORK_GUARD(fn);
	if (!plan)
		return vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: plan handle is NULL", fn);
	ps = vkgc_plan_acquire(fn, plan);
	if (!ps)
		return VKFFTGO_ERROR_INVALID_HANDLE;
	p = ps->obj;
	if (vkgc_direction(fn, direction, &inverse)) {
		vkgc_release(ps);
		return VKFFTGO_ERROR_INVALID_ARGUMENT;
	}
	op = inverse ? "inverse async" : "forward async";
	if (!(ss = obj_acquire(fn, "stream", stream, VKGC_STREAM, 1, &ret)))
		goto done;
	s = ss->obj;
	if (!outh || !inh) {
		ret = vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: %s is NULL", fn, !outh ? "out" : "in");
		goto done;
	}
	/* in the order of the handles' values, as vkfft locks host buffers in address order:
	 * two calls naming the same two the other way round, with their destroys waiting
	 * between them, would deadlock otherwise (the slots' locks prefer writers) */
	if ((uintptr_t)inh < (uintptr_t)outh) {
		if (!(is = obj_acquire(fn, "in", inh, VKGC_HOST_BUFFER, 0, &ret)) ||
		    !(os = obj_acquire(fn, "out", outh, VKGC_HOST_BUFFER, 0, &ret)))
			goto done;
	} else {
		if (!(os = obj_acquire(fn, "out", outh, VKGC_HOST_BUFFER, 0, &ret)))
			goto done;
		if (inh != outh && !(is = obj_acquire(fn, "in", inh, VKGC_HOST_BUFFER, 0, &ret)))
			goto done;
	}
	out = os->obj;
	in = is ? is->obj : out;
	/* vkfft's checks, in its order (BytePlan.runAsync, plan.runAsync) */
	if (p->async_refusal[inverse]) {
		ret = vkgcapi_fail(VKFFTGO_ERROR_UNSUPPORTED, "%s: %s", fn, p->async_refusal[inverse]);
		goto done;
	}
	if (s->dev != p->dev) {
		ret = vkgcapi_fail(VKFFTGO_ERROR_WRONG_DEVICE,
				   "%s: vkfft: %s: buffer of another device: the stream belongs to another device", fn, op);
		goto done;
	}
	vkgc_plan_io(p, inverse, &want_out, &want_in);
	if ((ret = check_host(fn, op, "src", in, want_in, p)) != VKFFTGO_SUCCESS ||
	    (ret = check_host(fn, op, "dst", out, want_out, p)) != VKFFTGO_SUCCESS)
		goto done;
	/* the core orders the stream after the plan's earlier work on other queues */
	rc = vkg_run_host_async(vkg_plan_run_desc(p->core, inverse), s->queue, out->ptr, want_out, in->ptr, want_in,
				&async_st);
	if (rc)
		ret = vkgcapi_fail(vkgc_core_status(rc), "%s: vkfft: %s: %s", fn, op, async_st.msg);
done:
	if (is)
		vkgc_release(is);
	if (os)
		vkgc_release(os);
	if (ss)
		vkgc_release(ss);
	vkgc_release(ps);
	return ret;
}

vkfftgo_status vkfftgo_stream_wait(vkfftgo_stream *stream)
{
	static const char fn[] = "vkfftgo_stream_wait";
	vkgc_slot *ss;
	vkgc_stream *s;
	vkfftgo_status ret = VKFFTGO_SUCCESS;
	int rc;
	VKGCAPI_FORK_GUARD(fn);
	/* exclusively, as vkfft.Stream.Wait holds the stream's lock: a backend's wait may
	 * retire the queue's submissions, which its submissions also touch */
	if (!(ss = obj_acquire(fn, "stream", stream, VKGC_STREAM, 1, &ret)))
		return ret;
	s = ss->obj;
	if ((rc = vkg_stream_sync(s->dev->dev, s->queue, &async_st)) != VKG_OK)
		ret = vkgcapi_fail(vkgc_core_status(rc), "%s: vkfft: wait: %s: %s", fn, vkgc_core_sentinel(rc),
				   async_st.msg);
	vkgc_release(ss);
	return ret;
}
