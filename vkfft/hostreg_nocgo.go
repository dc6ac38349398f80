//go:build !cgo

package vkfft

import "unsafe"

func hostRegister(deviceHandle, unsafe.Pointer, int64) (uint64, error) { return 0, ErrNoBackend }
func hostUnregister(deviceHandle, unsafe.Pointer, uint64)              {}
