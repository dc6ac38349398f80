/* execute.c — a distributed transform: the slab's trailing axes on the device, the
 * exchange to the transposed layout with the first axis on the device (chunk by chunk,
 * pipe.c), and (unless TRANSPOSED_OUT) the exchange back; the inverse the other way
 * round. The ranks agree on success after every step, so a rank that failed stops all
 * of them. */
#include <stdint.h>
#include <string.h>

#include "vfm.h"

static const char exec_fn[] = "vkfftgo_mpi_execute";

static vkfftgo_status check(int direction, const void *out, size_t out_bytes,
			    const void *in, size_t in_bytes)
{
	if (direction != VKFFTGO_FORWARD && direction != VKFFTGO_INVERSE)
		return vfm_fail(VKFFTGO_ERROR_INVALID_ARGUMENT,
				"direction %d (VKFFTGO_FORWARD or VKFFTGO_INVERSE)", direction);
	if ((!out && out_bytes) || (!in && in_bytes))
		return vfm_fail(VKFFTGO_ERROR_NULL_POINTER, "%s is NULL on a rank holding %zu bytes of it",
				!out && out_bytes ? "out" : "in", !out && out_bytes ? out_bytes : in_bytes);
	uintptr_t o = (uintptr_t)out, i = (uintptr_t)in;
	if (o != i && out && in && o < i + in_bytes && i < o + out_bytes)
		return vfm_fail(VKFFTGO_ERROR_INVALID_ARGUMENT,
				"in and out overlap without being the same buffer (in place needs out == in)");
	return VKFFTGO_SUCCESS;
}

static vkfftgo_status forward(vkfftgo_mpi_plan *p, void *out, const void *in, size_t plain, size_t transposed)
{
	vkfftgo_status st;
	if (plain)
		memcpy(p->slab, in, plain);
	if ((st = vfm_agree(p->comm, vfm_run(p->rows, VKFFTGO_FORWARD, p->slab, "the slab's trailing axes"), exec_fn)))
		return st;
	if ((st = vfm_cols_forward(p, p->slab)))
		return st;
	if (p->desc.flags & VKFFTGO_MPI_TRANSPOSED_OUT) {
		if ((st = vfm_cols_wait(p)))
			return st;
		if (transposed)
			vfm_chunks_out(p, out);
		return VKFFTGO_SUCCESS;
	}
	return vfm_cols_to_plain(p, out);
}

static vkfftgo_status inverse(vkfftgo_mpi_plan *p, void *out, const void *in, size_t plain, size_t transposed)
{
	vkfftgo_status st;
	if (p->desc.flags & VKFFTGO_MPI_TRANSPOSED_IN) {
		if (transposed)
			vfm_chunks_in(p, in);
		st = vfm_cols_inverse(p, NULL, p->slab);
	} else {
		st = vfm_cols_inverse(p, in, p->slab);
	}
	if (st)
		return st;
	if ((st = vfm_agree(p->comm, vfm_run(p->rows, VKFFTGO_INVERSE, p->slab, "the slab's trailing axes"), exec_fn)))
		return st;
	if (plain)
		memcpy(out, p->slab, plain);
	return VKFFTGO_SUCCESS;
}

VFM_API vkfftgo_status vkfftgo_mpi_execute(vkfftgo_mpi_plan *p, int direction, void *out, const void *in)
{
	if (!p) /* no communicator to tell the others: a plan is NULL on every rank or none */
		return vfm_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: plan is NULL", exec_fn);
	size_t row = (size_t)p->rest * p->elem;
	size_t plain = (size_t)(p->l0[p->me] * p->m1) * row;
	size_t transposed = (size_t)(p->l1[p->me] * p->n0) * row;
	int fwd = direction == VKFFTGO_FORWARD;
	size_t in_bytes = fwd || !(p->desc.flags & VKFFTGO_MPI_TRANSPOSED_IN) ? plain : transposed;
	size_t out_bytes = !fwd || !(p->desc.flags & VKFFTGO_MPI_TRANSPOSED_OUT) ? plain : transposed;
	vkfftgo_status st = vfm_agree(p->comm, check(direction, out, out_bytes, in, in_bytes), exec_fn);
	if (st != VKFFTGO_SUCCESS)
		return st;
	return fwd ? forward(p, out, in, plain, transposed) : inverse(p, out, in, plain, transposed);
}
