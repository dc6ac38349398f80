package vkfft

import (
	"fmt"
	"slices"
	"sync"
)

// slabCore is what both kinds of slab plan have: the pool's devices, the layout, each
// device's first-axis plan and its two pinned staging areas, and the lock that
// serialises calls. Staging area a[i] holds device i's row slab, b[i] its column slab;
// the transposes read every device's area of one kind and write one device's of the
// other, so a phase's devices run at once without sharing what they write.
type slabCore[C Complex] struct {
	mu     sync.Mutex
	pool   *Pool
	devs   []*Device
	l      slabLayout
	first  []*Plan[C] // nil for a device without columns
	hostA  []*HostBuffer[C]
	hostB  []*HostBuffer[C]
	a, b   [][]C
	closed bool

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
// the first axis' transform there, all devices at once. after, if set, runs next on
// each device with columns, in the same goroutine.
func (c *slabCore[C]) rowsThenFirstAxis(op string, inverse bool, after func(j int) error) error {
	l := &c.l
	srcs := ownViews(c.a, l.rows)
	return runSlabs(op, c.devs, func(j int) error {
		cs := l.cols[j]
		if cs.Rows == 0 {
			return nil
		}
		rowsToCols(l, ownView(c.b[j], cs), cs, srcs)
		n := l.colLen(j)
		if err := c.firstAxis(j, inverse, c.b[j][:n]); err != nil {
			return err
		}
		if after != nil {
			return after(j)
		}
		return nil
	})
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
			copySlab(wholeView(dst, l.m1), ownView(c.b[j], l.cols[j]), l.cols[j], l.cfg.Batch, l.n0*l.r)
			return nil
		})
	}
	srcs := ownViews(c.b, l.cols)
	return runSlabs(op, c.devs, func(i int) error {
		colsToRows(l, wholeView(dst, l.n0), l.rows[i], srcs)
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
			copySlab(ownView(c.b[j], cs), wholeView(src, l.m1), cs, l.cfg.Batch, l.n0*l.r)
			return c.firstAxis(j, true, c.b[j][:l.colLen(j)])
		})
	}
	err := runSlabs(op, c.devs, func(i int) error {
		copySlab(ownView(c.a[i], l.rows[i]), wholeView(src, l.n0), l.rows[i], l.cfg.Batch, l.m1*l.r)
		return nil
	})
	if err != nil {
		return err
	}
	return c.rowsThenFirstAxis(op, true, nil)
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
		colsToRows(l, ownView(c.a[i], l.rows[i]), l.rows[i], srcs)
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
