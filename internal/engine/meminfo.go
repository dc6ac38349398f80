//go:build cgo

package vkfft

// #include "vkg.h"
import "C"

func deviceMemInfo(h deviceHandle) (free, total uint64, err error) {
	var f, t C.uint64_t
	err = withStatus(func(st status) C.int { return C.vkg_device_mem_info(h, &f, &t, st) })
	return uint64(f), uint64(t), err
}
