/* hotpath_fuse.c — the per-call functions of convolutions and spectrometers, in C like
 * the transforms' (hotpath.c): each makes the core call (vkg_conv.c, vkg_spectro.c) that
 * vkfft's Apply, ApplyBuffer, Accumulate, AccumulateBuffer, Read or Reset makes, with its
 * arguments, on the records Go made at creation (core.h), with capi/fuse.go's checks and
 * messages, and never enters Go — but for a spectrometer's first host accumulation, which
 * has Go make its host-streaming buffers once (vkgcapi_spectro_prepare_host).
 * Locks: the convolution or spectrometer exclusively (its VkFFT application, and a
 * spectrometer's bins and scratch, are not reentrant; vkfft's own lock made it so), then
 * its buffers shared in handle order; a destroy of any of them waits for the call. */
#include <stdint.h>
#include <stdlib.h>

#include "vkfftgo.h"
#include "capi.h"
#include "core.h"
#include "handles.h"
#include "hotpath.h"

#define fuse_st (vkgcapi_thread_state()->fuse_st) /* one per thread: capi.h */

/* fused_acquire locks a convolution's or spectrometer's slot exclusively; NULL with
 * lookupFused's message set if the handle is NULL or not a live one of kind. */
static vkgc_slot *fused_acquire(const char *fn, const void *h, unsigned kind, vkfftgo_status *ret)
{
	const char *what = kind == VKGC_CONVOLUTION ? "convolution" : "spectrometer";
	vkgc_slot *s;
	if (!h) {
		*ret = vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: %s handle is NULL", fn, what);
		return NULL;
	}
	s = vkgc_acquire(h, kind, 1);
	if (!s)
		*ret = vkgcapi_fail(VKFFTGO_ERROR_INVALID_HANDLE,
				    "%s: %p is not a live %s handle (destroyed, its device closed, or a handle of another "
				    "kind?)",
				    fn, h, what);
	return s;
}

/* op_fail reports a failed core call as vkfft does: "fn: vkfft: op: <sentinel>: <why>",
 * and what VkFFT printed while failing after it. */
static vkfftgo_status op_fail(const char *fn, const char *op, int rc)
{
	char *detail = vkg_status_take_detail(&fuse_st);
	vkfftgo_status ret = vkgcapi_fail(vkgc_core_status(rc), "%s: vkfft: %s: %s: %s%s%s", fn, op,
					  vkgc_core_sentinel(rc), fuse_st.msg, detail ? "; VkFFT said: " : "",
					  detail ? detail : "");
	free(detail);
	return ret;
}

static vkfftgo_status conv_wrong_size(const char *fn, uint64_t in, uint64_t out, const vkgc_conv *c)
{
	return vkgcapi_fail(VKFFTGO_ERROR_WRONG_SIZE, "%s: in has %llu bytes and out %llu; the convolution needs in %llu and out %llu",
			    fn, (unsigned long long)in, (unsigned long long)out, (unsigned long long)c->in_bytes,
			    (unsigned long long)c->out_bytes);
}

vkfftgo_status vkfftgo_convolution_apply(vkfftgo_convolution *convolution, void *out, size_t out_bytes,
					 const void *in, size_t in_bytes)
{
	static const char fn[] = "vkfftgo_convolution_apply";
	vkgc_slot *cs;
	vkgc_conv *c;
	vkfftgo_status ret = VKFFTGO_SUCCESS;
	int rc;
	VKGCAPI_FORK_GUARD(fn);
	if (!(cs = fused_acquire(fn, convolution, VKGC_CONVOLUTION, &ret)))
		return ret;
	c = cs->obj;
	if (!out || !in)
		ret = vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: out or in is NULL", fn);
	else if (in_bytes != c->in_bytes || out_bytes != c->out_bytes)
		ret = conv_wrong_size(fn, in_bytes, out_bytes, c);
	else if ((rc = vkg_plan_run_io_host(c->plan, c->dev->dev, c->pad, out, c->out_bytes, c->out, in, c->in_bytes,
					    c->in, c->items, &fuse_st)) != VKG_OK)
		ret = op_fail(fn, "apply", rc);
	vkgc_release(cs);
	return ret;
}

vkfftgo_status vkfftgo_convolution_apply_buffer(vkfftgo_convolution *convolution, vkfftgo_buffer *outh,
						vkfftgo_buffer *inh)
{
	static const char fn[] = "vkfftgo_convolution_apply_buffer";
	vkgc_slot *cs, *os = NULL, *is = NULL;
	vkgc_conv *c;
	vkgc_buffer *out, *in;
	vkg_mem from = 0, src;
	vkfftgo_status ret = VKFFTGO_SUCCESS;
	int rc;
	VKGCAPI_FORK_GUARD(fn);
	if (!(cs = fused_acquire(fn, convolution, VKGC_CONVOLUTION, &ret)))
		return ret;
	c = cs->obj;
	if (!outh || !inh) {
		ret = vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: %s is NULL", fn, !outh ? "out" : "in");
		goto done;
	}
	if (vkgc_buffer_pair_acquire(fn, outh, inh, &os, &is)) {
		ret = VKFFTGO_ERROR_INVALID_HANDLE;
		goto done;
	}
	out = os->obj;
	in = is ? is->obj : out;
	if (out->dev != c->dev || in->dev != c->dev) {
		ret = vkgcapi_fail(VKFFTGO_ERROR_WRONG_DEVICE, "%s: a buffer belongs to another device than the convolution",
				   fn);
		goto done;
	}
	if (in->bytes != c->in_bytes || out->bytes != c->out_bytes) {
		ret = conv_wrong_size(fn, in->bytes, out->bytes, c);
		goto done;
	}
	/* vkfft's applyBuffers: with one kernel the result lands where the input was, so out
	 * gets a copy of in and is transformed (a padded convolution reads in itself) */
	src = in->mem;
	if (c->inplace && !c->pad) {
		src = out->mem;
		if (out->mem != in->mem)
			from = in->mem;
	}
	rc = vkg_plan_run_items_wait(c->plan, c->dev->dev, c->pad, from, src, out->mem, c->items,
				     c->in_bytes / c->items, c->out_bytes / c->items, 0, &fuse_st);
	if (rc)
		ret = op_fail(fn, "apply buffer", rc);
done:
	if (is)
		vkgc_release(is);
	if (os)
		vkgc_release(os);
	vkgc_release(cs);
	return ret;
}

static vkfftgo_status samples_wrong_size(const char *fn, uint64_t got, const vkgc_spectro *sp)
{
	return vkgcapi_fail(VKFFTGO_ERROR_WRONG_SIZE, "%s: samples has %llu bytes; the spectrometer takes %llu", fn,
			    (unsigned long long)got, (unsigned long long)sp->sample_bytes);
}

vkfftgo_status vkfftgo_spectrometer_accumulate(vkfftgo_spectrometer *spectrometer, const void *samples,
					       size_t bytes)
{
	static const char fn[] = "vkfftgo_spectrometer_accumulate";
	vkgc_slot *ss;
	vkgc_spectro *sp;
	vkg_pool *pool = NULL;
	vkfftgo_status ret = VKFFTGO_SUCCESS;
	int pinned, rc;
	VKGCAPI_FORK_GUARD(fn);
	if (!(ss = fused_acquire(fn, spectrometer, VKGC_SPECTROMETER, &ret)))
		return ret;
	sp = ss->obj;
	if (!samples) {
		ret = vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: samples is NULL", fn);
		goto done;
	}
	if (bytes != sp->sample_bytes) {
		ret = samples_wrong_size(fn, bytes, sp);
		goto done;
	}
	if (sp->host_builder) { /* once: creation is Go's, as for every object */
		if ((ret = (vkfftgo_status)vkgcapi_spectro_prepare_host(sp->host_builder, (char *)fn)) != VKFFTGO_SUCCESS)
			goto done; /* kept: the next call tries again, as vkfft's does */
		sp->host_builder = 0;
	}
	/* vkfft's accumulateHost: pinned samples are uploaded as they are, pageable ones
	 * through the pinned chunk buffers by the device's copy threads */
	pinned = vkgc_device_pinned(sp->dev, samples, bytes);
	if (!pinned && !(pool = vkgc_device_pool(sp->dev, &fuse_st))) {
		ret = op_fail(fn, "accumulate", fuse_st.code);
		goto done;
	}
	if ((rc = vkg_spectro_host(sp->core, pool, samples, pinned, sp->nffts, &fuse_st)) != VKG_OK)
		ret = op_fail(fn, "accumulate", rc);
done:
	vkgc_release(ss);
	return ret;
}

vkfftgo_status vkfftgo_spectrometer_accumulate_buffer(vkfftgo_spectrometer *spectrometer, vkfftgo_buffer *samples)
{
	static const char fn[] = "vkfftgo_spectrometer_accumulate_buffer";
	vkgc_slot *ss, *bs = NULL;
	vkgc_spectro *sp;
	vkgc_buffer *b;
	vkfftgo_status ret = VKFFTGO_SUCCESS;
	int rc;
	VKGCAPI_FORK_GUARD(fn);
	if (!(ss = fused_acquire(fn, spectrometer, VKGC_SPECTROMETER, &ret)))
		return ret;
	sp = ss->obj;
	if (!samples) {
		ret = vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: samples is NULL", fn);
		goto done;
	}
	if (!(bs = vkgc_buffer_acquire(fn, "samples", samples))) {
		ret = VKFFTGO_ERROR_INVALID_HANDLE;
		goto done;
	}
	b = bs->obj;
	if (b->dev != sp->dev)
		ret = vkgcapi_fail(VKFFTGO_ERROR_WRONG_DEVICE, "%s: the buffer belongs to another device than the spectrometer",
				   fn);
	else if (b->bytes != sp->sample_bytes)
		ret = samples_wrong_size(fn, b->bytes, sp);
	else if ((rc = vkg_spectro_device(sp->core, b->mem, 0, sp->nffts, &fuse_st)) != VKG_OK)
		ret = op_fail(fn, "accumulate buffer", rc);
done:
	if (bs)
		vkgc_release(bs);
	vkgc_release(ss);
	return ret;
}

vkfftgo_status vkfftgo_spectrometer_read(vkfftgo_spectrometer *spectrometer, float *psd, size_t count)
{
	static const char fn[] = "vkfftgo_spectrometer_read";
	vkgc_slot *ss;
	vkgc_spectro *sp;
	vkfftgo_status ret = VKFFTGO_SUCCESS;
	uint64_t p, k, shift;
	int rc;
	VKGCAPI_FORK_GUARD(fn);
	if (!(ss = fused_acquire(fn, spectrometer, VKGC_SPECTROMETER, &ret)))
		return ret;
	sp = ss->obj;
	if (!psd) {
		ret = vkgcapi_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: psd is NULL", fn);
		goto done;
	}
	if (count != sp->bins) {
		ret = vkgcapi_fail(VKFFTGO_ERROR_WRONG_SIZE, "%s: count is %zu; the spectrometer has %llu bins", fn, count,
				   (unsigned long long)sp->bins);
		goto done;
	}
	/* bins in order are read straight into psd; else through scratch, each value moved
	 * to its bin (perm) and rotated by bins/2 (fftshift), as vkfft's Read */
	rc = vkg_download(sp->core->dev, sp->scratch ? sp->scratch : psd, sp->core->psd, sp->bins * sizeof *psd, &fuse_st);
	if (rc) {
		ret = op_fail(fn, "read", rc);
		goto done;
	}
	if (sp->scratch) {
		shift = sp->fftshift ? sp->bins / 2 : 0;
		for (p = 0; p < sp->bins; p++) {
			k = (sp->perm ? (uint64_t)sp->perm[p] : p) + shift;
			psd[k < sp->bins ? k : k - sp->bins] = sp->scratch[p];
		}
	}
done:
	vkgc_release(ss);
	return ret;
}

vkfftgo_status vkfftgo_spectrometer_reset(vkfftgo_spectrometer *spectrometer)
{
	static const char fn[] = "vkfftgo_spectrometer_reset";
	vkgc_slot *ss;
	vkfftgo_status ret = VKFFTGO_SUCCESS;
	int rc;
	VKGCAPI_FORK_GUARD(fn);
	if (!(ss = fused_acquire(fn, spectrometer, VKGC_SPECTROMETER, &ret)))
		return ret;
	if ((rc = vkg_spectro_zero(((vkgc_spectro *)ss->obj)->core, &fuse_st)) != VKG_OK)
		ret = op_fail(fn, "reset", rc);
	vkgc_release(ss);
	return ret;
}
