//go:build cuda

package main

/*
#cgo CFLAGS: -DVKFFTGO_BACKEND=1
#define VKFFTGO_NO_PROTOTYPES
#include <stdint.h>
#include "vkfftgo.h"
struct CUstream_st;
static inline struct CUstream_st *vkgcapi_cu_stream(uintptr_t s) { return (struct CUstream_st *)s; }
*/
import "C"

// CUDA interop: CUdeviceptr as uint64_t, CUstream as struct CUstream_st *
// (vkfftgo_execute_cu is C: backend_cuda.c).

//export vkgcgo_device_cu_stream
func vkgcgo_device_cu_stream(dh *C.vkfftgo_device, stream **C.struct_CUstream_st) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_device_cu_stream"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(dh)
	if err != nil {
		return fail(fn, err)
	}
	if stream == nil {
		return fail(fn, errNull("stream"))
	}
	*stream = C.vkgcapi_cu_stream(C.uintptr_t(d.d.NativeQueue()))
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_buffer_cu_ptr
func vkgcgo_buffer_cu_ptr(h *C.vkfftgo_buffer, ptr *C.uint64_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_buffer_cu_ptr"
	defer recoverTo(fn, &rc)
	b, err := lookupBuffer(h, "buffer")
	if err != nil {
		return fail(fn, err)
	}
	if ptr == nil {
		return fail(fn, errNull("ptr"))
	}
	*ptr = C.uint64_t(b.b.Native())
	return C.VKFFTGO_SUCCESS
}
