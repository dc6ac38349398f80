/* vkg_conv.c — runs of plans with separate input and output buffers (the convolutions):
 * item by item when VkFFT's convolution cannot batch them (see conv.go), and host round
 * trips (upload, run, download) in one C call. */
#include "vkg.h"

int vkg_plan_run_items(vkg_plan *plan, uint64_t queue, vkg_mem in, vkg_mem out, uint64_t items, uint64_t in_step,
		       uint64_t out_step, vkg_status *st)
{
	uint64_t i;
	int rc = VKG_OK;
	for (i = 0; i < items && rc == VKG_OK; i++)
		rc = vkg_plan_run_io(plan, 0, queue, 0, in, i * in_step, out, i * out_step, st);
	return rc;
}

int vkg_plan_run_items_wait(vkg_plan *plan, vkg_device *dev, vkg_mem copy_from, vkg_mem in, vkg_mem out,
			    uint64_t items, uint64_t in_step, uint64_t out_step, int wait, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	if (copy_from)
		rc = vkg_mem_copy(dev, in, copy_from, items * in_step, st);
	if (rc == VKG_OK)
		rc = vkg_plan_run_items(plan, 0, in, out, items, in_step, out_step, st);
	if (rc == VKG_OK && wait)
		rc = vkg_queue_sync(dev, 0, st);
	vkg_ctx_leave(dev);
	return rc;
}

int vkg_plan_run_io_host(vkg_plan *plan, vkg_device *dev, void *dst, uint64_t dst_bytes, vkg_mem out,
			 const void *src, uint64_t src_bytes, vkg_mem in, uint64_t items, vkg_status *st)
{
	vkg_status sync_st;
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_mem_write(dev, in, 0, src, src_bytes, st);
	if (rc == VKG_OK)
		rc = vkg_plan_run_items(plan, 0, in, out, items, src_bytes / items, dst_bytes / items, st);
	if (rc == VKG_OK)
		rc = vkg_mem_read(dev, dst, out, 0, dst_bytes, st);
	else
		vkg_device_sync(dev, &sync_st); /* src may still be read by the queue */
	vkg_ctx_leave(dev);
	return rc;
}
