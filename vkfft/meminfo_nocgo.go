//go:build !cgo

package vkfft

func deviceMemInfo(deviceHandle) (free, total uint64, err error) { return 0, 0, ErrNoBackend }
