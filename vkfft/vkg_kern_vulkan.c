//go:build vulkan && !opencl && !cuda

/* vkg_kern_vulkan.c — companion kernels on Vulkan: not available. The kernels are written
 * in a dialect that becomes OpenCL C or CUDA C (kernels.go); Vulkan would need a GLSL
 * dialect, a glslang compile to SPIR-V and a compute pipeline with its own descriptor
 * layout per kernel. Every entry point refuses with VKG_ERR_UNSUPPORTED, so the features
 * built on them (linear convolution's padding, the spectrometer) report it cleanly. */
#if VKFFT_BACKEND == 0
#include <stddef.h>

#include "vkg.h"

static int kern_unsupported(vkg_status *st)
{
	return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0,
			"not supported on Vulkan: companion kernels (written for OpenCL C and CUDA C only)");
}

int vkg_module_build(vkg_device *dev, const char *source, const void *binary, uint64_t binary_bytes,
		     vkg_module **out, void **bin_out, uint64_t *bin_bytes, vkg_status *st)
{
	(void)dev, (void)source, (void)binary, (void)binary_bytes;
	*out = NULL;
	if (bin_out)
		*bin_out = NULL;
	if (bin_bytes)
		*bin_bytes = 0;
	return kern_unsupported(st);
}

void vkg_module_destroy(vkg_module *m) { (void)m; }

int vkg_module_kernel(vkg_module *m, const char *name, vkg_kernel **out, vkg_status *st)
{
	(void)m, (void)name;
	*out = NULL;
	return kern_unsupported(st);
}

int vkg_kernel_launch(vkg_device *dev, uint64_t queue, vkg_kernel *k, const uint64_t groups[2], uint32_t local,
		      int nargs, const vkg_arg *args, vkg_status *st)
{
	(void)dev, (void)queue, (void)k, (void)groups, (void)local, (void)nargs, (void)args;
	return kern_unsupported(st);
}
#endif
