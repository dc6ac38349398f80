package vkfft

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// Stream is an extra in-order queue (a CUDA stream, an OpenCL command queue) on a
// device. Work queued on different streams may run concurrently; work on one stream
// runs in order. The asynchronous calls (ForwardAsync, InverseAsync) queue work on a
// stream and return at once; Wait waits for it.
//
// Host memory rule: the HostBuffers passed to an asynchronous call belong to the device
// until Wait returns — do not read dst or write src before that. Closing a HostBuffer
// waits for all queued work first.
type Stream struct {
	mu  sync.Mutex
	dev *Device
	q   uint64 // 0 once closed
	ev  uint64
	st  engine.Status
}

// NewStream creates a stream on d.
func (d *Device) NewStream() (*Stream, error) {
	h, err := d.use("new stream")
	if err != nil {
		return nil, err
	}
	defer d.mu.RUnlock()
	q, ev, err := engine.StreamCreate(h)
	if err != nil {
		return nil, opError("new stream", err)
	}
	s := &Stream{dev: d, q: q, ev: ev, st: engine.NewStatus()}
	d.streamsMu.Lock()
	d.streams[s] = struct{}{}
	d.streamsMu.Unlock()
	d.track(s)
	return s, nil
}

// Wait blocks until all work queued on the stream has finished.
func (s *Stream) Wait() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.q == 0 {
		return closedError("wait", "stream")
	}
	if err := engine.StreamSync(s.dev.h, s.st, s.q); err != nil {
		return opError("wait", err)
	}
	return nil
}

// Close waits for the stream's work and destroys it. It is idempotent.
func (s *Stream) Close() error {
	s.dev.closeResource(s)
	return nil
}

// release destroys the stream; the caller holds s.dev.mu.
func (s *Stream) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.q == 0 {
		return
	}
	// out of the device's list first, so syncAll never sees a destroyed queue
	s.dev.streamsMu.Lock()
	delete(s.dev.streams, s)
	s.dev.streamsMu.Unlock()
	engine.StreamDestroy(s.dev.h, s.q, s.ev)
	s.q = 0
	engine.FreeStatus(s.st)
	s.st = nil
}

// syncAll waits for the device's queue and every stream; the caller holds d.mu.
func (d *Device) syncAll() {
	_ = engine.DeviceSync(d.h)
	d.streamsMu.Lock()
	defer d.streamsMu.Unlock()
	for s := range d.streams {
		st := engine.NewStatus()
		_ = engine.StreamSync(d.h, st, s.q)
		engine.FreeStatus(st)
	}
}

// runAsync queues a host round trip between pinned buffers on s.
func (p *plan) runAsync(s *Stream, inverse bool, dst, src *hostBuffer, dstLen, srcLen int,
	dstBytes, srcBytes int64) error {
	op := "forward async"
	if inverse {
		op = "inverse async"
	}
	if s == nil {
		return opError(op, fmt.Errorf("%w: nil stream", ErrInvalidArgument))
	}
	if s.dev != p.dev {
		return opError(op, fmt.Errorf("%w: the stream belongs to another device", ErrWrongDevice))
	}
	for _, b := range [...]struct {
		name string
		hb   *hostBuffer
		want int
	}{{"src", src, srcLen}, {"dst", dst, dstLen}} {
		if err := checkLen(op, b.name, false, b.hb.n, b.want); err != nil {
			return err
		}
		if b.hb.dev != p.dev {
			return opError(op, ErrWrongDevice)
		}
	}
	if err := p.lockWith(op, s); err != nil {
		return err
	}
	defer p.unlockWith(s)
	// two calls may name the same two buffers the other way round: lock in address order
	first, second := src, dst
	if uintptr(unsafe.Pointer(dst)) < uintptr(unsafe.Pointer(src)) {
		first, second = dst, src
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	faultPoint(faultAsyncLocking)
	if second != first {
		second.mu.Lock()
		defer second.mu.Unlock()
	}
	if src.ptr == nil || dst.ptr == nil {
		return closedError(op, "host buffer")
	}
	return p.enqueueLocked(op, s, inverse, dst.ptr, dstBytes, src.ptr, srcBytes)
}

// lockWith takes the plan's lock and then the stream's, the order every asynchronous
// call takes them in; unlockWith releases them. (Two methods, not a closure: the
// asynchronous calls allocate nothing.)
func (p *plan) lockWith(op string, s *Stream) error {
	p.mu.Lock()
	if p.h == nil {
		p.mu.Unlock()
		return closedError(op, "plan")
	}
	s.mu.Lock()
	if s.q == 0 {
		s.mu.Unlock()
		p.mu.Unlock()
		return closedError(op, "stream")
	}
	return nil
}

func (p *plan) unlockWith(s *Stream) {
	s.mu.Unlock()
	p.mu.Unlock()
}

// enqueueLocked queues a host round trip between pinned memory at dst and src on s, with
// lockWith's locks held; the memory stays the device's until s is waited for.
func (p *plan) enqueueLocked(op string, s *Stream, inverse bool, dst unsafe.Pointer, dstBytes int64,
	src unsafe.Pointer, srcBytes int64) error {
	// the C plan makes s wait for its earlier work on other queues, and records its own
	if err := engine.RunHostAsync(p.runFor(inverse), p.st, s.q, dst, dstBytes, src, srcBytes); err != nil {
		return opError(op, err)
	}
	return nil
}

// enqueueHost is enqueueLocked taking its locks: for pinned memory that is not a
// HostBuffer's whole (a slab plan's chunks of its own staging).
func (p *plan) enqueueHost(op string, s *Stream, inverse bool, dst unsafe.Pointer, dstBytes int64,
	src unsafe.Pointer, srcBytes int64) error {
	if err := p.lockWith(op, s); err != nil {
		return err
	}
	defer p.unlockWith(s)
	return p.enqueueLocked(op, s, inverse, dst, dstBytes, src, srcBytes)
}

// ForwardAsync queues the forward transform of src into dst (pinned buffers of Len
// elements) on s and returns at once; s.Wait() waits for the result. See Stream for
// when the buffers may be touched again.
func (p *Plan[T]) ForwardAsync(s *Stream, dst, src *HostBuffer[T]) error {
	return p.runAsync(s, false, dst, src)
}

// InverseAsync is the asynchronous Inverse.
func (p *Plan[T]) InverseAsync(s *Stream, dst, src *HostBuffer[T]) error {
	return p.runAsync(s, true, dst, src)
}

func (p *Plan[T]) runAsync(s *Stream, inverse bool, dst, src *HostBuffer[T]) error {
	if dst == nil || src == nil {
		return opError("async", fmt.Errorf("%w: host buffer", ErrNilBuffer))
	}
	l := &p.p.l
	if err := l.asyncable("async"); err != nil {
		return err
	}
	return p.p.runAsync(s, inverse, &dst.b, &src.b, l.complexLen, l.complexLen, l.complexBytes, l.complexBytes)
}

// ForwardAsync queues the real-to-complex transform of src into dst on s.
func (p *RealPlan[R, C]) ForwardAsync(s *Stream, dst *HostBuffer[C], src *HostBuffer[R]) error {
	if dst == nil || src == nil {
		return opError("forward async", fmt.Errorf("%w: host buffer", ErrNilBuffer))
	}
	l := &p.p.l
	if err := l.asyncable("forward async"); err != nil {
		return err
	}
	return p.p.runAsync(s, false, &dst.b, &src.b, l.complexLen, l.realLen, l.complexBytes, l.realBytes)
}

// InverseAsync queues the complex-to-real transform of src into dst on s.
func (p *RealPlan[R, C]) InverseAsync(s *Stream, dst *HostBuffer[R], src *HostBuffer[C]) error {
	if dst == nil || src == nil {
		return opError("inverse async", fmt.Errorf("%w: host buffer", ErrNilBuffer))
	}
	l := &p.p.l
	if err := l.asyncable("inverse async"); err != nil {
		return err
	}
	return p.p.runAsync(s, true, &dst.b, &src.b, l.realLen, l.complexLen, l.realBytes, l.complexBytes)
}
