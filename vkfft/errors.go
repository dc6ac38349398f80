package vkfft

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error this package returns wraps one of them, so callers can
// test with errors.Is; the full message reads "vkfft: <operation>: <sentinel>: <detail>".
var (
	// ErrClosed: the Device, Plan or Buffer was closed.
	ErrClosed = errors.New("closed")
	// ErrInvalidShape: a dimension is zero or negative, or the rank is not 1 to 4.
	ErrInvalidShape = errors.New("invalid shape")
	// ErrInvalidBatch: the batch count is negative.
	ErrInvalidBatch = errors.New("invalid batch")
	// ErrInvalidArgument: some other argument is out of range.
	ErrInvalidArgument = errors.New("invalid argument")
	// ErrLength: a slice or buffer does not have the length the plan needs.
	ErrLength = errors.New("wrong length")
	// ErrNilBuffer: a nil slice or Buffer was passed.
	ErrNilBuffer = errors.New("nil buffer")
	// ErrTooLarge: the transform does not fit the device (or int64 arithmetic).
	ErrTooLarge = errors.New("too large for the device")
	// ErrOutOfMemory: the device (or the host) ran out of memory. Freeing plans or
	// buffers and trying again can succeed.
	ErrOutOfMemory = errors.New("out of device memory")
	// ErrUnsupported: VkFFT or the device cannot do this (a size, double precision).
	ErrUnsupported = errors.New("unsupported")
	// ErrWrongDevice: a Buffer belongs to another Device than the Plan.
	ErrWrongDevice = errors.New("buffer of another device")
	// ErrPrecision: the element types of a real plan do not match in precision.
	ErrPrecision = errors.New("mismatched precision")
	// ErrNoDevice: there is no such device.
	ErrNoDevice = errors.New("no such device")
	// ErrNoBackend: the package was built without cgo, so no GPU API is available.
	ErrNoBackend = errors.New("built without a GPU backend (CGO_ENABLED=0)")
	// ErrVersion: the VkFFT headers compiled in are older than 1.3.4.
	ErrVersion = errors.New("VkFFT version too old")
	// ErrBackend: the GPU API (OpenCL, CUDA) reported an error.
	ErrBackend = errors.New("GPU API error")
	// ErrVkFFT: VkFFT reported an error.
	ErrVkFFT = errors.New("VkFFT error")
	// ErrForked: the call was made in a child process forked (fork without exec) from the
	// process that loaded the package. The child has only the thread that forked: the GPU
	// driver's threads and the parent's devices, plans and buffers are not usable there,
	// and no device can be opened, so every call that would touch one fails with this at
	// once instead of waiting for threads that do not exist. Exec a new program after
	// fork, or start worker processes that way (Python's multiprocessing 'spawn' start
	// method).
	ErrForked = errors.New("forked child process (fork without exec)")
)

// opError prefixes an error with the package and the operation that failed.
func opError(op string, err error) error {
	return fmt.Errorf("vkfft: %s: %w", op, err)
}

// closedError reports use of a closed object ("vkfft: forward: closed plan").
func closedError(op, what string) error {
	return fmt.Errorf("vkfft: %s: %w %s", op, ErrClosed, what)
}
