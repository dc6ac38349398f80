package vkfft

import (
	"errors"
	"unsafe"
)

// A slab plan's device stages run on the host's pinned staging areas: the host fills an
// area (a transpose, or a copy of the caller's array), the device transforms it in one
// round trip. Pipelined, the area is cut into chunks of whole transforms and the host
// fills chunk c while the device uploads, transforms and downloads the chunks before it,
// on two streams that take the chunks in turn, each with a plan of one chunk's transforms
// — so a stage costs about the slower of the host's work and the device's, not their sum.

// Chunking of the automatic setting (SlabConfig.Chunks 0): up to slabAutoChunks chunks of
// at least slabMinChunkBytes each, so that every chunk's transfers outweigh a round
// trip's fixed cost.
const (
	slabAutoChunks    = 8
	slabMinChunkBytes = 4 << 20
)

// slabChunks is how many chunks a stage of t transforms of bytes each (the larger of a
// transform's input and output) is cut into: the most, up to want (0: the automatic
// setting), that divide t evenly; 1 where it is not pipelined.
func slabChunks(want, t int, bytes int64) int {
	auto := want == 0
	if auto {
		want = slabAutoChunks
	}
	for k := min(want, t); k >= 2; k-- {
		if t%k == 0 && (!auto || int64(t/k)*bytes >= slabMinChunkBytes) {
			return k
		}
	}
	return 1
}

// slabPipe is one device's pipelined stage: two plans of one chunk's transforms each,
// which run on the device's two slab streams in turn.
type slabPipe struct {
	plans  [2]*plan
	chunks int
	per    int // transforms per chunk
}

// newSlabPipe builds the pipe of a stage of t transforms cut into chunks: mk builds a
// plan of a chunk's transforms. It returns nil where chunks is 1, or where the plan
// cannot run asynchronously (the stage then runs whole).
func newSlabPipe(chunks, t int, mk func(batch int) (*plan, error)) (*slabPipe, error) {
	if chunks < 2 {
		return nil, nil
	}
	sp := &slabPipe{chunks: chunks, per: t / chunks}
	for k := range sp.plans {
		p, err := mk(sp.per)
		if err != nil {
			sp.close()
			return nil, err
		}
		sp.plans[k] = p
		if p.l.asyncable("slab stage") != nil {
			sp.close()
			return nil, nil
		}
	}
	return sp, nil
}

// close closes the pipe's plans; a nil pipe has none.
func (sp *slabPipe) close() {
	if sp == nil {
		return
	}
	for _, p := range sp.plans {
		if p != nil {
			p.close()
		}
	}
}

// chunkBytes is one chunk's input and output in a transform of direction inverse.
func (sp *slabPipe) chunkBytes(inverse bool) (in, out int64) {
	l := &sp.plans[0].l
	if l.kind != kindR2C {
		return l.complexBytes, l.complexBytes
	}
	if inverse {
		return l.complexBytes, l.realBytes
	}
	return l.realBytes, l.complexBytes
}

// run runs the stage from the pinned area at src into the one at dst (the same for a
// transform in place): fill(t0, t1) writes transforms t0 .. t1-1 of src, chunk by chunk,
// while the streams transform the chunks filled before. It returns when the streams are
// done, with the first error; a chunk's failure queues no later chunk.
func (sp *slabPipe) run(op string, streams [2]*Stream, inverse bool, dst, src unsafe.Pointer, fill func(t0, t1 int)) error {
	in, out := sp.chunkBytes(inverse)
	var err error
	for c := 0; c < sp.chunks && err == nil; c++ {
		fill(c*sp.per, (c+1)*sp.per)
		k := c % 2
		err = sp.plans[k].enqueueHost(op, streams[k], inverse, unsafe.Add(dst, int64(c)*out), out,
			unsafe.Add(src, int64(c)*in), in)
	}
	// whatever was queued reads and writes the staging areas: wait for it before they
	// are touched again
	waits := errors.Join(streams[0].Wait(), streams[1].Wait())
	if err != nil {
		return err
	}
	return waits
}

// slabStreams makes a device's two streams for its pipelined stages.
func slabStreams(d *Device) ([2]*Stream, error) {
	var s [2]*Stream
	for k := range s {
		st, err := d.NewStream()
		if err != nil {
			closeAll(s[:])
			return [2]*Stream{}, err
		}
		s[k] = st
	}
	return s, nil
}
