package vkfft

// The tuner's accuracy check for candidates that change the arithmetic, not only the
// launch (computed twiddles in single precision): such a candidate must be as accurate
// as VkFFT's defaults against a float64 reference, not merely close to the defaults'
// result. The reference is the exact transform of the tuner's random input, computed
// once on the host (internal/fftref) and compared at the check's sampled windows.

import (
	"fmt"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/fftref"
)

const (
	// tuneExactMax caps the points of the host reference (4096², 256³, or the transforms
	// of a batch the sampled windows reach): its float64 copies take 32 bytes a point,
	// and it is computed on one core.
	tuneExactMax = 1 << 24
	// tuneExactSlack is how much larger than the defaults' error a candidate's may be:
	// the error of two equally accurate kernels differs by a few percent over the
	// sampled windows.
	tuneExactSlack = 1.1
)

// tuneExactBias scales a candidate's measured error (a test hook; nil in normal use).
var tuneExactBias func(Tuning) float64

// exactOut returns the float64 forward transform of the tuner's single-precision input
// at outWins (re, im pairs, scaled as the plan scales), computing it on first use: only
// the transforms of the batch that the windows reach.
func (tn *tuner) exactOut() ([]float64, error) {
	if tn.exact != nil || tn.exactWhy != nil {
		return tn.exact, tn.exactWhy
	}
	l := tn.l
	if l.double { // the candidates this check is for are single precision's
		tn.exactWhy = fmt.Errorf("no float64 reference for a double-precision plan")
		return nil, tn.exactWhy
	}
	batch := max(l.cfg.Batch, 1)
	outPer := int64(l.complexLen / batch) // output elements of one transform
	points := l.complexLen / batch
	if l.kind == kindR2C {
		points = l.realLen / batch
	}
	var picks []int
	for _, w := range tn.outWins {
		for b := w.off / 8 / outPer; b <= ((w.off+w.n)/8-1)/outPer; b++ {
			if len(picks) == 0 || picks[len(picks)-1] < int(b) {
				picks = append(picks, int(b))
			}
		}
	}
	if total := len(picks) * points; total > tuneExactMax {
		tn.exactWhy = fmt.Errorf("no float64 reference for %d points (at most %d)", total, tuneExactMax)
		return nil, tn.exactWhy
	}
	inPer := tn.inBytes / int64(batch)
	out := make(map[int64][]complex128, len(picks))
	for _, b := range picks {
		out[int64(b)] = exactTransform(l, randomRange(tn.inBytes, int64(b)*inPer, inPer, false))
	}
	for _, w := range tn.outWins {
		for i := w.off / 8; i < (w.off+w.n)/8; i++ {
			v := out[i/outPer][i%outPer]
			tn.exact = append(tn.exact, real(v)*l.fwdScale, imag(v)*l.fwdScale)
		}
	}
	return tn.exact, nil
}

// exactTransform is the float64 forward transform of one transform's input (float32).
func exactTransform(l *layout, input []byte) []complex128 {
	f := float32sWidened(input)
	if l.kind == kindR2C {
		return fftref.RFFTN(f, l.cfg.Shape, l.cfg.Axes, 1)
	}
	x := make([]complex128, len(f)/2)
	for i := range x {
		x[i] = complex(f[2*i], f[2*i+1])
	}
	return fftref.FFTN(x, l.cfg.Shape, l.cfg.Axes, 1, false)
}

// float32sWidened returns the float32 values of b as float64s.
func float32sWidened(b []byte) []float64 {
	f := unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), len(b)/4)
	x := make([]float64, len(f))
	for i, v := range f {
		x[i] = float64(v)
	}
	return x
}

// exactErr runs c's forward transform of the input and returns the relative L2 error of
// the sampled output against the float64 reference.
func (tn *tuner) exactErr(c *tuneCand) (float64, error) {
	want, err := tn.exactOut()
	if err != nil {
		return 0, err
	}
	if err = tn.loadInput(); err != nil {
		return 0, err
	}
	if err = tn.run(c, false); err != nil {
		return 0, err
	}
	got, err := tn.sample(tn.buf, tn.outWins)
	if err != nil {
		return 0, err
	}
	e := fftref.L2Real(float32sWidened(got), want)
	if tuneExactBias != nil {
		e *= tuneExactBias(c.t)
	}
	return e, nil
}

// asAccurate checks that c is as accurate as VkFFT's defaults (base) against the float64
// reference.
func (tn *tuner) asAccurate(c, base *tuneCand) error {
	if tn.baseExact == 0 {
		e, err := tn.exactErr(base)
		if err != nil {
			return fmt.Errorf("VkFFT's defaults against float64: %w", err)
		}
		tn.baseExact = e
	}
	e, err := tn.exactErr(c)
	if err != nil {
		return err
	}
	if !(e <= tn.baseExact*tuneExactSlack) {
		return fmt.Errorf("less accurate than VkFFT's defaults: relative error %.3g against float64, defaults %.3g",
			e, tn.baseExact)
	}
	tunef("tune %s:   %s: relative error %.3g against float64 (defaults %.3g)", tn.name, c.t, e, tn.baseExact)
	return nil
}
