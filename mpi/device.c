/* device.c — this rank's device plans: the trailing axes of its slab (rows), and after
 * the exchange the first axis (cols); and the host slabs they run on. */
#include <stdlib.h>
#include <string.h>

#include "vfm.h"

static vkfftgo_status make(vkfftgo_device *device, const vkfftgo_plan_desc *pd, vkfftgo_plan **out,
			   size_t bytes, const char *what)
{
	vkfftgo_status st = vkfftgo_plan_create(device, pd, out);
	if (st != VKFFTGO_SUCCESS)
		return vfm_fail(st, "vkfftgo_plan_create (%s): %s", what, vkfftgo_last_error());
	size_t ob = 0, ib = 0;
	st = vkfftgo_plan_io_bytes(*out, VKFFTGO_FORWARD, &ob, &ib);
	if (st != VKFFTGO_SUCCESS)
		return vfm_fail(st, "vkfftgo_plan_io_bytes (%s): %s", what, vkfftgo_last_error());
	if (ob != bytes || ib != bytes) /* the slab layout assumed below would be wrong */
		return vfm_fail(VKFFTGO_ERROR_INTERNAL, "%s plan holds %zu/%zu bytes, not the slab's %zu", what,
				ob, ib, bytes);
	return VKFFTGO_SUCCESS;
}

/* Every rank holding rows runs plans of the same size, one block (rank 0's) of rows, on
 * slabs padded to a block (zeros, transformed and never sent): so the ranks compile the
 * same kernels, which a kernel cache shared by the ranks (VKFFTGO_CACHE_DIR) then holds
 * once, built by rank 0 while the others wait (vfm_build_plans). The transposed slab is
 * its chunks (pipe.c): one of ordinary memory here, or where pipelined pinned buffers of
 * the device, made with the device plans. */
vkfftgo_status vfm_alloc_slabs(vkfftgo_mpi_plan *p)
{
	size_t row = (size_t)p->rest * p->elem;
	size_t plain = (size_t)(p->l0[0] * p->m1) * row, chunk = (size_t)(p->chunk_cols * p->n0) * row;
	size_t pack = plain > chunk ? plain : chunk;
	p->slab = calloc(1, plain);
	p->tchunk = calloc((size_t)p->chunks, sizeof *p->tchunk);
	p->sendbuf = malloc(pack);
	p->recvbuf = malloc(pack);
	if (!p->slab || !p->tchunk || !p->sendbuf || !p->recvbuf)
		return vfm_fail(VKFFTGO_ERROR_OUT_OF_MEMORY, "out of host memory for %zu-byte slabs", pack);
	if (p->chunks == 1 && !(p->tchunk[0] = calloc(1, chunk)))
		return vfm_fail(VKFFTGO_ERROR_OUT_OF_MEMORY, "out of host memory for a %zu-byte slab", chunk);
	return VKFFTGO_SUCCESS;
}

/* The pipelined chunks: pinned memory of the device, and the stream they run on. */
static vkfftgo_status pin_chunks(vkfftgo_mpi_plan *p, vkfftgo_device *device)
{
	size_t chunk = (size_t)(p->chunk_cols * p->n0) * (size_t)p->rest * p->elem;
	if (!(p->tbuf = calloc((size_t)p->chunks, sizeof *p->tbuf)))
		return vfm_fail(VKFFTGO_ERROR_OUT_OF_MEMORY, "out of host memory");
	for (int k = 0; k < p->chunks; k++) {
		vkfftgo_status st = vkfftgo_host_buffer_create(device, chunk, &p->tbuf[k], &p->tchunk[k]);
		if (st != VKFFTGO_SUCCESS)
			return vfm_fail(st, "pinned memory for chunk %d of %d (%zu bytes): %s", k + 1, p->chunks, chunk,
					vkfftgo_last_error());
		memset(p->tchunk[k], 0, chunk);
	}
	vkfftgo_status st = vkfftgo_stream_create(device, &p->stream);
	return st ? vfm_fail(st, "vkfftgo_stream_create: %s", vkfftgo_last_error()) : st;
}

void vfm_free_slabs(vkfftgo_mpi_plan *p)
{
	/* the host buffers wait for the stream's work; after a device's close their destroy
	 * reports a stale handle and frees nothing twice */
	for (int k = 0; p->tbuf && k < p->chunks; k++)
		vkfftgo_host_buffer_destroy(p->tbuf[k]);
	if (!p->tbuf && p->tchunk)
		free(p->tchunk[0]);
	vkfftgo_stream_destroy(p->stream);
	free(p->tbuf);
	free(p->tchunk);
	free(p->slab);
	free(p->sendbuf);
	free(p->recvbuf);
}

vkfftgo_status vfm_device_plans(vkfftgo_mpi_plan *p, vkfftgo_device *device)
{
	const vkfftgo_mpi_desc *d = &p->desc;
	int64_t block0 = p->l0[0];
	size_t row = (size_t)p->rest * p->elem;
	size_t plain = (size_t)(block0 * p->m1) * row, transposed = (size_t)(p->chunk_cols * p->n0) * row;
	vkfftgo_status st;
	if (p->l0[p->me] > 0) { /* a batch of (rank-1)-D transforms; R2C in FFTW's padded layout */
		vkfftgo_plan_desc pd = VKFFTGO_PLAN_DESC_INIT;
		pd.kind = d->kind;
		pd.precision = d->precision;
		pd.norm = d->norm;
		pd.rank = d->rank - 1;
		for (int i = 1; i < d->rank; i++)
			pd.shape[i - 1] = d->shape[i];
		pd.batch = block0;
		pd.real_inplace = d->kind == VKFFTGO_R2C;
		if ((st = make(device, &pd, &p->rows, plain, "the slab's trailing axes")) != VKFFTGO_SUCCESS)
			return st;
	}
	if (p->l1[p->me] > 0) { /* the middle axis of a chunk, cols x n0 x rest (2-D: a batch of lines) */
		vkfftgo_plan_desc pd = VKFFTGO_PLAN_DESC_INIT;
		pd.precision = d->precision;
		pd.norm = d->norm;
		if (p->rest == 1) {
			pd.rank = 1;
			pd.shape[0] = p->n0;
			pd.batch = p->chunk_cols;
		} else {
			pd.rank = 3;
			pd.shape[0] = p->chunk_cols;
			pd.shape[1] = p->n0;
			pd.shape[2] = p->rest;
			pd.naxes = 1;
			pd.axes[0] = 1;
		}
		if ((st = make(device, &pd, &p->cols, transposed, "the first axis")) != VKFFTGO_SUCCESS)
			return st;
	}
	if (p->chunks > 1 && (st = pin_chunks(p, device)) != VKFFTGO_SUCCESS)
		return st;
	/* One round trip on the zeroed slabs: drivers that compile a kernel at its first launch
	 * (PoCL, for each work-group size) do it now, rank 0 first, into their own disk cache,
	 * which the other ranks then read. Zeros stay zeros. */
	if ((st = vfm_run(p->rows, VKFFTGO_FORWARD, p->slab, "warming the slab's trailing axes")) ||
	    (st = vfm_run(p->rows, VKFFTGO_INVERSE, p->slab, "warming the slab's trailing axes")) ||
	    (st = vfm_run(p->cols, VKFFTGO_FORWARD, p->tchunk[0], "warming the first axis")) ||
	    (st = vfm_run(p->cols, VKFFTGO_INVERSE, p->tchunk[0], "warming the first axis")))
		return st;
	return VKFFTGO_SUCCESS;
}

vkfftgo_status vfm_run(vkfftgo_plan *plan, int direction, void *buf, const char *what)
{
	if (!plan)
		return VKFFTGO_SUCCESS;
	size_t ob = 0, ib = 0;
	vkfftgo_status st = vkfftgo_plan_io_bytes(plan, direction, &ob, &ib);
	if (st == VKFFTGO_SUCCESS)
		st = vkfftgo_execute(plan, direction, buf, ob, buf, ib);
	if (st != VKFFTGO_SUCCESS)
		return vfm_fail(st, "%s: %s", what, vkfftgo_last_error());
	return VKFFTGO_SUCCESS;
}
