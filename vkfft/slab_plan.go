package vkfft

import "unsafe"

// SlabPlan is a complex-to-complex 2-D or 3-D transform distributed across the devices
// of a Pool in FFTW-MPI's slab decomposition. Each device holds a contiguous slab of
// the first axis (Slabs). Forward transforms each slab along the other axes (one plan
// per device, a transform per row), transposes all-to-all so that each device holds a
// slab of the second axis (TransposedSlabs), transforms the first axis there and,
// unless TransposedOut is set, transposes back. Inverse mirrors it. The transposes
// stage through pinned host memory; the devices work at once in every phase, and within
// a phase the host's transposes overlap the device's transforms (SlabConfig.Chunks).
//
// A transform of Batch > 1 keeps Config's layout, the transforms one after another; a
// slab then holds the same rows of every transform: [Batch][Rows][...]. The transposed
// layout is [Batch][Shape[1]][Shape[0]][Shape[2]] for the whole array and
// [Batch][Rows][Shape[0]][Shape[2]] for a device's slab of it.
type SlabPlan[T Complex] struct {
	c     slabCore[T]
	trail []*Plan[T] // nil for a device without rows
}

// NewSlabPlan builds a SlabPlan of cfg on the pool's devices: each device's plans and
// staging, all devices at once. The first axis (and the second, which the transpose
// distributes) must have at least one row per device; they are split with FFTW-MPI's
// default block rule: each device in pool order takes ceil(n/devices) rows until none
// are left, so the last devices may hold fewer (FFTW-MPI's local_n0 and
// local_0_start). Norm applies to the whole transform, as on one device.
func NewSlabPlan[T Complex](pool *Pool, cfg SlabConfig) (*SlabPlan[T], error) {
	const op = "new slab plan"
	p := &SlabPlan[T]{}
	p.c.closeTrailing = func() { closeAll(p.trail) }
	prepare := func(n int) { p.trail = make([]*Plan[T], n) }
	err := p.c.initCore(op, pool, cfg, false, prepare, func(i int) error {
		if err := p.c.build(i); err != nil {
			return err
		}
		if p.c.l.rows[i].Rows == 0 {
			return nil
		}
		t, err := NewPlan[T](p.c.devs[i], p.c.l.trailingConfig(i))
		if err != nil {
			return err
		}
		p.trail[i] = t
		chunks, n := p.c.trailingChunks(i, p.c.rowBytes())
		return p.c.pipe(i, &p.c.trailPipe[i], chunks, n, func(batch int) (*plan, error) {
			cfg := p.c.l.trailingConfig(i)
			cfg.Batch = batch
			q, err := NewPlan[T](p.c.devs[i], cfg)
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

// closeAll closes the non-nil plans of ps.
func closeAll[P any, PP interface {
	*P
	Close() error
}](ps []PP) {
	for _, p := range ps {
		if p != nil {
			p.Close()
		}
	}
}

// Len is the number of elements Forward and Inverse take and return: Batch × prod(Shape).
func (p *SlabPlan[T]) Len() int { return p.c.l.complexLen() }

// Config returns the plan's configuration, with Batch filled in.
func (p *SlabPlan[T]) Config() SlabConfig { return p.c.config() }

// Slabs is each device's slab of the first axis, in pool order.
func (p *SlabPlan[T]) Slabs() []Slab { return p.c.layoutSlabs(false) }

// TransposedSlabs is each device's slab of the second axis: the transposed layout.
func (p *SlabPlan[T]) TransposedSlabs() []Slab { return p.c.layoutSlabs(true) }

// BufferLen is the number of elements device i's buffer for ForwardSlabs and
// InverseSlabs holds: its slab, [Batch][Rows][Shape[1:]...]; with TransposedOut or
// TransposedIn, the larger of its slab and its transposed slab, which then occupies
// the buffer's first elements (FFTW-MPI's alloc_local). 0 for a device that holds
// nothing.
func (p *SlabPlan[T]) BufferLen(i int) int {
	if p.c.l.transposed() {
		return p.c.l.stageLen(i)
	}
	return p.c.l.rowLen(i)
}

// Forward computes the forward transform of src into dst, host slices of Len elements
// in Config's layout, as a Plan of the same shape takes them (dst may be src). With
// TransposedOut, dst is the transposed layout. If devices fail, the error is their
// ShardErrors, each naming its device.
func (p *SlabPlan[T]) Forward(dst, src []T) error {
	const op = "forward"
	if err := p.checkHost(op, dst, src); err != nil {
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
		return p.c.stage(op, i, slabStage{pipe: p.c.trailPipe[i], dst: pinnedAt(x), src: pinnedAt(x),
			t: l.cfg.Batch * rs.Rows, unit: p.c.rowBytes(),
			fill:  func(t0, t1 int) { copySlabRange(ownView(p.c.a[i], rs), wholeView(src, l.n0), rs, t0, t1, l.m1*l.r) },
			whole: func() error { return p.trail[i].Forward(x, x) }})
	})
	if err == nil {
		err = p.c.rowsThenFirstAxis(op, false)
	}
	if err == nil {
		err = p.c.colsToWhole(op, dst, l.cfg.TransposedOut)
	}
	return err
}

// Inverse computes the inverse transform of src into dst, scaled as Norm says. With
// TransposedIn, src is in the transposed layout.
func (p *SlabPlan[T]) Inverse(dst, src []T) error {
	const op = "inverse"
	if err := p.checkHost(op, dst, src); err != nil {
		return err
	}
	defer p.c.mu.Unlock()
	l := &p.c.l
	err := p.c.spectrumToCols(op, src)
	if err == nil {
		err = p.c.colsToTrailing(op, func(i int) unsafe.Pointer { return pinnedAt(p.c.a[i]) },
			func(i int) error {
				x := p.c.a[i][:l.rowLen(i)]
				return p.trail[i].Inverse(x, x)
			},
			func(i int) error {
				rs := l.rows[i]
				p.c.spread(0, l.cfg.Batch*rs.Rows, p.c.rowBytes(), func(t0, t1 int) {
					copySlabRange(wholeView(dst, l.n0), ownView(p.c.a[i], rs), rs, t0, t1, l.m1*l.r)
				})
				return nil
			})
	}
	return err
}

// checkHost checks a host call's slices and takes the call lock.
func (p *SlabPlan[T]) checkHost(op string, dst, src []T) error {
	n := p.c.l.complexLen()
	if err := checkLen(op, "src", src == nil, len(src), n); err != nil {
		return err
	}
	if err := checkLen(op, "dst", dst == nil, len(dst), n); err != nil {
		return err
	}
	return p.c.lock(op)
}

// checkBuffers checks ForwardSlabs' and InverseSlabs' buffers and takes the call lock.
func (p *SlabPlan[T]) checkBuffers(op string, bufs []*Buffer[T]) error {
	if err := p.c.lock(op); err != nil {
		return err
	}
	if err := checkSlabBuffers(op, "bufs", p.c.devs, bufs, p.BufferLen); err != nil {
		p.c.mu.Unlock()
		return err
	}
	return nil
}

// ForwardSlabs transforms, in place, the array whose slabs lie in bufs: bufs[i] on the
// pool's device i, BufferLen(i) elements (nil where that is 0). Without TransposedOut
// each buffer holds its slab before and after; with it, its transposed slab after. The
// slabs' own transforms run on the buffers where they fit them exactly, and the
// transposes stage through host memory. The devices' last work may still be queued
// when it returns: Download or Device.Sync waits for it.
func (p *SlabPlan[T]) ForwardSlabs(bufs []*Buffer[T]) error {
	const op = "forward"
	if err := p.checkBuffers(op, bufs); err != nil {
		return err
	}
	defer p.c.mu.Unlock()
	l := &p.c.l
	err := runSlabs(op, p.c.devs, func(i int) error {
		if l.rows[i].Rows == 0 {
			return nil
		}
		n, a := l.rowLen(i), p.c.a[i]
		if bufs[i].Len() == n {
			if err := p.trail[i].ForwardBuffer(bufs[i], bufs[i]); err != nil {
				return err
			}
			return bufs[i].Download(a[:n])
		}
		if err := bufs[i].Download(a[:bufs[i].Len()]); err != nil {
			return err
		}
		return p.trail[i].Forward(a[:n], a[:n])
	})
	if err != nil {
		return err
	}
	if l.cfg.TransposedOut {
		return p.rowsToColBuffers(op, bufs)
	}
	if err := p.c.rowsThenFirstAxis(op, false); err != nil {
		return err
	}
	return p.c.colsToOwnRows(op, func(i int) error { return bufs[i].Upload(p.c.a[i][:bufs[i].Len()]) })
}

// rowsToColBuffers is ForwardSlabs' transpose and first axis for TransposedOut: into
// each device's buffer, transformed there where the column slab fills it.
func (p *SlabPlan[T]) rowsToColBuffers(op string, bufs []*Buffer[T]) error {
	l := &p.c.l
	srcs := ownViews(p.c.a, l.rows)
	return runSlabs(op, p.c.devs, func(j int) error {
		cs := l.cols[j]
		if cs.Rows == 0 {
			return nil
		}
		p.c.toOwnCols(j, srcs)
		n, b := l.colLen(j), p.c.b[j]
		if bufs[j].Len() == n {
			if err := bufs[j].Upload(b[:n]); err != nil {
				return err
			}
			return p.c.first[j].ForwardBuffer(bufs[j], bufs[j])
		}
		if err := p.c.first[j].Forward(b[:n], b[:n]); err != nil {
			return err
		}
		return bufs[j].Upload(b[:bufs[j].Len()])
	})
}

// InverseSlabs is the inverse of ForwardSlabs, in place: bufs hold the slabs (with
// TransposedIn, the transposed slabs) before, and the slabs after.
func (p *SlabPlan[T]) InverseSlabs(bufs []*Buffer[T]) error {
	const op = "inverse"
	if err := p.checkBuffers(op, bufs); err != nil {
		return err
	}
	defer p.c.mu.Unlock()
	l := &p.c.l
	var err error
	if l.cfg.TransposedIn {
		err = runSlabs(op, p.c.devs, func(j int) error {
			if l.cols[j].Rows == 0 {
				return nil
			}
			n, b := l.colLen(j), p.c.b[j]
			if bufs[j].Len() == n {
				if err := p.c.first[j].InverseBuffer(bufs[j], bufs[j]); err != nil {
					return err
				}
				return bufs[j].Download(b[:n])
			}
			if err := bufs[j].Download(b[:bufs[j].Len()]); err != nil {
				return err
			}
			return p.c.first[j].Inverse(b[:n], b[:n])
		})
	} else {
		err = runSlabs(op, p.c.devs, func(i int) error {
			if l.rows[i].Rows == 0 {
				return nil
			}
			return bufs[i].Download(p.c.a[i][:bufs[i].Len()])
		})
		if err == nil {
			err = p.c.rowsThenFirstAxis(op, true)
		}
	}
	if err != nil {
		return err
	}
	return p.c.colsToOwnRows(op, func(i int) error {
		n, a := l.rowLen(i), p.c.a[i]
		if bufs[i].Len() == n {
			if err := bufs[i].Upload(a[:n]); err != nil {
				return err
			}
			return p.trail[i].InverseBuffer(bufs[i], bufs[i])
		}
		if err := p.trail[i].Inverse(a[:n], a[:n]); err != nil {
			return err
		}
		return bufs[i].Upload(a[:bufs[i].Len()])
	})
}

// Close frees the devices' plans and staging. It is idempotent; Pool.Close closes it
// too.
func (p *SlabPlan[T]) Close() error { return p.c.close() }
