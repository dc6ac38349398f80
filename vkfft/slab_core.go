package vkfft

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"unsafe"
)

// slabCore is what both kinds of slab plan have: the pool's devices, the layout, each
// device's first-axis plan and its two pinned staging areas, the pipes and streams of
// its pipelined stages (slab_pipe.go), and the lock that serialises calls. Staging area
// a[i] holds device i's row slab, b[i] its column slab; the transposes read every
// device's area of one kind and write one device's of the other, so a phase's devices
// run at once without sharing what they write.
type slabCore[C Complex] struct {
	mu        sync.Mutex
	pool      *Pool
	devs      []*Device
	l         slabLayout
	first     []*Plan[C]  // nil for a device without columns
	firstPipe []*slabPipe // nil where the first axis' stage runs whole
	trailPipe []*slabPipe // nil where the trailing stage runs whole; the kind builds them
	streams   [][2]*Stream
	hostA     []*HostBuffer[C]
	hostB     []*HostBuffer[C]
	a, b      [][]C
	closed    bool

	closeTrailing func() // the kind's own first-stage plans and staging
}

// build makes device i's first-axis plan and staging areas; the kind builds its
// trailing plan alongside.
func (c *slabCore[C]) build(i int) error {
	d := c.devs[i]
	if c.l.cols[i].Rows > 0 {
		p, err := NewPlan[C](d, c.l.firstAxisConfig(i))
		if err != nil {
			return err
		}
		c.first[i] = p
		t := c.l.cfg.Batch * c.l.cols[i].Rows
		chunks := slabChunks(c.l.cfg.Chunks, t, c.colBytes())
		err = c.pipe(i, &c.firstPipe[i], chunks, t, func(batch int) (*plan, error) {
			cfg := c.l.firstAxisConfig(i)
			cfg.Batch = batch
			p, err := NewPlan[C](c.devs[i], cfg)
			if err != nil {
				return nil, err
			}
			return p.p, nil
		})
		if err != nil {
			return err
		}
	}
	if n := c.l.stageLen(i); n > 0 {
		a, err := NewHostBuffer[C](d, n)
		if err != nil {
			return err
		}
		c.hostA[i], c.a[i] = a, a.Slice()
		b, err := NewHostBuffer[C](d, n)
		if err != nil {
			return err
		}
		c.hostB[i], c.b[i] = b, b.Slice()
	}
	return nil
}

// pipe builds device i's pipe of a stage of t transforms cut into chunks into *to, with
// the device's streams the first time a stage of it pipelines.
func (c *slabCore[C]) pipe(i int, to **slabPipe, chunks, t int, mk func(batch int) (*plan, error)) error {
	sp, err := newSlabPipe(chunks, t, mk)
	if err != nil || sp == nil {
		return err
	}
	*to = sp
	if c.streams[i][0] == nil {
		c.streams[i], err = slabStreams(c.devs[i])
	}
	return err
}

// slabStage is one of a device's stages: t transforms from the pinned area src into dst
// (the same for a transform in place), of which fill(t0, t1) writes transforms t0 ..
// t1-1 of src on the host (unit bytes each), and whole runs all of them at once where
// pipe is nil.
type slabStage struct {
	pipe     *slabPipe
	inverse  bool
	dst, src unsafe.Pointer
	t        int
	unit     int64
	fill     func(t0, t1 int)
	whole    func() error
}

// stage runs device i's stage s: through its pipe chunk by chunk where it has one, the
// host filling a chunk as the streams take those before; else filled whole, then run.
// The host's fills are spread over the device's share of the CPUs.
func (c *slabCore[C]) stage(op string, i int, s slabStage) error {
	fill := func(t0, t1 int) { c.spread(t0, t1, s.unit, s.fill) }
	if s.pipe == nil {
		fill(0, s.t)
		return s.whole()
	}
	return s.pipe.run(op, c.streams[i], s.inverse, s.dst, s.src, fill)
}

// slabMinSpreadBytes is the least a goroutine of spread copies: below it, starting one
// costs more than it saves. A variable, so that the tests spread small copies.
var slabMinSpreadBytes int64 = 1 << 20

// spread runs f over transforms t0 .. t1-1 of unit bytes each, cut into runs for the
// device's share of the CPUs (GOMAXPROCS over the pool's devices, which copy at once),
// each of at least slabMinSpreadBytes; the runs write disjoint transforms. It returns
// when all are done.
func (c *slabCore[C]) spread(t0, t1 int, unit int64, f func(t0, t1 int)) {
	n := t1 - t0
	workers := min(max(1, runtime.GOMAXPROCS(0)/len(c.devs)), n, int(int64(n)*unit/max(1, slabMinSpreadBytes)))
	if workers <= 1 {
		f(t0, t1)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		a, b := t0+n*w/workers, t0+n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(a, b)
		}()
	}
	wg.Wait()
}

// pinnedAt is the address of a staging area's first element.
func pinnedAt[E any](x []E) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(x)) }

// initCore validates cfg for pool and builds every device's part with build (which
// calls c.build and makes the kind's trailing plan), all devices at once, after prepare
// has sized the kind's per-device lists. On success the pool tracks the plan, so that
// Pool.Close frees it; on failure what was made is freed.
func (c *slabCore[C]) initCore(op string, pool *Pool, cfg SlabConfig, real bool, prepare func(devices int),
	build func(i int) error) error {
	devs, err := pool.use(op)
	if err != nil {
		return err
	}
	defer pool.mu.RUnlock()
	l, err := validateSlab(cfg, len(devs), real)
	if err != nil {
		return opError(op, err)
	}
	n := len(devs)
	c.pool, c.devs, c.l = pool, slices.Clone(devs), l
	c.first, c.hostA, c.hostB = make([]*Plan[C], n), make([]*HostBuffer[C], n), make([]*HostBuffer[C], n)
	c.firstPipe, c.trailPipe, c.streams = make([]*slabPipe, n), make([]*slabPipe, n), make([][2]*Stream, n)
	c.a, c.b = make([][]C, n), make([][]C, n)
	prepare(n)
	if err := runSlabs(op, c.devs, build); err != nil {
		c.free()
		return err
	}
	pool.track(c)
	return nil
}

// free closes what the core and the kind made; each object's Close is idempotent, and
// free runs once per plan (release marks it closed).
func (c *slabCore[C]) free() {
	for i := range c.devs {
		if c.first[i] != nil {
			c.first[i].Close()
		}
		if c.hostA[i] != nil {
			c.hostA[i].Close()
		}
		if c.hostB[i] != nil {
			c.hostB[i].Close()
		}
	}
	c.a, c.b = nil, nil
	if c.closeTrailing != nil {
		c.closeTrailing()
	}
	for i := range c.devs { // the pipes' plans wait for their streams' work
		c.firstPipe[i].close()
		c.trailPipe[i].close()
		closeAll(c.streams[i][:])
	}
}

// release frees everything; Pool.Close calls it with the pool's lock held.
func (c *slabCore[C]) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.closed = true
	c.free()
}

func (c *slabCore[C]) close() error {
	c.pool.closeResource(c)
	return nil
}

// lock takes the call lock; the caller unlocks when it has no error.
func (c *slabCore[C]) lock(op string) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return closedError(op, "slab plan")
	}
	return nil
}

// rowsThenFirstAxis is the transpose of every row slab (a) into the column slabs (b) and
// the first axis' transform there, all devices at once.
func (c *slabCore[C]) rowsThenFirstAxis(op string, inverse bool) error {
	l := &c.l
	srcs := ownViews(c.a, l.rows)
	return runSlabs(op, c.devs, func(j int) error {
		cs := l.cols[j]
		if cs.Rows == 0 {
			return nil
		}
		return c.firstAxisStage(op, j, inverse, func(t0, t1 int) {
			rowsToColsRange(l, ownView(c.b[j], cs), cs, srcs, t0, t1)
		})
	})
}

// firstAxisStage is device j's first-axis stage on its column slab (b), which fill
// writes chunk by chunk (slabStage).
func (c *slabCore[C]) firstAxisStage(op string, j int, inverse bool, fill func(t0, t1 int)) error {
	x := c.b[j][:c.l.colLen(j)]
	return c.stage(op, j, slabStage{pipe: c.firstPipe[j], inverse: inverse, dst: pinnedAt(x), src: pinnedAt(x),
		t: c.l.cfg.Batch * c.l.cols[j].Rows, unit: c.colBytes(), fill: fill,
		whole: func() error { return c.firstAxis(j, inverse, x) }})
}

func (c *slabCore[C]) firstAxis(j int, inverse bool, x []C) error {
	if inverse {
		return c.first[j].Inverse(x, x)
	}
	return c.first[j].Forward(x, x)
}

// colsToWhole writes the column slabs (b) into the caller's whole array: transposed
// ([batch][m1][n0][r]) or not ([batch][n0][m1][r]).
func (c *slabCore[C]) colsToWhole(op string, dst []C, transposed bool) error {
	l := &c.l
	if transposed {
		return runSlabs(op, c.devs, func(j int) error {
			cs := l.cols[j]
			c.spread(0, l.cfg.Batch*cs.Rows, c.colBytes(), func(t0, t1 int) {
				copySlabRange(wholeView(dst, l.m1), ownView(c.b[j], cs), cs, t0, t1, l.n0*l.r)
			})
			return nil
		})
	}
	srcs := ownViews(c.b, l.cols)
	return runSlabs(op, c.devs, func(i int) error {
		rs := l.rows[i]
		c.spread(0, l.cfg.Batch*rs.Rows, c.rowBytes(), func(t0, t1 int) {
			colsToRowsRange(l, wholeView(dst, l.n0), rs, srcs, t0, t1)
		})
		return nil
	})
}

// spectrumToCols brings the caller's whole spectrum src into the column slabs (b) with
// the first axis' inverse run there: the first half of both inverses. With TransposedIn
// src is already in columns and each device reads its own; else the row slabs are filled
// and transposed.
func (c *slabCore[C]) spectrumToCols(op string, src []C) error {
	l := &c.l
	if l.cfg.TransposedIn {
		return runSlabs(op, c.devs, func(j int) error {
			cs := l.cols[j]
			if cs.Rows == 0 {
				return nil
			}
			return c.firstAxisStage(op, j, true, func(t0, t1 int) {
				copySlabRange(ownView(c.b[j], cs), wholeView(src, l.m1), cs, t0, t1, l.n0*l.r)
			})
		})
	}
	err := runSlabs(op, c.devs, func(i int) error {
		rs := l.rows[i]
		c.spread(0, l.cfg.Batch*rs.Rows, c.rowBytes(), func(t0, t1 int) {
			copySlabRange(ownView(c.a[i], rs), wholeView(src, l.n0), rs, t0, t1, l.m1*l.r)
		})
		return nil
	})
	if err != nil {
		return err
	}
	return c.rowsThenFirstAxis(op, true)
}

// colsToTrailing is the host inverses' second half: each device's row slab (a) filled
// by the transpose back from every column slab (b), chunk by chunk as its trailing stage
// takes it (trailPipe) into the pinned area dst(i), or whole by whole(i); then after(i).
func (c *slabCore[C]) colsToTrailing(op string, dst func(i int) unsafe.Pointer, whole, after func(i int) error) error {
	l := &c.l
	srcs := ownViews(c.b, l.cols)
	return runSlabs(op, c.devs, func(i int) error {
		rs := l.rows[i]
		if rs.Rows == 0 {
			return nil
		}
		err := c.stage(op, i, slabStage{pipe: c.trailPipe[i], inverse: true, dst: dst(i), src: pinnedAt(c.a[i]),
			t: l.cfg.Batch * rs.Rows, unit: c.rowBytes(),
			fill:  func(t0, t1 int) { colsToRowsRange(l, ownView(c.a[i], rs), rs, srcs, t0, t1) },
			whole: func() error { return whole(i) }})
		if err != nil {
			return err
		}
		return after(i)
	})
}

// toOwnCols fills device j's column slab (b) from the row slabs srcs; toOwnRows device
// i's row slab (a) from the column slabs srcs: the transposes whole, spread over the
// device's CPUs.
func (c *slabCore[C]) toOwnCols(j int, srcs []slabView[C]) {
	cs := c.l.cols[j]
	c.spread(0, c.l.cfg.Batch*cs.Rows, c.colBytes(), func(t0, t1 int) {
		rowsToColsRange(&c.l, ownView(c.b[j], cs), cs, srcs, t0, t1)
	})
}
func (c *slabCore[C]) toOwnRows(i int, srcs []slabView[C]) {
	rs := c.l.rows[i]
	c.spread(0, c.l.cfg.Batch*rs.Rows, c.rowBytes(), func(t0, t1 int) {
		colsToRowsRange(&c.l, ownView(c.a[i], rs), rs, srcs, t0, t1)
	})
}

// colBytes is the bytes of one transform of a column slab (the first axis' stage);
// rowBytes of a row slab's (the complex side of the trailing stage).
func (c *slabCore[C]) colBytes() int64 { return int64(c.l.n0*c.l.r) * int64(sizeOf[C]()) }
func (c *slabCore[C]) rowBytes() int64 { return int64(c.l.m1*c.l.r) * int64(sizeOf[C]()) }

// trailingChunks is how many chunks device i's trailing stage is cut into, its
// transforms of bytes each (the larger of input and output).
func (c *slabCore[C]) trailingChunks(i int, bytes int64) (chunks, t int) {
	t = c.l.cfg.Batch * c.l.rows[i].Rows
	return slabChunks(c.l.cfg.Chunks, t, bytes), t
}

// colsToOwnRows is the transpose back: each device's row slab (a) from every column
// slab (b), then then on the device.
func (c *slabCore[C]) colsToOwnRows(op string, then func(i int) error) error {
	l := &c.l
	srcs := ownViews(c.b, l.cols)
	return runSlabs(op, c.devs, func(i int) error {
		if l.rows[i].Rows == 0 {
			return nil
		}
		c.toOwnRows(i, srcs)
		return then(i)
	})
}

// checkSlabBuffers reports a per-device buffer list that does not fit the plan: one
// buffer per pool device, each on its device and of want(i) elements (nil where that is
// 0).
func checkSlabBuffers[E Element](op, name string, devs []*Device, bufs []*Buffer[E], want func(i int) int) error {
	if len(bufs) != len(devs) {
		return opError(op, fmt.Errorf("%w: %d %s buffers for a pool of %d devices; want one per device", ErrInvalidArgument,
			len(bufs), name, len(devs)))
	}
	for i, b := range bufs {
		n := want(i)
		switch {
		case n == 0 && b != nil:
			return opError(op, fmt.Errorf("%w: %s[%d] has %d elements; device %d holds none of this layout: pass nil",
				ErrLength, name, i, b.Len(), i))
		case n == 0:
		case b == nil:
			return opError(op, fmt.Errorf("%w: %s[%d] is nil; device %d's slab needs %d elements", ErrNilBuffer, name, i, i, n))
		case b.Device() != devs[i]:
			return opError(op, fmt.Errorf("%w: %s[%d] is a buffer of %s, not of pool device %d (%s), whose slab it holds",
				ErrWrongDevice, name, i, deviceName(b.Device()), i, deviceName(devs[i])))
		case b.Len() != n:
			return opError(op, fmt.Errorf("%w: %s[%d] has %d elements; device %d's slab needs %d", ErrLength, name, i,
				b.Len(), i, n))
		}
	}
	return nil
}

func deviceName(d *Device) string { return fmt.Sprintf("device %d, %s", d.info.Index, d.info.Name) }

// layoutSlabs is the slabs of the first axis (or, transposed, of the second axis of the
// complex array).
func (c *slabCore[C]) layoutSlabs(transposed bool) []Slab {
	if transposed {
		return slices.Clone(c.l.cols)
	}
	return slices.Clone(c.l.rows)
}

func (c *slabCore[C]) config() SlabConfig {
	cfg := c.l.cfg
	cfg.Shape = slices.Clone(cfg.Shape)
	return cfg
}
