package main

// One case of `vkfft check`, run in a child process: build the plan, transform random
// data both ways through host slices, and compare each direction with the float64
// reference (internal/fftref, the same one the vkfft tests use). The inverse runs on
// the reference spectrum, rounded to the plan's precision, so its error is its own.

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"

	"github.com/vkfftgo/vkfftgo/internal/fftref"
	"github.com/vkfftgo/vkfftgo/vkfft"
)

// checkResult is what a case gives; one JSON line each in the result file.
type checkResult struct {
	checkCase
	Status  string  `json:"status"` // pass, fail, crash, timeout, unsupported, error, skipped
	Points  int     `json:"points"`
	FwdLInf float64 `json:"fwd_linf"`
	InvLInf float64 `json:"inv_linf"`
	FwdL2   float64 `json:"fwd_l2"`
	InvL2   float64 `json:"inv_l2"`
	Tol     float64 `json:"tol"`
	PlanMS  float64 `json:"plan_ms"`
	Message string  `json:"message,omitempty"`
}

// worst is the larger of the two directions' error relative to the tolerance.
func (r checkResult) worst() float64 {
	if r.Tol == 0 {
		return 0
	}
	return max(r.FwdLInf, r.InvLInf) / r.Tol
}

func (c checkCase) precision() fftref.Precision {
	switch {
	case c.Storage == "half":
		return fftref.Half
	case c.Double:
		return fftref.Double
	}
	return fftref.Single
}

func (c checkCase) config() (vkfft.Config, error) {
	cfg := vkfft.Config{Shape: c.Shape, Axes: c.Axes, Batch: c.Batch}
	switch c.Storage {
	case "default", "":
	case "half":
		cfg.Storage = vkfft.StorageHalf
	case "float-compute-double":
		cfg.Storage = vkfft.StorageFloatComputeDouble
	default:
		return cfg, fmt.Errorf("unknown storage %q", c.Storage)
	}
	return cfg, nil
}

// runCase measures one case on dev. A plan the device or VkFFT cannot build is
// "unsupported"; an error during the transforms is "error".
func runCase(dev *vkfft.Device, c checkCase) checkResult {
	r := checkResult{checkCase: c, Points: c.points(), Tol: fftref.Tolerance(c.points(), c.precision(), c.largePrime())}
	var err error
	switch {
	case c.Kind == "c2c" && c.Double:
		err = checkC2C[complex128](dev, &r)
	case c.Kind == "c2c":
		err = checkC2C[complex64](dev, &r)
	case c.Kind == "r2c" && c.Double:
		err = checkR2C[float64, complex128](dev, &r)
	case c.Kind == "r2c":
		err = checkR2C[float32, complex64](dev, &r)
	case c.Double:
		err = checkR2R[float64](dev, &r)
	default:
		err = checkR2R[float32](dev, &r)
	}
	for _, e := range []*float64{&r.FwdLInf, &r.InvLInf, &r.FwdL2, &r.InvL2} {
		if math.IsNaN(*e) || math.IsInf(*e, 0) { // JSON has no NaN: a huge error says it
			*e = math.MaxFloat64
			r.Message = "non-finite values in the result"
		}
	}
	var pe planError
	switch {
	case errors.As(err, &pe) && errors.Is(err, vkfft.ErrUnsupported):
		r.Status, r.Message = "unsupported", err.Error()
	case err != nil:
		r.Status, r.Message = "error", err.Error()
	case r.FwdLInf <= r.Tol && r.InvLInf <= r.Tol:
		r.Status = "pass"
	default:
		r.Status = "fail"
	}
	return r
}

// planError marks a failure to build the plan.
type planError struct{ error }

func (e planError) Unwrap() error { return e.error }

func timedPlan[P any](r *checkResult, build func() (P, error)) (P, error) {
	t0 := time.Now()
	p, err := build()
	r.PlanMS = float64(time.Since(t0).Microseconds()) / 1000
	if err != nil {
		return p, planError{err}
	}
	return p, nil
}

// quantize rounds v to what the plan's device data can hold (fp16 for StorageHalf).
func quantize(v float64, half bool) float64 {
	if half {
		return float64(vkfft.Float16From(float32(v)).Float32())
	}
	return v
}

// rng seeds a case's data by its description, so a case sees the same data whatever
// else runs (-classes) or in which order.
func rng(c checkCase) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(c.String()))
	return rand.New(rand.NewPCG(h.Sum64(), 0x766b666674))
}

func checkC2C[T vkfft.Complex](dev *vkfft.Device, r *checkResult) error {
	cfg, err := r.config()
	if err != nil {
		return err
	}
	p, err := timedPlan(r, func() (*vkfft.Plan[T], error) { return vkfft.NewPlan[T](dev, cfg) })
	if err != nil {
		return err
	}
	defer p.Close()
	half := cfg.Storage == vkfft.StorageHalf
	g := rng(r.checkCase)
	x := make([]T, p.Len())
	ref := make([]complex128, p.Len())
	for i := range x {
		v := complex(quantize(g.Float64()-0.5, half), quantize(g.Float64()-0.5, half))
		x[i], ref[i] = T(v), complex128(T(v))
	}
	batch := max(r.Batch, 1)
	want := fftref.FFTN(ref, r.Shape, r.Axes, batch, false)
	y := make([]T, p.Len())
	if err := p.Forward(y, x); err != nil {
		return err
	}
	got := make([]complex128, len(y))
	for i, v := range y {
		got[i] = complex128(v)
	}
	r.FwdLInf, r.FwdL2 = fftref.LInf(got, want), fftref.L2(got, want)

	// inverse of the reference spectrum as the device holds it
	for i, v := range want {
		y[i] = T(complex(quantize(real(v), half), quantize(imag(v), half)))
		want[i] = complex128(y[i])
	}
	back := fftref.FFTN(want, r.Shape, r.Axes, batch, true)
	scale := complex(1/float64(r.Points), 0)
	for i := range back {
		back[i] *= scale
	}
	if err := p.Inverse(x, y); err != nil {
		return err
	}
	for i, v := range x {
		got[i] = complex128(v)
	}
	r.InvLInf, r.InvL2 = fftref.LInf(got, back), fftref.L2(got, back)
	return nil
}

func checkR2C[R vkfft.Real, C vkfft.Complex](dev *vkfft.Device, r *checkResult) error {
	cfg, err := r.config()
	if err != nil {
		return err
	}
	p, err := timedPlan(r, func() (*vkfft.RealPlan[R, C], error) { return vkfft.NewRealPlan[R, C](dev, cfg) })
	if err != nil {
		return err
	}
	defer p.Close()
	half := cfg.Storage == vkfft.StorageHalf
	g := rng(r.checkCase)
	x := make([]R, p.RealLen())
	ref := make([]float64, len(x))
	for i := range x {
		x[i] = R(quantize(g.Float64()-0.5, half))
		ref[i] = float64(x[i])
	}
	want := fftref.RFFTN(ref, r.Shape, r.Axes, max(r.Batch, 1))
	y := make([]C, p.ComplexLen())
	if err := p.Forward(y, x); err != nil {
		return err
	}
	got := make([]complex128, len(y))
	for i, v := range y {
		got[i] = complex128(v)
	}
	r.FwdLInf, r.FwdL2 = fftref.LInf(got, want), fftref.L2(got, want)
	// the inverse of any half spectrum, Hermitian or not, is FFTW's c2r of it (numpy's
	// irfftn): random spectra check that, and the bins a forward transform leaves real
	spec := make([]complex128, len(y))
	for i := range y {
		y[i] = C(complex(quantize(g.Float64()-0.5, half), quantize(g.Float64()-0.5, half)))
		spec[i] = complex128(y[i])
	}
	wantR := fftref.IRFFTN(spec, r.Shape, r.Axes, max(r.Batch, 1))
	for i := range wantR {
		wantR[i] /= float64(r.Points)
	}
	back := make([]R, len(x))
	if err := p.Inverse(back, y); err != nil {
		return err
	}
	gotR := make([]float64, len(back))
	for i, v := range back {
		gotR[i] = float64(v)
	}
	r.InvLInf, r.InvL2 = fftref.LInfReal(gotR, wantR), fftref.L2Real(gotR, wantR)
	return nil
}

func checkR2R[T vkfft.Real](dev *vkfft.Device, r *checkResult) error {
	cfg, err := r.config()
	if err != nil {
		return err
	}
	kind := vkfft.R2RKind(0)
	for i, k := range r2rKinds {
		if k == r.Kind {
			kind = vkfft.R2RKind(i + 1)
		}
	}
	if kind == 0 {
		return fmt.Errorf("unknown kind %q", r.Kind)
	}
	p, err := timedPlan(r, func() (*vkfft.R2RPlan[T], error) { return vkfft.NewR2RPlan[T](dev, cfg, kind) })
	if err != nil {
		return err
	}
	defer p.Close()
	half := cfg.Storage == vkfft.StorageHalf
	g := rng(r.checkCase)
	x := make([]T, p.Len())
	ref := make([]float64, len(x))
	for i := range x {
		x[i] = T(quantize(g.Float64()-0.5, half))
		ref[i] = float64(x[i])
	}
	want := fftref.R2RN(ref, r.Shape, r.Axes, max(r.Batch, 1), fftref.Kind(kind))
	y := make([]T, p.Len())
	if err := p.Forward(y, x); err != nil {
		return err
	}
	got := make([]float64, len(y))
	for i, v := range y {
		got[i] = float64(v)
	}
	r.FwdLInf, r.FwdL2 = fftref.LInfReal(got, want), fftref.L2Real(got, want)
	for i, v := range want {
		y[i] = T(quantize(v, half))
	}
	if err := p.Inverse(x, y); err != nil {
		return err
	}
	for i, v := range x {
		got[i] = float64(v)
	}
	r.InvLInf, r.InvL2 = fftref.LInfReal(got, ref), fftref.L2Real(got, ref)
	return nil
}
