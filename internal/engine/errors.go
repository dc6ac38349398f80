package engine

import "errors"

// The sentinels a C status maps to (StatusError). Package vkfft exports them under the
// same names; every error this package returns wraps one of them.
var (
	// ErrInvalidArgument: an argument is out of range.
	ErrInvalidArgument = errors.New("invalid argument")
	// ErrNoDevice: there is no such device.
	ErrNoDevice = errors.New("no such device")
	// ErrOutOfMemory: the device (or the host) ran out of memory.
	ErrOutOfMemory = errors.New("out of device memory")
	// ErrUnsupported: VkFFT or the device cannot do this.
	ErrUnsupported = errors.New("unsupported")
	// ErrBackend: the GPU API reported an error.
	ErrBackend = errors.New("GPU API error")
	// ErrVkFFT: VkFFT reported an error.
	ErrVkFFT = errors.New("VkFFT error")
	// ErrVersion: the VkFFT headers compiled in are older than 1.3.4.
	ErrVersion = errors.New("VkFFT version too old")
	// ErrForked: the call was made in a child forked without exec from the process that
	// loaded the engine, where the parent's GPU state is unusable.
	ErrForked = errors.New("forked child process (fork without exec)")
	// ErrNoBackend: the program was built without cgo, so no GPU API is available.
	ErrNoBackend = errors.New("built without a GPU backend (CGO_ENABLED=0)")
)

// Status codes of vkg_backend.h, for code that reads a code without a message.
const (
	codeOK          = 0
	codeInvalid     = 1
	codeNoDevice    = 2
	codeOutOfMemory = 3
	codeUnsupported = 4
	codeBackend     = 5
	codeVkFFT       = 6
	codeVersion     = 7
	codeForked      = 8
)

// errorOf maps a status code to its sentinel.
func errorOf(code int) error {
	switch code {
	case codeInvalid:
		return ErrInvalidArgument
	case codeNoDevice:
		return ErrNoDevice
	case codeOutOfMemory:
		return ErrOutOfMemory
	case codeUnsupported:
		return ErrUnsupported
	case codeVkFFT:
		return ErrVkFFT
	case codeVersion:
		return ErrVersion
	case codeForked:
		return ErrForked
	}
	return ErrBackend
}

// registered is the VKFFT_BACKEND number of the registered backend, -1 without one.
var registered = -1

// BackendID returns the VKFFT_BACKEND number of the backend registered with this program
// (3 OpenCL, 1 CUDA, 0 Vulkan), or -1 when there is none (a build without cgo).
func BackendID() int { return registered }
