/* pipe.c — the first axis' stage of a distributed transform, chunk by chunk: the
 * transposed slab is cut into chunks of columns (the same count on every rank), each
 * exchanged by an MPI_Alltoallv of its own. Pipelined, each chunk is pinned memory that
 * the device transforms on the plan's stream (vkfftgo_execute_async) while the next chunk
 * is exchanged, so a transform costs about the slower of the exchanges and the device's
 * work, not their sum. Unpipelined (one chunk) the device runs in between. The ranks
 * agree on success before each exchange, as everywhere in this library. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "vfm.h"

static const char exec_fn[] = "vkfftgo_mpi_execute";

/* The automatic choice: up to this many chunks of at least this many bytes each, so
 * that every chunk's transfers outweigh a round trip's fixed cost. */
enum { AUTO_CHUNKS = 8 };
#define MIN_CHUNK_BYTES ((size_t)4 << 20)

/* Rank 0's count: the most up to VKFFTGO_MPI_CHUNKS (or the automatic choice) that divide
 * its block of columns, the same block as every rank's plans; -1 for a bad variable. */
static int rank0_chunks(const vkfftgo_mpi_plan *p)
{
	const char *env = getenv("VKFFTGO_MPI_CHUNKS");
	int64_t block = p->l1[0], want = AUTO_CHUNKS;
	size_t column = (size_t)(p->n0 * p->rest) * p->elem;
	int chosen = env && *env;
	if (chosen) {
		char *end = NULL;
		long v = strtol(env, &end, 10);
		if (*end || v < 0 || v > INT_MAX)
			return -1;
		want = v ? v : AUTO_CHUNKS;
		chosen = v != 0;
	}
	for (int64_t k = want < block ? want : block; k >= 2; k--)
		if (block % k == 0 && (chosen || (size_t)(block / k) * column >= MIN_CHUNK_BYTES))
			return (int)k;
	return 1;
}

vkfftgo_status vfm_choose_chunks(vkfftgo_mpi_plan *p)
{
	int chunks = p->me == 0 ? rank0_chunks(p) : 0;
	int rc = MPI_Bcast(&chunks, 1, MPI_INT, 0, p->comm);
	if (rc != MPI_SUCCESS)
		return vfm_mpi_fail("MPI_Bcast (the chunk count)", rc);
	if (chunks < 1)
		return vfm_fail(VKFFTGO_ERROR_INVALID_ARGUMENT,
				"vkfftgo_mpi_plan_create: VKFFTGO_MPI_CHUNKS on rank 0 is not a count >= 0");
	p->chunks = chunks;
	p->chunk_cols = p->l1[0] / chunks;
	return VKFFTGO_SUCCESS;
}

/* Queues (pipelined) or runs the first axis' transform of chunk k. */
static vkfftgo_status start(vkfftgo_mpi_plan *p, int direction, int k)
{
	if (!p->cols || vfm_chunk_cols(p, k) == 0)
		return VKFFTGO_SUCCESS;
	if (p->chunks == 1)
		return vfm_run(p->cols, direction, p->tchunk[k], "the first axis");
	vkfftgo_status st = vkfftgo_execute_async(p->cols, p->stream, direction, p->tbuf[k], p->tbuf[k]);
	return st ? vfm_fail(st, "the first axis, chunk %d of %d: %s", k + 1, p->chunks, vkfftgo_last_error()) : st;
}

/* Waits for what start queued. */
static vkfftgo_status finish(vkfftgo_mpi_plan *p)
{
	if (!p->stream)
		return VKFFTGO_SUCCESS;
	vkfftgo_status st = vkfftgo_stream_wait(p->stream);
	return st ? vfm_fail(st, "the first axis: %s", vkfftgo_last_error()) : st;
}

/* agree after waiting for the queue on a failure, which may still use the chunks */
static vkfftgo_status agree(vkfftgo_mpi_plan *p, vkfftgo_status local)
{
	vkfftgo_status st = vfm_agree(p->comm, local, exec_fn);
	if (st != VKFFTGO_SUCCESS && p->stream)
		vkfftgo_stream_wait(p->stream);
	return st;
}

/* Every chunk from the plain slab, each transformed in direction as the next is
 * exchanged; returns with the last still queued. */
static vkfftgo_status from_plain(vkfftgo_mpi_plan *p, int direction, const void *plain)
{
	vkfftgo_status st = VKFFTGO_SUCCESS;
	for (int k = 0; k < p->chunks && st == VKFFTGO_SUCCESS; k++) {
		if ((st = agree(p, vfm_to_transposed(p, plain, k))))
			return st;
		st = agree(p, start(p, direction, k));
	}
	return st;
}

/* Every transformed chunk back into the plain slab, once the device is done. */
static vkfftgo_status to_plain(vkfftgo_mpi_plan *p, void *plain)
{
	vkfftgo_status st = agree(p, finish(p));
	for (int k = 0; k < p->chunks && st == VKFFTGO_SUCCESS; k++)
		st = agree(p, vfm_to_plain(p, k, plain));
	return st;
}

vkfftgo_status vfm_cols_forward(vkfftgo_mpi_plan *p, const void *plain)
{
	return from_plain(p, VKFFTGO_FORWARD, plain);
}

vkfftgo_status vfm_cols_inverse(vkfftgo_mpi_plan *p, const void *in, void *plain)
{
	vkfftgo_status st;
	if (in)
		st = from_plain(p, VKFFTGO_INVERSE, in);
	else { /* the chunks hold the input: transform chunk k+1 while chunk k goes back */
		st = agree(p, start(p, VKFFTGO_INVERSE, 0));
		for (int k = 0; k < p->chunks && st == VKFFTGO_SUCCESS; k++) {
			vkfftgo_status local = finish(p);
			if (local == VKFFTGO_SUCCESS && k + 1 < p->chunks)
				local = start(p, VKFFTGO_INVERSE, k + 1);
			if ((st = agree(p, local)))
				return st;
			st = agree(p, vfm_to_plain(p, k, plain));
		}
		return st;
	}
	return st ? st : to_plain(p, plain);
}

vkfftgo_status vfm_cols_to_plain(vkfftgo_mpi_plan *p, void *plain) { return to_plain(p, plain); }

vkfftgo_status vfm_cols_wait(vkfftgo_mpi_plan *p) { return agree(p, finish(p)); }

/* The transposed slab, l1[me] * n0 rows, is the chunks' first rows in order. */
void vfm_chunks_in(vkfftgo_mpi_plan *p, const void *in)
{
	size_t row = (size_t)p->rest * p->elem;
	for (int k = 0; k < p->chunks; k++) {
		size_t n = (size_t)(vfm_chunk_cols(p, k) * p->n0) * row;
		if (n)
			memcpy(p->tchunk[k], (const char *)in + (size_t)((int64_t)k * p->chunk_cols * p->n0) * row, n);
	}
}

void vfm_chunks_out(const vkfftgo_mpi_plan *p, void *out)
{
	size_t row = (size_t)p->rest * p->elem;
	for (int k = 0; k < p->chunks; k++) {
		size_t n = (size_t)(vfm_chunk_cols(p, k) * p->n0) * row;
		if (n)
			memcpy((char *)out + (size_t)((int64_t)k * p->chunk_cols * p->n0) * row, p->tchunk[k], n);
	}
}
