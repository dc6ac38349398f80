//go:build !cgo

package vkfft

import "unsafe"

type (
	moduleHandle  = *struct{}
	kernelHandle  = *struct{}
	spectroHandle = *struct{}
)

type spectroFields struct {
	plan                         planHandle
	path                         int
	realInput                    bool
	n, bins, chunk, sampleBytes  int
	sumGroups                    int
	convert, sumC, sumF, zero    kernelHandle
	cbuf, rbuf, pbuf, psd, windw uint64
}

func planRunIO(planHandle, status, bool, uint64, uint64, uint64, bool) error { return ErrNoBackend }
func planFusedKernels(planHandle) int                                        { return 0 }
func planAxisUploads(planHandle) int                                         { return 0 }
func moduleBuild(deviceHandle, string, []byte) (moduleHandle, []byte, error) {
	return nil, nil, ErrNoBackend
}
func moduleDestroy(moduleHandle)                                  {}
func moduleKernel(moduleHandle, string) (kernelHandle, error)     { return nil, ErrNoBackend }
func spectroNew(deviceHandle, *spectroFields) spectroHandle       { return nil }
func spectroFree(spectroHandle)                                   {}
func spectroZero(spectroHandle, status) error                     { return ErrNoBackend }
func spectroDevice(spectroHandle, status, uint64, int, int) error { return ErrNoBackend }
func spectroHost(spectroHandle, poolHandle, status, unsafe.Pointer, bool, int) error {
	return ErrNoBackend
}
func spectroSetHost(spectroHandle, status, [2]uint64, [2]unsafe.Pointer) error { return ErrNoBackend }
func spectroHostReady(spectroHandle) bool                                      { return false }

type convPadHandle = *struct{}

func convPadNew(kernelHandle, kernelHandle, int, [3]int, [3]int, uint64) convPadHandle { return nil }
func convPadFree(convPadHandle)                                                        {}
func planRunIOHost(planHandle, deviceHandle, convPadHandle, status, unsafe.Pointer, int64, uint64, unsafe.Pointer, int64, uint64, int) error {
	return ErrNoBackend
}
func planRunItems(planHandle, deviceHandle, convPadHandle, status, uint64, uint64, uint64, int, int64, int64) error {
	return ErrNoBackend
}

func vkfftPatched() bool { return false }

func launchKernel(deviceHandle, status, kernelHandle, [2]uint64, uint32, ...uint64) error {
	return ErrNoBackend
}

func planOwnBytes(planHandle) int64 { return 0 }

func fuseRewrite(string, int, fuseText) (string, error) { return "", ErrNoBackend }
