/* backend.c — the cuda backend's table (VKFFT_BACKEND 1). */
#include "vkg_cuda.h"

static int open_native(int kind, const uint64_t handles[3], vkg_device **out, int *ordinal, vkg_status *st)
{
	int rc;
	if (kind != VKG_NATIVE_CUDA)
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0, "the cuda backend opens CUDA contexts only");
	rc = vkg_cu_device_open_ctx_stream(handles[0], handles[1], out, st);
	*ordinal = rc == VKG_OK ? (int)(int64_t)vkg_cu_device_handle(*out, VKG_HANDLE_ORDINAL) : -1;
	return rc;
}

static const vkg_backend table = {
	.version = VKG_BACKEND_VERSION,
	.id = 1,
	.name = "cuda",
	VKG_BACKEND_REQUIRED(VKG_CU_SET)
	.device_open_native = open_native,
	.compiler_ident = vkg_cu_compiler_ident,
	.runtime_libraries = vkg_cu_runtime_libraries,
};

const vkg_backend *vkg_cuda_backend(void) { return &table; }
