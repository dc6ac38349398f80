/* vkg_kern_cuda.c — companion kernels on CUDA: CUDA C compiled by NVRTC to a CUBIN for the
 * device's exact architecture (the kernel cache keeps the CUBIN), loaded as a module.
 * Entry points that touch the device expect its context entered, except build and
 * destroy, which enter it themselves. */
#include <cuda.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkg_cuda.h"

#define VKG_MAX_KERNELS 16
#define VKG_MAX_ARGS 16

struct vkg_kernel {
	CUfunction f;
	char name[64];
};

struct vkg_module {
	vkg_device *dev;
	CUmodule mod;
	int nkernels;
	struct vkg_kernel kernels[VKG_MAX_KERNELS];
};

static int cu_err(vkg_status *st, CUresult r, const char *what)
{
	const char *name = NULL;
	cuGetErrorName(r, &name);
	return vkg_fail(st, r == CUDA_ERROR_OUT_OF_MEMORY ? VKG_ERR_OUT_OF_MEMORY : VKG_ERR_BACKEND, (int)r,
			"CUDA %s failed: %s", what, name ? name : "?");
}

/* compile runs NVRTC on source for the device's architecture; *cubin is malloc'd. */
static int compile(vkg_device *dev, const char *source, char **cubin, size_t *size, vkg_status *st)
{
	const vkg_device_info *info = vkg_cu_device_info(dev);
	nvrtcProgram prog;
	nvrtcResult r;
	char arch[64];
	const char *opts[1];

	*cubin = NULL;
	*size = 0;
	vkg_compile_enter(); /* no child is forked while NVRTC runs (vkg_fork_compile.c) */
	r = nvrtcCreateProgram(&prog, source, "vkfftgo_stages.cu", 0, NULL, NULL);
	if (r != NVRTC_SUCCESS) {
		vkg_compile_leave();
		return vkg_fail(st, VKG_ERR_BACKEND, (int)r, "nvrtcCreateProgram: %s", nvrtcGetErrorString(r));
	}
	snprintf(arch, sizeof arch, "--gpu-architecture=sm_%d%d", info->compute_major, info->compute_minor);
	opts[0] = arch;
	r = nvrtcCompileProgram(prog, 1, opts);
	vkg_compile_leave();
	if (r != NVRTC_SUCCESS) {
		char log[700];
		size_t n = 0;
		log[0] = 0;
		if (nvrtcGetProgramLogSize(prog, &n) == NVRTC_SUCCESS && n > 0 && n < sizeof log)
			nvrtcGetProgramLog(prog, log);
		nvrtcDestroyProgram(&prog);
		return vkg_fail(st, VKG_ERR_BACKEND, (int)r, "NVRTC could not compile the companion kernels (%s): %s",
				nvrtcGetErrorString(r), log);
	}
	r = nvrtcGetCUBINSize(prog, size);
	if (r == NVRTC_SUCCESS && *size > 0) {
		*cubin = malloc(*size);
		if (!*cubin)
			r = NVRTC_ERROR_OUT_OF_MEMORY;
		else
			r = nvrtcGetCUBIN(prog, *cubin);
	}
	nvrtcDestroyProgram(&prog);
	if (r != NVRTC_SUCCESS || !*cubin) {
		free(*cubin);
		*cubin = NULL;
		return vkg_fail(st, VKG_ERR_BACKEND, (int)r, "nvrtcGetCUBIN: %s", nvrtcGetErrorString(r));
	}
	return VKG_OK;
}

int vkg_cu_module_build(vkg_device *dev, const char *source, const void *binary, uint64_t binary_bytes,
		     vkg_module **out, void **bin_out, uint64_t *bin_bytes, vkg_status *st)
{
	vkg_module *m;
	char *cubin = NULL;
	size_t size = 0;
	CUresult r;
	int rc;

	*out = NULL;
	if (bin_out) {
		*bin_out = NULL;
		*bin_bytes = 0;
	}
	if (binary_bytes == 0) {
		rc = compile(dev, source, &cubin, &size, st);
		if (rc)
			return rc;
		binary = cubin;
	}
	m = calloc(1, sizeof *m);
	if (!m) {
		free(cubin);
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	}
	m->dev = dev;
	rc = vkg_cu_ctx_enter(dev, st);
	if (rc) {
		free(cubin);
		free(m);
		return rc;
	}
	r = cuModuleLoadData(&m->mod, binary);
	vkg_cu_ctx_leave(dev);
	if (r != CUDA_SUCCESS) {
		free(cubin);
		free(m);
		return cu_err(st, r, "cuModuleLoadData (companion kernels)");
	}
	if (cubin && bin_out) {
		*bin_out = cubin;
		*bin_bytes = size;
	} else {
		free(cubin);
	}
	*out = m;
	return VKG_OK;
}

void vkg_cu_module_destroy(vkg_module *m)
{
	vkg_status st;
	int entered;
	if (!m)
		return;
	entered = vkg_cu_ctx_enter(m->dev, &st) == VKG_OK;
	cuModuleUnload(m->mod);
	if (entered)
		vkg_cu_ctx_leave(m->dev);
	free(m);
}

int vkg_cu_module_kernel(vkg_module *m, const char *name, vkg_kernel **out, vkg_status *st)
{
	struct vkg_kernel *k;
	CUresult r;
	int i;
	for (i = 0; i < m->nkernels; i++)
		if (strcmp(m->kernels[i].name, name) == 0) {
			*out = &m->kernels[i];
			return VKG_OK;
		}
	if (m->nkernels == VKG_MAX_KERNELS || strlen(name) >= sizeof m->kernels[0].name)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "kernel %s: too many kernels or too long a name", name);
	k = &m->kernels[m->nkernels];
	r = cuModuleGetFunction(&k->f, m->mod, name);
	if (r != CUDA_SUCCESS)
		return cu_err(st, r, "cuModuleGetFunction");
	strcpy(k->name, name);
	m->nkernels++;
	*out = k;
	return VKG_OK;
}

int vkg_cu_kernel_launch(vkg_device *dev, uint64_t queue, vkg_kernel *k, const uint64_t groups[2], uint32_t local,
		      int nargs, const vkg_arg *args, vkg_status *st)
{
	vkg_native nat;
	void *params[VKG_MAX_ARGS];
	CUstream s;
	CUresult r;
	int i;

	if (groups[0] == 0 || groups[1] == 0)
		return VKG_OK;
	if (nargs > VKG_MAX_ARGS || groups[0] > 0x7fffffffu || groups[1] > 65535)
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0, "launch of %llu x %llu groups with %d arguments is too large",
				(unsigned long long)groups[0], (unsigned long long)groups[1], nargs);
	for (i = 0; i < nargs; i++)
		params[i] = (void *)args[i].ptr;
	vkg_cu_device_native(dev, &nat);
	s = queue ? (CUstream)(uintptr_t)queue : *(CUstream *)nat.queue;
	r = cuLaunchKernel(k->f, (unsigned)groups[0], (unsigned)groups[1], 1, local, 1, 1, 0, s, params, NULL);
	return r == CUDA_SUCCESS ? VKG_OK : cu_err(st, r, "cuLaunchKernel (companion kernel)");
}

