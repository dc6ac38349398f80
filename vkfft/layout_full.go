package vkfft

import (
	"fmt"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// fullMode is how a FullSpectrum plan makes the whole spectrum.
type fullMode int

const (
	fullNone   fullMode = iota
	fullExpand          // R2C, the half spectrum expanded (and a whole one folded) on the device
	fullWiden           // the last axis is not transformed: a C2C FFT of the real data widened
)

// checkFull checks Config.FullSpectrum against the rest of l.cfg (l.kind as asked) and
// says which mode the plan takes.
func checkFull(l *layout) (fullMode, error) {
	cfg := &l.cfg
	if !cfg.FullSpectrum {
		return fullNone, nil
	}
	switch {
	case l.kind != kindR2C:
		return fullNone, fmt.Errorf("%w: FullSpectrum applies to real-to-complex plans only", ErrInvalidArgument)
	case cfg.RealInPlace:
		return fullNone, fmt.Errorf("%w: FullSpectrum with RealInPlace: the whole spectrum does not fit the padded real array", ErrInvalidArgument)
	case cfg.InStrides != nil || cfg.OutStrides != nil:
		return fullNone, fmt.Errorf("%w: FullSpectrum with InStrides/OutStrides: whole spectra are contiguous", ErrUnsupported)
	case cfg.Storage == StorageHalf:
		return fullNone, fmt.Errorf("%w: FullSpectrum with StorageHalf: its kernels move fp32 and fp64 data", ErrUnsupported)
	}
	rank := len(cfg.Shape)
	if cfg.Axes == nil {
		return fullExpand, nil
	}
	for _, a := range cfg.Axes {
		if a == rank-1 || a == -1 {
			return fullExpand, nil
		}
	}
	return fullWiden, nil
}

// setFull turns the layout VkFFT is built on (R2C for fullExpand, C2C for fullWiden) into
// the sizes a caller sees: n real points, and as many complex ones, in all batches.
func (l *layout) setFull(mode fullMode, n int, complexSize uintptr) {
	l.full, l.kind = mode, kindR2C
	l.realLen, l.complexLen = n, n
	l.realBytes, l.complexBytes = int64(n)*int64(complexSize/2), int64(n)*int64(complexSize)
	l.inSpan, l.outSpan = n, n
	if l.cfg.Storage == StorageHalf {
		l.realBytes, l.complexBytes = l.realBytes/2, l.complexBytes/2
	}
}

// scaleBuffers widens l's complex and real buffers to hold complexItems and realItems
// transforms' data (a convolution's kernels and features): the complex side a caller
// sees and VkFFT's own buffer together, which VkFFT binds by its size on Vulkan.
func (l *layout) scaleBuffers(complexItems, realItems int64) {
	l.complexBytes *= complexItems
	l.bufBytes *= complexItems
	l.realBytes *= realItems
}

// vkKind is the kind of transform VkFFT runs: a widened FullSpectrum plan is complex.
func (l *layout) vkKind() kind {
	if l.full == fullWiden {
		return kindC2C
	}
	return l.kind
}

// vkRealBytes is the real data VkFFT reads (its inputBuffer): none for a complex plan.
func (l *layout) vkRealBytes() int64 {
	if l.full == fullWiden {
		return 0
	}
	return l.realBytes
}

// fullExt is what a FullSpectrum plan holds beside its VkFFT application: the companion
// kernels' module and, for fullExpand, the whole spectrum's buffer.
type fullExt struct {
	module engine.Module
	buf    uint64 // fullExpand: the whole spectrum (l.complexBytes)
}

// attachFull builds the companion kernels of a FullSpectrum plan of l (through the
// kernel cache ks) and hands them, with the buffer they fill, to the plan's application
// ph, whose run descriptors change; realBuf is the plan's real data. What it made is
// freed again when it fails.
func attachFull(d *Device, h engine.Device, ks *kernelSource, l *layout, ph engine.Plan, realBuf uint64) (*fullExt, error) {
	m, err := ks.module(h, fullSource(compiledBackend, l.double))
	if err != nil {
		return nil, err
	}
	f := &fullExt{module: m}
	if err = f.attach(d, l, ph, realBuf); err != nil {
		f.free(d, l)
		return nil, err
	}
	return f, nil
}

func (f *fullExt) attach(d *Device, l *layout, ph engine.Plan, realBuf uint64) error {
	names := map[fullMode][2]string{fullExpand: {"vkg_herm_expand", "vkg_herm_fold"}, fullWiden: {"vkg_widen", "vkg_real_part"}}[l.full]
	fp := engine.FullParams{Mode: engine.FullExpand, Batch: l.cfg.Batch, Dims: [3]int{1, 1, 1}}
	var err error
	if fp.ToFull, err = engine.ModuleKernel(f.module, names[0]); err != nil {
		return err
	}
	if fp.FromFull, err = engine.ModuleKernel(f.module, names[1]); err != nil {
		return err
	}
	if l.full == fullWiden {
		fp.Mode, fp.Buffer, fp.Bytes, fp.Count = engine.FullWiden, realBuf, l.realBytes, l.realLen
		return engine.PlanSetFull(ph, &fp)
	}
	if f.buf, err = d.alloc(l.complexBytes); err != nil {
		return err
	}
	rank := len(l.cfg.Shape)
	fp.Buffer, fp.Bytes, fp.N = f.buf, l.complexBytes, l.cfg.Shape[rank-1]
	for i := 0; i < rank-1; i++ {
		k := 3 - (rank - 1) + i
		fp.Dims[k] = l.cfg.Shape[i]
		if l.sel[i] {
			fp.Mirror |= 1 << k
		}
	}
	return engine.PlanSetFull(ph, &fp)
}

// free frees what attachFull made; the application is gone or never used it.
func (f *fullExt) free(d *Device, l *layout) {
	if f.module != nil {
		engine.ModuleDestroy(f.module)
	}
	d.free(f.buf, l.complexBytes)
}

// freeFull frees the plan's FullSpectrum companions, once its application is gone.
func (p *plan) freeFull() {
	if p.full != nil {
		p.full.free(p.dev, &p.l)
		p.full = nil
	}
}

// fullBytes is the device memory a FullSpectrum plan holds beyond VkFFT's buffers: the
// whole spectrum of fullExpand.
func (l *layout) fullBytes() int64 {
	if l.full == fullExpand {
		return l.complexBytes
	}
	return 0
}
