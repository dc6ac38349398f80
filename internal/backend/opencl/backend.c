/* backend.c — the OpenCL backend's table (VKFFT_BACKEND 3). */
#include "vkg_opencl.h"

static int open_native(int kind, const uint64_t handles[3], vkg_device **out, int *ordinal, vkg_status *st)
{
	if (kind != VKG_NATIVE_OPENCL)
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0, "the opencl backend opens OpenCL contexts only");
	return vkg_ocl_device_open_ctx(handles[0], handles[1], handles[2], out, ordinal, st);
}

static const vkg_backend table = {
	.version = VKG_BACKEND_VERSION,
	.id = 3,
	.name = "opencl",
	VKG_BACKEND_REQUIRED(VKG_OCL_SET)
	.device_open_native = open_native,
};

const vkg_backend *vkg_opencl_backend(void) { return &table; }
