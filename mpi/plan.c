/* plan.c — creating (collectively, failing on every rank together) and destroying
 * distributed plans, and their local sizes. */
#include <stdlib.h>

#include "vfm.h"

static const char create_fn[] = "vkfftgo_mpi_plan_create";

static void release(vkfftgo_mpi_plan *p)
{
	/* a plan whose device was closed is gone already: its destroy reports a stale handle */
	vkfftgo_plan_destroy(p->rows);
	vkfftgo_plan_destroy(p->cols);
	vfm_free_slabs(p);
	free(p->l0);
	free(p->s0);
	free(p->l1);
	free(p->s1);
	free(p->plain_count);
	free(p->plain_displ);
	free(p->trans_count);
	free(p->trans_displ);
	int finalized = 0;
	MPI_Finalized(&finalized);
	if (!finalized) {
		if (p->row != MPI_DATATYPE_NULL)
			MPI_Type_free(&p->row);
		MPI_Comm_free(&p->comm);
	}
	free(p);
}

VFM_API vkfftgo_status vkfftgo_mpi_plan_create(vkfftgo_device *device, const vkfftgo_mpi_desc *desc,
					       MPI_Comm comm, vkfftgo_mpi_plan **plan)
{
	int inited = 0;
	MPI_Initialized(&inited);
	if (!inited)
		return vfm_fail(VKFFTGO_ERROR_INVALID_ARGUMENT, "%s: MPI is not initialised (call MPI_Init first)",
				create_fn);
	if (comm == MPI_COMM_NULL)
		return vfm_fail(VKFFTGO_ERROR_INVALID_ARGUMENT, "%s: comm is MPI_COMM_NULL", create_fn);
	int inter = 0;
	if (MPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && inter)
		return vfm_fail(VKFFTGO_ERROR_INVALID_ARGUMENT, "%s: comm is an intercommunicator (an intracommunicator is needed)",
				create_fn);
	MPI_Comm dup;
	int rc = MPI_Comm_dup(comm, &dup);
	if (rc != MPI_SUCCESS)
		return vfm_mpi_fail("MPI_Comm_dup", rc);
	MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
	if (plan)
		*plan = NULL;

	vkfftgo_status st = vfm_agree(dup, vfm_desc_check(device, desc, plan), create_fn);
	if (st == VKFFTGO_SUCCESS)
		st = vfm_desc_compare(dup, desc); /* the same answer on every rank */
	if (st != VKFFTGO_SUCCESS) {
		MPI_Comm_free(&dup);
		return st;
	}

	vkfftgo_mpi_plan *p = calloc(1, sizeof *p);
	if (!p) {
		st = vfm_agree(dup, vfm_fail(VKFFTGO_ERROR_OUT_OF_MEMORY, "out of host memory"), create_fn);
		MPI_Comm_free(&dup);
		return st;
	}
	p->comm = dup;
	p->row = MPI_DATATYPE_NULL;
	p->desc = *desc;
	MPI_Comm_size(dup, &p->size);
	MPI_Comm_rank(dup, &p->me);
	st = vfm_layout(p);
	if (st == VKFFTGO_SUCCESS) {
		rc = MPI_Type_contiguous((int)((size_t)p->rest * p->elem), MPI_BYTE, &p->row);
		if (rc == MPI_SUCCESS)
			rc = MPI_Type_commit(&p->row);
		if (rc != MPI_SUCCESS)
			st = vfm_mpi_fail("MPI_Type_contiguous", rc);
	}
	/* agreed first: the chunk count is a broadcast every rank must reach, and its result
	 * the same on every rank */
	st = vfm_agree(dup, st, create_fn);
	if (st == VKFFTGO_SUCCESS)
		st = vfm_choose_chunks(p);
	if (st == VKFFTGO_SUCCESS) {
		st = vfm_alloc_slabs(p);
		/* rank 0 first: its plans are every rank's (device.c), compiled once into a
		 * shared kernel cache while the others wait in the agreement */
		if (st == VKFFTGO_SUCCESS && p->me == 0)
			st = vfm_device_plans(p, device);
		st = vfm_agree(dup, st, create_fn);
		if (st == VKFFTGO_SUCCESS) /* the same on every rank, agreed */
			st = vfm_agree(dup, p->me != 0 ? vfm_device_plans(p, device) : VKFFTGO_SUCCESS, create_fn);
	}
	if (st != VKFFTGO_SUCCESS) {
		release(p);
		return st;
	}
	*plan = p;
	return VKFFTGO_SUCCESS;
}

VFM_API vkfftgo_status vkfftgo_mpi_plan_destroy(vkfftgo_mpi_plan *plan)
{
	if (plan)
		release(plan);
	return VKFFTGO_SUCCESS;
}

VFM_API vkfftgo_status vkfftgo_mpi_plan_local(vkfftgo_mpi_plan *p, ptrdiff_t *local_n0,
					      ptrdiff_t *local_0_start, ptrdiff_t *local_n1,
					      ptrdiff_t *local_1_start)
{
	if (!p)
		return vfm_fail(VKFFTGO_ERROR_NULL_POINTER, "vkfftgo_mpi_plan_local: plan is NULL");
	if (local_n0)
		*local_n0 = p->l0[p->me];
	if (local_0_start)
		*local_0_start = p->s0[p->me];
	if (local_n1)
		*local_n1 = p->l1[p->me];
	if (local_1_start)
		*local_1_start = p->s1[p->me];
	return VKFFTGO_SUCCESS;
}

VFM_API vkfftgo_status vkfftgo_mpi_plan_alloc_bytes(vkfftgo_mpi_plan *p, size_t *bytes)
{
	if (!p || !bytes)
		return vfm_fail(VKFFTGO_ERROR_NULL_POINTER, "vkfftgo_mpi_plan_alloc_bytes: %s is NULL",
				!p ? "plan" : "bytes");
	size_t row = (size_t)p->rest * p->elem;
	size_t plain = (size_t)(p->l0[p->me] * p->m1) * row;
	size_t transposed = (size_t)(p->l1[p->me] * p->n0) * row;
	*bytes = plain > transposed ? plain : transposed;
	return VKFFTGO_SUCCESS;
}
