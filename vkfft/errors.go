package vkfft

import (
	"errors"
	"fmt"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// Sentinel errors. Every error this package returns wraps one of them, so callers can
// test with errors.Is; the full message reads "vkfft: <operation>: <sentinel>: <detail>".
// Those a C call reports are the engine's own values, so errors from either layer match.
var (
	// ErrClosed: the Device, Plan or Buffer was closed.
	ErrClosed = errors.New("closed")
	// ErrInvalidShape: a dimension is zero or negative, or the rank is not 1 to 4.
	ErrInvalidShape = errors.New("invalid shape")
	// ErrInvalidBatch: the batch count is negative.
	ErrInvalidBatch = errors.New("invalid batch")
	// ErrInvalidArgument: some other argument is out of range.
	ErrInvalidArgument = engine.ErrInvalidArgument
	// ErrLength: a slice or buffer does not have the length the plan needs.
	ErrLength = errors.New("wrong length")
	// ErrNilBuffer: a nil slice or Buffer was passed.
	ErrNilBuffer = errors.New("nil buffer")
	// ErrTooLarge: the transform does not fit the device (or int64 arithmetic).
	ErrTooLarge = errors.New("too large for the device")
	// ErrOutOfMemory: the device (or the host) ran out of memory. Freeing plans or
	// buffers and trying again can succeed.
	ErrOutOfMemory = engine.ErrOutOfMemory
	// ErrUnsupported: VkFFT or the device cannot do this (a size, double precision).
	ErrUnsupported = engine.ErrUnsupported
	// ErrWrongDevice: a Buffer belongs to another Device than the Plan.
	ErrWrongDevice = errors.New("buffer of another device")
	// ErrPrecision: the element types of a real plan do not match in precision.
	ErrPrecision = errors.New("mismatched precision")
	// ErrNoDevice: there is no such device.
	ErrNoDevice = engine.ErrNoDevice
	// ErrNoBackend: the package was built without cgo, so no GPU API is available.
	ErrNoBackend = engine.ErrNoBackend
	// ErrVersion: the VkFFT headers compiled in are older than 1.3.4.
	ErrVersion = engine.ErrVersion
	// ErrBackend: the GPU API (OpenCL, CUDA) reported an error.
	ErrBackend = engine.ErrBackend
	// ErrVkFFT: VkFFT reported an error.
	ErrVkFFT = engine.ErrVkFFT
	// ErrForked: the call was made in a child process forked (fork without exec) from the
	// process that loaded the package. The child has only the thread that forked: the GPU
	// driver's threads and the parent's devices, plans and buffers are not usable there,
	// and no device can be opened, so every call that would touch one fails with this at
	// once instead of waiting for threads that do not exist. Exec a new program after
	// fork, or start worker processes that way (Python's multiprocessing 'spawn' start
	// method).
	ErrForked = engine.ErrForked
)

// opError prefixes an error with the package and the operation that failed.
func opError(op string, err error) error {
	return fmt.Errorf("vkfft: %s: %w", op, err)
}

// closedError reports use of a closed object ("vkfft: forward: closed plan").
func closedError(op, what string) error {
	return fmt.Errorf("vkfft: %s: %w %s", op, ErrClosed, what)
}

// direction names a transform's direction in errors and progress lines.
func direction(inverse bool) string {
	if inverse {
		return "inverse"
	}
	return "forward"
}
