/* layout.c — where a plan's rows live: the block rule over the first axis (plain) and
 * over the spectrum's second axis (transposed), and room for the exchange tables between
 * them (exchange.c fills them for each chunk). */
#include <limits.h>
#include <stdlib.h>

#include "vfm.h"

vkfftgo_status vfm_layout(vkfftgo_mpi_plan *p)
{
	const vkfftgo_mpi_desc *d = &p->desc;
	const char *f = "vkfftgo_mpi_plan_create";
	int64_t last = d->shape[d->rank - 1];
	if (d->kind == VKFFTGO_R2C)
		last = last / 2 + 1;
	p->n0 = d->shape[0];
	p->m1 = d->rank == 2 ? last : d->shape[1];
	p->rest = d->rank == 2 ? 1 : last;
	p->elem = d->precision == VKFFTGO_DOUBLE ? 16 : 8;
	size_t n = (size_t)p->size;
	p->l0 = calloc(n, sizeof(int64_t));
	p->s0 = calloc(n, sizeof(int64_t));
	p->l1 = calloc(n, sizeof(int64_t));
	p->s1 = calloc(n, sizeof(int64_t));
	p->plain_count = calloc(n, sizeof(int));
	p->plain_displ = calloc(n, sizeof(int));
	p->trans_count = calloc(n, sizeof(int));
	p->trans_displ = calloc(n, sizeof(int));
	if (!p->l0 || !p->s0 || !p->l1 || !p->s1 || !p->plain_count || !p->plain_displ || !p->trans_count ||
	    !p->trans_displ)
		return vfm_fail(VKFFTGO_ERROR_OUT_OF_MEMORY, "%s: out of host memory", f);
	for (int r = 0; r < p->size; r++) {
		vfm_block(p->n0, p->size, r, &p->l0[r], &p->s0[r]);
		vfm_block(p->m1, p->size, r, &p->l1[r], &p->s1[r]);
	}
	/* MPI counts are ints, in rows of rest values: both slabs must fit */
	int64_t me = p->me;
	if (p->l0[me] * p->m1 > INT_MAX || p->l1[me] * p->n0 > INT_MAX ||
	    p->rest * (int64_t)p->elem > INT_MAX)
		return vfm_fail(VKFFTGO_ERROR_TOO_LARGE,
				"%s: a slab of %lld x %lld rows of %lld values is too large for MPI's int counts",
				f, (long long)p->l0[me], (long long)p->m1, (long long)p->rest);
	return VKFFTGO_SUCCESS;
}
