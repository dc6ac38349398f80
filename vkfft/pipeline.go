package vkfft

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"
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
	d := pl.dev
	dp, sp := unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0])
	total := pl.bytes * int64(pl.chunks)
	if err := checkNotRetired(op, dp, total, sp, total); err != nil {
		return err
	}
	pinned := d.pinned.contains(dp, total) && d.pinned.contains(sp, total)
	var pool engine.Pool
	if !pinned {
		// Everything that takes the device's lock comes before the plans' and streams'
		// locks: Device.Close holds it while it waits for them.
		var err error
		if err = pl.makeChunkBuffers(); err == nil {
			pool, err = d.copyPool()
		}
		if err != nil {
			return opError(op, err)
		}
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
	faultPoint(faultPipelineLocked)
	if a.p.h == nil || b.p.h == nil || s0.q == 0 || s1.q == 0 {
		return closedError(op, "pipeline")
	}
	runs := [2]engine.Run{a.p.runFor(inverse), b.p.runFor(inverse)}
	queues := [2]uint64{s0.q, s1.q}
	var err error
	if pinned {
		err = engine.PipelineRunPinned(runs, queues, a.p.st, dp, total, sp, total, pl.chunks)
	} else {
		// held so that Device.Close cannot free them under the copy
		bufs := [...]*hostBuffer{&pl.pinIn[0].b, &pl.pinIn[1].b, &pl.pinOut[0].b, &pl.pinOut[1].b}
		open := true
		for _, hb := range bufs {
			hb.mu.Lock()
			open = open && hb.ptr != nil
		}
		if open {
			err = engine.PipelineRunPageable(runs, queues, [2]uint64{s0.ev, s1.ev}, pool,
				[2]unsafe.Pointer{bufs[0].ptr, bufs[1].ptr}, [2]unsafe.Pointer{bufs[2].ptr, bufs[3].ptr},
				a.p.st, dp, total, sp, total, pl.chunks)
		} else {
			err = closedError(op, "pipeline") // the device closed them
		}
		for _, hb := range bufs {
			hb.mu.Unlock()
		}
		if !open {
			return err
		}
	}
	if err != nil {
		return opError(op, err)
	}
	return nil
}

// makeChunkBuffers allocates the pinned chunk buffers for pageable slices on first use;
// after a failure the next call tries again. The caller holds pl.mu only.
func (pl *Pipeline[T]) makeChunkBuffers() error {
	n := pl.plans[0].Len()
	for k := range pl.pinIn {
		for _, hb := range [...]**HostBuffer[T]{&pl.pinIn[k], &pl.pinOut[k]} {
			if *hb != nil {
				continue
			}
			b, err := NewHostBuffer[T](pl.dev, n)
			if err != nil {
				return err
			}
			*hb = b
		}
	}
	return nil
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
