/* vkg_core_fuse.h — part of vkg_core.c (included there once, after vkFFT.h; not a header
 * for anyone else): a plan's stages — separate input/output buffers, strides, zero
 * padding, VkFFT's convolution — and the fused load/store stages, which rewrite the
 * kernel source VkFFT generates at the one point where it reaches the compiler.
 */
#ifndef VKG_CORE_FUSE_H
#define VKG_CORE_FUSE_H

#include "vkg_fuse.h"

/* What a plan keeps for its stages; VkFFT reads the sizes and handles through pointers. */
struct vkg_stage_state {
	struct vkg_plan_stages cfg;
	pfUINT input_size, output_size, kernel_size;
	vkg_native_mem input, output, kernel;          /* bound at creation */
	vkg_native_mem launch_input, launch_output;    /* the next launch's */
	VkFFTApplication *app;
	int fused;      /* kernels the rewriter changed (or, loaded from the cache, bound) */
	char why[256];  /* why the rewriter refused */
};

/* The stages of the plan whose application is being initialised on this thread: the
 * compile hook below needs them, and VkFFT calls it with nothing but the source. */
static __thread struct vkg_stage_state *vkg_stage_building;

int vkg_vkfft_patched(void)
{
#ifdef VKFFT_VKFFTGO_PATCHED
	return 1;
#else
	return 0;
#endif
}

static int vkg_stages_active(const struct vkg_plan_stages *g)
{
	return g->separate_input || g->separate_output || g->conv || g->fuse_load || g->fuse_store ||
	       g->forward_only || g->offsets_at_launch || g->no_reorder || g->return_to_input || g->shared_memory ||
	       g->pad_right[0] ||
	       g->pad_right[1] ||
	       g->pad_right[2];
}

/* vkg_stages_configure applies the stages to VkFFT's configuration. */
static int vkg_stages_configure(struct vkg_stage_state *s, const vkg_plan_params *p, VkFFTConfiguration *c,
				vkg_status *st)
{
	const struct vkg_plan_stages *g = &p->stages;
	int i;

#if VKFFT_BACKEND == 0
	/* GLSL's kernels take no parameters: the rewriter needs its entry point and the text
	 * before it, and a fused store writes the plan's output binding */
	if ((g->fuse_load || g->fuse_store) && (!g->fuse_entry || !g->fuse_entry_prelude))
		return vkg_fail(st, VKG_ERR_INVALID, 0, "fused stages on Vulkan need the GLSL dialect's entry point and prelude");
	if (g->fuse_store && !g->separate_output)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "a fused store on Vulkan writes the plan's separate output buffer");
#endif
	s->cfg = *g; /* the text pointers are the caller's: vkg_plan_create clears them after init */
	if (g->separate_input) {
		s->input = (vkg_native_mem)(uintptr_t)g->input_buffer;
		s->launch_input = s->input;
		s->input_size = g->input_bytes;
		c->isInputFormatted = 1;
		c->inputBuffer = &s->input;
		c->inputBufferSize = &s->input_size;
	}
	if (g->separate_output) {
		s->output = (vkg_native_mem)(uintptr_t)g->output_buffer;
		s->launch_output = s->output;
		s->output_size = g->output_bytes;
		c->isOutputFormatted = 1;
		c->outputBuffer = &s->output;
		c->outputBufferSize = &s->output_size;
		c->inverseReturnToInputBuffer = 0;
	}
	for (i = 0; i < 4; i++) {
		if (g->input_stride[i])
			c->inputBufferStride[i] = g->input_stride[i];
		if (g->output_stride[i])
			c->outputBufferStride[i] = g->output_stride[i];
	}
	for (i = 0; i < p->rank; i++) {
		int v = p->rank - 1 - i; /* VkFFT counts axes from the fastest */
		if (g->pad_right[i] == 0)
			continue;
		if (g->pad_left[i] >= g->pad_right[i] || g->pad_right[i] > p->shape[i])
			return vkg_fail(st, VKG_ERR_INVALID, 0, "zero padding [%llu, %llu) of axis %d does not fit its %llu points",
					(unsigned long long)g->pad_left[i], (unsigned long long)g->pad_right[i], i,
					(unsigned long long)p->shape[i]);
		c->performZeropadding[v] = 1;
		c->fft_zeropad_left[v] = g->pad_left[i];
		c->fft_zeropad_right[v] = g->pad_right[i];
	}
	if (g->features > 1)
		c->coordinateFeatures = g->features;
	switch (g->conv) {
	case VKG_CONV_NONE:
		break;
	case VKG_CONV_KERNEL:
		c->kernelConvolution = 1;
		break;
	case VKG_CONV_APPLY:
#ifndef VKFFT_VKFFTGO_PATCHED
		if (p->rank == 3)
			return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0,
					"3-D convolution needs VkFFT 1.3.4 with cvendor/patches (make vendor): these headers "
					"misplace the data of every plane but the first");
#endif
		s->kernel = (vkg_native_mem)(uintptr_t)g->kernel_buffer;
		s->kernel_size = g->kernel_bytes;
		c->performConvolution = 1;
		c->kernel = &s->kernel;
		c->kernelSize = &s->kernel_size;
		c->conjugateConvolution = g->conj ? 1 : 0;
#ifndef VKFFT_VKFFTGO_PATCHED
		if (g->cross_power)
			return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0,
					"phase correlation needs VkFFT 1.3.4 with cvendor/patches/vkfft-1.3.4-cross-power.patch "
					"(make vendor); these headers generate no cross-power normalisation");
#endif
		c->crossPowerSpectrumNormalization = g->cross_power ? 1 : 0;
		if (g->matrix > 1)
			c->matrixConvolution = g->matrix;
		if (g->kernels > 1)
			c->numberKernels = g->kernels;
		c->symmetricKernel = g->symmetric ? 1 : 0;
		break;
	default:
		return vkg_fail(st, VKG_ERR_INVALID, 0, "unknown convolution stage %d", g->conv);
	}
	if (g->forward_only)
		c->makeForwardPlanOnly = 1;
	if (g->offsets_at_launch)
		c->specifyOffsetsAtLaunch = 1;
	if (g->no_reorder)
		c->disableReorderFourStep = 1;
	if (g->return_to_input)
		c->inverseReturnToInputBuffer = 1;
	if (g->shared_memory)
		c->sharedMemorySize = g->shared_memory;
	if (g->fuse_load || g->fuse_store) {
		if (p->rank != 1 || p->kind != VKG_C2C || p->double_precision || !g->forward_only || !g->fuse_prelude ||
		    !g->fuse_input_decl)
			return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0,
					"fused stages need a forward-only single-precision 1-D C2C plan and their prelude");
		if (g->fuse_load && !g->separate_input)
			return vkg_fail(st, VKG_ERR_INVALID, 0, "a fused load reads a separate input buffer");
	}
	return VKG_OK;
}

/* vkg_fuse_roles says which of the rewrites an axis of the application gets: the load in
 * the first pass a forward transform launches, the store in the last (summed per
 * work-group when the text says how the kernel reads its work-group index). */
static int vkg_fuse_roles(const struct vkg_stage_state *s, VkFFTApplication *app, VkFFTAxis *axis)
{
	int roles = 0;
	VkFFTPlan *plan = app->localFFTPlan;
	pfUINT n;
	if (!plan || !(s->cfg.fuse_load || s->cfg.fuse_store))
		return 0;
	n = plan->numAxisUploads[0];
	if (n < 1 || n > 4 || axis < &plan->axes[0][0] || axis >= &plan->axes[0][n])
		return 0;
	/* forward passes of axis 0 run from upload n-1 down to 0 (VkFFTAppend) */
	if (s->cfg.fuse_load && axis->specializationConstants.axis_upload_id == (int)(n - 1))
		roles |= VKG_FUSE_LOAD;
	if (s->cfg.fuse_store && axis->specializationConstants.axis_upload_id == 0)
		roles |= VKG_FUSE_STORE | (s->cfg.fuse_group_id ? VKG_FUSE_GROUP : 0);
	return roles;
}

/* vkg_fuse_axis_for finds the axis whose generated code is src; *other is set when src
 * belongs to any other kernel (inverse plan, Bluestein, R2C helpers). */
static VkFFTAxis *vkg_fuse_axis_for(VkFFTApplication *app, const char *src)
{
	VkFFTPlan *plan = app->localFFTPlan;
	pfUINT l;
	if (!plan)
		return NULL;
	for (l = 0; l < plan->numAxisUploads[0] && l < 4; l++)
		if (plan->axes[0][l].specializationConstants.code0 == src)
			return &plan->axes[0][l];
	return NULL;
}

/* vkg_fuse_dump writes VkFFT's kernel and its rewrite into $VKFFTGO_FUSE_DUMP (a
 * directory), for diagnosing the rewriter on a new VkFFT or device. */
static void vkg_fuse_dump(const char *src, const char *out, int roles)
{
	static int seq;
	const char *dir = getenv("VKFFTGO_FUSE_DUMP");
	char name[512];
	FILE *f;
	int i;
	if (!dir || !*dir)
		return;
	i = __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED);
	snprintf(name, sizeof name, "%s/kernel-%03d-roles%d.src", dir, i, roles);
	if ((f = fopen(name, "w")) != NULL) {
		fputs(src, f);
		fclose(f);
	}
	snprintf(name, sizeof name, "%s/kernel-%03d-roles%d.fused", dir, i, roles);
	if (out && (f = fopen(name, "w")) != NULL) {
		fputs(out, f);
		fclose(f);
	}
}

/* vkg_fuse_refuse frees the code generator's scratch state of axis, whose compile is
 * about to fail: VkFFT frees it only after a successful compile (VkFFTPlanAxis), so every
 * refused fusion leaked its string buffer and type names. Nothing of VkFFT reads them
 * between the compile call and deleteVkFFT. */
static char *vkg_fuse_refuse(VkFFTApplication *app, VkFFTAxis *axis)
{
	freeMemoryParametersAPI(app, &axis->specializationConstants);
	freeParametersAPI(app, &axis->specializationConstants);
	return NULL;
}

/* vkg_fuse_source returns the source to compile for src (src itself when nothing is to
 * be fused), or NULL when fusion was asked for and the rewriter refused. */
static char *vkg_fuse_source(const char *src, int *changed)
{
	struct vkg_stage_state *s = vkg_stage_building;
	VkFFTAxis *axis;
	vkg_fuse_text text;
	char *out;
	int roles;

	*changed = 0;
	if (!s || !(s->cfg.fuse_load || s->cfg.fuse_store))
		return (char *)src;
	axis = vkg_fuse_axis_for(s->app, src);
	if (!axis || s->app->useBluesteinFFT[0] || s->app->configuration.FFTdim != 1) {
		snprintf(s->why, sizeof s->why, "a kernel outside the forward passes of one 1-D axis (Bluestein or R2C helpers)");
		return NULL;
	}
	roles = vkg_fuse_roles(s, s->app, axis);
	if (!roles)
		return (char *)src;
#if VKFFT_BACKEND == 0
	/* glslang and the pipeline take a kernel whose shared memory exceeds the device's
	 * (its dispatch would be invalid): a group store's sums that do not fit beside
	 * VkFFT's are refused here */
	if ((roles & VKG_FUSE_GROUP) && s->cfg.fuse_group_shared) {
		VkPhysicalDeviceProperties pp;
		uint64_t used = (uint64_t)axis->specializationConstants.usedSharedMemory.data.i;
		vkGetPhysicalDeviceProperties(*s->app->configuration.physicalDevice, &pp);
		if (used + s->cfg.fuse_group_shared > pp.limits.maxComputeSharedMemorySize) {
			snprintf(s->why, sizeof s->why,
				 "group accumulation: its %llu bytes of shared memory and VkFFT's %llu exceed the device's %u",
				 (unsigned long long)s->cfg.fuse_group_shared, (unsigned long long)used,
				 pp.limits.maxComputeSharedMemorySize);
			return vkg_fuse_refuse(s->app, axis);
		}
	}
#endif
	text.prelude = s->cfg.fuse_prelude;
	text.input_decl = s->cfg.fuse_input_decl ? s->cfg.fuse_input_decl : "float2* inputs";
	text.extra_params = s->cfg.fuse_extra_params ? s->cfg.fuse_extra_params : "";
	text.entry = s->cfg.fuse_entry;
	text.input_vkfft = s->cfg.fuse_input_vkfft;
	text.output_vkfft = s->cfg.fuse_output_vkfft;
	text.output_decl = s->cfg.fuse_output_decl;
	text.entry_prelude = s->cfg.fuse_entry_prelude;
	text.group_id = s->cfg.fuse_group_id;
	text.group_forbid = s->cfg.fuse_group_forbid;
	out = vkg_fuse_rewrite(src, roles, &text, s->why, sizeof s->why);
	vkg_fuse_dump(src, out, roles);
	if (!out)
		return vkg_fuse_refuse(s->app, axis);
	*changed = 1;
	s->fused++;
	return out;
}

/* ---- the compile hook: VkFFT's one call that hands generated source to the compiler ---- */
#if VKFFT_BACKEND == 3
static cl_program vkg_hook_create_program(cl_context ctx, cl_uint n, const char **srcs, const size_t *lens,
					  cl_int *err)
{
	int changed = 0;
	/* VkFFT passes one NUL-terminated string (with its length) */
	int whole = n == 1 && srcs && srcs[0] && (!lens || !lens[0] || lens[0] == strlen(srcs[0]));
	char *src = whole ? vkg_fuse_source(srcs[0], &changed) : (char *)srcs[0];
	cl_program prog;
	if (!src) {
		if (err)
			*err = CL_INVALID_VALUE;
		return NULL;
	}
	if (!changed)
		return vkg_kernels_create_program(ctx, n, srcs, lens, err);
	prog = vkg_kernels_create_program(ctx, 1, (const char **)&src, NULL, err);
	free(src);
	return prog;
}
#elif VKFFT_BACKEND == 1
static nvrtcResult vkg_hook_create_program(nvrtcProgram *prog, const char *src, const char *name, int nheaders,
					   const char *const *headers, const char *const *includes)
{
	int changed;
	char *s = vkg_fuse_source(src, &changed);
	nvrtcResult r;
	if (!s)
		return NVRTC_ERROR_INVALID_INPUT;
	r = vkg_kernels_create_program(prog, s, name, nheaders, headers, includes);
	if (changed)
		free(s);
	return r;
}
#elif VKFFT_BACKEND == 0
/* The rewritten GLSL of the shader being compiled on this thread: glslang reads the
 * source through the pointer in VkFFT's glslang_input_t until it has preprocessed it, so
 * it lives until VkFFT deletes the shader. */
static __thread char *vkg_glsl_rewritten;

/* The source when the rewriter refused: glslang's preprocessor stops on it, VkFFT fails
 * its initialisation, and vkg_plan_create reports the rewriter's reason. */
static const char vkg_glsl_refused[] = "#version 450\n#error vkfftgo: the fuse rewriter refused this kernel\n";

static glslang_shader_t *vkg_hook_shader_create(const glslang_input_t *input)
{
	int changed = 0;
	char *src = vkg_fuse_source(input->code, &changed);
	/* VkFFT's input is its own non-const local: the source is replaced where glslang
	 * will read it */
	glslang_input_t *in = (glslang_input_t *)input;
	if (!src)
		in->code = vkg_glsl_refused;
	else if (changed) {
		free(vkg_glsl_rewritten);
		vkg_glsl_rewritten = src;
		in->code = src;
	}
	return glslang_shader_create(in);
}

static void vkg_hook_shader_delete(glslang_shader_t *shader)
{
	glslang_shader_delete(shader);
	free(vkg_glsl_rewritten);
	vkg_glsl_rewritten = NULL;
}

/* The sample buffer of the fused load being recorded on this thread (VK_NULL_HANDLE:
 * none). VkFFT binds a buffer over the size it was configured with, but a fused load
 * reads each chunk's samples at an offset into the caller's whole batch: its binding
 * covers the whole buffer. */
static __thread VkBuffer vkg_fused_input;

static void vkg_hook_update_descriptor_sets(VkDevice device, uint32_t nwrites, const VkWriteDescriptorSet *writes,
					    uint32_t ncopies, const VkCopyDescriptorSet *copies)
{
	/* VkFFT writes one descriptor at a time */
	if (vkg_fused_input != VK_NULL_HANDLE && nwrites == 1 && writes[0].descriptorCount == 1 &&
	    writes[0].pBufferInfo && writes[0].pBufferInfo[0].buffer == vkg_fused_input) {
		VkWriteDescriptorSet w = writes[0];
		VkDescriptorBufferInfo bi = writes[0].pBufferInfo[0];
		bi.offset = 0;
		bi.range = VK_WHOLE_SIZE;
		w.pBufferInfo = &bi;
		vkUpdateDescriptorSets(device, 1, &w, ncopies, copies);
		return;
	}
	vkUpdateDescriptorSets(device, nwrites, writes, ncopies, copies);
}
#endif

/* vkg_fuse_bind points the fused kernels at the window and the store target: CUDA through
 * the module's vkg_fuse variable, OpenCL through the two parameters the rewriter appended;
 * on Vulkan they are the plan's output binding (vkfft/kernels_glsl.go).
 * It runs after every creation, also from cached binaries (the hook did not run then), and
 * counts the kernels it bound. */
static int vkg_fuse_bind(struct vkg_stage_state *s, vkg_status *st)
{
	VkFFTApplication *app = s->app;
	VkFFTPlan *plan = app->localFFTPlan;
	pfUINT l;
	int bound = 0;
	if (!(s->cfg.fuse_load || s->cfg.fuse_store))
		return VKG_OK;
	if (!plan || app->useBluesteinFFT[0])
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0, "fused stages: VkFFT chose a layout the rewriter does not handle");
#if VKFFT_BACKEND == 0
	/* GLSL's fused load reads the window after the data of the buffer its pass writes; with
	 * its four-step reordering, VkFFT's first pass writes a temporary buffer of its own */
	if (s->cfg.fuse_load && s->cfg.fuse_window && app->configuration.allocateTempBuffer)
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0,
				"fused stages: a windowed load on Vulkan with VkFFT's four-step reordering (its first pass "
				"writes VkFFT's own temporary buffer)");
#endif
	for (l = 0; l < plan->numAxisUploads[0] && l < 4; l++) {
		VkFFTAxis *axis = &plan->axes[0][l];
		if (!vkg_fuse_roles(s, app, axis))
			continue;
#if VKFFT_BACKEND == 1
		{
			CUdeviceptr dptr = 0;
			size_t size = 0;
			uint64_t args[2];
			CUresult r = cuModuleGetGlobal(&dptr, &size, axis->VkFFTModule, "vkg_fuse");
			if (r != CUDA_SUCCESS || size != sizeof args)
				return vkg_fail(st, VKG_ERR_BACKEND, (int)r, "fused kernel without its vkg_fuse arguments");
			args[0] = s->cfg.fuse_window;
			args[1] = s->cfg.fuse_out;
			r = cuMemcpyHtoD(dptr, args, sizeof args);
			if (r != CUDA_SUCCESS)
				return vkg_fail(st, VKG_ERR_BACKEND, (int)r, "binding the fused kernel's arguments");
			/* a group-accumulating store may declare shared memory of its own beside
			 * VkFFT's dynamic share, which VkFFT opts into only past 48 KiB: opt in
			 * always, so the two together may use what the device allows */
			r = cuFuncSetAttribute(axis->VkFFTKernel, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
					       (int)axis->specializationConstants.usedSharedMemory.data.i);
			if (r != CUDA_SUCCESS)
				return vkg_fail(st, VKG_ERR_UNSUPPORTED, (int)r,
						"the fused kernel's shared memory and VkFFT's (%d bytes) exceed the device's",
						(int)axis->specializationConstants.usedSharedMemory.data.i);
		}
#elif VKFFT_BACKEND == 3
		{
			cl_uint nargs = 0;
			cl_mem w = (cl_mem)(uintptr_t)s->cfg.fuse_window, o = (cl_mem)(uintptr_t)s->cfg.fuse_out;
			cl_int err = clGetKernelInfo(axis->kernel, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
			if (err == CL_SUCCESS && nargs >= 4) {
				err = clSetKernelArg(axis->kernel, nargs - 2, sizeof w, &w);
				if (err == CL_SUCCESS)
					err = clSetKernelArg(axis->kernel, nargs - 1, sizeof o, &o);
			}
			if (err != CL_SUCCESS || nargs < 4)
				return vkg_fail(st, VKG_ERR_BACKEND, err, "binding the fused kernel's arguments (%u of them): error %d",
						nargs, err);
			/* a group-accumulating store may declare local memory of its own beside
			 * VkFFT's: refuse here what a launch could not get */
			if (app->configuration.device) {
				cl_ulong used = 0, avail = 0;
				cl_device_id dev = *app->configuration.device;
				if (clGetKernelWorkGroupInfo(axis->kernel, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used, NULL) ==
					    CL_SUCCESS &&
				    clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof avail, &avail, NULL) == CL_SUCCESS &&
				    used > avail)
					return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0,
							"the fused kernel needs %llu bytes of local memory, the device has %llu",
							(unsigned long long)used, (unsigned long long)avail);
			}
		}
#endif
		/* Vulkan: nothing to bind, the kernels read and write VkFFT's own bindings */
		bound++;
	}
	if (bound == 0)
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0, "fused stages: no kernel to fuse");
	s->fused = bound;
	return VKG_OK;
}

#endif
