package vkfft

import (
	"fmt"
	"sync"
	"unsafe"
)

// Pipeline runs a batched transform in chunks so that transfers and computation
// overlap: while one chunk is transformed, the next is uploaded and the previous one
// downloaded, on two streams. For host data this approaches the time of the transfers
// alone (both directions of the bus at once) instead of upload + transform + download.
//
// Internally it holds two plans of Batch/Chunks transforms each, with their own device
// buffers, and two streams. Host slices in pinned memory (HostBuffer) go straight to the
// device. Ordinary slices go through four pinned chunk buffers of the pipeline's own
// (allocated on first use, freed by Close), the host copying one chunk while the device
// works on the other.
type Pipeline[T Complex] struct {
	mu      sync.Mutex
	dev     *Device
	plans   [2]*Plan[T]
	streams [2]*Stream
	chunks  int
	n       int   // elements in all chunks
	bytes   int64 // of one chunk
	// pinned chunk buffers for pageable host slices, per stream: made on first use
	pinIn, pinOut [2]*HostBuffer[T]
}

// NewPipeline builds a pipeline for cfg split into chunks parts; cfg.Batch must be a
// multiple of chunks (chunks >= 2).
func NewPipeline[T Complex](d *Device, cfg Config, chunks int) (*Pipeline[T], error) {
	const op = "new pipeline"
	l, err := validate(cfg, kindC2C, sizeOf[T]())
	if err != nil {
		return nil, opError(op, err)
	}
	if err := l.asyncable(op); err != nil {
		return nil, err
	}
	if chunks < 2 || l.cfg.Batch%chunks != 0 {
		return nil, opError(op, fmt.Errorf("%w: batch %d cannot be split into %d chunks (need chunks >= 2 dividing the batch)",
			ErrInvalidBatch, l.cfg.Batch, chunks))
	}
	part := l.cfg
	part.Batch = l.cfg.Batch / chunks
	pl := &Pipeline[T]{dev: d, chunks: chunks, n: l.complexLen}
	for k := range pl.plans {
		if pl.plans[k], err = NewPlan[T](d, part); err != nil {
			pl.Close()
			return nil, err
		}
		if pl.streams[k], err = d.NewStream(); err != nil {
			pl.Close()
			return nil, err
		}
	}
	pl.bytes = pl.plans[0].p.l.complexBytes
	return pl, nil
}

// Len is the number of elements Forward and Inverse take: the whole batch.
func (pl *Pipeline[T]) Len() int { return pl.n }

// Forward transforms the whole batch src into dst (Len elements each) and returns when
// dst is complete.
func (pl *Pipeline[T]) Forward(dst, src []T) error { return pl.run(false, dst, src) }

// Inverse is the inverse of Forward.
func (pl *Pipeline[T]) Inverse(dst, src []T) error { return pl.run(true, dst, src) }

func (pl *Pipeline[T]) run(inverse bool, dst, src []T) error {
	op := direction(inverse)
	if err := checkLen(op, "src", src == nil, len(src), pl.n); err != nil {
		return err
	}
	if err := checkLen(op, "dst", dst == nil, len(dst), pl.n); err != nil {
		return err
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	a, b := pl.plans[0], pl.plans[1]
	if a == nil || b == nil {
		return closedError(op, "pipeline")
	}
	a.p.mu.Lock()
	defer a.p.mu.Unlock()
	b.p.mu.Lock()
	defer b.p.mu.Unlock()
	s0, s1 := pl.streams[0], pl.streams[1]
	s0.mu.Lock()
	defer s0.mu.Unlock()
	s1.mu.Lock()
	defer s1.mu.Unlock()
	if a.p.h == nil || b.p.h == nil || s0.q == 0 || s1.q == 0 {
		return closedError(op, "pipeline")
	}
	if err := a.p.settle(); err != nil {
		return opError(op, err)
	}
	if err := b.p.settle(); err != nil {
		return opError(op, err)
	}
	d := pl.dev
	dp, sp := unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0])
	total := pl.bytes * int64(pl.chunks)
	pinned := d.pinned.contains(dp, total) && d.pinned.contains(sp, total)
	var err error
	if pinned {
		err = pipelineRun([2]planHandle{a.p.h, b.p.h}, [2]uint64{s0.q, s1.q}, nil, true, a.p.st, inverse,
			dp, pl.bytes, sp, pl.bytes, pl.chunks, scaleFor(&a.p.l, inverse))
	} else {
		err = pl.runPageable(inverse, dp, sp)
	}
	if err != nil {
		return opError(op, err)
	}
	return nil
}

// runPageable runs the batch from and to ordinary memory through the pipeline's pinned
// chunk buffers; the caller holds the pipeline's, plans' and streams' locks.
func (pl *Pipeline[T]) runPageable(inverse bool, dst, src unsafe.Pointer) error {
	d := pl.dev
	if pl.pinIn[0] == nil {
		n := pl.plans[0].Len()
		for k := range pl.pinIn {
			var err error
			if pl.pinIn[k], err = NewHostBuffer[T](d, n); err != nil {
				return err
			}
			if pl.pinOut[k], err = NewHostBuffer[T](d, n); err != nil {
				return err
			}
		}
	}
	// the copy threads are the device stager's, whatever the staging threshold
	d.stageMu.Lock()
	defer d.stageMu.Unlock()
	stager := d.stagerLocked()
	if stager == nil {
		return fmt.Errorf("%w: no pinned memory for staging", ErrOutOfMemory)
	}
	a, b := pl.plans[0].p, pl.plans[1].p
	s0, s1 := pl.streams[0], pl.streams[1]
	return pipelineRunPageable([2]planHandle{a.h, b.h}, [2]uint64{s0.q, s1.q}, [2]uint64{s0.ev, s1.ev}, stager,
		[2]unsafe.Pointer{pl.pinIn[0].b.ptr, pl.pinIn[1].b.ptr}, [2]unsafe.Pointer{pl.pinOut[0].b.ptr, pl.pinOut[1].b.ptr},
		a.st, inverse, dst, pl.bytes, src, pl.bytes, pl.chunks, scaleFor(&a.l, inverse))
}

// Close frees the pipeline's plans and streams. It is idempotent.
func (pl *Pipeline[T]) Close() error {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	for k := range pl.plans {
		for _, hb := range []*HostBuffer[T]{pl.pinIn[k], pl.pinOut[k]} {
			if hb != nil {
				hb.Close()
			}
		}
		pl.pinIn[k], pl.pinOut[k] = nil, nil
		if pl.plans[k] != nil {
			pl.plans[k].Close()
			pl.plans[k] = nil
		}
		if pl.streams[k] != nil {
			pl.streams[k].Close()
			pl.streams[k] = nil
		}
	}
	return nil
}
