//go:build !cgo

package vkfft

import "unsafe"

// Without cgo there is no GPU API: everything compiles, and every call that would reach
// the device returns ErrNoBackend.

const compiledBackend = NoBackend

type (
	deviceHandle = *struct{}
	planHandle   = *struct{}
	status       = *struct{}
)

type planParams struct {
	l                  layout
	useLUT             int
	buffer, realBuffer uint64
	loadBlob           []byte
	save               bool
	outOfPlace         bool         // C2C reading realBuffer's slot (VkFFT's inputBuffer), writing buffer
	stages             stageParams  // convolution, separate buffers, fused stages (stages.go)
	herm               kernelHandle // the C2R projection kernel (herm.go); not part of any key
	hermWhy            string       // why herm is nil where the plan needs it
}

func vkfftVersion() int                                        { return VkFFTVersion }
func deviceCount() (int, error)                                { return 0, ErrNoBackend }
func deviceQuery(int) (DeviceInfo, error)                      { return DeviceInfo{}, ErrNoBackend }
func deviceOpen(int) (deviceHandle, DeviceInfo, error)         { return nil, DeviceInfo{}, ErrNoBackend }
func deviceClose(deviceHandle)                                 {}
func deviceSyncWith(deviceHandle, status) error                { return ErrNoBackend }
func deviceSync(deviceHandle) error                            { return ErrNoBackend }
func memAlloc(deviceHandle, int64) (uint64, error)             { return 0, ErrNoBackend }
func memFree(deviceHandle, uint64)                             {}
func newStatus() status                                        { return nil }
func freeStatus(status)                                        {}
func planCreate(deviceHandle, *planParams) (planHandle, error) { return nil, ErrNoBackend }
func planDestroy(planHandle)                                   {}
func planBinary(planHandle) []byte                             { return nil }

func memDownloadRange(deviceHandle, status, unsafe.Pointer, uint64, int64, int64) error {
	return ErrNoBackend
}
func memCopy(deviceHandle, status, uint64, uint64, int64) error { return ErrNoBackend }

func memUpload(deviceHandle, status, uint64, unsafe.Pointer, int64) error   { return ErrNoBackend }
func memDownload(deviceHandle, status, unsafe.Pointer, uint64, int64) error { return ErrNoBackend }

type (
	runHandle    = *struct{}
	poolHandle   = *struct{}
	stagerHandle = *struct{}
)

func planRuns(planHandle) [2]runHandle { return [2]runHandle{} }

func planRunDevice(planHandle, status, bool, uint64, uint64, uint64, uint64) error {
	return ErrNoBackend
}

func poolCreate(int) (poolHandle, error)                                 { return nil, ErrNoBackend }
func poolDestroy(poolHandle)                                             {}
func stagerCreate(deviceHandle, int64, poolHandle) (stagerHandle, error) { return nil, ErrNoBackend }
func stagerDestroy(stagerHandle)                                         {}
func hostmemAlloc(deviceHandle, int64) (unsafe.Pointer, uint64, error)   { return nil, 0, ErrNoBackend }
func hostmemFree(deviceHandle, unsafe.Pointer, int64, uint64)            {}
func hostmemRetire(deviceHandle, unsafe.Pointer, int64, uint64)          {}
func hostmemUnmap(unsafe.Pointer, int64)                                 {}
func streamCreate(deviceHandle) (uint64, uint64, error)                  { return 0, 0, ErrNoBackend }
func streamDestroy(deviceHandle, uint64, uint64)                         {}
func streamSync(deviceHandle, status, uint64) error                      { return ErrNoBackend }

func runHost(runHandle, stagerHandle, status, unsafe.Pointer, int64, unsafe.Pointer, int64) error {
	return ErrNoBackend
}

func runHostAsync(runHandle, status, uint64, unsafe.Pointer, int64, unsafe.Pointer, int64) error {
	return ErrNoBackend
}

func pipelineRunPinned([2]runHandle, [2]uint64, status, unsafe.Pointer, int64, unsafe.Pointer, int64, int) error {
	return ErrNoBackend
}

func pipelineRunPageable([2]runHandle, [2]uint64, [2]uint64, poolHandle, [2]unsafe.Pointer, [2]unsafe.Pointer, status, unsafe.Pointer, int64, unsafe.Pointer, int64, int) error {
	return ErrNoBackend
}
