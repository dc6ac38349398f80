# libvkfftgo_mpi: distributed 2-D and 3-D FFTs over MPI (mpi/, include/vkfftgo_mpi.h).
# Included by the Makefile. `make lib` builds it beside libvkfftgo.so where MPI is found
# (scripts/build-mpi.sh); make install installs it.
#   make test-mpi   installs Open MPI (make setup MPI=1: scripts/setup-mpi.sh), builds the
#                   library and runs tests/mpi on 2 and 4 ranks (mpirun, PoCL)
.PHONY: test-mpi

# Open MPI is installed here, not as a prerequisite: lib may have run before it did, so
# build-mpi.sh (a few seconds) builds libvkfftgo_mpi once MPI is there.
test-mpi: lib ## distributed FFTs on 2 and 4 MPI ranks: accuracy, failures on one rank, ASan
	@$(MAKE) --no-print-directory setup MPI=1
	scripts/build-mpi.sh $(BUILD)
	tests/mpi/run.sh $(BUILD)

TEST_LANE += test-mpi
