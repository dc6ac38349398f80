package vkfft

import (
	"fmt"
	"unsafe"
)

// SlabRealPlan is a real-to-complex (Forward) and complex-to-real (Inverse) 2-D or 3-D
// transform distributed across a Pool's devices, as SlabPlan does for complex data, in
// numpy's rfftn layout: the spectrum's last axis has Shape[-1]/2+1 elements. Each
// device's first stage is a real plan over the axes after the first; the transpose and
// the first axis' transform are complex. For a 2-D transform the transposed axis is
// the halved one, as in FFTW-MPI's r2c.
type SlabRealPlan[R Real, C Complex] struct {
	c     slabCore[C]
	trail []*RealPlan[R, C] // nil for a device without rows
	hostR []*HostBuffer[R]  // each device's real row slab
	r     [][]R
}

// NewSlabRealPlan builds a SlabRealPlan; cfg.Shape is the real data's shape, split as
// NewSlabPlan splits it (the second axis that the transpose distributes is the
// spectrum's).
func NewSlabRealPlan[R Real, C Complex](pool *Pool, cfg SlabConfig) (*SlabRealPlan[R, C], error) {
	const op = "new slab plan"
	if 2*sizeOf[R]() != sizeOf[C]() {
		var r R
		var c C
		return nil, opError(op, fmt.Errorf("%w: real %T with complex %T", ErrPrecision, r, c))
	}
	p := &SlabRealPlan[R, C]{}
	p.c.closeTrailing = func() {
		closeAll(p.trail)
		closeAll(p.hostR)
		p.r = nil
	}
	prepare := func(n int) {
		p.trail, p.hostR, p.r = make([]*RealPlan[R, C], n), make([]*HostBuffer[R], n), make([][]R, n)
	}
	err := p.c.initCore(op, pool, cfg, true, prepare, func(i int) error {
		if err := p.c.build(i); err != nil {
			return err
		}
		if p.c.l.rows[i].Rows == 0 {
			return nil
		}
		t, err := NewRealPlan[R, C](p.c.devs[i], p.c.l.trailingConfig(i))
		if err != nil {
			return err
		}
		p.trail[i] = t
		h, err := NewHostBuffer[R](p.c.devs[i], p.c.l.realLen(i))
		if err != nil {
			return err
		}
		p.hostR[i], p.r[i] = h, h.Slice()
		chunks, n := p.c.trailingChunks(i, max(p.c.rowBytes(), p.realRowBytes()))
		return p.c.pipe(i, &p.c.trailPipe[i], chunks, n, func(batch int) (*plan, error) {
			cfg := p.c.l.trailingConfig(i)
			cfg.Batch = batch
			q, err := NewRealPlan[R, C](p.c.devs[i], cfg)
			if err != nil {
				return nil, err
			}
			return q.p, nil
		})
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// realRowBytes is the bytes of one transform of a real row slab.
func (p *SlabRealPlan[R, C]) realRowBytes() int64 { return int64(p.c.l.realRow) * int64(sizeOf[R]()) }

// RealLen is the number of real elements: Batch × prod(Shape).
func (p *SlabRealPlan[R, C]) RealLen() int { return p.c.l.wholeRealLen() }

// ComplexLen is the number of spectrum elements: Batch × prod(Shape[:-1]) ×
// (Shape[-1]/2+1), in either layout.
func (p *SlabRealPlan[R, C]) ComplexLen() int { return p.c.l.complexLen() }

// Config returns the plan's configuration, with Batch filled in.
func (p *SlabRealPlan[R, C]) Config() SlabConfig { return p.c.config() }

// Slabs is each device's slab of the first axis, in pool order.
func (p *SlabRealPlan[R, C]) Slabs() []Slab { return p.c.layoutSlabs(false) }

// TransposedSlabs is each device's slab of the spectrum's second axis.
func (p *SlabRealPlan[R, C]) TransposedSlabs() []Slab { return p.c.layoutSlabs(true) }

// RealBufferLen is the number of real elements of device i's slab (0 for a device
// without rows).
func (p *SlabRealPlan[R, C]) RealBufferLen(i int) int { return p.c.l.realLen(i) }

// SpectrumBufferLen is the number of spectrum elements of device i's slab, or with
// transposed of its transposed slab (ForwardSlabs' dst with TransposedOut, InverseSlabs'
// src with TransposedIn).
func (p *SlabRealPlan[R, C]) SpectrumBufferLen(i int, transposed bool) int {
	if transposed {
		return p.c.l.colLen(i)
	}
	return p.c.l.rowLen(i)
}

func (p *SlabRealPlan[R, C]) checkHost(op string, realLen, complexLen int, realNil, complexNil bool) error {
	name := [2]string{"src", "dst"}
	if op == "inverse" {
		name = [2]string{"dst", "src"}
	}
	if err := checkLen(op, name[0], realNil, realLen, p.RealLen()); err != nil {
		return err
	}
	if err := checkLen(op, name[1], complexNil, complexLen, p.ComplexLen()); err != nil {
		return err
	}
	return p.c.lock(op)
}

// Forward computes the half spectrum of real src into dst (with TransposedOut, in the
// transposed layout), host slices in Config's layout.
func (p *SlabRealPlan[R, C]) Forward(dst []C, src []R) error {
	const op = "forward"
	if err := p.checkHost(op, len(src), len(dst), src == nil, dst == nil); err != nil {
		return err
	}
	defer p.c.mu.Unlock()
	l := &p.c.l
	err := runSlabs(op, p.c.devs, func(i int) error {
		rs := l.rows[i]
		if rs.Rows == 0 {
			return nil
		}
		x := p.c.a[i][:l.rowLen(i)]
		return p.c.stage(op, i, slabStage{pipe: p.c.trailPipe[i], dst: pinnedAt(x), src: pinnedAt(p.r[i]),
			t: l.cfg.Batch * rs.Rows, unit: p.realRowBytes(),
			fill:  func(t0, t1 int) { copySlabRange(ownView(p.r[i], rs), wholeView(src, l.n0), rs, t0, t1, l.realRow) },
			whole: func() error { return p.trail[i].Forward(x, p.r[i]) }})
	})
	if err == nil {
		err = p.c.rowsThenFirstAxis(op, false)
	}
	if err == nil {
		err = p.c.colsToWhole(op, dst, l.cfg.TransposedOut)
	}
	return err
}

// Inverse computes the real signal of half spectrum src (with TransposedIn, in the
// transposed layout) into dst, scaled as Norm says; src is not modified.
func (p *SlabRealPlan[R, C]) Inverse(dst []R, src []C) error {
	const op = "inverse"
	if err := p.checkHost(op, len(dst), len(src), dst == nil, src == nil); err != nil {
		return err
	}
	defer p.c.mu.Unlock()
	l := &p.c.l
	err := p.c.spectrumToCols(op, src)
	if err == nil {
		err = p.c.colsToTrailing(op, func(i int) unsafe.Pointer { return pinnedAt(p.r[i]) },
			func(i int) error { return p.trail[i].Inverse(p.r[i], p.c.a[i][:l.rowLen(i)]) },
			func(i int) error {
				rs := l.rows[i]
				p.c.spread(0, l.cfg.Batch*rs.Rows, p.realRowBytes(), func(t0, t1 int) {
					copySlabRange(wholeView(dst, l.n0), ownView(p.r[i], rs), rs, t0, t1, l.realRow)
				})
				return nil
			})
	}
	return err
}

// ForwardSlabs computes the half spectrum of the real slabs src into the spectrum slabs
// dst: src[i] and dst[i] on the pool's device i, of RealBufferLen(i) and
// SpectrumBufferLen(i, TransposedOut) elements (nil where that is 0). src is only
// read. The devices' last work may still be queued when it returns.
func (p *SlabRealPlan[R, C]) ForwardSlabs(dst []*Buffer[C], src []*Buffer[R]) error {
	const op = "forward"
	l := &p.c.l
	if err := p.checkBuffers(op, src, "src", dst, "dst", l.cfg.TransposedOut); err != nil {
		return err
	}
	defer p.c.mu.Unlock()
	err := runSlabs(op, p.c.devs, func(i int) error {
		if l.rows[i].Rows == 0 {
			return nil
		}
		a := p.c.a[i][:l.rowLen(i)]
		if !l.cfg.TransposedOut {
			if err := p.trail[i].ForwardBuffer(dst[i], src[i]); err != nil {
				return err
			}
			return dst[i].Download(a)
		}
		if err := src[i].Download(p.r[i]); err != nil {
			return err
		}
		return p.trail[i].Forward(a, p.r[i])
	})
	if err != nil {
		return err
	}
	if l.cfg.TransposedOut {
		srcs := ownViews(p.c.a, l.rows)
		return runSlabs(op, p.c.devs, func(j int) error {
			cs := l.cols[j]
			if cs.Rows == 0 {
				return nil
			}
			p.c.toOwnCols(j, srcs)
			if err := dst[j].Upload(p.c.b[j][:l.colLen(j)]); err != nil {
				return err
			}
			return p.c.first[j].ForwardBuffer(dst[j], dst[j])
		})
	}
	if err := p.c.rowsThenFirstAxis(op, false); err != nil {
		return err
	}
	return p.c.colsToOwnRows(op, func(i int) error { return dst[i].Upload(p.c.a[i][:l.rowLen(i)]) })
}

// InverseSlabs computes the real slabs dst of the spectrum slabs src (with
// TransposedIn, the transposed slabs): dst[i] of RealBufferLen(i) elements, src[i] of
// SpectrumBufferLen(i, TransposedIn). As for RealPlan.InverseBuffer, src is scratch
// space: its contents are undefined afterwards.
func (p *SlabRealPlan[R, C]) InverseSlabs(dst []*Buffer[R], src []*Buffer[C]) error {
	const op = "inverse"
	l := &p.c.l
	if err := p.checkBuffers(op, dst, "dst", src, "src", l.cfg.TransposedIn); err != nil {
		return err
	}
	defer p.c.mu.Unlock()
	var err error
	if l.cfg.TransposedIn {
		err = runSlabs(op, p.c.devs, func(j int) error {
			if l.cols[j].Rows == 0 {
				return nil
			}
			if err := p.c.first[j].InverseBuffer(src[j], src[j]); err != nil {
				return err
			}
			return src[j].Download(p.c.b[j][:l.colLen(j)])
		})
	} else {
		err = runSlabs(op, p.c.devs, func(i int) error {
			if l.rows[i].Rows == 0 {
				return nil
			}
			return src[i].Download(p.c.a[i][:l.rowLen(i)])
		})
		if err == nil {
			err = p.c.rowsThenFirstAxis(op, true)
		}
	}
	if err != nil {
		return err
	}
	return p.c.colsToOwnRows(op, func(i int) error {
		a := p.c.a[i][:l.rowLen(i)]
		if !l.cfg.TransposedIn {
			// src[i] holds this row slab's layout: the C2R runs on the device
			if err := src[i].Upload(a); err != nil {
				return err
			}
			return p.trail[i].InverseBuffer(dst[i], src[i])
		}
		if err := p.trail[i].Inverse(p.r[i], a); err != nil {
			return err
		}
		return dst[i].Upload(p.r[i])
	})
}

// checkBuffers checks the real and spectrum buffer lists and takes the call lock.
func (p *SlabRealPlan[R, C]) checkBuffers(op string, real []*Buffer[R], realName string, spec []*Buffer[C],
	specName string, transposed bool) error {
	if err := p.c.lock(op); err != nil {
		return err
	}
	err := checkSlabBuffers(op, realName, p.c.devs, real, p.RealBufferLen)
	if err == nil {
		err = checkSlabBuffers(op, specName, p.c.devs, spec, func(i int) int { return p.SpectrumBufferLen(i, transposed) })
	}
	if err != nil {
		p.c.mu.Unlock()
	}
	return err
}

// Close frees the devices' plans and staging. It is idempotent; Pool.Close closes it
// too.
func (p *SlabRealPlan[R, C]) Close() error { return p.c.close() }
