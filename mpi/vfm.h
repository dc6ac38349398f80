/* vfm.h — libvkfftgo_mpi's internal interface: the plan, error messages, the agreement
 * on failures across ranks, the block rule and the exchanges. */
#ifndef VFM_H
#define VFM_H

#include <stddef.h>
#include <stdint.h>

#include "vkfftgo_mpi.h"

#define VFM_API __attribute__((visibility("default")))
#define VFM_MSG 768 /* bytes of a message, as sent between ranks */

/* The spectrum seen as a 3-D array a[n0][m1][rest] of complex values: m1 is the axis the
 * transposed layout distributes (n1, or n1/2+1 for a 2-D R2C), rest what follows it. A
 * "row" below is one run of rest complex values, the unit of every exchange. */
struct vkfftgo_mpi_plan {
	MPI_Comm comm;           /* a duplicate of the caller's, returning MPI errors */
	int size, me;            /* ranks, this rank */
	vkfftgo_mpi_desc desc;
	int64_t n0, m1, rest;
	size_t elem;             /* bytes of a complex value */
	int64_t *l0, *s0;        /* per rank: rows of the first axis, first row */
	int64_t *l1, *s1;        /* per rank: rows of the transposed layout, first row */
	vkfftgo_plan *rows;      /* the trailing axes of this rank's slab (NULL: no rows) */
	vkfftgo_plan *cols;      /* the first axis on one chunk of the transposed slab
				    (NULL: no rows) */
	void *slab;              /* l0[0] (a block) * m1 rows: the plain layout */
	/* The transposed layout, l1[0] * n0 rows, in chunks of chunk_cols * n0 rows: tchunk[k]
	 * holds columns k*chunk_cols .. of this rank's. Pipelined (chunks > 1, pipe.c) each
	 * chunk is pinned memory of its own (tbuf[k]) that the device transforms on stream
	 * while the next chunk is exchanged; else one chunk of ordinary memory. */
	int chunks;
	int64_t chunk_cols;
	void **tchunk;
	vkfftgo_host_buffer **tbuf;
	vkfftgo_stream *stream;
	void *sendbuf, *recvbuf; /* the larger of a plain slab and a chunk, packed for
				    MPI_Alltoallv */
	int *plain_count, *plain_displ; /* per rank, in rows, for the chunk being exchanged:
					   what the plain slab sends to or gets from it */
	int *trans_count, *trans_displ; /* and what the transposed chunk gets or sends */
	MPI_Datatype row;        /* rest complex values */
};

/* error.c: the calling thread's message; vfm_fail formats it and returns status. */
vkfftgo_status vfm_fail(vkfftgo_status status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *vfm_message(void);
/* MPI's message for an MPI error code, as VKFFTGO_ERROR_BACKEND. */
vkfftgo_status vfm_mpi_fail(const char *call, int code);

/* agree.c: every rank's local status in, one agreed status out (collective). On a
 * failure anywhere every rank's message names the lowest failing rank and its message,
 * prefixed by what. */
vkfftgo_status vfm_agree(MPI_Comm comm, vkfftgo_status local, const char *what);

/* block.c: FFTW's block rule: rank r of p holds *count rows of n from *start. */
void vfm_block(int64_t n, int p, int r, int64_t *count, int64_t *start);

/* desc.c: checks one rank's descriptor on its own, then compares them across ranks
 * (collective). */
vkfftgo_status vfm_desc_check(const vkfftgo_device *device, const vkfftgo_mpi_desc *desc,
			      vkfftgo_mpi_plan *const *plan);
vkfftgo_status vfm_desc_compare(MPI_Comm comm, const vkfftgo_mpi_desc *desc);
/* "3-D 8x9x10 R2C double norm 0 flags 0x1", into buf */
void vfm_desc_string(const int64_t *fingerprint, char *buf, size_t cap);

/* layout.c: fills the plan's geometry and exchange tables from its descriptor. */
vkfftgo_status vfm_layout(vkfftgo_mpi_plan *p);

/* device.c: the host slabs of this rank, and its two device plans. */
vkfftgo_status vfm_alloc_slabs(vkfftgo_mpi_plan *p);
vkfftgo_status vfm_device_plans(vkfftgo_mpi_plan *p, vkfftgo_device *device);
void vfm_free_slabs(vkfftgo_mpi_plan *p);
/* runs plan (may be NULL: nothing to do) in place on buf */
vkfftgo_status vfm_run(vkfftgo_plan *plan, int direction, void *buf, const char *what);

/* exchange.c: the plain slab -> chunk k of the transposed slab and back, through
 * MPI_Alltoallv (collective: every rank exchanges chunk k together); the columns of
 * this rank's chunk k. */
vkfftgo_status vfm_to_transposed(vkfftgo_mpi_plan *p, const void *plain, int k);
vkfftgo_status vfm_to_plain(vkfftgo_mpi_plan *p, int k, void *plain);
int64_t vfm_chunk_cols(const vkfftgo_mpi_plan *p, int k);

/* pipe.c (collective, agreed on every rank): how many chunks the transposed slab is cut
 * into (rank 0's choice); the first axis' forward from a plain slab into the chunks,
 * returning with the device's last work still queued, which vfm_cols_wait waits for and
 * vfm_cols_to_plain then exchanges back; its inverse from a plain slab in (NULL: the
 * chunks hold the transposed input) through to the plain slab plain. vfm_chunks_in and
 * _out copy the transposed slab between a caller's contiguous array and the chunks. */
vkfftgo_status vfm_choose_chunks(vkfftgo_mpi_plan *p);
vkfftgo_status vfm_cols_forward(vkfftgo_mpi_plan *p, const void *plain);
vkfftgo_status vfm_cols_wait(vkfftgo_mpi_plan *p);
vkfftgo_status vfm_cols_to_plain(vkfftgo_mpi_plan *p, void *plain);
vkfftgo_status vfm_cols_inverse(vkfftgo_mpi_plan *p, const void *in, void *plain);
void vfm_chunks_in(vkfftgo_mpi_plan *p, const void *in);
void vfm_chunks_out(const vkfftgo_mpi_plan *p, void *out);

#endif
