/* mem.c — fftw_malloc and friends: 64-byte aligned (FFTW's SIMD alignment and a cache
 * line), freed with free(), so fftw_free also frees strings the real FFTW allocated with
 * malloc (fftw_export_wisdom_to_string). */
#include <stdlib.h>

#include "vfw.h"

void *vfw_malloc(size_t n)
{
	void *p = NULL;
	if (posix_memalign(&p, 64, n ? n : 1) != 0)
		return NULL;
	return p;
}

void vfw_free(void *p)
{
	free(p);
}
