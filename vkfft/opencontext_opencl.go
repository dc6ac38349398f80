//go:build cgo && (opencl || (!cuda && !vulkan))

package vkfft

/*
#include "vkg_opencl.h"
*/
import "C"

func openCLContext(context, device, queue uintptr) (*Device, error) {
	var h *C.vkg_device
	var info DeviceInfo
	err := withStatus(func(st status) C.int {
		var ordinal C.int
		r := C.vkg_opencl_device_open_ctx(C.uint64_t(context), C.uint64_t(device), C.uint64_t(queue), &h,
			&ordinal, st)
		if r == 0 {
			info = infoFromC(int(ordinal), C.vkg_device_get_info(h))
		}
		return r
	})
	if err != nil {
		return nil, err
	}
	return newDevice(h, info), nil
}

func openCUDAContext(ctx, stream uintptr) (*Device, error) { return nil, backendMissing("cuda") }
