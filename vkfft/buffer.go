package vkfft

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// buffer is the untyped part of a Buffer.
type buffer struct {
	mu    sync.RWMutex // shared while in use, exclusive to close
	dev   *Device
	m     uint64 // device memory; 0 once closed
	n     int
	bytes int64
	st    engine.Status // C memory for copy error reports
}

// Buffer is device memory holding n elements of T, for transforms without host copies.
// Use Upload and Download to move data; pass it to a plan's ForwardBuffer/InverseBuffer.
type Buffer[T Element] struct{ b buffer }

// NewBuffer allocates a device buffer of n elements on d. Its contents are undefined
// until written.
func NewBuffer[T Element](d *Device, n int) (*Buffer[T], error) {
	if n <= 0 {
		return nil, opError("new buffer", fmt.Errorf("%w: %d elements; must be positive", ErrInvalidArgument, n))
	}
	bytes, ok := mulCheck(n, int(sizeOf[T]()), true)
	if !ok {
		return nil, opError("new buffer", fmt.Errorf("%w: %d elements overflow", ErrTooLarge, n))
	}
	if _, err := d.use("new buffer"); err != nil {
		return nil, err
	}
	defer d.mu.RUnlock()
	m, err := d.alloc(int64(bytes))
	if err != nil {
		return nil, opError("new buffer", err)
	}
	b := &Buffer[T]{b: buffer{dev: d, m: m, n: n, bytes: int64(bytes), st: engine.NewStatus()}}
	d.track(&b.b)
	return b, nil
}

// Len is the number of elements.
func (b *Buffer[T]) Len() int { return b.b.n }

// Device is the device the buffer lives on.
func (b *Buffer[T]) Device() *Device { return b.b.dev }

// Upload copies src (Len elements) to the device and returns when src may be reused.
func (b *Buffer[T]) Upload(src []T) error {
	if err := checkLen("upload", "src", src == nil, len(src), b.b.n); err != nil {
		return err
	}
	return b.b.copy(true, unsafe.Pointer(&src[0]))
}

// Download waits for the work queued on the device, then copies the buffer into dst
// (Len elements).
func (b *Buffer[T]) Download(dst []T) error {
	if err := checkLen("download", "dst", dst == nil, len(dst), b.b.n); err != nil {
		return err
	}
	return b.b.copy(false, unsafe.Pointer(&dst[0]))
}

// CopyFrom queues a copy of src, a buffer of the same device and length, into b on the
// device's queue, after the work queued before it; Download or Device.Sync waits for
// it. A copy of b into itself does nothing.
func (b *Buffer[T]) CopyFrom(src *Buffer[T]) error {
	if err := checkBuffer("copy", "src", src, b.b.n); err != nil {
		return err
	}
	return b.b.copyFrom(&src.b)
}

// Close frees the device memory. It is idempotent.
func (b *Buffer[T]) Close() error {
	b.b.dev.closeResource(&b.b)
	return nil
}

func (b *buffer) copy(up bool, host unsafe.Pointer) error {
	op := "download"
	if up {
		op = "upload"
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.m == 0 {
		return closedError(op, "buffer")
	}
	if err := checkNotRetired(op, host, b.bytes, host, 0); err != nil {
		return err
	}
	var err error
	if up {
		err = engine.MemUpload(b.dev.h, b.st, b.m, host, b.bytes)
	} else {
		err = engine.MemDownload(b.dev.h, b.st, host, b.m, b.bytes)
	}
	if err != nil {
		return opError(op, err)
	}
	return nil
}

// copyFrom queues the device-to-device copy of src into b (of equal size).
func (b *buffer) copyFrom(src *buffer) error {
	const op = "copy"
	if src.dev != b.dev {
		return opError(op, ErrWrongDevice)
	}
	// two calls may name the same two buffers the other way round: lock in address order
	first, second := b, src
	if uintptr(unsafe.Pointer(src)) < uintptr(unsafe.Pointer(b)) {
		first, second = src, b
	}
	first.mu.RLock()
	defer first.mu.RUnlock()
	if second != first {
		second.mu.RLock()
		defer second.mu.RUnlock()
	}
	if b.m == 0 || src.m == 0 {
		return closedError(op, "buffer")
	}
	if b == src {
		return nil
	}
	if err := engine.MemCopy(b.dev.h, b.st, b.m, src.m, b.bytes); err != nil {
		return opError(op, err)
	}
	return nil
}

// release frees the memory; the caller holds b.dev.mu.
func (b *buffer) release() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == 0 {
		return
	}
	b.dev.free(b.m, b.bytes)
	b.m = 0
	engine.FreeStatus(b.st)
	b.st = nil
}

// checkBuffer reports a nil or wrongly sized Buffer argument.
func checkBuffer[T Element](op, name string, b *Buffer[T], want int) error {
	if b == nil {
		return fmt.Errorf("vkfft: %s: %w: %s is nil", op, ErrNilBuffer, name)
	}
	return checkLen(op, name, false, b.b.n, want)
}
