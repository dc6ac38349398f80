//go:build cgo

package vkfft

// #include "vkg.h"
import "C"

import "unsafe"

// deviceNativeQueue reads the queue (cl_command_queue) or stream (CUstream) of h.
func deviceNativeQueue(h deviceHandle) uintptr {
	var n C.vkg_native
	C.vkg_device_native(h, &n)
	if n.queue == nil {
		return 0
	}
	return uintptr(*(*unsafe.Pointer)(n.queue))
}
