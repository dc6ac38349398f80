//go:build cgo

package vkfft

// #include "vkg_xfer.h"
import "C"

import "unsafe"

func hostRegister(h deviceHandle, p unsafe.Pointer, bytes int64) (uint64, error) {
	var handle C.uint64_t
	err := withStatus(func(st status) C.int { return C.vkg_hostmem_register(h, p, C.uint64_t(bytes), &handle, st) })
	return uint64(handle), err
}

func hostUnregister(h deviceHandle, p unsafe.Pointer, handle uint64) {
	C.vkg_hostmem_unregister(h, p, C.uint64_t(handle))
}
