/* agree.c — the ranks' agreement on success before each exchange: a rank whose step
 * failed would otherwise leave the others waiting in MPI_Alltoallv for ever. */
#include <stdio.h>
#include <string.h>

#include "vfm.h"

struct failure {
	int status;
	char text[VFM_MSG];
};

vkfftgo_status vfm_agree(MPI_Comm comm, vkfftgo_status local, const char *what)
{
	int me = 0, size = 0, rc;
	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &size);
	/* MINLOC over (ok, rank): ok is 0 on the failing ranks, and the lowest of them wins */
	struct { int ok, rank; } mine = { local == VKFFTGO_SUCCESS, me }, all;
	rc = MPI_Allreduce(&mine, &all, 1, MPI_2INT, MPI_MINLOC, comm);
	if (rc != MPI_SUCCESS)
		return vfm_mpi_fail("MPI_Allreduce (agreeing on success)", rc);
	if (all.ok)
		return VKFFTGO_SUCCESS;
	int failed = !mine.ok, nfailed = 1; /* on the failure path every rank is here */
	rc = MPI_Allreduce(&failed, &nfailed, 1, MPI_INT, MPI_SUM, comm);
	if (rc != MPI_SUCCESS)
		return vfm_mpi_fail("MPI_Allreduce (counting failures)", rc);
	struct failure f;
	memset(&f, 0, sizeof f);
	if (me == all.rank) {
		f.status = (int)local;
		snprintf(f.text, sizeof f.text, "%s", vfm_message());
	}
	rc = MPI_Bcast(&f, (int)sizeof f, MPI_BYTE, all.rank, comm);
	if (rc != MPI_SUCCESS)
		return vfm_mpi_fail("MPI_Bcast (a rank's error)", rc);
	f.text[sizeof f.text - 1] = 0;
	char others[48] = "";
	if (nfailed > 1)
		snprintf(others, sizeof others, " (and %d other rank%s)", nfailed - 1, nfailed > 2 ? "s" : "");
	return vfm_fail((vkfftgo_status)f.status, "%s: rank %d of %d failed%s: %s", what, all.rank, size,
			others, f.text);
}
