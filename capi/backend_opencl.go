//go:build !cuda && !vulkan

package main

/*
#cgo CFLAGS: -DVKFFTGO_BACKEND=3
#define VKFFTGO_NO_PROTOTYPES
#include <stdint.h>
#include "vkfftgo.h"
struct _cl_mem;
struct _cl_command_queue;
static inline struct _cl_command_queue *vkgcapi_cl_queue(uintptr_t q) { return (struct _cl_command_queue *)q; }
static inline struct _cl_mem *vkgcapi_cl_mem(uint64_t m) { return (struct _cl_mem *)(uintptr_t)m; }
*/
import "C"

// OpenCL interop: cl_mem and cl_command_queue as the forward-declared struct pointers
// they are in CL/cl.h (vkfftgo_execute_cl is C: backend_opencl.c).

//export vkgcgo_device_cl_queue
func vkgcgo_device_cl_queue(dh *C.vkfftgo_device, queue **C.struct__cl_command_queue) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_device_cl_queue"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(dh)
	if err != nil {
		return fail(fn, err)
	}
	if queue == nil {
		return fail(fn, errNull("queue"))
	}
	*queue = C.vkgcapi_cl_queue(C.uintptr_t(d.d.NativeQueue()))
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_buffer_cl_mem
func vkgcgo_buffer_cl_mem(h *C.vkfftgo_buffer, mem **C.struct__cl_mem) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_buffer_cl_mem"
	defer recoverTo(fn, &rc)
	b, err := lookupBuffer(h, "buffer")
	if err != nil {
		return fail(fn, err)
	}
	if mem == nil {
		return fail(fn, errNull("mem"))
	}
	*mem = C.vkgcapi_cl_mem(C.uint64_t(b.b.Native()))
	return C.VKFFTGO_SUCCESS
}
