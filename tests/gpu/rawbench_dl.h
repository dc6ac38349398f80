/* rawbench_dl.h — put in front of rawbench.c by make gpu-bundle (gcc -include): the raw
 * VkFFT baseline reaches the CUDA driver and NVRTC the way the binding does, through the
 * cuda backend's table of loaded functions (internal/backend/cuda/vkg_cuda.h), so it runs on any machine with a CUDA 12 or 13 NVRTC
 * (VKFFTGO_NVRTC names another). The libraries are opened before main. */
#include <cuComplex.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>

#include "vkg_cuda.h"

__attribute__((constructor)) static void rawbench_open_cuda(void)
{
	char err[1024];
	if (vkg_cuda_load_driver(err, sizeof err) || vkg_cuda_load_nvrtc(err, sizeof err)) {
		fprintf(stderr, "rawbench: %s\n", err);
		exit(2);
	}
	fprintf(stderr, "rawbench: driver %s, NVRTC %s\n", vkg_cuda_driver_path(), vkg_cuda_nvrtc_path());
}
