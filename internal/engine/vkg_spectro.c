/* vkg_spectro.c — see vkg_spectro.h. Backend-neutral: plans through vkg_plan_run_io,
 * companion kernels through vkg_kernel_launch, copies and events through vkg_xfer.h. */
#include <string.h>

#include "vkg_spectro.h"

#define VKG_SUM_LOCAL 256u

/* adds items rows of x (stride apart; float2 |X|^2 by sum_c, floats by sum_f) into
 * the bins, per rows by each of the grid's y-groups: added atomically, or where the
 * device has no float atomics (sums) written as one row each, which one more launch adds */
static int launch_sum_of(vkg_spectro *s, vkg_kernel *k, vkg_mem x, uint64_t stride, uint64_t items, uint64_t per,
			 vkg_status *st)
{
	uint64_t groups[2];
	groups[0] = (s->bins + VKG_SUM_LOCAL - 1) / VKG_SUM_LOCAL;
	groups[1] = (items + per - 1) / per;
	vkg_mem dst = s->sums && groups[1] > 1 ? s->sums : s->psd;
	vkg_arg args[6] = {{&x, sizeof x},           {&dst, sizeof dst},     {&s->bins, sizeof s->bins},
			   {&stride, sizeof stride}, {&items, sizeof items}, {&per, sizeof per}};
	int rc = vkg_kernel_launch(s->dev, 0, k, groups, VKG_SUM_LOCAL, 6, args, st);
	if (rc || dst == s->psd)
		return rc;
	uint64_t rows = groups[1];
	vkg_arg add[6] = {{&s->sums, sizeof s->sums}, {&s->psd, sizeof s->psd}, {&s->bins, sizeof s->bins},
			  {&s->bins, sizeof s->bins}, {&rows, sizeof rows},         {&rows, sizeof rows}};
	groups[1] = 1;
	return vkg_kernel_launch(s->dev, 0, s->sum_f, groups, VKG_SUM_LOCAL, 6, add, st);
}

static int launch_sum(vkg_spectro *s, int power, vkg_status *st)
{
	uint64_t per = (s->chunk + s->sum_groups - 1) / s->sum_groups;
	if (power)
		return launch_sum_of(s, s->sum_f, s->pbuf, s->n, s->chunk, per, st);
	return launch_sum_of(s, s->sum_c, s->cbuf, s->bins, s->chunk, per, st);
}

/* count FFTs from FFT first in one launch of the direct kernel: about direct_groups
 * work-groups, each running a multiple of direct_ty transforms */
static int run_direct(vkg_spectro *s, vkg_mem samples, uint64_t first, uint64_t count, vkg_status *st)
{
	uint64_t per = (count + s->direct_groups - 1) / s->direct_groups;
	uint64_t groups[2];
	per = (per + s->direct_ty - 1) / s->direct_ty * s->direct_ty;
	groups[0] = (count + per - 1) / per;
	groups[1] = 1;
	vkg_mem out = s->partials ? s->partials : s->psd;
	vkg_arg args[7] = {{&samples, sizeof samples},   {&out, sizeof out},     {&s->window, sizeof s->window},
			   {&s->twiddles, sizeof s->twiddles}, {&first, sizeof first}, {&count, sizeof count},
			   {&per, sizeof per}};
	int rc = vkg_kernel_launch(s->dev, 0, s->direct, groups, (uint32_t)s->direct_local, 7, args, st);
	if (rc || !s->partials)
		return rc;
	return launch_sum_of(s, s->sum_f, s->partials, s->n, groups[0], (groups[0] + s->sum_groups - 1) / s->sum_groups,
			     st);
}

/* count (at most a chunk) FFTs from FFT first through the split kernels: the column
 * kernel into the intermediate spectra, then the row kernel, whose work-groups (about
 * direct_groups) each run direct_ty rows of a share of the transforms */
static int run_split(vkg_spectro *s, vkg_mem samples, uint64_t first, uint64_t count, vkg_status *st)
{
	uint64_t n2 = s->n / s->split_n1, row_sets = s->split_n1 / s->direct_ty;
	uint64_t per = (count * row_sets + s->direct_groups - 1) / s->direct_groups;
	uint64_t groups[2] = {(count * n2 + s->columns_ty - 1) / s->columns_ty, 1};
	vkg_arg cols[6] = {{&samples, sizeof samples},   {&s->mid, sizeof s->mid}, {&s->window, sizeof s->window},
			   {&s->twiddles, sizeof s->twiddles}, {&first, sizeof first},   {&count, sizeof count}};
	vkg_arg rows[5] = {{&s->mid, sizeof s->mid}, {&s->psd, sizeof s->psd}, {&s->twiddles, sizeof s->twiddles},
			   {&count, sizeof count},   {&per, sizeof per}};
	int rc = vkg_kernel_launch(s->dev, 0, s->columns, groups, (uint32_t)s->columns_local, 6, cols, st);
	if (rc)
		return rc;
	groups[0] = row_sets * ((count + per - 1) / per);
	return vkg_kernel_launch(s->dev, 0, s->direct, groups, (uint32_t)s->direct_local, 5, rows, st);
}

/* nffts FFTs whose samples start at FFT first of samples, on the device's queue: a
 * chunk, or on the direct path any count up to a chunk */
static int run_chunk(vkg_spectro *s, vkg_mem samples, uint64_t first, uint64_t nffts, vkg_status *st)
{
	uint64_t count = s->chunk * s->n, off = first * s->n;
	int rc;
	if (s->path == VKG_SP_DIRECT && s->columns)
		return run_split(s, samples, first, nffts, st);
	if (s->path == VKG_SP_DIRECT)
		return run_direct(s, samples, first, nffts, st);
	if (s->path == VKG_SP_COMPANION) {
		vkg_mem out = s->real_input ? s->rbuf : s->cbuf;
		uint64_t groups[2] = {(count + VKG_SUM_LOCAL - 1) / VKG_SUM_LOCAL, 1};
		vkg_arg args[5] = {{&samples, sizeof samples}, {&out, sizeof out}, {&s->window, sizeof s->window},
				   {&off, sizeof off},         {&count, sizeof count}};
		rc = vkg_kernel_launch(s->dev, 0, s->convert, groups, VKG_SUM_LOCAL, 5, args, st);
		if (rc == VKG_OK)
			rc = vkg_plan_run_io(s->plan, 0, 0, s->cbuf, s->real_input ? s->rbuf : 0, 0, 0, 0, st);
		return rc ? rc : launch_sum(s, 0, st);
	}
	/* the FFT reads the samples itself; VkFFT counts the offset in its own complex
	 * elements (8 bytes), which index the samples one for one */
	rc = vkg_plan_run_io(s->plan, 0, 0, s->cbuf, samples, off * 8, 0, 0, st);
	if (rc || s->path == VKG_SP_FUSED_ATOMIC)
		return rc;
	return launch_sum(s, s->path == VKG_SP_FUSED_POWER, st);
}

int vkg_spectro_device(vkg_spectro *s, vkg_mem samples, uint64_t first, uint64_t nffts, vkg_status *st)
{
	uint64_t f;
	int rc = vkg_ctx_enter(s->dev, st);
	if (rc)
		return rc;
	if (s->path == VKG_SP_DIRECT && !s->columns) /* no chunk buffer: the whole batch at once */
		rc = run_direct(s, samples, first, nffts, st);
	else
		for (f = 0; f < nffts && rc == VKG_OK; f += s->chunk)
			rc = run_chunk(s, samples, first + f, s->chunk, st);
	vkg_ctx_leave(s->dev);
	return rc;
}

int vkg_spectro_host(vkg_spectro *s, vkg_pool *pool, const void *src, int pinned, uint64_t nffts,
		     vkg_status *st)
{
	uint64_t turn = s->path == VKG_SP_DIRECT && s->turn ? s->turn : s->chunk;
	uint64_t bytes = turn * s->n * s->sample_bytes, i, nturns = nffts / turn;
	vkg_status sync_st;
	int rc, k;

	rc = vkg_ctx_enter(s->dev, st);
	if (rc)
		return rc;
	for (i = 0; i < nturns && rc == VKG_OK; i++) {
		const char *from = (const char *)src + i * bytes;
		k = (int)(i & 1);
		/* the device is done with this turn's buffers (chunk i-2) */
		rc = vkg_event_sync(s->dev, s->ev_done[k], st);
		if (rc)
			break;
		if (!pinned) {
			vkg_pool_copy(pool, s->pin[k], from, bytes);
			from = s->pin[k];
		}
		rc = vkg_mem_write_async(s->dev, s->copy_queue, s->in[k], 0, from, bytes, st);
		if (rc == VKG_OK)
			rc = vkg_event_record(s->dev, s->copy_queue, s->ev_up[k], st);
		if (rc == VKG_OK)
			rc = vkg_queue_wait_event(s->dev, 0, s->ev_up[k], st);
		if (rc == VKG_OK)
			rc = run_chunk(s, s->in[k], 0, turn, st);
		if (rc == VKG_OK)
			rc = vkg_event_record(s->dev, 0, s->ev_done[k], st);
	}
	/* done when the device is, also on failure: the caller's memory is read until then */
	if (rc == VKG_OK)
		rc = vkg_queue_sync(s->dev, 0, st);
	else
		vkg_queue_sync(s->dev, 0, &sync_st);
	vkg_queue_sync(s->dev, s->copy_queue, &sync_st);
	vkg_ctx_leave(s->dev);
	return rc;
}

int vkg_spectro_zero(vkg_spectro *s, vkg_status *st)
{
	uint64_t groups[2] = {(s->bins + VKG_SUM_LOCAL - 1) / VKG_SUM_LOCAL, 1};
	vkg_arg args[2] = {{&s->psd, sizeof s->psd}, {&s->bins, sizeof s->bins}};
	int rc = vkg_ctx_enter(s->dev, st);
	if (rc)
		return rc;
	rc = vkg_kernel_launch(s->dev, 0, s->zero, groups, VKG_SUM_LOCAL, 2, args, st);
	vkg_ctx_leave(s->dev);
	return rc;
}

int vkg_spectro_host_init(vkg_spectro *s, vkg_status *st)
{
	int rc = vkg_ctx_enter(s->dev, st), k;
	if (rc)
		return rc;
	rc = vkg_queue_create(s->dev, &s->copy_queue, st);
	for (k = 0; k < 2 && rc == VKG_OK; k++) {
		rc = vkg_event_create(s->dev, &s->ev_up[k], st);
		if (rc == VKG_OK)
			rc = vkg_event_create(s->dev, &s->ev_done[k], st);
	}
	vkg_ctx_leave(s->dev);
	if (rc)
		vkg_spectro_host_free(s);
	return rc;
}

void vkg_spectro_host_free(vkg_spectro *s)
{
	vkg_status st;
	VKG_FORK_GUARD_VOID();
	int entered = vkg_ctx_enter(s->dev, &st) == VKG_OK, k;
	for (k = 0; k < 2; k++) {
		if (s->ev_up[k]) {
			vkg_event_sync(s->dev, s->ev_up[k], &st);
			vkg_event_destroy(s->dev, s->ev_up[k]);
		}
		if (s->ev_done[k]) {
			vkg_event_sync(s->dev, s->ev_done[k], &st);
			vkg_event_destroy(s->dev, s->ev_done[k]);
		}
		s->ev_up[k] = s->ev_done[k] = 0;
	}
	if (s->copy_queue)
		vkg_queue_destroy(s->dev, s->copy_queue);
	s->copy_queue = 0;
	if (entered)
		vkg_ctx_leave(s->dev);
}
