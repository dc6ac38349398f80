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
/* The text of the vkfft sentinel error a core error code maps to (engine/errors.go), so
 * that a message reads as the Go API's: "vkfft: OP: <this>: <the core's message>". */
const char *vkgc_core_sentinel(int code);
/* Locks a buffer's slot shared; NULL with the error set (naming it what) if the handle is
 * not a live buffer. The caller refuses NULL first. */
vkgc_slot *vkgc_buffer_acquire(const char *fn, const char *what, const vkfftgo_buffer *buffer);
/* Locks the buffers out and in (not NULL) shared, in the order of their handles' values:
 * two calls naming the same two buffers the other way round, with the buffers' destroys
 * waiting between them, would deadlock otherwise (the slots' locks prefer writers).
 * *is is NULL when in is out. 0, or -1 with the error set and nothing held. */
int vkgc_buffer_pair_acquire(const char *fn, const vkfftgo_buffer *out, const vkfftgo_buffer *in, vkgc_slot **os,
			     vkgc_slot **is);
/* Locks a plan's slot exclusively; NULL with the error set if the handle is NULL or dead. */
vkgc_slot *vkgc_plan_acquire(const char *fn, const vkfftgo_plan *plan);
/* A transform on native device memory (cl_mem, CUdeviceptr); null_what names NULL memory
 * in the message (NULL: "out" or "in"). */
vkfftgo_status vkgc_run_native(const char *fn, vkfftgo_plan *plan, int direction, vkg_mem out, vkg_mem in,
			       const char *null_what);

#endif
