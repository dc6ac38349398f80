/* block.c — FFTW-MPI's default block distribution, and the local-size queries. */
#include "vfm.h"

void vfm_block(int64_t n, int p, int r, int64_t *count, int64_t *start)
{
	int64_t block = (n + p - 1) / p, s = block * r;
	if (s > n)
		s = n;
	*start = s;
	*count = (n - s < block) ? n - s : block;
}

static ptrdiff_t local_size(int rank, const ptrdiff_t *n, MPI_Comm comm, ptrdiff_t *local_n0,
			    ptrdiff_t *local_0_start, ptrdiff_t *local_n1, ptrdiff_t *local_1_start)
{
	if (rank != 2 && rank != 3) {
		vfm_fail(VKFFTGO_ERROR_INVALID_SHAPE, "vkfftgo_mpi_local_size: rank %d (2 or 3)", rank);
		return -1;
	}
	if (!n || !local_n0 || !local_0_start) {
		vfm_fail(VKFFTGO_ERROR_NULL_POINTER, "vkfftgo_mpi_local_size: n, local_n0 or local_0_start is NULL");
		return -1;
	}
	for (int i = 0; i < rank; i++)
		if (n[i] <= 0) {
			vfm_fail(VKFFTGO_ERROR_INVALID_SHAPE, "vkfftgo_mpi_local_size: n[%d] = %td (must be > 0)", i, n[i]);
			return -1;
		}
	int p = 0, me = 0;
	if (MPI_Comm_size(comm, &p) != MPI_SUCCESS || MPI_Comm_rank(comm, &me) != MPI_SUCCESS) {
		vfm_fail(VKFFTGO_ERROR_INVALID_ARGUMENT, "vkfftgo_mpi_local_size: comm is not a communicator");
		return -1;
	}
	int64_t c0, s0, c1, s1, rest = rank == 3 ? n[2] : 1;
	vfm_block(n[0], p, me, &c0, &s0);
	vfm_block(n[1], p, me, &c1, &s1);
	*local_n0 = c0;
	*local_0_start = s0;
	if (local_n1)
		*local_n1 = c1;
	if (local_1_start)
		*local_1_start = s1;
	int64_t plain = c0 * n[1] * rest, transposed = c1 * n[0] * rest;
	int64_t alloc = plain > transposed ? plain : transposed;
	return alloc > 0 ? alloc : 1;
}

VFM_API ptrdiff_t vkfftgo_mpi_local_size(int rank, const ptrdiff_t *n, MPI_Comm comm,
					 ptrdiff_t *local_n0, ptrdiff_t *local_0_start)
{
	return local_size(rank, n, comm, local_n0, local_0_start, NULL, NULL);
}

VFM_API ptrdiff_t vkfftgo_mpi_local_size_transposed(int rank, const ptrdiff_t *n, MPI_Comm comm,
						    ptrdiff_t *local_n0, ptrdiff_t *local_0_start,
						    ptrdiff_t *local_n1, ptrdiff_t *local_1_start)
{
	if (!local_n1 || !local_1_start) {
		vfm_fail(VKFFTGO_ERROR_NULL_POINTER, "vkfftgo_mpi_local_size_transposed: local_n1 or local_1_start is NULL");
		return -1;
	}
	return local_size(rank, n, comm, local_n0, local_0_start, local_n1, local_1_start);
}
