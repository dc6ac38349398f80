/* vkg_conv.c — runs of plans with separate input and output buffers (the convolutions):
 * item by item when VkFFT's convolution cannot batch them (see conv.go), through the pad
 * and crop kernels of a zero-padded (linear) convolution, and host round trips (upload,
 * run, download) in one C call. */
#include "vkg.h"

#define VKG_CONV_LOCAL 256u

int vkg_plan_run_items(vkg_plan *plan, uint64_t queue, vkg_mem in, vkg_mem out, uint64_t items, uint64_t in_step,
		       uint64_t out_step, vkg_status *st)
{
	uint64_t i;
	int rc = VKG_OK;
	for (i = 0; i < items && rc == VKG_OK; i++)
		rc = vkg_plan_run_io(plan, 0, queue, 0, in, i * in_step, out, i * out_step, st);
	return rc;
}

static int launch_pad(vkg_device *dev, vkg_kernel *k, const vkg_conv_pad *cp, vkg_mem src, vkg_mem dst, int crop,
		      vkg_status *st)
{
	uint64_t n = cp->comps * (crop ? cp->m[0] * cp->m[1] * cp->m[2] : cp->p[0] * cp->p[1] * cp->p[2]);
	uint64_t groups[2] = {(n + VKG_CONV_LOCAL - 1) / VKG_CONV_LOCAL, 1};
	vkg_arg args[10] = {{&src, sizeof src},           {&dst, sizeof dst},           {&cp->comps, sizeof cp->comps},
			    {&cp->m[0], sizeof cp->m[0]}, {&cp->m[1], sizeof cp->m[1]}, {&cp->m[2], sizeof cp->m[2]},
			    {&cp->p[0], sizeof cp->p[0]}, {&cp->p[1], sizeof cp->p[1]}, {&cp->p[2], sizeof cp->p[2]},
			    {&cp->boundary, sizeof cp->boundary}};
	return vkg_kernel_launch(dev, 0, k, groups, VKG_CONV_LOCAL, 10, args, st);
}

/* run: the convolution of in into out on the device's queue; with cp, in and out are
 * compact and the plan works in place on cp->io, padded and cropped around it */
static int run(vkg_plan *plan, vkg_device *dev, const vkg_conv_pad *cp, vkg_mem in, vkg_mem out, uint64_t items,
	       uint64_t in_step, uint64_t out_step, vkg_status *st)
{
	int rc;
	if (!cp)
		return vkg_plan_run_items(plan, 0, in, out, items, in_step, out_step, st);
	rc = launch_pad(dev, cp->pad, cp, in, cp->io, 0, st);
	if (rc == VKG_OK)
		rc = vkg_plan_run_io(plan, 0, 0, 0, cp->io, 0, cp->io, 0, st);
	if (rc == VKG_OK)
		rc = launch_pad(dev, cp->crop, cp, cp->io, out, 1, st);
	return rc;
}

int vkg_plan_run_items_wait(vkg_plan *plan, vkg_device *dev, const vkg_conv_pad *cp, vkg_mem copy_from, vkg_mem in,
			    vkg_mem out, uint64_t items, uint64_t in_step, uint64_t out_step, int wait, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	if (copy_from)
		rc = vkg_mem_copy_on(dev, 0, in, copy_from, items * in_step, st);
	if (rc == VKG_OK)
		rc = run(plan, dev, cp, in, out, items, in_step, out_step, st);
	if (rc == VKG_OK && wait)
		rc = vkg_queue_sync(dev, 0, st);
	vkg_ctx_leave(dev);
	return rc;
}

int vkg_plan_run_io_host(vkg_plan *plan, vkg_device *dev, const vkg_conv_pad *cp, void *dst, uint64_t dst_bytes,
			 vkg_mem out, const void *src, uint64_t src_bytes, vkg_mem in, uint64_t items, vkg_status *st)
{
	vkg_status sync_st;
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_mem_write(dev, in, 0, src, src_bytes, st);
	if (rc == VKG_OK)
		rc = run(plan, dev, cp, in, out, items, src_bytes / items, dst_bytes / items, st);
	if (rc == VKG_OK)
		rc = vkg_mem_read(dev, dst, out, 0, dst_bytes, st);
	else
		vkg_device_sync(dev, &sync_st); /* src may still be read by the queue */
	vkg_ctx_leave(dev);
	return rc;
}

int vkg_kernel_launch_now(vkg_device *dev, vkg_kernel *k, const uint64_t groups[2], uint32_t local, int nargs,
			  const vkg_arg *args, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_kernel_launch(dev, 0, k, groups, local, nargs, args, st);
	vkg_ctx_leave(dev);
	return rc;
}
