/* vkg_opencl.h — what the OpenCL backend offers beyond vkg.h: a device on the caller's
 * context, device and queue. */
#ifndef VKG_OPENCL_H
#define VKG_OPENCL_H
#include "vkg.h"

/* Opens a device on an existing cl_context, cl_device_id (0: the context's first device)
 * and in-order cl_command_queue (0: the device makes its own), all as integers. The
 * context and queue are retained, and released (not destroyed) by vkg_device_close; the
 * caller keeps its own references. *ordinal gets the device's index across platforms (as
 * vkg_device_open numbers them), or -1. */
int vkg_opencl_device_open_ctx(uint64_t context, uint64_t device, uint64_t queue, vkg_device **out, int *ordinal,
			       vkg_status *st);
#endif
