/* vkg_core_kernels.h — part of vkg_core.c (included there once, after vkFFT.h; not a
 * header for anyone else): VkFFT's kernel compiles, one by one.
 *
 * VkFFT generates each kernel of a plan and compiles it at once, inside its
 * initialisation, so a plan's kernels compile one after another. vkg_core.c routes the
 * compiler and module calls VkFFT makes (NVRTC's and the driver's on CUDA, OpenCL's
 * program and kernel calls) through the hooks below. While a kernel session is open on
 * the calling thread they do one of two things:
 *  - dry (vkg_plan_kernels): record each kernel's final source and options, compile
 *    nothing, and hand VkFFT stand-in modules, kernels and binaries, whose launches
 *    (VkFFT runs some during initialisation: Bluestein's phase vectors) do nothing.
 *  - serve (vkg_plan_create with params.kernels): a kernel whose source and options are
 *    in the set gets its binary instead of a compile; any other is compiled as VkFFT
 *    would and added to the set, for the caller to keep.
 * With no session every call goes straight to the API, as if the hooks were not there.
 */
#ifndef VKG_CORE_KERNELS_H
#define VKG_CORE_KERNELS_H

struct vkg_ksession {
	int dry;
	vkg_kernel_set *set; /* dry: where sources go; serve: the binaries, and VkFFT's own compiles */
#if VKFFT_BACKEND == 3
	cl_device_id device;
	int recording;             /* dry: the kernel whose options clBuildProgram brings (index; -1 none) */
	cl_program pending;        /* serve: a program made from source, whose binary joins the set */
	char *pending_source;
	cl_program prebuilt; /* serve: a program made from the set's binary, built already */
#elif VKFFT_BACKEND == 1
	/* serve: the texts of the kernel whose CUBIN came from the set, until the driver
	 * has loaded it (it is compiled after all if the driver refuses it) */
	char *served_source, *served_options, *served_name;
	/* the program VkFFT created last and has not destroyed: after a failed compile VkFFT
	 * returns without destroying it, and the session's close frees it */
	struct vkg_nvprog *open;
#endif
};

/* the session of the application being initialised on this thread, if any */
static __thread struct vkg_ksession *vkg_ks;

/* Stand-ins handed to VkFFT in a dry session: unique addresses no API returns. */
static char vkg_stand_in_obj[2];
#define VKG_STAND_IN_MODULE ((void *)&vkg_stand_in_obj[0])
#define VKG_STAND_IN_KERNEL ((void *)&vkg_stand_in_obj[1])
/* the "binary" of a dry compile: VkFFT copies it, and loads it through the hooks only */
static const char vkg_stand_in_binary[16];

int vkg_plan_kernels_supported(void)
{
	return VKFFT_BACKEND == 1 || VKFFT_BACKEND == 3;
}

#if VKFFT_BACKEND == 3
#undef clCreateProgramWithSource
#undef clBuildProgram
#undef clCreateKernel
#undef clSetKernelArg
#undef clEnqueueNDRangeKernel
#undef clReleaseKernel
#undef clReleaseProgram

/* vkg_kernels_create_program takes the final source (the fuse rewriter has run). */
static cl_program vkg_kernels_create_program(cl_context ctx, cl_uint n, const char **srcs, const size_t *lens,
					     cl_int *err)
{
	struct vkg_ksession *ks = vkg_ks;
	const vkg_src_kernel *k;
	cl_program prog;
	/* VkFFT passes one NUL-terminated source */
	if (!ks || n != 1 || !srcs || !srcs[0] || (lens && lens[0] && lens[0] != strlen(srcs[0])))
		return clCreateProgramWithSource(ctx, n, srcs, lens, err);
	if (ks->dry) {
		int ok = vkg_kernel_set_add(ks->set, srcs[0], "", "") != NULL;
		ks->recording = ok ? ks->set->n - 1 : -1;
		if (err)
			*err = ok ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
		return ok ? (cl_program)VKG_STAND_IN_MODULE : NULL;
	}
	/* VkFFT 1.3.4 builds with no options: a kernel recorded with others misses here */
	k = vkg_kernel_set_find(ks->set, srcs[0], "", "");
	if (k) {
		const unsigned char *bin = k->binary;
		size_t len = (size_t)k->binary_bytes;
		cl_int status = CL_SUCCESS, e = CL_SUCCESS;
		/* built here, so that a binary the driver refuses is compiled from source
		 * instead; VkFFT's own clBuildProgram of it then does nothing */
		prog = clCreateProgramWithBinary(ctx, 1, &ks->device, &len, &bin, &status, &e);
		if (prog && e == CL_SUCCESS && status == CL_SUCCESS &&
		    clBuildProgram(prog, 1, &ks->device, NULL, NULL, NULL) == CL_SUCCESS) {
			ks->prebuilt = prog;
			if (err)
				*err = CL_SUCCESS;
			return prog;
		}
		if (prog)
			clReleaseProgram(prog);
	}
	prog = clCreateProgramWithSource(ctx, n, srcs, lens, err);
	if (prog) {
		free(ks->pending_source);
		ks->pending = prog;
		ks->pending_source = strdup(srcs[0]);
	}
	return prog;
}

/* vkg_kernels_keep adds the binary of a program VkFFT built from source to the set. */
static void vkg_kernels_keep(struct vkg_ksession *ks, cl_program prog, const char *options)
{
	size_t size = 0;
	unsigned char *bin;
	vkg_src_kernel *k;
	if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || size == 0)
		return;
	bin = malloc(size);
	if (!bin)
		return;
	if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != CL_SUCCESS ||
	    !(k = vkg_kernel_set_add(ks->set, ks->pending_source, options, ""))) {
		free(bin);
		return;
	}
	k->binary = bin;
	k->binary_bytes = size;
	k->from_init = 1;
}

static cl_int vkg_hook_build_program(cl_program prog, cl_uint ndev, const cl_device_id *devs, const char *options,
				     void(CL_CALLBACK *notify)(cl_program, void *), void *data)
{
	struct vkg_ksession *ks = vkg_ks;
	cl_int r;
	if (prog == (cl_program)VKG_STAND_IN_MODULE) {
		if (ks && ks->recording >= 0 && options && *options) {
			char *o = strdup(options);
			if (!o)
				return CL_OUT_OF_HOST_MEMORY;
			free(ks->set->k[ks->recording].options);
			ks->set->k[ks->recording].options = o;
		}
		return CL_SUCCESS;
	}
	if (ks && prog == ks->prebuilt && (!options || !*options) && !notify) {
		ks->prebuilt = NULL;
		return CL_SUCCESS;
	}
	r = clBuildProgram(prog, ndev, devs, options, notify, data);
	if (ks && prog == ks->pending) {
		if (r == CL_SUCCESS)
			vkg_kernels_keep(ks, prog, options);
		ks->pending = NULL;
		free(ks->pending_source);
		ks->pending_source = NULL;
	}
	return r;
}

static cl_kernel vkg_hook_create_kernel(cl_program prog, const char *name, cl_int *err)
{
	if (prog == (cl_program)VKG_STAND_IN_MODULE) {
		if (err)
			*err = CL_SUCCESS;
		return (cl_kernel)VKG_STAND_IN_KERNEL;
	}
	return clCreateKernel(prog, name, err);
}

static cl_int vkg_hook_set_kernel_arg(cl_kernel k, cl_uint i, size_t size, const void *value)
{
	if (k == (cl_kernel)VKG_STAND_IN_KERNEL)
		return CL_SUCCESS;
	return clSetKernelArg(k, i, size, value);
}

static cl_int vkg_hook_enqueue_kernel(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *offset,
				      const size_t *global, const size_t *local, cl_uint nwait, const cl_event *wait,
				      cl_event *ev)
{
	if (k == (cl_kernel)VKG_STAND_IN_KERNEL)
		return CL_SUCCESS; /* VkFFT passes no event */
	return clEnqueueNDRangeKernel(q, k, dim, offset, global, local, nwait, wait, ev);
}

static cl_int vkg_hook_release_kernel(cl_kernel k)
{
	return k == (cl_kernel)VKG_STAND_IN_KERNEL ? CL_SUCCESS : clReleaseKernel(k);
}

static cl_int vkg_hook_release_program(cl_program prog)
{
	return prog == (cl_program)VKG_STAND_IN_MODULE ? CL_SUCCESS : clReleaseProgram(prog);
}

static void vkg_ksession_open(struct vkg_ksession *ks, const vkg_native *native)
{
	ks->device = *(cl_device_id *)native->device;
	ks->recording = -1;
	vkg_ks = ks;
}

static void vkg_ksession_close(struct vkg_ksession *ks)
{
	vkg_ks = NULL;
	free(ks->pending_source);
	ks->pending_source = NULL;
	ks->pending = NULL;
	ks->prebuilt = NULL;
}

/* VkFFT's OpenCL compile clears what it frees before deleteVkFFT: nothing to hold back */
static VkFFTResult vkg_take_refusal(void) { return VKFFT_SUCCESS; }

int vkg_kernel_compile(vkg_device *dev, vkg_src_kernel *k, vkg_status *st)
{
	vkg_native native;
	cl_context ctx;
	cl_device_id device;
	const char *src = k->source;
	cl_program prog;
	cl_int err = CL_SUCCESS;
	size_t size = 0;
	unsigned char *bin = NULL;
	vkg_device_native(dev, &native);
	ctx = *(cl_context *)native.context;
	device = *(cl_device_id *)native.device;
	prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	if (!prog || err != CL_SUCCESS)
		return vkg_fail(st, VKG_ERR_BACKEND, err, "clCreateProgramWithSource: error %d", err);
	err = clBuildProgram(prog, 1, &device, k->options[0] ? k->options : NULL, NULL, NULL);
	if (err != CL_SUCCESS) {
		clReleaseProgram(prog);
		return vkg_fail(st, VKG_ERR_BACKEND, err, "clBuildProgram: error %d", err);
	}
	err = clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
	if (err == CL_SUCCESS && size > 0 && (bin = malloc(size)) != NULL)
		err = clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
	clReleaseProgram(prog);
	if (err != CL_SUCCESS || !bin || size == 0) {
		free(bin);
		return vkg_fail(st, VKG_ERR_BACKEND, err, "clGetProgramInfo(CL_PROGRAM_BINARIES): error %d", err);
	}
	free(k->binary);
	k->binary = bin;
	k->binary_bytes = size;
	return VKG_OK;
}

#elif VKFFT_BACKEND == 1
#if CUDA_VERSION < 11030
#error "vkfftgo: VkFFT hands NVRTC's CUBIN to the driver from CUDA 11.3 on; older headers make it PTX"
#endif
#undef nvrtcCreateProgram
#undef nvrtcCompileProgram
#undef nvrtcGetProgramLog
#undef nvrtcGetCUBINSize
#undef nvrtcGetCUBIN
#undef nvrtcDestroyProgram
#undef cuModuleLoadDataEx
#undef cuModuleGetFunction
#undef cuFuncSetAttribute
#undef cuLaunchKernel
#undef cuModuleUnload
#define nvrtcCreateProgram (*VKG_CUDA_API.dl_nvrtcCreateProgram)
#define nvrtcCompileProgram (*VKG_CUDA_API.dl_nvrtcCompileProgram)
#define nvrtcGetProgramLog (*VKG_CUDA_API.dl_nvrtcGetProgramLog)
#define nvrtcGetCUBINSize (*VKG_CUDA_API.dl_nvrtcGetCUBINSize)
#define nvrtcGetCUBIN (*VKG_CUDA_API.dl_nvrtcGetCUBIN)
#define nvrtcDestroyProgram (*VKG_CUDA_API.dl_nvrtcDestroyProgram)
#define cuModuleLoadDataEx (*VKG_CUDA_API.dl_cuModuleLoadDataEx)
#define cuModuleGetFunction (*VKG_CUDA_API.dl_cuModuleGetFunction)
#define cuFuncSetAttribute (*VKG_CUDA_API.dl_cuFuncSetAttribute)
#define cuLaunchKernel (*VKG_CUDA_API.dl_cuLaunchKernel)
#define cuModuleUnload (*VKG_CUDA_API.dl_cuModuleUnload)

/* What VkFFT holds as an nvrtcProgram while a session is open: the program's texts, and
 * the CUBIN it gets, found in the set or compiled by NVRTC (real). */
struct vkg_nvprog {
	char *source, *name;
	char *served_options; /* the CUBIN came from the set for these options */
	nvrtcProgram real;
	const void *cubin; /* the set's (owned there) or the stand-in */
	size_t cubin_bytes;
};

static void vkg_forget_served(struct vkg_ksession *ks)
{
	free(ks->served_source);
	free(ks->served_options);
	free(ks->served_name);
	ks->served_source = ks->served_options = ks->served_name = NULL;
}

static nvrtcResult vkg_kernels_create_program(nvrtcProgram *prog, const char *src, const char *name, int nheaders,
					      const char *const *headers, const char *const *includes)
{
	struct vkg_nvprog *w;
	if (!vkg_ks)
		return nvrtcCreateProgram(prog, src, name, nheaders, headers, includes);
	if (nheaders != 0 || headers || includes)
		return NVRTC_ERROR_INVALID_INPUT; /* VkFFT names no headers: a key would miss them */
	w = calloc(1, sizeof *w);
	if (!w || !(w->source = strdup(src)) || !(w->name = strdup(name ? name : ""))) {
		if (w)
			free(w->source);
		free(w);
		return NVRTC_ERROR_OUT_OF_MEMORY;
	}
	*prog = (nvrtcProgram)(void *)w;
	vkg_ks->open = w;
	return NVRTC_SUCCESS;
}

/* vkg_join_options writes NVRTC's options one per line (malloc'd). */
static char *vkg_join_options(int n, const char *const *opts)
{
	size_t len = 1;
	char *s, *p;
	int i;
	for (i = 0; i < n; i++)
		len += strlen(opts[i]) + 1;
	s = p = malloc(len);
	if (!s)
		return NULL;
	*p = 0;
	for (i = 0; i < n; i++) {
		size_t l = strlen(opts[i]);
		if (i > 0)
			*p++ = '\n';
		memcpy(p, opts[i], l + 1);
		p += l;
	}
	return s;
}

/* vkg_nvrtc_build compiles source and returns its CUBIN (malloc'd); the program stays in
 * *prog for its log. */
static nvrtcResult vkg_nvrtc_build(nvrtcProgram *prog, const char *source, const char *name, int n,
				   const char *const *opts, void **cubin, size_t *bytes)
{
	nvrtcResult r;
	*cubin = NULL;
	vkg_compile_enter();
	r = nvrtcCreateProgram(prog, source, name, 0, NULL, NULL);
	if (r != NVRTC_SUCCESS) {
		vkg_compile_leave();
		*prog = NULL;
		return r;
	}
	r = nvrtcCompileProgram(*prog, n, opts);
	vkg_compile_leave();
	if (r == NVRTC_SUCCESS)
		r = nvrtcGetCUBINSize(*prog, bytes);
	if (r == NVRTC_SUCCESS && *bytes == 0)
		r = NVRTC_ERROR_INTERNAL_ERROR;
	if (r == NVRTC_SUCCESS && !(*cubin = malloc(*bytes)))
		r = NVRTC_ERROR_OUT_OF_MEMORY;
	if (r == NVRTC_SUCCESS && (r = nvrtcGetCUBIN(*prog, *cubin)) != NVRTC_SUCCESS) {
		free(*cubin);
		*cubin = NULL;
	}
	return r;
}

static nvrtcResult vkg_hook_nvrtc_compile(nvrtcProgram prog, int n, const char *const *opts)
{
	struct vkg_ksession *ks = vkg_ks;
	struct vkg_nvprog *w = (struct vkg_nvprog *)(void *)prog;
	const vkg_src_kernel *found;
	vkg_src_kernel *k;
	char *joined;
	void *cubin;
	size_t bytes = 0;
	nvrtcResult r;
	if (!ks) {
		vkg_compile_enter();
		r = nvrtcCompileProgram(prog, n, opts);
		vkg_compile_leave();
		return r;
	}
	if (!(joined = vkg_join_options(n, opts)))
		return NVRTC_ERROR_OUT_OF_MEMORY;
	if (ks->dry) {
		k = vkg_kernel_set_add(ks->set, w->source, joined, w->name);
		free(joined);
		w->cubin = vkg_stand_in_binary;
		w->cubin_bytes = sizeof vkg_stand_in_binary;
		return k ? NVRTC_SUCCESS : NVRTC_ERROR_OUT_OF_MEMORY;
	}
	found = vkg_kernel_set_find(ks->set, w->source, joined, w->name);
	if (found) {
		free(w->served_options);
		w->served_options = joined;
		w->cubin = found->binary;
		w->cubin_bytes = (size_t)found->binary_bytes;
		return NVRTC_SUCCESS;
	}
	r = vkg_nvrtc_build(&w->real, w->source, w->name, n, opts, &cubin, &bytes);
	if (r == NVRTC_SUCCESS) {
		k = vkg_kernel_set_add(ks->set, w->source, joined, w->name);
		if (!k) {
			free(cubin);
			r = NVRTC_ERROR_OUT_OF_MEMORY;
		} else {
			k->binary = cubin;
			k->binary_bytes = bytes;
			k->from_init = 1;
			w->cubin = cubin;
			w->cubin_bytes = bytes;
		}
	}
	free(joined);
	return r;
}

static nvrtcResult vkg_hook_nvrtc_log(nvrtcProgram prog, char *log)
{
	struct vkg_nvprog *w = (struct vkg_nvprog *)(void *)prog;
	if (!vkg_ks)
		return nvrtcGetProgramLog(prog, log);
	if (w->real)
		return nvrtcGetProgramLog(w->real, log);
	log[0] = 0;
	return NVRTC_SUCCESS;
}

static nvrtcResult vkg_hook_nvrtc_cubin_size(nvrtcProgram prog, size_t *bytes)
{
	struct vkg_nvprog *w = (struct vkg_nvprog *)(void *)prog;
	if (!vkg_ks)
		return nvrtcGetCUBINSize(prog, bytes);
	if (!w->cubin)
		return NVRTC_ERROR_INVALID_PROGRAM;
	*bytes = w->cubin_bytes;
	return NVRTC_SUCCESS;
}

static nvrtcResult vkg_hook_nvrtc_cubin(nvrtcProgram prog, char *cubin)
{
	struct vkg_nvprog *w = (struct vkg_nvprog *)(void *)prog;
	if (!vkg_ks)
		return nvrtcGetCUBIN(prog, cubin);
	if (!w->cubin)
		return NVRTC_ERROR_INVALID_PROGRAM;
	memcpy(cubin, w->cubin, w->cubin_bytes);
	return NVRTC_SUCCESS;
}

/* vkg_nvprog_free frees a program's wrapper and what it still owns. */
static void vkg_nvprog_free(struct vkg_nvprog *w)
{
	if (w->real)
		nvrtcDestroyProgram(&w->real);
	free(w->served_options);
	free(w->source);
	free(w->name);
	free(w);
}

static nvrtcResult vkg_hook_nvrtc_destroy(nvrtcProgram *prog)
{
	struct vkg_nvprog *w;
	if (!vkg_ks)
		return nvrtcDestroyProgram(prog);
	w = (struct vkg_nvprog *)(void *)*prog;
	if (w) {
		if (vkg_ks->open == w)
			vkg_ks->open = NULL;
		if (w->served_options) {
			/* VkFFT loads the CUBIN next: keep what compiles it if the driver refuses */
			vkg_forget_served(vkg_ks);
			vkg_ks->served_source = w->source;
			vkg_ks->served_options = w->served_options;
			vkg_ks->served_name = w->name;
			w->source = w->served_options = w->name = NULL;
		}
		vkg_nvprog_free(w);
	}
	*prog = NULL;
	return NVRTC_SUCCESS;
}

static int vkg_split_options(char *s, const char **opts, int max);

/* VkFFT 1.3.4's CUDA compile keeps the CUBIN it saves for the application string in the
 * axis, and when the driver then refuses the module, its kernel or the kernel's shared
 * memory, it frees the CUBIN and calls deleteVkFFT, which frees it again: a double free
 * that aborts the process. So a refusal is not handed to VkFFT: the hook answers with a
 * stand-in (as a dry session does), remembers the refusal as the error VkFFT would have
 * returned, and the plan's creation fails with it once VkFFT is done (vkg_take_refusal),
 * deleting the application the normal way. */
static __thread VkFFTResult vkg_refusal;

static void vkg_refuse(VkFFTResult r, const char *call, CUresult cr)
{
	if (vkg_refusal == VKFFT_SUCCESS) {
		vkg_refusal = r;
		printf("%s error: %d\n", call, (int)cr);
	}
}

static VkFFTResult vkg_take_refusal(void)
{
	VkFFTResult r = vkg_refusal;
	vkg_refusal = VKFFT_SUCCESS;
	return r;
}

/* vkg_compile_refused compiles the kernel whose CUBIN from the set the driver refused,
 * adds it to the set (VkFFT's own compile, for the caller to keep) and loads it. */
static CUresult vkg_compile_refused(struct vkg_ksession *ks, CUmodule *mod, unsigned int n, CUjit_option *opts,
				    void **values, CUresult refused)
{
	const char *argv[16];
	nvrtcProgram prog = NULL;
	void *cubin = NULL;
	size_t bytes = 0;
	vkg_src_kernel *k;
	char *buf = strdup(ks->served_options);
	nvrtcResult r;
	if (!buf)
		return refused;
	r = vkg_nvrtc_build(&prog, ks->served_source, ks->served_name, vkg_split_options(buf, argv, 16), argv, &cubin,
			    &bytes);
	if (prog)
		nvrtcDestroyProgram(&prog);
	free(buf);
	if (r != NVRTC_SUCCESS)
		return refused;
	k = vkg_kernel_set_add(ks->set, ks->served_source, ks->served_options, ks->served_name);
	if (!k) {
		free(cubin);
		return refused;
	}
	k->binary = cubin;
	k->binary_bytes = bytes;
	k->from_init = 1;
	return cuModuleLoadDataEx(mod, cubin, n, opts, values);
}

static CUresult vkg_hook_module_load(CUmodule *mod, const void *image, unsigned int n, CUjit_option *opts,
				     void **values)
{
	struct vkg_ksession *ks = vkg_ks;
	CUresult r;
	if (ks && ks->dry) {
		*mod = (CUmodule)VKG_STAND_IN_MODULE;
		return CUDA_SUCCESS;
	}
	r = cuModuleLoadDataEx(mod, image, n, opts, values);
	if (ks && ks->served_source) {
		if (r != CUDA_SUCCESS)
			r = vkg_compile_refused(ks, mod, n, opts, values, r);
		vkg_forget_served(ks);
	}
	if (r != CUDA_SUCCESS) {
		vkg_refuse(VKFFT_ERROR_FAILED_TO_LOAD_MODULE, "cuModuleLoadDataEx", r);
		*mod = (CUmodule)VKG_STAND_IN_MODULE;
	}
	return CUDA_SUCCESS;
}

static CUresult vkg_hook_module_function(CUfunction *fn, CUmodule mod, const char *name)
{
	CUresult r;
	if (mod == (CUmodule)VKG_STAND_IN_MODULE) {
		*fn = (CUfunction)VKG_STAND_IN_KERNEL;
		return CUDA_SUCCESS;
	}
	r = cuModuleGetFunction(fn, mod, name);
	if (r != CUDA_SUCCESS) {
		vkg_refuse(VKFFT_ERROR_FAILED_TO_GET_FUNCTION, "cuModuleGetFunction", r);
		*fn = (CUfunction)VKG_STAND_IN_KERNEL;
	}
	return CUDA_SUCCESS;
}

static CUresult vkg_hook_func_attribute(CUfunction fn, CUfunction_attribute attr, int value)
{
	CUresult r;
	if (fn == (CUfunction)VKG_STAND_IN_KERNEL)
		return CUDA_SUCCESS;
	r = cuFuncSetAttribute(fn, attr, value);
	if (r != CUDA_SUCCESS)
		vkg_refuse(VKFFT_ERROR_FAILED_TO_SET_DYNAMIC_SHARED_MEMORY, "cuFuncSetAttribute", r);
	return CUDA_SUCCESS;
}

static CUresult vkg_hook_launch(CUfunction fn, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
				unsigned int by, unsigned int bz, unsigned int shared, CUstream stream, void **params,
				void **extra)
{
	if (fn == (CUfunction)VKG_STAND_IN_KERNEL)
		return CUDA_SUCCESS;
	return cuLaunchKernel(fn, gx, gy, gz, bx, by, bz, shared, stream, params, extra);
}

static CUresult vkg_hook_module_unload(CUmodule mod)
{
	if (mod == (CUmodule)VKG_STAND_IN_MODULE)
		return CUDA_SUCCESS;
	return cuModuleUnload(mod);
}

static void vkg_ksession_open(struct vkg_ksession *ks, const vkg_native *native)
{
	(void)native;
	vkg_ks = ks;
}

static void vkg_ksession_close(struct vkg_ksession *ks)
{
	vkg_ks = NULL;
	vkg_forget_served(ks);
	if (ks->open) { /* left by a failed compile */
		vkg_nvprog_free(ks->open);
		ks->open = NULL;
	}
}

/* vkg_split_options undoes vkg_join_options in place: opts points into s. */
static int vkg_split_options(char *s, const char **opts, int max)
{
	int n = 0;
	if (!*s)
		return 0;
	while (n < max) {
		char *nl = strchr(s, '\n');
		opts[n++] = s;
		if (!nl)
			break;
		*nl = 0;
		s = nl + 1;
	}
	return n;
}

int vkg_kernel_compile(vkg_device *dev, vkg_src_kernel *k, vkg_status *st)
{
	vkg_native native;
	const vkg_cuda_api *api;
	nvrtcProgram prog = NULL;
	const char *opts[16];
	char *buf = strdup(k->options);
	void *cubin = NULL;
	size_t bytes = 0;
	nvrtcResult r;
	int n;
	vkg_device_native(dev, &native);
	api = native.api;
	if (!buf)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	/* the table is one per process: every device of the backend hands out the same */
	__atomic_store_n(&vkg_cuda, api, __ATOMIC_RELEASE);
	n = vkg_split_options(buf, opts, 16);
	r = vkg_nvrtc_build(&prog, k->source, k->name, n, opts, &cubin, &bytes);
	if (prog)
		nvrtcDestroyProgram(&prog);
	free(buf);
	if (r != NVRTC_SUCCESS)
		return vkg_fail(st, VKG_ERR_BACKEND, (int)r, "NVRTC: %s", nvrtcGetErrorString(r));
	free(k->binary);
	k->binary = cubin;
	k->binary_bytes = bytes;
	return VKG_OK;
}

/* A worker of vkg_fork_jobs, in a forked child or a thread of this process: kernel i of
 * the set to a CUBIN, as vkg_kernel_compile would. */
static int vkg_compile_job(void *ctx, int i, void **bin, size_t *bytes)
{
	vkg_src_kernel *k = ((vkg_src_kernel **)ctx)[i];
	nvrtcProgram prog = NULL;
	const char *opts[16];
	char *buf = strdup(k->options);
	nvrtcResult r;
	if (!buf)
		return -1;
	r = vkg_nvrtc_build(&prog, k->source, k->name, vkg_split_options(buf, opts, 16), opts, bin, bytes);
	free(buf);
	if (prog)
		nvrtcDestroyProgram(&prog);
	return r == NVRTC_SUCCESS ? 0 : -1;
}

/* A worker that has not answered in this long is killed and its kernels compiled here (a
 * hung one is usually caught much sooner: vkg_fork_compile.c's stragglers). */
#define VKG_FORKED_COMPILE_TIMEOUT_MS 15000
/* Forks stop once they have taken this long together; threads take the other workers'
 * places. A child gains about half a compile (≈100 ms) over a thread. */
#define VKG_FORK_BUDGET_MS 25.0

int vkg_kernels_compile_forked(vkg_device *dev, vkg_src_kernel **ks, int n, int workers, int *forked)
{
	vkg_native native;
	void **bins;
	size_t *bytes;
	int i, done = 0;
	*forked = 0;
	if (n <= 0 || vkg_forked())
		return 0;
	vkg_device_native(dev, &native);
	__atomic_store_n(&vkg_cuda, native.api, __ATOMIC_RELEASE);
	bins = calloc((size_t)n, sizeof *bins);
	bytes = calloc((size_t)n, sizeof *bytes);
	if (bins && bytes &&
	    vkg_fork_jobs(n, workers, vkg_compile_job, ks, VKG_FORKED_COMPILE_TIMEOUT_MS, VKG_FORK_BUDGET_MS, bins,
			  bytes, forked) > 0)
		for (i = 0; i < n; i++)
			if (bins[i]) {
				free(ks[i]->binary);
				ks[i]->binary = bins[i];
				ks[i]->binary_bytes = bytes[i];
				done++;
			}
	free(bins);
	free(bytes);
	return done;
}

#else
/* Vulkan: glslang's calls are not routed here; VkFFT compiles as it generates. */
static VkFFTResult vkg_take_refusal(void) { return VKFFT_SUCCESS; }

static void vkg_ksession_open(struct vkg_ksession *ks, const vkg_native *native)
{
	(void)ks;
	(void)native;
}

static void vkg_ksession_close(struct vkg_ksession *ks) { (void)ks; }

int vkg_kernel_compile(vkg_device *dev, vkg_src_kernel *k, vkg_status *st)
{
	(void)dev;
	(void)k;
	return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0, "kernels compiled one by one: not on Vulkan");
}
#endif

#if VKFFT_BACKEND != 1
/* Only NVRTC compiles in this process: OpenCL's compiler is the driver's, whose threads a
 * forked child would not have, and Vulkan compiles inside VkFFT. */
int vkg_kernels_compile_forked(vkg_device *dev, vkg_src_kernel **ks, int n, int workers, int *forked)
{
	(void)dev;
	(void)ks;
	(void)n;
	(void)workers;
	*forked = 0;
	return 0;
}
#endif

#endif
