/* vkg_vulkan_glsl.c — GLSL compute shaders to SPIR-V with the glslang linked into the
 * binary, for the shaders of our own (the normalisation, the companion kernels); VkFFT
 * drives glslang itself for its kernels. */
#include <stdlib.h>
#include <string.h>

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>

#include "vkg_vulkan_int.h"

int vkg_vk_glsl_to_spirv(const char *what, const char *preamble, const char *src, uint32_t **words, size_t *nwords,
			 vkg_status *st)
{
	glslang_input_t in = {0};
	glslang_shader_t *sh;
	glslang_program_t *prog = NULL;
	size_t n;
	int rc = VKG_OK;

	*words = NULL;
	*nwords = 0;
	in.language = GLSLANG_SOURCE_GLSL;
	in.stage = GLSLANG_STAGE_COMPUTE;
	in.client = GLSLANG_CLIENT_VULKAN;
	in.client_version = GLSLANG_TARGET_VULKAN_1_1;
	in.target_language = GLSLANG_TARGET_SPV;
	in.target_language_version = GLSLANG_TARGET_SPV_1_3;
	in.code = src;
	in.default_version = 450;
	in.default_profile = GLSLANG_NO_PROFILE;
	in.messages = GLSLANG_MSG_DEFAULT_BIT;
	in.resource = glslang_default_resource();
	sh = glslang_shader_create(&in);
	if (!sh)
		return vkg_fail(st, VKG_ERR_BACKEND, 0, "glslang_shader_create failed (%s)", what);
	if (preamble)
		glslang_shader_set_preamble(sh, preamble);
	if (!glslang_shader_preprocess(sh, &in) || !glslang_shader_parse(sh, &in)) {
		rc = vkg_fail(st, VKG_ERR_BACKEND, 0, "glslang could not compile %s: %s", what,
			      glslang_shader_get_info_log(sh));
		goto out;
	}
	prog = glslang_program_create();
	glslang_program_add_shader(prog, sh);
	if (!glslang_program_link(prog, GLSLANG_MSG_SPV_RULES_BIT | GLSLANG_MSG_VULKAN_RULES_BIT)) {
		rc = vkg_fail(st, VKG_ERR_BACKEND, 0, "glslang could not link %s: %s", what,
			      glslang_program_get_info_log(prog));
		goto out;
	}
	glslang_program_SPIRV_generate(prog, GLSLANG_STAGE_COMPUTE);
	n = glslang_program_SPIRV_get_size(prog);
	if (n == 0 || n > UINT32_MAX) {
		rc = vkg_fail(st, VKG_ERR_BACKEND, 0, "glslang made no SPIR-V for %s", what);
		goto out;
	}
	*words = malloc(n * sizeof **words);
	if (!*words) {
		rc = vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
		goto out;
	}
	memcpy(*words, glslang_program_SPIRV_get_ptr(prog), n * sizeof **words);
	*nwords = n;
out:
	if (prog)
		glslang_program_delete(prog);
	glslang_shader_delete(sh);
	return rc;
}
