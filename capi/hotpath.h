/* hotpath.h — helpers the per-call entry points share (hotpath.c, hotpath_<backend>.c). */
#ifndef VKGCAPI_HOTPATH_H
#define VKGCAPI_HOTPATH_H

#include "vkfftgo.h"
#include "handles.h"
#include "vkg.h"

/* The status code of a core (vkg.h) error code. */
vkfftgo_status vkgc_core_status(int code);
/* Maps VKFFTGO_FORWARD/INVERSE to inverse (0); else sets the error and returns -1. */
int vkgc_direction(const char *fn, int direction, int *inverse);
/* Locks a plan's slot exclusively; NULL with the error set if the handle is NULL or dead. */
vkgc_slot *vkgc_plan_acquire(const char *fn, const vkfftgo_plan *plan);
/* A transform on native device memory (cl_mem, CUdeviceptr); null_what names NULL memory
 * in the message (NULL: "out" or "in"). */
vkfftgo_status vkgc_run_native(const char *fn, vkfftgo_plan *plan, int direction, vkg_mem out, vkg_mem in,
			       const char *null_what);

#endif
