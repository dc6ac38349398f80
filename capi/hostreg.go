package main

/*
#define VKFFTGO_NO_PROTOTYPES
#include "vkfftgo.h"
#include "core.h"
*/
import "C"

import "unsafe"

// Registered host memory: vkfft.Device.RegisterHost page-locks it, and the device's C
// record lists it, so that the C host round trips (hotpath.c) copy it directly instead
// of staging it.

//export vkgcgo_host_register
func vkgcgo_host_register(dh *C.vkfftgo_device, ptr unsafe.Pointer, bytes C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_host_register"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(dh)
	if err != nil {
		return fail(fn, err)
	}
	if ptr == nil {
		return fail(fn, errNull("ptr"))
	}
	if bytes == 0 || uint64(bytes) > 1<<62 {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "bytes is %d; want a positive size", uint64(bytes)))
	}
	if err := d.use(); err != nil {
		return fail(fn, err)
	}
	defer d.mu.RUnlock()
	d.regMu.Lock()
	defer d.regMu.Unlock()
	reg, err := d.d.RegisterHost(unsafe.Slice((*byte)(ptr), int(bytes)))
	if err != nil {
		return fail(fn, err)
	}
	if C.vkgc_range_add(d.rec, C.uintptr_t(uintptr(ptr)), C.uint64_t(bytes)) != 0 {
		reg.Close()
		return fail(fn, errorf(C.VKFFTGO_ERROR_OUT_OF_MEMORY, "out of host memory"))
	}
	d.regs[uintptr(ptr)] = reg
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_host_unregister
func vkgcgo_host_unregister(dh *C.vkfftgo_device, ptr unsafe.Pointer) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_host_unregister"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(dh)
	if err != nil {
		return fail(fn, err)
	}
	if ptr == nil {
		return fail(fn, errNull("ptr"))
	}
	if err := d.use(); err != nil {
		return fail(fn, err)
	}
	defer d.mu.RUnlock()
	d.regMu.Lock()
	reg := d.regs[uintptr(ptr)]
	delete(d.regs, uintptr(ptr))
	d.regMu.Unlock()
	if reg == nil {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
			"%p is not the start of host memory registered with this device", ptr))
	}
	C.vkgc_range_remove(d.rec, C.uintptr_t(uintptr(ptr)))
	return ret(fn, reg.Close())
}
