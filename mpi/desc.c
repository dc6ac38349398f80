/* desc.c — a rank's descriptor checked on its own, then against rank 0's. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vfm.h"

enum { FP_LEN = 8 }; /* rank, shape[3], kind, precision, norm, flags */

static void fingerprint(const vkfftgo_mpi_desc *d, int64_t *fp)
{
	fp[0] = d->rank;
	for (int i = 0; i < 3; i++)
		fp[1 + i] = (i < d->rank) ? d->shape[i] : 0;
	fp[4] = d->kind;
	fp[5] = d->precision;
	fp[6] = d->norm;
	fp[7] = d->flags;
}

void vfm_desc_string(const int64_t *fp, char *buf, size_t cap)
{
	char shape[96];
	if (fp[0] == 2)
		snprintf(shape, sizeof shape, "%" PRId64 "x%" PRId64, fp[1], fp[2]);
	else
		snprintf(shape, sizeof shape, "%" PRId64 "x%" PRId64 "x%" PRId64, fp[1], fp[2], fp[3]);
	snprintf(buf, cap, "%" PRId64 "-D %s %s %s norm %" PRId64 " flags 0x%" PRIx64, fp[0], shape,
		 fp[4] == VKFFTGO_R2C ? "R2C" : "C2C", fp[5] == VKFFTGO_DOUBLE ? "double" : "single",
		 fp[6], fp[7]);
}

vkfftgo_status vfm_desc_check(const vkfftgo_device *device, const vkfftgo_mpi_desc *d,
			      vkfftgo_mpi_plan *const *plan)
{
	const char *f = "vkfftgo_mpi_plan_create";
	if (!device || !d || !plan)
		return vfm_fail(VKFFTGO_ERROR_NULL_POINTER, "%s: %s is NULL", f,
				!device ? "device" : !d ? "desc" : "plan");
	if (d->size != sizeof *d)
		return vfm_fail(VKFFTGO_ERROR_INVALID_ARGUMENT,
				"%s: desc.size is %u, not %zu (start from VKFFTGO_MPI_DESC_INIT)", f,
				d->size, sizeof *d);
	if (d->rank != 2 && d->rank != 3)
		return vfm_fail(VKFFTGO_ERROR_INVALID_SHAPE, "%s: desc.rank is %d (2 or 3)", f, d->rank);
	for (int i = 0; i < d->rank; i++)
		if (d->shape[i] <= 0)
			return vfm_fail(VKFFTGO_ERROR_INVALID_SHAPE, "%s: desc.shape[%d] is %" PRId64 " (must be > 0)",
					f, i, d->shape[i]);
	if (d->kind != VKFFTGO_C2C && d->kind != VKFFTGO_R2C)
		return vfm_fail(VKFFTGO_ERROR_INVALID_ARGUMENT, "%s: desc.kind is %d (VKFFTGO_C2C or VKFFTGO_R2C)",
				f, d->kind);
	if (d->precision != VKFFTGO_SINGLE && d->precision != VKFFTGO_DOUBLE)
		return vfm_fail(VKFFTGO_ERROR_INVALID_ARGUMENT, "%s: desc.precision is %d", f, d->precision);
	if (d->norm < VKFFTGO_NORM_BACKWARD || d->norm > VKFFTGO_NORM_FORWARD)
		return vfm_fail(VKFFTGO_ERROR_INVALID_ARGUMENT, "%s: desc.norm is %d", f, d->norm);
	if (d->flags & ~(uint32_t)(VKFFTGO_MPI_TRANSPOSED_OUT | VKFFTGO_MPI_TRANSPOSED_IN))
		return vfm_fail(VKFFTGO_ERROR_INVALID_ARGUMENT, "%s: desc.flags 0x%x has unknown bits", f, d->flags);
	return VKFFTGO_SUCCESS;
}

vkfftgo_status vfm_desc_compare(MPI_Comm comm, const vkfftgo_mpi_desc *d)
{
	int size = 0;
	MPI_Comm_size(comm, &size);
	int64_t mine[FP_LEN], *all = malloc(sizeof(int64_t) * FP_LEN * (size_t)size);
	vkfftgo_status st = all ? VKFFTGO_SUCCESS
				: vfm_fail(VKFFTGO_ERROR_OUT_OF_MEMORY, "out of host memory");
	st = vfm_agree(comm, st, "vkfftgo_mpi_plan_create"); /* every rank gathers, or none */
	if (st != VKFFTGO_SUCCESS) {
		free(all);
		return st;
	}
	fingerprint(d, mine);
	int rc = MPI_Allgather(mine, FP_LEN, MPI_INT64_T, all, FP_LEN, MPI_INT64_T, comm);
	if (rc != MPI_SUCCESS) {
		free(all);
		return vfm_mpi_fail("MPI_Allgather (the ranks' descriptors)", rc);
	}
	for (int r = 1; r < size; r++) {
		if (memcmp(all, all + FP_LEN * r, sizeof mine) == 0)
			continue;
		char a[160], b[160];
		vfm_desc_string(all + FP_LEN * r, a, sizeof a);
		vfm_desc_string(all, b, sizeof b);
		st = vfm_fail(VKFFTGO_ERROR_INVALID_ARGUMENT,
			      "vkfftgo_mpi_plan_create: the ranks' descriptors differ: rank %d has %s, rank 0 %s",
			      r, a, b);
		break;
	}
	free(all);
	return st;
}
