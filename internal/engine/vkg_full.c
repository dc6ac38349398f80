/* vkg_full.c — the launches of a whole-spectrum plan's companion kernels (vkg.h,
 * vkg_full_params; their source is vkfft/kernels_full.go). Backend-neutral: everything
 * goes through vkg_kernel_launch on the plan's queue, in order with its FFTs. */
#include "vkg.h"

#define VKG_FULL_LOCAL 256u

static uint64_t groups_for(uint64_t n) { return (n + VKG_FULL_LOCAL - 1) / VKG_FULL_LOCAL; }

/* herm launches vkg_herm_expand (over the whole spectrum's elements) or vkg_herm_fold
 * (over the half spectrum's): src, dst, batch, d0, d1, d2, n, mirror */
static int herm(const vkg_full_params *f, vkg_device *dev, uint64_t queue, vkg_kernel *k, uint64_t per_row,
		vkg_mem src, vkg_mem dst, vkg_status *st)
{
	uint64_t total = f->batch * f->dims[0] * f->dims[1] * f->dims[2] * per_row;
	uint64_t groups[2] = {groups_for(total), 1};
	vkg_arg args[8] = {{&src, sizeof src},
			   {&dst, sizeof dst},
			   {&f->batch, sizeof f->batch},
			   {&f->dims[0], sizeof f->dims[0]},
			   {&f->dims[1], sizeof f->dims[1]},
			   {&f->dims[2], sizeof f->dims[2]},
			   {&f->n, sizeof f->n},
			   {&f->mirror, sizeof f->mirror}};
	return vkg_kernel_launch(dev, queue, k, groups, VKG_FULL_LOCAL, 8, args, st);
}

/* pointwise launches vkg_widen or vkg_real_part: src, dst, count */
static int pointwise(const vkg_full_params *f, vkg_device *dev, uint64_t queue, vkg_kernel *k, vkg_mem src,
		     vkg_mem dst, vkg_status *st)
{
	uint64_t groups[2] = {groups_for(f->count), 1};
	vkg_arg args[3] = {{&src, sizeof src}, {&dst, sizeof dst}, {&f->count, sizeof f->count}};
	return vkg_kernel_launch(dev, queue, k, groups, VKG_FULL_LOCAL, 3, args, st);
}

int vkg_full_to(const vkg_full_params *f, vkg_device *dev, uint64_t queue, vkg_mem src, vkg_mem dst, vkg_status *st)
{
	switch (f->mode) {
	case VKG_FULL_EXPAND:
		return herm(f, dev, queue, f->to_full, f->n, src, dst, st);
	case VKG_FULL_WIDEN:
		return pointwise(f, dev, queue, f->to_full, src, dst, st);
	}
	return vkg_fail(st, VKG_ERR_INVALID, 0, "not a whole-spectrum plan (mode %d)", f->mode);
}

int vkg_full_from(const vkg_full_params *f, vkg_device *dev, uint64_t queue, vkg_mem src, vkg_mem dst,
		  vkg_status *st)
{
	switch (f->mode) {
	case VKG_FULL_EXPAND:
		return herm(f, dev, queue, f->from_full, f->n / 2 + 1, src, dst, st);
	case VKG_FULL_WIDEN:
		return pointwise(f, dev, queue, f->from_full, src, dst, st);
	}
	return vkg_fail(st, VKG_ERR_INVALID, 0, "not a whole-spectrum plan (mode %d)", f->mode);
}
