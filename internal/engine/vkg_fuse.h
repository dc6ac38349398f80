/* vkg_fuse.h — the rewriter of VkFFT's generated kernels (vkg_fuse_rewrite.c).
 *
 * VkFFT 1.3.4 generates one kernel, VkFFT_main, per pass. Its global memory accesses are
 * whole statements on one line each: reads "LHS = inputs[INDEX];" and writes
 * "outputs[INDEX] = VALUE;" (checked on its CUDA and OpenCL output for the sizes the
 * tests and benchmarks use). The rewriter turns the reads of the first pass into
 * "LHS = vkg_load(inputs, (INDEX), VKG_WINDOW);" and the writes of the last pass into
 * "vkg_store(VKG_OUT, (INDEX), VALUE);", and prepends a prelude that defines both. Any
 * other use of inputs/outputs, or a signature it does not know, makes it refuse: the
 * caller then falls back to separate (companion) kernels, never to a guess.
 *
 * Nothing here knows a kernel language: the caller passes the text to prepend, the new
 * declaration of the input parameter, and any parameters to append. A dialect whose
 * kernel takes no parameters (GLSL: "void main()", with the buffers declared before it
 * as blocks such as "vec2 inputs[512];") also names its entry point and VkFFT's
 * declarations, and passes text to insert before the entry point, where the declarations
 * are in scope; that text is preceded by "#define VKG_FUSE_ROLES <roles>", so that it can
 * differ between the passes of one plan.
 *
 * Group accumulation (VKG_FUSE_GROUP, with VKG_FUSE_STORE): each work-group runs
 * several consecutive batch indices in a loop and sums the |X|^2 of its stores (in
 * registers or in shared memory: the prelude's choice), so the bins get one atomic add
 * per work-group and bin instead of one per element. The body of the entry point (after
 * the leading shared-memory declarations, which stay at kernel scope) becomes
 *
 *	VKG_GROUP_ENTER                            kernel scope: work-groups with nothing to do return
 *	VKG_GACC(vkg_acc0, vkg_bin0); ...          an accumulator and its bin per store statement
 *	VKG_GROUP_BEGIN                            the loop; defines vkg_by, the batch index of this turn
 *	  ...the body, with text->group_id read as vkg_by; stores become
 *	  VKG_GSTORE(VKG_OUT, (INDEX), (VALUE), vkg_accS, vkg_binS);
 *	VKG_GROUP_END                              a barrier (shared memory is reused) and the loop's end
 *	VKG_GFLUSH(VKG_OUT, vkg_accS, vkg_binS); ...
 *	VKG_GROUP_LEAVE
 *
 * and the prelude (or the entry prelude: GLSL declares shared memory only outside its
 * entry point) defines those macros for its dialect. The batch must enter the kernel
 * only through group_id: a body with "return", VkFFT's workGroupShift push constants, a
 * word of group_forbid, or shared memory declared later in the body is refused.
 */
#ifndef VKG_FUSE_H
#define VKG_FUSE_H

#include <stddef.h>

enum { VKG_FUSE_LOAD = 1, VKG_FUSE_STORE = 2, VKG_FUSE_GROUP = 4 };

typedef struct vkg_fuse_text {
	const char *prelude;     /* prepended to the source */
	const char *input_decl;  /* replaces "float2* inputs" in the signature (LOAD), e.g. "const char2* inputs" */
	const char *extra_params; /* appended to VkFFT_main's parameters ("" for none) */
	/* NULL in the C dialects (the defaults in parentheses): */
	const char *entry;         /* the kernel's entry point ("VkFFT_main") */
	const char *input_vkfft;   /* VkFFT's declaration that input_decl replaces, with the array bound that
				    * follows it if any ("float2* inputs") */
	const char *output_vkfft;  /* VkFFT's declaration of the output ("float2* outputs") */
	const char *output_decl;   /* replaces output_vkfft (and its bound) in a STORE pass (kept) */
	const char *entry_prelude; /* inserted before the entry point's line (nothing) */
	/* VKG_FUSE_GROUP only (NULL otherwise) */
	const char *group_id;     /* the work-group's index along the batch, e.g. "blockIdx.y", "gl_WorkGroupID.y" */
	const char *group_forbid; /* space-separated: other reads of the batch position, e.g. "get_global_id(1)" */
} vkg_fuse_text;

/* Returns the rewritten source (malloc'd) or NULL with the reason in why. */
char *vkg_fuse_rewrite(const char *src, int roles, const vkg_fuse_text *text, char *why, size_t whylen);

#endif
