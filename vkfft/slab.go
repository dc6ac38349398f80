package vkfft

import (
	"fmt"
	"slices"
)

// SlabConfig describes a transform distributed across the devices of a Pool in
// FFTW-MPI's slab decomposition (see NewSlabPlan).
type SlabConfig struct {
	// Shape of one transform, row-major, 2 or 3 axes. For real plans it is the real
	// data's shape; the spectrum's last axis has Shape[-1]/2+1 elements.
	Shape []int
	// Batch is the number of transforms laid one after another, as in Config; 0 means 1.
	Batch int
	// Norm is the normalisation (default NormBackward), as in Config.
	Norm Norm
	// TransposedOut leaves the forward transform's output in the transposed layout
	// (FFTW-MPI's FFTW_MPI_TRANSPOSED_OUT): the first two axes of the spectrum swapped,
	// each device holding a slab of what was the second axis (TransposedSlabs), which
	// saves the transpose back.
	TransposedOut bool
	// TransposedIn makes the inverse transform take its input in the transposed layout
	// (FFTW_MPI_TRANSPOSED_IN): what a forward with TransposedOut leaves.
	TransposedIn bool
	// Chunks pipelines the device stages that run on the host's staging (every stage of
	// Forward and Inverse; the first axis' of ForwardSlabs and InverseSlabs between two
	// transposes): each device's staging is cut into this many chunks of whole
	// transforms — the most up to it that divide the stage evenly — and the host
	// transposes or copies one chunk while the device transforms those before, on two
	// streams. 0 chooses up to 8 chunks of at least 4 MiB each; 1 runs every stage whole.
	// Results agree with the unpipelined plan's to rounding.
	Chunks int
}

// Slab is one device's share of a distributed array: Rows consecutive indices of the
// distributed axis from Start. Device is the device's place in the pool
// (Pool.Devices()[Device]).
type Slab struct {
	Device int
	Start  int
	Rows   int
}

// splitSlabs shares n indices among devices with FFTW-MPI's default block rule
// (FFTW_MPI_DEFAULT_BLOCK): every device takes block = ceil(n/devices) indices in pool
// order until none are left, so the last devices may take fewer or none. FFTW-MPI's
// local_n0 and local_0_start are Rows and Start.
func splitSlabs(n, devices int) []Slab {
	block := (n + devices - 1) / devices
	out := make([]Slab, devices)
	for i := range out {
		start := min(i*block, n)
		out[i] = Slab{Device: i, Start: start, Rows: min(block, n-start)}
	}
	return out
}

// slabLayout is a validated SlabConfig with the sizes of each stage. The complex array
// (the input of a C2C plan, the spectrum of a real one) is, per transform, n0 × m1 × r:
// the first axis, the second axis and the elements that follow one (row, column) pair.
// A row slab holds [batch][rows][m1][r]; a column slab, the transposed layout,
// [batch][cols][n0][r].
type slabLayout struct {
	cfg     SlabConfig // Shape copied, Batch >= 1
	real    bool
	n0, m1  int
	r       int
	realRow int    // real elements per row of the first axis (real plans)
	rows    []Slab // the first axis' slabs
	cols    []Slab // the second axis' slabs (the transposed layout)
}

func validateSlab(cfg SlabConfig, devices int, real bool) (slabLayout, error) {
	l := slabLayout{cfg: cfg, real: real}
	l.cfg.Shape = slices.Clone(cfg.Shape)
	shape := l.cfg.Shape
	if len(shape) < 2 || len(shape) > 3 {
		return l, fmt.Errorf("%w: %d dimensions %v; a slab plan distributes 2-D and 3-D transforms", ErrInvalidShape,
			len(shape), shape)
	}
	for i, d := range shape {
		if d <= 0 {
			return l, fmt.Errorf("%w: dimension %d of %v is %d; dimensions must be positive", ErrInvalidShape, i, shape, d)
		}
	}
	if cfg.Batch < 0 {
		return l, fmt.Errorf("%w: batch %d is negative", ErrInvalidBatch, cfg.Batch)
	}
	if l.cfg.Batch == 0 {
		l.cfg.Batch = 1
	}
	if cfg.Chunks < 0 {
		return l, fmt.Errorf("%w: chunks %d is negative; 0 chooses, 1 runs every stage whole", ErrInvalidArgument, cfg.Chunks)
	}
	if cfg.Norm < NormBackward || cfg.Norm > NormForward {
		return l, fmt.Errorf("%w: unknown normalisation %v", ErrInvalidArgument, cfg.Norm)
	}
	complexShape := slices.Clone(shape)
	if real {
		complexShape[len(shape)-1] = shape[len(shape)-1]/2 + 1
		l.realRow = prodInts(shape[1:])
	}
	l.n0, l.m1, l.r = complexShape[0], complexShape[1], prodInts(complexShape[2:])
	if l.n0 < devices {
		return l, fmt.Errorf("%w: the first axis has %d rows for %d devices; a slab plan needs at least one row per device",
			ErrInvalidShape, l.n0, devices)
	}
	if l.m1 < devices {
		what := "the second axis has"
		if real && len(shape) == 2 {
			what = fmt.Sprintf("the spectrum's second axis (%d/2+1) has", shape[1])
		}
		return l, fmt.Errorf("%w: %s %d columns for %d devices; the transpose needs at least one per device",
			ErrInvalidShape, what, l.m1, devices)
	}
	if _, ok := mulCheck(l.cfg.Batch, prodInts(complexShape), true); !ok {
		return l, fmt.Errorf("%w: %d transforms of %v overflow", ErrTooLarge, l.cfg.Batch, shape)
	}
	l.rows, l.cols = splitSlabs(l.n0, devices), splitSlabs(l.m1, devices)
	return l, nil
}

// rowLen is the complex elements of device i's row slab; colLen of its column slab.
func (l *slabLayout) rowLen(i int) int { return l.cfg.Batch * l.rows[i].Rows * l.m1 * l.r }
func (l *slabLayout) colLen(i int) int { return l.cfg.Batch * l.cols[i].Rows * l.n0 * l.r }

// realLen is the real elements of device i's row slab.
func (l *slabLayout) realLen(i int) int { return l.cfg.Batch * l.rows[i].Rows * l.realRow }

// stageLen is the elements of each of device i's host staging areas: either layout fits.
func (l *slabLayout) stageLen(i int) int { return max(l.rowLen(i), l.colLen(i)) }

// transposed says whether a layout is ever transposed at the plan's edges, in which
// case a C2C plan's device buffers must fit either layout.
func (l *slabLayout) transposed() bool { return l.cfg.TransposedOut || l.cfg.TransposedIn }

// complexLen is the complex elements of the whole array, real the real ones.
func (l *slabLayout) complexLen() int { return l.cfg.Batch * l.n0 * l.m1 * l.r }
func (l *slabLayout) wholeRealLen() int {
	return l.cfg.Batch * l.n0 * l.realRow
}

// trailingConfig is the Config of device i's first stage: the axes after the first,
// one transform per row of its slab.
func (l *slabLayout) trailingConfig(i int) Config {
	return Config{Shape: slices.Clone(l.cfg.Shape[1:]), Batch: l.cfg.Batch * l.rows[i].Rows, Norm: l.cfg.Norm}
}

// firstAxisConfig is the Config of device j's second stage: the first axis of its column
// slab, [batch·cols][n0][r] with the first axis strided by r.
func (l *slabLayout) firstAxisConfig(j int) Config {
	c := Config{Shape: []int{l.n0}, Batch: l.cfg.Batch * l.cols[j].Rows, Norm: l.cfg.Norm}
	if l.r > 1 {
		c.Shape, c.Axes = []int{l.n0, l.r}, []int{0}
	}
	return c
}
