/* mpicheck.h — helpers shared by libvkfftgo_mpi's tests: checks that stop every rank
 * (MPI_Abort) rather than leave the others waiting, and the test arrays' values. */
#ifndef VKFFTGO_MPI_TEST_CHECK_H
#define VKFFTGO_MPI_TEST_CHECK_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vkfftgo_mpi.h>

static inline int test_rank(void)
{
	int r = 0;
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	return r;
}

/* Stop the whole job with the library's messages unless the call succeeded. */
#define CHECK(call)                                                                          \
	do {                                                                                 \
		vkfftgo_status st_ = (call);                                                 \
		if (st_ != VKFFTGO_SUCCESS) {                                                \
			fprintf(stderr, "rank %d: %s:%d: %s -> %s: %s%s\n", test_rank(),     \
				__FILE__, __LINE__, #call, vkfftgo_status_string(st_),       \
				vkfftgo_mpi_last_error(), vkfftgo_last_error());             \
			MPI_Abort(MPI_COMM_WORLD, 1);                                        \
		}                                                                            \
	} while (0)

#define REQUIRE(cond, ...)                                                                   \
	do {                                                                                 \
		if (!(cond)) {                                                               \
			fprintf(stderr, "rank %d: %s:%d: %s: ", test_rank(), __FILE__,       \
				__LINE__, #cond);                                            \
			fprintf(stderr, __VA_ARGS__);                                        \
			fputc('\n', stderr);                                                 \
			MPI_Abort(MPI_COMM_WORLD, 1);                                        \
		}                                                                            \
	} while (0)

/* A deterministic value in [-0.5, 0.5) for global element g, component c. */
static inline double test_value(int64_t g, int c)
{
	uint64_t x = (uint64_t)g * 2654435761u + (uint64_t)c * 40503u + 12345u;
	x ^= x >> 13;
	x *= 0x9E3779B97F4A7C15ull;
	x ^= x >> 29;
	return (double)(x & 0xFFFFFF) / 16777216.0 - 0.5;
}
#endif
