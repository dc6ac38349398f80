package vkfft

import (
	"fmt"
	"sync"
)

// slabView is host memory that holds some rows of a distributed axis for every
// transform of the batch: row g of transform b starts at element (b·rows + g − base)·unit.
// A device's own staging area is a view with base = its slab's Start and rows = its
// Rows; the caller's whole array is a view with base 0 and rows = the axis' length.
type slabView[E any] struct {
	data []E
	base int
	rows int
}

func ownView[E any](data []E, s Slab) slabView[E] {
	return slabView[E]{data: data, base: s.Start, rows: s.Rows}
}
func wholeView[E any](data []E, n int) slabView[E] { return slabView[E]{data: data, rows: n} }

func (v slabView[E]) at(b, g, unit int) int { return (b*v.rows + g - v.base) * unit }

// ownViews is one view per device of its staging area.
func ownViews[E any](data [][]E, slabs []Slab) []slabView[E] {
	out := make([]slabView[E], len(slabs))
	for i, s := range slabs {
		out[i] = ownView(data[i], s)
	}
	return out
}

// copySlab copies slab s's rows (unit elements each) of every transform from src to dst,
// one contiguous run per transform.
func copySlab[E any](dst, src slabView[E], s Slab, batch, unit int) {
	copySlabRange(dst, src, s, 0, batch*s.Rows, unit)
}

// copySlabRange is copySlab for the slab's rows q0 .. q1-1 counted over the whole batch
// (row g of transform b is b·s.Rows + g − s.Start): one chunk of a pipelined stage.
func copySlabRange[E any](dst, src slabView[E], s Slab, q0, q1, unit int) {
	forEachTransform(q0, q1, s.Rows, func(b, lo, hi int) {
		n := (hi - lo) * unit
		copy(dst.data[dst.at(b, s.Start+lo, unit):][:n], src.data[src.at(b, s.Start+lo, unit):][:n])
	})
}

// forEachTransform cuts a range q0 .. q1-1 of a slab's rows counted over the whole batch
// (rows per transform) into one run per transform: f(b, lo, hi) for its rows lo .. hi-1,
// counted from the slab's start.
func forEachTransform(q0, q1, rows int, f func(b, lo, hi int)) {
	for q := q0; q < q1; {
		b := q / rows
		lo, hi := q-b*rows, min(q1-b*rows, rows)
		f(b, lo, hi)
		q = b*rows + hi
	}
}

// rowsToColsRange is the all-to-all transpose into one device: it fills columns q0 ..
// q1-1 (counted over the whole batch) of column slab cs of dst ([batch][cols][n0][r])
// from every device's row slab ([batch][rows][m1][r]), runs of r elements at a time.
func rowsToColsRange[E any](l *slabLayout, dst slabView[E], cs Slab, srcs []slabView[E], q0, q1 int) {
	r, rowUnit, colUnit := l.r, l.m1*l.r, l.n0*l.r
	forEachTransform(q0, q1, cs.Rows, func(b, lo, hi int) {
		for i, rs := range l.rows {
			src := srcs[i]
			transposeRuns(dst.data, src.data, r, dst.at(b, 0, colUnit), colUnit, src.at(b, 0, rowUnit), rowUnit,
				rs.Start, rs.Start+rs.Rows, cs.Start+lo, cs.Start+hi)
		}
	})
}

// colsToRowsRange is the transpose back into one device: it fills rows q0 .. q1-1
// (counted over the whole batch) of row slab rs of dst from every device's column slab.
func colsToRowsRange[E any](l *slabLayout, dst slabView[E], rs Slab, srcs []slabView[E], q0, q1 int) {
	r, rowUnit, colUnit := l.r, l.m1*l.r, l.n0*l.r
	forEachTransform(q0, q1, rs.Rows, func(b, lo, hi int) {
		for j, cs := range l.cols {
			src := srcs[j]
			transposeRuns(dst.data, src.data, r, dst.at(b, 0, rowUnit), rowUnit, src.at(b, 0, colUnit), colUnit,
				cs.Start, cs.Start+cs.Rows, rs.Start+lo, rs.Start+hi)
		}
	})
}

// slabTileRuns is the side of transposeRuns' tiles for runs of one element (of 4 at
// least for longer runs). A variable, so that the benchmark can time the transposes
// untiled (a tile larger than the slabs).
var slabTileRuns = 8

// transposeRuns copies, for a in a0 .. a1-1 and c in c0 .. c1-1, the run of r elements
// at src[sOff + a·sA + c·r] to dst[dOff + c·dC + a·r]: a transpose of runs. It goes tile
// by tile, so that the lines of the side it strides over stay in cache across a tile;
// small tiles, as a power-of-two stride maps them all onto a few cache sets (one core of
// the 2-core CI box, 8192² complex64: 3.4 GB/s in tiles of 8, 2.0 in tiles of 32, 1.1
// in tiles of 64, 1.5 untiled). The offsets may be negative (a view's base), as long as
// every index is not.
func transposeRuns[E any](dst, src []E, r, dOff, dC, sOff, sA, a0, a1, c0, c1 int) {
	tile := max(4, slabTileRuns/r)
	for ta := a0; ta < a1; ta += tile {
		ea := min(ta+tile, a1)
		for tc := c0; tc < c1; tc += tile {
			ec := min(tc+tile, c1)
			for a := ta; a < ea; a++ {
				s, d := sOff+a*sA, dOff+a*r
				if r == 1 {
					for c := tc; c < ec; c++ {
						dst[d+c*dC] = src[s+c]
					}
					continue
				}
				for c := tc; c < ec; c++ {
					copy(dst[d+c*dC:][:r], src[s+c*r:][:r])
				}
			}
		}
	}
}

// runSlabs runs f for every device of a slab plan at once, each in a goroutine of its
// own, and returns when all are done: the devices' errors as ShardErrors naming them. A
// panic in f is raised again in the caller once every device is done.
func runSlabs(op string, devs []*Device, f func(i int) error) error {
	errs := make([]error, len(devs))
	panics := make([]any, len(devs))
	var wg sync.WaitGroup
	for i := range devs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[i] = recover() }()
			errs[i] = f(i)
		}()
	}
	wg.Wait()
	for i, v := range panics {
		if v != nil {
			panic(fmt.Sprintf("vkfft: slab %s on device %d: %v", op, devs[i].info.Index, v))
		}
	}
	shards := make([]poolShard, len(devs))
	for i, d := range devs {
		shards[i].dev = d
	}
	return joinShardErrors(op, shards, errs)
}
