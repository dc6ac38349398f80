/* vkg_kern_opencl.c — companion kernels on OpenCL: programs built from OpenCL C source or
 * from the device binary an earlier build returned (the kernel cache keeps those). */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "vkg_opencl.h"

#define VKG_MAX_KERNELS 16

struct vkg_kernel {
	cl_kernel k;
	/* a cl_kernel holds its arguments between clSetKernelArg and the enqueue: one launch
	 * at a time (a module, such as the C2R projection's, may serve many plans) */
	pthread_mutex_t mu;
	char name[64];
};

struct vkg_module {
	vkg_device *dev;
	cl_program prog;
	int nkernels;
	struct vkg_kernel kernels[VKG_MAX_KERNELS];
};

static int kern_fail(vkg_status *st, cl_int err, const char *what)
{
	int code = VKG_ERR_BACKEND;
	if (err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE)
		code = VKG_ERR_OUT_OF_MEMORY;
	return vkg_fail(st, code, err, "OpenCL %s failed with error %d", what, err);
}

/* build_log appends the compiler's log to a failure message. */
static int build_fail(vkg_status *st, cl_program prog, cl_device_id dev, cl_int err)
{
	char log[700];
	size_t n = 0;
	log[0] = 0;
	clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, &n);
	log[sizeof log - 1] = 0;
	return vkg_fail(st, VKG_ERR_BACKEND, err, "OpenCL companion kernels failed to build (%d): %s", err, log);
}

int vkg_ocl_module_build(vkg_device *dev, const char *source, const void *binary, uint64_t binary_bytes,
		     vkg_module **out, void **bin_out, uint64_t *bin_bytes, vkg_status *st)
{
	vkg_native nat;
	cl_device_id d;
	cl_context ctx;
	cl_int err, bst;
	vkg_module *m;

	*out = NULL;
	if (bin_out) {
		*bin_out = NULL;
		*bin_bytes = 0;
	}
	vkg_ocl_device_native(dev, &nat);
	d = *(cl_device_id *)nat.device;
	ctx = *(cl_context *)nat.context;
	m = calloc(1, sizeof *m);
	if (!m)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	m->dev = dev;
	if (binary_bytes > 0) {
		size_t len = (size_t)binary_bytes;
		const unsigned char *b = binary;
		m->prog = clCreateProgramWithBinary(ctx, 1, &d, &len, &b, &bst, &err);
	} else {
		m->prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
	}
	if (!m->prog) {
		free(m);
		return kern_fail(st, err, binary_bytes ? "clCreateProgramWithBinary" : "clCreateProgramWithSource");
	}
	err = clBuildProgram(m->prog, 1, &d, "", NULL, NULL);
	if (err != CL_SUCCESS) {
		int rc = build_fail(st, m->prog, d, err);
		clReleaseProgram(m->prog);
		free(m);
		return rc;
	}
	if (binary_bytes == 0 && bin_out) {
		size_t size = 0;
		unsigned char *bin;
		if (clGetProgramInfo(m->prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) == CL_SUCCESS && size > 0 &&
		    (bin = malloc(size)) != NULL) {
			if (clGetProgramInfo(m->prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS) {
				*bin_out = bin;
				*bin_bytes = size;
			} else {
				free(bin);
			}
		}
	}
	*out = m;
	return VKG_OK;
}

void vkg_ocl_module_destroy(vkg_module *m)
{
	int i;
	if (!m)
		return;
	for (i = 0; i < m->nkernels; i++) {
		clReleaseKernel(m->kernels[i].k);
		pthread_mutex_destroy(&m->kernels[i].mu);
	}
	clReleaseProgram(m->prog);
	free(m);
}

int vkg_ocl_module_kernel(vkg_module *m, const char *name, vkg_kernel **out, vkg_status *st)
{
	cl_int err;
	struct vkg_kernel *k;
	int i;
	for (i = 0; i < m->nkernels; i++)
		if (strcmp(m->kernels[i].name, name) == 0) {
			*out = &m->kernels[i];
			return VKG_OK;
		}
	if (m->nkernels == VKG_MAX_KERNELS || strlen(name) >= sizeof m->kernels[0].name)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "kernel %s: too many kernels or too long a name", name);
	k = &m->kernels[m->nkernels];
	k->k = clCreateKernel(m->prog, name, &err);
	if (!k->k)
		return kern_fail(st, err, "clCreateKernel");
	pthread_mutex_init(&k->mu, NULL);
	strcpy(k->name, name);
	m->nkernels++;
	*out = k;
	return VKG_OK;
}

int vkg_ocl_kernel_launch(vkg_device *dev, uint64_t queue, vkg_kernel *k, const uint64_t groups[2], uint32_t local,
		      int nargs, const vkg_arg *args, vkg_status *st)
{
	vkg_native nat;
	cl_command_queue q;
	size_t gsize[2], lsize[2];
	cl_int err;
	int i;

	if (groups[0] == 0 || groups[1] == 0)
		return VKG_OK;
	vkg_ocl_device_native(dev, &nat);
	q = queue ? (cl_command_queue)(uintptr_t)queue : *(cl_command_queue *)nat.queue;
	lsize[0] = local;
	lsize[1] = 1;
	gsize[0] = (size_t)groups[0] * local;
	gsize[1] = (size_t)groups[1];
	pthread_mutex_lock(&k->mu);
	for (i = 0; i < nargs; i++) {
		err = clSetKernelArg(k->k, (cl_uint)i, args[i].size, args[i].ptr);
		if (err != CL_SUCCESS) {
			pthread_mutex_unlock(&k->mu);
			return kern_fail(st, err, "clSetKernelArg");
		}
	}
	err = clEnqueueNDRangeKernel(q, k->k, 2, NULL, gsize, lsize, 0, NULL, NULL);
	pthread_mutex_unlock(&k->mu);
	return err == CL_SUCCESS ? VKG_OK : kern_fail(st, err, "clEnqueueNDRangeKernel");
}

