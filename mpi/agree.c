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
	return vfm_fail((vkfftgo_status)f.status, "%s: rank %d of %d failed: %s", what, all.rank,
			size, f.text);
}
