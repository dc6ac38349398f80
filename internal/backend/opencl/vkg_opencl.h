/* vkg_opencl.h — the OpenCL backend's functions, which backend.c gathers into its
 * vkg_backend table (vkg_backend.h says what each does). Private to this directory. */
#ifndef VKG_OPENCL_H
#define VKG_OPENCL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include "vkg_backend.h"

/* Opens a device on an existing cl_context, cl_device_id (0: the context's first device)
 * and in-order cl_command_queue (0: the device makes its own), all as integers. The
 * context and queue are retained, and released (not destroyed) by vkg_ocl_device_close;
 * the caller keeps its own references. *ordinal gets the device's index across
 * platforms (as vkg_ocl_device_open numbers them), or -1. */
int vkg_ocl_device_open_ctx(uint64_t context, uint64_t device, uint64_t queue, vkg_device **out, int *ordinal, vkg_status *st);

/* the table's required entries, each vkg_ocl_<entry> with the entry's type */
#define VKG_OCL_DECLARE(entry) VKG_BACKEND_DECLARE(vkg_ocl, entry)
#define VKG_OCL_SET(entry) VKG_BACKEND_SET(vkg_ocl, entry)
VKG_BACKEND_REQUIRED(VKG_OCL_DECLARE)

#endif
