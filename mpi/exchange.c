/* exchange.c — the global transposes, chunk by chunk: the plain slabs (rows of the first
 * axis, a[i][j]) to a chunk of the transposed ones (rows of the second, t[j][i]) and
 * back, each a local pack, one MPI_Alltoallv in rows of rest values, and a local unpack.
 * Chunk k of every rank's transposed slab is its columns k*c .. (k+1)*c-1 (c =
 * p->chunk_cols, the same on every rank), held in p->tchunk[k]; unpipelined there is one
 * chunk, the whole slab. Block q of a plain rank holds its rows i against q's columns j
 * of the chunk, packed [i][j]. */
#include <string.h>

#include "vfm.h"

/* The columns of rank r's transposed slab in chunk k (0 past its last). */
static int64_t chunk_count(const vkfftgo_mpi_plan *p, int r, int k)
{
	int64_t lo = (int64_t)k * p->chunk_cols, hi = lo + p->chunk_cols;
	if (hi > p->l1[r])
		hi = p->l1[r];
	return hi > lo ? hi - lo : 0;
}

/* Fills p's count tables for chunk k: what this rank's plain slab sends each rank
 * (plain_*) and what its transposed chunk receives from each (trans_*), in rows. */
static void chunk_tables(vkfftgo_mpi_plan *p, int k)
{
	const int64_t l0 = p->l0[p->me], mine = chunk_count(p, p->me, k);
	int plain = 0, trans = 0;
	for (int r = 0; r < p->size; r++) {
		p->plain_count[r] = (int)(l0 * chunk_count(p, r, k));
		p->plain_displ[r] = plain;
		plain += p->plain_count[r];
		p->trans_count[r] = (int)(p->l0[r] * mine);
		p->trans_displ[r] = trans;
		trans += p->trans_count[r];
	}
}

static vkfftgo_status alltoallv(vkfftgo_mpi_plan *p, const int *scount, const int *sdispl,
				const int *rcount, const int *rdispl)
{
	int rc = MPI_Alltoallv(p->sendbuf, scount, sdispl, p->row, p->recvbuf, rcount, rdispl, p->row,
			       p->comm);
	return rc == MPI_SUCCESS ? VKFFTGO_SUCCESS : vfm_mpi_fail("MPI_Alltoallv", rc);
}

vkfftgo_status vfm_to_transposed(vkfftgo_mpi_plan *p, const void *plain, int k)
{
	const size_t row = (size_t)p->rest * p->elem;
	const int64_t l0 = p->l0[p->me], mine = chunk_count(p, p->me, k), first = (int64_t)k * p->chunk_cols;
	const char *a = plain;
	char *send = p->sendbuf, *recv = p->recvbuf, *t = p->tchunk[k];
	chunk_tables(p, k);
	for (int q = 0; q < p->size; q++) {
		int64_t n = chunk_count(p, q, k);
		for (int64_t i = 0; i < l0 && n > 0; i++)
			memcpy(send + (size_t)(p->plain_displ[q] + i * n) * row,
			       a + (size_t)(i * p->m1 + p->s1[q] + first) * row, (size_t)n * row);
	}
	vkfftgo_status st = alltoallv(p, p->plain_count, p->plain_displ, p->trans_count, p->trans_displ);
	if (st != VKFFTGO_SUCCESS)
		return st;
	for (int r = 0; r < p->size; r++)
		for (int64_t i = 0; i < p->l0[r]; i++)
			for (int64_t j = 0; j < mine; j++)
				memcpy(t + (size_t)(j * p->n0 + p->s0[r] + i) * row,
				       recv + (size_t)(p->trans_displ[r] + i * mine + j) * row, row);
	return VKFFTGO_SUCCESS;
}

vkfftgo_status vfm_to_plain(vkfftgo_mpi_plan *p, int k, void *plain)
{
	const size_t row = (size_t)p->rest * p->elem;
	const int64_t l0 = p->l0[p->me], mine = chunk_count(p, p->me, k), first = (int64_t)k * p->chunk_cols;
	const char *t = p->tchunk[k];
	char *send = p->sendbuf, *recv = p->recvbuf, *a = plain;
	chunk_tables(p, k);
	for (int r = 0; r < p->size; r++)
		for (int64_t i = 0; i < p->l0[r]; i++)
			for (int64_t j = 0; j < mine; j++)
				memcpy(send + (size_t)(p->trans_displ[r] + i * mine + j) * row,
				       t + (size_t)(j * p->n0 + p->s0[r] + i) * row, row);
	vkfftgo_status st = alltoallv(p, p->trans_count, p->trans_displ, p->plain_count, p->plain_displ);
	if (st != VKFFTGO_SUCCESS)
		return st;
	for (int q = 0; q < p->size; q++) {
		int64_t n = chunk_count(p, q, k);
		for (int64_t i = 0; i < l0 && n > 0; i++)
			memcpy(a + (size_t)(i * p->m1 + p->s1[q] + first) * row,
			       recv + (size_t)(p->plain_displ[q] + i * n) * row, (size_t)n * row);
	}
	return VKFFTGO_SUCCESS;
}

int64_t vfm_chunk_cols(const vkfftgo_mpi_plan *p, int k) { return chunk_count(p, p->me, k); }
