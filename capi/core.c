/* core.c — the C records behind the C API's handles (core.h), and the host round trip's
 * choice between staged and direct copies. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "core.h"

vkgc_device *vkgc_device_new(vkg_device *dev, int64_t stage_min, uint64_t slot_bytes, int threads,
			     int max_stagers)
{
	vkgc_device *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->dev = dev;
	d->stage_min = stage_min;
	d->slot_bytes = slot_bytes;
	d->threads = threads;
	d->max_stagers = max_stagers < 0 ? 0 : max_stagers > VKGC_MAX_STAGERS ? VKGC_MAX_STAGERS : max_stagers;
	pthread_mutex_init(&d->stage_mu, NULL);
	pthread_rwlock_init(&d->ranges_mu, NULL);
	return d;
}

void vkgc_device_free(vkgc_device *d)
{
	if (!d)
		return;
	while (d->nidle > 0)
		vkg_stager_destroy(d->idle[--d->nidle]);
	if (d->pool)
		vkg_pool_destroy(d->pool);
	pthread_mutex_destroy(&d->stage_mu);
	pthread_rwlock_destroy(&d->ranges_mu);
	free(d->ranges);
	free(d);
}

int vkgc_range_add(vkgc_device *d, uintptr_t start, uint64_t bytes)
{
	int rc = 0;
	pthread_rwlock_wrlock(&d->ranges_mu);
	if (d->nranges == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 8;
		vkgc_range *r = realloc(d->ranges, cap * sizeof *r);
		if (!r)
			rc = -1;
		else
			d->ranges = r, d->cap = cap;
	}
	if (rc == 0)
		d->ranges[d->nranges++] = (vkgc_range){start, start + (uintptr_t)bytes};
	pthread_rwlock_unlock(&d->ranges_mu);
	return rc;
}

void vkgc_range_remove(vkgc_device *d, uintptr_t start)
{
	size_t i;
	pthread_rwlock_wrlock(&d->ranges_mu);
	for (i = 0; i < d->nranges; i++)
		if (d->ranges[i].start == start) {
			d->ranges[i] = d->ranges[--d->nranges];
			break;
		}
	pthread_rwlock_unlock(&d->ranges_mu);
}

vkgc_plan *vkgc_plan_new(vkgc_device *d, vkg_plan *core, int inplace, int strided, uint64_t fwd_out,
			 uint64_t fwd_in, uint64_t inv_out, uint64_t inv_in)
{
	vkgc_plan *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	*p = (vkgc_plan){d, core, inplace, strided, {{fwd_out, fwd_in}, {inv_out, inv_in}}, NULL, 0, {NULL, NULL}};
	return p;
}

vkgc_buffer *vkgc_buffer_new(vkgc_device *d, vkg_mem mem, uint64_t bytes)
{
	vkgc_buffer *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	*b = (vkgc_buffer){d, mem, bytes};
	return b;
}

vkgc_conv *vkgc_conv_new(vkgc_device *d, vkg_plan *plan, const vkg_conv_pad *pad, vkg_mem in, vkg_mem out,
			 uint64_t in_bytes, uint64_t out_bytes, uint64_t items, int inplace)
{
	vkgc_conv *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	*c = (vkgc_conv){d, plan, pad, in, out, in_bytes, out_bytes, items ? items : 1, inplace};
	return c;
}

vkgc_spectro *vkgc_spectro_new(vkgc_device *d, vkg_spectro *core, uint64_t nffts, uint64_t sample_bytes,
			       uint64_t bins, int fftshift, const int32_t *perm, uint64_t nperm)
{
	vkgc_spectro *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	*s = (vkgc_spectro){d, core, nffts, sample_bytes, bins, fftshift, NULL, NULL, 0};
	if (nperm) {
		s->perm = malloc(nperm * sizeof *perm);
		if (!s->perm) {
			free(s);
			return NULL;
		}
		memcpy(s->perm, perm, nperm * sizeof *perm);
	}
	if ((nperm || fftshift) && !(s->scratch = malloc(bins * sizeof *s->scratch))) {
		vkgc_spectro_free(s);
		return NULL;
	}
	return s;
}

void vkgc_spectro_free(vkgc_spectro *s)
{
	if (!s)
		return;
	free(s->perm);
	free(s->scratch);
	free(s);
}

vkg_pool *vkgc_device_pool(vkgc_device *d, vkg_status *st)
{
	vkg_pool *p;
	pthread_mutex_lock(&d->stage_mu);
	if (!d->pool)
		vkg_pool_create(d->threads, &d->pool, st);
	p = d->pool;
	pthread_mutex_unlock(&d->stage_mu);
	return p;
}

vkg_plan *vkgc_plan_oop(vkgc_plan *p, vkg_mem out, vkg_mem in)
{
	if (out == in)
		return NULL;
	if (p->oop_builder) { /* once: creation is Go's, as for every object */
		p->oop = (vkg_plan *)vkgcapi_build_out_of_place(p->oop_builder);
		p->oop_builder = 0;
	}
	return p->oop;
}

vkgc_stream *vkgc_stream_new(vkgc_device *d, uint64_t queue)
{
	vkgc_stream *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	*s = (vkgc_stream){d, queue};
	return s;
}

vkgc_host_buffer *vkgc_host_buffer_new(vkgc_device *d, void *ptr, uint64_t bytes)
{
	vkgc_host_buffer *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	*b = (vkgc_host_buffer){d, ptr, bytes};
	return b;
}

void vkgc_plan_io(const vkgc_plan *p, int inverse, uint64_t *out, uint64_t *in)
{
	*out = p->io_bytes[inverse != 0][0];
	*in = p->io_bytes[inverse != 0][1];
}

/* ranges_contain: [p, p+n) lies in one registered range; the caller holds ranges_mu. */
static int ranges_contain(const vkgc_device *d, const void *p, uint64_t n)
{
	uintptr_t a = (uintptr_t)p;
	size_t i;
	for (i = 0; i < d->nranges; i++)
		if (a >= d->ranges[i].start && a + n <= d->ranges[i].end)
			return 1;
	return 0;
}

int vkgc_device_pinned(vkgc_device *d, const void *p, uint64_t n)
{
	int in;
	pthread_rwlock_rdlock(&d->ranges_mu);
	in = ranges_contain(d, p, n);
	pthread_rwlock_unlock(&d->ranges_mu);
	return in;
}

/* take_stager mirrors vkfft's Device.takeStager: large transfers of pageable memory
 * borrow an idle stager (made on demand, up to max_stagers); small ones, registered
 * memory, and transfers that find every stager busy copy directly. */
static vkg_stager *take_stager(vkgc_device *d, const void *dst, uint64_t dst_bytes, const void *src,
			       uint64_t src_bytes)
{
	int64_t t = __atomic_load_n(&d->stage_min, __ATOMIC_RELAXED);
	uint64_t most = dst_bytes > src_bytes ? dst_bytes : src_bytes;
	vkg_stager *s = NULL;
	vkg_status ignored;
	int registered;
	if (t < 0 || most < (uint64_t)t)
		return NULL;
	pthread_rwlock_rdlock(&d->ranges_mu);
	registered = ranges_contain(d, src, src_bytes) && ranges_contain(d, dst, dst_bytes);
	pthread_rwlock_unlock(&d->ranges_mu);
	if (registered)
		return NULL;
	pthread_mutex_lock(&d->stage_mu);
	if (d->nidle > 0) {
		s = d->idle[--d->nidle];
	} else if (!d->failed && d->made < d->max_stagers) {
		if (!d->pool && vkg_pool_create(d->threads, &d->pool, &ignored) != VKG_OK)
			d->failed = 1;
		else if (vkg_stager_create(d->dev, d->slot_bytes, d->pool, &s, &ignored) != VKG_OK)
			d->failed = 1, s = NULL;
		else
			d->made++;
	}
	pthread_mutex_unlock(&d->stage_mu);
	return s;
}

static void put_stager(vkgc_device *d, vkg_stager *s)
{
	pthread_mutex_lock(&d->stage_mu);
	d->idle[d->nidle++] = s;
	pthread_mutex_unlock(&d->stage_mu);
}

int vkgc_run_host(vkgc_plan *p, int inverse, void *dst, uint64_t dst_bytes, const void *src, uint64_t src_bytes,
		  vkg_status *st)
{
	vkg_stager *s = take_stager(p->dev, dst, dst_bytes, src, src_bytes);
	int rc = vkg_run_host(vkg_plan_run_desc(p->core, inverse), s, dst, dst_bytes, src, src_bytes, st);
	if (s)
		put_stager(p->dev, s);
	return rc;
}
