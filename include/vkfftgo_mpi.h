/* vkfftgo_mpi.h — distributed 2-D and 3-D FFTs across MPI ranks, one device per rank, in
 * FFTW-MPI's data layout (libvkfftgo_mpi, over libvkfftgo's C API, include/vkfftgo.h).
 *
 *   ptrdiff_t n[3] = { n0, n1, n2 }, local_n0, local_0_start;
 *   ptrdiff_t alloc = vkfftgo_mpi_local_size(3, n, MPI_COMM_WORLD, &local_n0, &local_0_start);
 *   float complex *data = malloc(alloc * sizeof *data);      (rows local_0_start ..)
 *   vkfftgo_mpi_desc desc = VKFFTGO_MPI_DESC_INIT;           (C2C, single, backward norm)
 *   desc.rank = 3; desc.shape[0] = n0; desc.shape[1] = n1; desc.shape[2] = n2;
 *   vkfftgo_mpi_plan_create(device, &desc, MPI_COMM_WORLD, &plan);   (every rank)
 *   vkfftgo_mpi_execute(plan, VKFFTGO_FORWARD, data, data);          (every rank)
 *   vkfftgo_mpi_plan_destroy(plan);                                  (every rank)
 *
 * Build:  mpicc app.c $(pkg-config --cflags --libs vkfftgo-mpi)
 *   or    find_package(VkFFTGo) + target_link_libraries(app VkFFTGo::mpi MPI::MPI_C)
 *
 * COLLECTIVE. vkfftgo_mpi_plan_create, vkfftgo_mpi_execute and vkfftgo_mpi_plan_destroy
 * are collective over the plan's communicator: every rank calls them, in the same order,
 * with the same descriptor and direction. Each rank passes its own device (one device
 * per rank; ranks of one host may share a GPU or open different ordinals). A plan is used
 * by one thread of each rank at a time (its calls are MPI calls on its communicator).
 *
 * ERRORS. Functions return a vkfftgo_status (include/vkfftgo.h). A failure on any rank —
 * a bad argument, a device call, a descriptor that differs from rank 0's — is agreed on
 * before the next exchange (an MPI_Allreduce of the ranks' status), so every rank returns
 * the same status, and vkfftgo_mpi_last_error() gives, on every rank, a message naming
 * the lowest failing rank and its own message; no rank waits for an exchange the others
 * left. An MPI call that itself fails (the library's communicator returns MPI errors
 * rather than aborting) gives VKFFTGO_ERROR_BACKEND with MPI's message.
 *
 * LAYOUT (FFTW-MPI's). Arrays are row-major, distributed in slabs of the first axis by
 * FFTW's block rule: with P ranks, block = ceil(n0 / P), rank r holding rows
 * r*block .. min(n0, (r+1)*block)-1 (trailing ranks may hold none).
 *   C2C: in and out are local_n0 x n1 [x n2] complex (interleaved re, im).
 *   R2C: the spectrum is local_n0 x n1 x (n2/2+1) complex (2-D: local_n0 x (n1/2+1)),
 *        the real data local_n0 x n1 x 2*(n2/2+1) reals (2-D: rows of 2*(n1/2+1)): FFTW's
 *        padded layout, in place (out == in) and out of place alike; the padding is
 *        written with unspecified values by the inverse and ignored by the forward.
 *   VKFFTGO_MPI_TRANSPOSED_OUT: the forward's output is the spectrum with its first two
 *        axes swapped, distributed over the second axis of the spectrum: local_n1 x n0
 *        [x n2 or n2/2+1] (2-D C2C: local_n1 x n0; 2-D R2C: local_n1 x n0 with the n1/2+1
 *        columns distributed), saving the last exchange. VKFFTGO_MPI_TRANSPOSED_IN: the
 *        inverse's input is in that layout. Set both to round-trip a transposed
 *        spectrum, as with FFTW-MPI's FFTW_MPI_TRANSPOSED_OUT / _IN pair.
 * The local sizes come from vkfftgo_mpi_local_size(_transposed), given the spectrum's
 * dimensions (for R2C the last one is n/2+1, as in FFTW-MPI), or from
 * vkfftgo_mpi_plan_local. in and out must each hold vkfftgo_mpi_plan_alloc_bytes bytes
 * (the larger of the plain and the transposed slab); out == in is allowed, otherwise
 * they must not overlap. in is never modified.
 *
 * SCALING. As the plan's norm says, for the whole array: VKFFTGO_NORM_BACKWARD (default)
 * scales the inverse by 1/(n0*n1*n2), so forward then inverse is the identity.
 *
 * PIPELINE. The exchange to and from the transposed layout goes in chunks of columns, the
 * device transforming one chunk while the next is exchanged: up to 8 chunks of at least
 * 4 MiB; VKFFTGO_MPI_CHUNKS=k in rank 0's environment at plan creation asks for up to k
 * (1: none).
 */
#ifndef VKFFTGO_MPI_H
#define VKFFTGO_MPI_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "vkfftgo.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vkfftgo_mpi_plan vkfftgo_mpi_plan;

enum { VKFFTGO_MPI_TRANSPOSED_OUT = 1, VKFFTGO_MPI_TRANSPOSED_IN = 2 }; /* desc.flags */

/* A distributed plan's description. Always start from VKFFTGO_MPI_DESC_INIT (it sets
 * size, the struct version the caller was compiled with). */
typedef struct vkfftgo_mpi_desc {
	uint32_t size;     /* sizeof(vkfftgo_mpi_desc); set by VKFFTGO_MPI_DESC_INIT */
	int32_t rank;      /* 2 or 3 */
	int64_t shape[3];  /* the global shape, row-major; for R2C the real data's */
	int32_t kind;      /* VKFFTGO_C2C (default) or VKFFTGO_R2C */
	int32_t precision; /* VKFFTGO_SINGLE (default) or VKFFTGO_DOUBLE */
	int32_t norm;      /* VKFFTGO_NORM_BACKWARD (default), _ORTHO or _FORWARD */
	uint32_t flags;    /* VKFFTGO_MPI_TRANSPOSED_OUT | VKFFTGO_MPI_TRANSPOSED_IN */
} vkfftgo_mpi_desc;
#define VKFFTGO_MPI_DESC_INIT                                                               \
	{ (uint32_t)sizeof(vkfftgo_mpi_desc), 0, { 0, 0, 0 }, VKFFTGO_C2C, VKFFTGO_SINGLE,  \
	  VKFFTGO_NORM_BACKWARD, 0u }

/* The calling thread's message for its last failed vkfftgo_mpi call ("" if none). */
const char *vkfftgo_mpi_last_error(void);

/* FFTW-MPI's fftw_mpi_local_size: for an array of rank (2 or 3) dimensions n distributed
 * over comm's ranks, this rank's rows (*local_n0 of them from *local_0_start) and the
 * number of elements it must allocate, enough for the plain and the transposed slab (at
 * least 1). For R2C pass the spectrum's dimensions (the last is n/2+1). Not collective.
 * Returns -1 for a bad rank or dimension (vkfftgo_mpi_last_error says which). */
ptrdiff_t vkfftgo_mpi_local_size(int rank, const ptrdiff_t *n, MPI_Comm comm,
				 ptrdiff_t *local_n0, ptrdiff_t *local_0_start);
/* The same, with this rank's part of the second axis in the transposed layout. */
ptrdiff_t vkfftgo_mpi_local_size_transposed(int rank, const ptrdiff_t *n, MPI_Comm comm,
					    ptrdiff_t *local_n0, ptrdiff_t *local_0_start,
					    ptrdiff_t *local_n1, ptrdiff_t *local_1_start);

/* Builds a distributed plan on every rank of comm (collective): this rank's device
 * transforms its slab's trailing axes and, after the exchange, its columns of the first
 * axis. The communicator is duplicated; comm may be freed afterwards. Fails on every
 * rank when any rank's descriptor is bad or differs from rank 0's, or any rank's device
 * cannot make its plans. */
vkfftgo_status vkfftgo_mpi_plan_create(vkfftgo_device *device, const vkfftgo_mpi_desc *desc,
				       MPI_Comm comm, vkfftgo_mpi_plan **plan);
/* Frees the plan's device plans, buffers and communicator (collective). NULL does nothing. */
vkfftgo_status vkfftgo_mpi_plan_destroy(vkfftgo_mpi_plan *plan);
/* This rank's part of the plain layout (rows of the first axis) and of the transposed one
 * (rows of the spectrum's second axis). Any pointer may be NULL. */
vkfftgo_status vkfftgo_mpi_plan_local(vkfftgo_mpi_plan *plan, ptrdiff_t *local_n0,
				      ptrdiff_t *local_0_start, ptrdiff_t *local_n1,
				      ptrdiff_t *local_1_start);
/* The bytes each of in and out must hold on this rank, for either direction. */
vkfftgo_status vkfftgo_mpi_plan_alloc_bytes(vkfftgo_mpi_plan *plan, size_t *bytes);

/* Transforms the distributed array (collective): direction VKFFTGO_FORWARD or
 * VKFFTGO_INVERSE, out and in this rank's host slabs in the layout above. */
vkfftgo_status vkfftgo_mpi_execute(vkfftgo_mpi_plan *plan, int direction, void *out,
				   const void *in);

#ifdef __cplusplus
}
#endif
#endif /* VKFFTGO_MPI_H */
