/* exchange.c — the global transposes: the plain slabs (rows of the first axis, a[i][j])
 * to the transposed ones (rows of the second, t[j][i]) and back, each a local pack,
 * one MPI_Alltoallv in rows of rest values, and a local unpack. Block q of a plain
 * rank holds its rows i against q's columns j, packed [i][j]. */
#include <string.h>

#include "vfm.h"

static vkfftgo_status alltoallv(vkfftgo_mpi_plan *p, const int *scount, const int *sdispl,
				const int *rcount, const int *rdispl)
{
	int rc = MPI_Alltoallv(p->sendbuf, scount, sdispl, p->row, p->recvbuf, rcount, rdispl, p->row,
			       p->comm);
	return rc == MPI_SUCCESS ? VKFFTGO_SUCCESS : vfm_mpi_fail("MPI_Alltoallv", rc);
}

vkfftgo_status vfm_to_transposed(vkfftgo_mpi_plan *p, const void *plain, void *transposed)
{
	const size_t row = (size_t)p->rest * p->elem;
	const int64_t l0 = p->l0[p->me], l1 = p->l1[p->me];
	const char *a = plain;
	char *send = p->sendbuf, *recv = p->recvbuf, *t = transposed;
	for (int q = 0; q < p->size; q++)
		for (int64_t i = 0; i < l0; i++)
			memcpy(send + (size_t)(l0 * p->s1[q] + i * p->l1[q]) * row,
			       a + (size_t)(i * p->m1 + p->s1[q]) * row, (size_t)p->l1[q] * row);
	vkfftgo_status st = alltoallv(p, p->fwd_count, p->fwd_displ, p->bwd_count, p->bwd_displ);
	if (st != VKFFTGO_SUCCESS)
		return st;
	for (int r = 0; r < p->size; r++)
		for (int64_t i = 0; i < p->l0[r]; i++)
			for (int64_t j = 0; j < l1; j++)
				memcpy(t + (size_t)(j * p->n0 + p->s0[r] + i) * row,
				       recv + (size_t)(p->s0[r] * l1 + i * l1 + j) * row, row);
	return VKFFTGO_SUCCESS;
}

vkfftgo_status vfm_to_plain(vkfftgo_mpi_plan *p, const void *transposed, void *plain)
{
	const size_t row = (size_t)p->rest * p->elem;
	const int64_t l0 = p->l0[p->me], l1 = p->l1[p->me];
	const char *t = transposed;
	char *send = p->sendbuf, *recv = p->recvbuf, *a = plain;
	for (int r = 0; r < p->size; r++)
		for (int64_t i = 0; i < p->l0[r]; i++)
			for (int64_t j = 0; j < l1; j++)
				memcpy(send + (size_t)(p->s0[r] * l1 + i * l1 + j) * row,
				       t + (size_t)(j * p->n0 + p->s0[r] + i) * row, row);
	vkfftgo_status st = alltoallv(p, p->bwd_count, p->bwd_displ, p->fwd_count, p->fwd_displ);
	if (st != VKFFTGO_SUCCESS)
		return st;
	for (int q = 0; q < p->size; q++)
		for (int64_t i = 0; i < l0; i++)
			memcpy(a + (size_t)(i * p->m1 + p->s1[q]) * row,
			       recv + (size_t)(l0 * p->s1[q] + i * p->l1[q]) * row, (size_t)p->l1[q] * row);
	return VKFFTGO_SUCCESS;
}
