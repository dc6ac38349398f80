/* layout.c — strided FFTW layouts against the dense row-major arrays libvkfftgo
 * transforms: the check that they are the same (then the caller's arrays are used
 * directly), and the copies between them when they are not (any FFTW guru layout:
 * padded in-place r2c rows, strides, interleaved batches, several howmany axes). */
#include <string.h>

#include "vfw.h"

void vfw_side_finish(vfw_side *s)
{
	ptrdiff_t c = (ptrdiff_t)s->es;
	s->lo = 0;
	s->hi = (ptrdiff_t)s->es;
	s->direct = 1;
	for (int i = s->nd - 1; i >= 0; i--) {
		s->canon[i] = c;
		c *= s->n[i];
		if (s->n[i] > 1 && s->stride[i] != s->canon[i])
			s->direct = 0;
		ptrdiff_t span = (s->n[i] - 1) * s->stride[i];
		if (span < 0)
			s->lo += span;
		else
			s->hi += span;
	}
	s->bytes = (size_t)c;
}

int vfw_sides_overlap(const void *a, const vfw_side *sa, const void *b, const vfw_side *sb)
{
	const char *pa = (const char *)a, *pb = (const char *)b;
	return pa + sa->lo < pb + sb->hi && pb + sb->lo < pa + sa->hi;
}

/* The innermost axis: one memcpy when both sides are contiguous along it. */
static inline void copy_row(char *d, ptrdiff_t ds, const char *s, ptrdiff_t ss, ptrdiff_t n, size_t es)
{
	if (ds == (ptrdiff_t)es && ss == (ptrdiff_t)es) {
		memcpy(d, s, (size_t)n * es);
		return;
	}
	switch (es) {
	case 4:
		for (ptrdiff_t i = 0; i < n; i++, d += ds, s += ss)
			memcpy(d, s, 4);
		break;
	case 8:
		for (ptrdiff_t i = 0; i < n; i++, d += ds, s += ss)
			memcpy(d, s, 8);
		break;
	case 16:
		for (ptrdiff_t i = 0; i < n; i++, d += ds, s += ss)
			memcpy(d, s, 16);
		break;
	default:
		for (ptrdiff_t i = 0; i < n; i++, d += ds, s += ss)
			memcpy(d, s, es);
	}
}

/* Copies every element of the side's index space from src (strides ss) to dst
 * (strides ds), walking the outer axes with an odometer. */
static void copy_nd(char *dst, const ptrdiff_t *ds, const char *src, const ptrdiff_t *ss, const vfw_side *s)
{
	int nd = s->nd;
	if (nd == 0) {
		memcpy(dst, src, s->es);
		return;
	}
	ptrdiff_t idx[VFW_MAXD] = { 0 };
	for (;;) {
		copy_row(dst, ds[nd - 1], src, ss[nd - 1], s->n[nd - 1], s->es);
		int i = nd - 2;
		for (; i >= 0; i--) {
			dst += ds[i];
			src += ss[i];
			if (++idx[i] < s->n[i])
				break;
			dst -= ds[i] * s->n[i];
			src -= ss[i] * s->n[i];
			idx[i] = 0;
		}
		if (i < 0)
			return;
	}
}

void vfw_gather(void *dense, const void *src, const vfw_side *s)
{
	copy_nd((char *)dense, s->canon, (const char *)src, s->stride, s);
}

void vfw_scatter(void *dst, const void *dense, const vfw_side *s)
{
	copy_nd((char *)dst, s->stride, (const char *)dense, s->canon, s);
}
