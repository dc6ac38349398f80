/* vkg_herm.c — the launches of the Hermitian projection before a multi-dimensional C2R
 * (see vkg_herm.h). Backend-neutral: the backends only say how large a window one buffer
 * argument may be (vkg_kernel_binding_limits). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkg_herm.h"

static _Atomic uint64_t window_limit;

void vkg_herm_set_window_limit(uint64_t bytes) { window_limit = bytes; }

/* one coordinate of the complex array besides the last axis */
typedef struct herm_axis {
	uint64_t n, stride;
	int mirror;
} herm_axis;

/* herm_refuse records why the projection cannot run: the plan is made, its inverse refused. */
static int herm_refuse(vkg_herm *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int herm_refuse(vkg_herm *h, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(h->why, sizeof h->why, fmt, ap);
	va_end(ap);
	h->k = NULL;
	return VKG_OK;
}

/* axes_of lists the complex array's coordinates after the last axis, fastest first (the
 * batch last, never mirrored), and returns how many; *half is the last axis' n/2+1 and
 * *nyq the offset of its n/2 plane (0 for odd n). */
static int axes_of(const vkg_plan_params *p, herm_axis ax[5], uint64_t *half, uint64_t *nyq)
{
	uint64_t size[4], stride, n;
	int omit[4], dim, i, na = 0;

	if (p->vk_dim > 0) {
		dim = p->vk_dim;
		for (i = 0; i < dim; i++) {
			size[i] = p->vk_size[i];
			omit[i] = p->vk_omit[i];
		}
	} else { /* the shape as it is, every axis transformed */
		dim = p->rank;
		for (i = 0; i < dim; i++) {
			size[i] = p->shape[p->rank - 1 - i];
			omit[i] = 0;
		}
	}
	n = size[0];
	*half = n / 2 + 1;
	*nyq = n % 2 == 0 ? n / 2 : 0;
	stride = *half;
	for (i = 1; i <= dim; i++) {
		herm_axis a;
		if (i < dim) {
			a.n = size[i];
			a.mirror = !omit[i];
		} else {
			a.n = p->vk_dim > 0 ? p->vk_batch : p->batch;
			a.mirror = 0;
		}
		/* strided layouts name the complex side's strides (VkFFT's bufferStride: axes
		 * 1..dim-1, then the batch); dense ones follow from the extents */
		a.stride = p->strided ? p->out_stride[i - 1] : stride;
		stride *= a.n ? a.n : 1;
		ax[na++] = a;
	}
	return na;
}

/* The projection's shape: up to three inner axes and the outer one, as the kernel walks
 * them. */
typedef struct herm_geom {
	herm_axis in[3], out;
	uint64_t nyq, planes;
	uint64_t inner;  /* work-items per outer slice */
	uint64_t foot;   /* elements one outer slice spans */
	uint64_t jcount; /* outer slices the launches cover: a mirrored axis' half, with its middle */
	uint64_t esz, span;
} herm_geom;

/* fill_launch describes the launch over outer slices [j, j+c) into l; whole: both views
 * are the whole buffer, else each its window of the slices it reaches. */
static void fill_launch(const herm_geom *g, uint64_t j, uint64_t c, int whole, uint64_t align, vkg_herm_launch *l)
{
	uint64_t esz = g->esz, s = g->out.stride, jb, a0, b0, len;
	int i;
	/* a mirrored run [j, j+c) pairs with (n-j-c, n-j]; slice 0 is its own mirror */
	jb = g->out.mirror && j > 0 ? g->out.n - (j + c - 1) : j;
	if (whole) {
		a0 = b0 = 0;
		l->a_bytes = l->b_bytes = g->span;
	} else { /* aligned down: the kernel subtracts these offsets from its indices */
		len = ((c - 1) * s + g->foot) * esz;
		a0 = j * s * esz / align * align;
		b0 = jb * s * esz / align * align;
		l->a_bytes = len + (j * s * esz - a0);
		l->b_bytes = len + (jb * s * esz - b0);
		if (a0 + l->a_bytes > g->span)
			l->a_bytes = g->span - a0;
		if (b0 + l->b_bytes > g->span)
			l->b_bytes = g->span - b0;
	}
	l->a_off = a0;
	l->b_off = b0;
	memset(l->arg, 0, sizeof l->arg);
	l->arg[VKG_HERM_COUNT] = g->inner * c;
	l->arg[VKG_HERM_NYQ] = g->nyq;
	for (i = 0; i < 3; i++) {
		l->arg[VKG_HERM_N1 + i] = g->in[i].n;
		l->arg[VKG_HERM_S1 + i] = g->in[i].stride;
		l->arg[VKG_HERM_MIRROR] |= (uint64_t)(g->in[i].mirror != 0) << i;
	}
	l->arg[VKG_HERM_MIRROR] |= (uint64_t)(g->out.mirror != 0) << 3;
	l->arg[VKG_HERM_NOUT] = g->out.n;
	l->arg[VKG_HERM_SOUT] = s;
	l->arg[VKG_HERM_J0] = j;
	l->arg[VKG_HERM_AOFF] = a0 / esz;
	l->arg[VKG_HERM_BOFF] = b0 / esz;
	l->groups = (g->inner * c + VKG_HERM_LOCAL - 1) / VKG_HERM_LOCAL;
}

/* run_length is how many outer slices the launch starting at slice j takes. */
static uint64_t run_length(const herm_geom *g, uint64_t j, uint64_t cap)
{
	uint64_t c = g->out.mirror && j == 0 && cap < g->jcount ? 1 : cap;
	return c < g->jcount - j ? c : g->jcount - j;
}

int vkg_herm_init(vkg_herm *h, vkg_device *dev, const vkg_plan_params *p, vkg_status *st)
{
	herm_axis ax[5];
	herm_geom g = {0};
	uint64_t half, max_bytes, align, cap, j, n;
	int na, nin = 0, i, more = 0, whole;

	memset(h, 0, sizeof *h);
	if (p->kind != VKG_R2C)
		return VKG_OK;
	na = axes_of(p, ax, &half, &g.nyq);
	for (i = 0; i < na; i++)
		more |= ax[i].n > 1 || ax[i].mirror;
	if (!more)
		return VKG_OK; /* a single line: VkFFT's 1-D C2R drops the imaginary parts itself */
	h->needed = 1;
	h->k = p->hermitian;
	if (!h->k) {
		snprintf(h->why, sizeof h->why, "%s",
			 p->hermitian_why && p->hermitian_why[0] ? p->hermitian_why
								 : "no projection kernel was built for the plan");
		return VKG_OK;
	}
	/* axes of one point change no offset (a point is its own mirror); the last axis left
	 * is the outer one */
	g.out = (herm_axis){1, 0, 0};
	for (i = 0; i < na; i++) {
		if (ax[i].n <= 1)
			continue;
		if (g.out.n > 1) {
			if (nin == 3)
				return herm_refuse(h, "%d axes besides the last are more than the projection kernel takes", na);
			g.in[nin++] = g.out;
		}
		g.out = ax[i];
	}
	for (i = nin; i < 3; i++)
		g.in[i] = (herm_axis){1, 0, 0};
	g.planes = g.nyq ? 2 : 1;
	g.inner = g.planes;
	g.foot = g.nyq + 1;
	for (i = 0; i < 3; i++) {
		g.inner *= g.in[i].n;
		g.foot += (g.in[i].n - 1) * g.in[i].stride;
	}
	g.esz = p->storage == VKG_STORAGE_HALF ? 4 : p->double_precision ? 16 : 8;
	g.span = p->buffer_bytes;
	g.jcount = g.out.mirror ? g.out.n / 2 + 1 : g.out.n;

	/* one launch where the whole buffer fits a window, else runs of outer slices */
	vkg_kernel_binding_limits(dev, &max_bytes, &align);
	if (align < 1)
		align = 1;
	if (window_limit && window_limit < max_bytes)
		max_bytes = window_limit;
	whole = g.span <= max_bytes;
	cap = g.jcount;
	if (!whole) {
		if (g.foot * g.esz + align > max_bytes)
			return herm_refuse(h,
					   "one slice of the half spectrum spans %llu bytes, more than one kernel binding "
					   "covers on this device (%llu)",
					   (unsigned long long)(g.foot * g.esz), (unsigned long long)max_bytes);
		if (g.out.stride)
			cap = (max_bytes - align - g.foot * g.esz) / (g.out.stride * g.esz) + 1;
	}
	for (j = 0, n = 0; j < g.jcount; j += run_length(&g, j, cap))
		n++;
	if (n > 1u << 24)
		return herm_refuse(h, "the C2R projection would take %llu launches (limit %llu)", (unsigned long long)n,
				   1ull << 24);
	h->launches = calloc(n, sizeof *h->launches);
	if (!h->launches)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	for (j = 0; j < g.jcount; j += run_length(&g, j, cap))
		fill_launch(&g, j, run_length(&g, j, cap), whole, align, &h->launches[h->nlaunches++]);
	return VKG_OK;
}

void vkg_herm_free(vkg_herm *h)
{
	free(h->launches);
	h->launches = NULL;
	h->nlaunches = 0;
}

int vkg_herm_check(const vkg_herm *h, vkg_status *st)
{
	if (h->needed && !h->k)
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0,
				"a complex-to-real inverse over several axes needs the Hermitian projection of its input "
				"(FFTW's semantics), which cannot run here: %s",
				h->why);
	return VKG_OK;
}

int vkg_herm_run(vkg_device *dev, uint64_t queue, const vkg_herm *h, vkg_mem buf, vkg_status *st)
{
	vkg_arg args[VKG_HERM_NARGS];
	int i, j, rc;
	if (!h->needed)
		return VKG_OK;
	if ((rc = vkg_herm_check(h, st)) != VKG_OK)
		return rc;
	args[0].ptr = args[1].ptr = &buf;
	args[0].size = args[1].size = sizeof buf;
	for (i = 0; i < h->nlaunches; i++) {
		const vkg_herm_launch *l = &h->launches[i];
		uint64_t groups[2] = {l->groups, 1}, vals[VKG_HERM_NSCALARS];
		for (j = 0; j < VKG_HERM_NSCALARS; j++) {
			vals[j] = l->arg[j];
			args[2 + j].ptr = &vals[j];
			args[2 + j].size = 8;
		}
		/* the views are the whole buffer here (a device pointer has no window) */
		vals[VKG_HERM_AOFF] = vals[VKG_HERM_BOFF] = 0;
		rc = vkg_kernel_launch(dev, queue, h->k, groups, VKG_HERM_LOCAL, VKG_HERM_NARGS, args, st);
		if (rc)
			return rc;
	}
	return VKG_OK;
}
