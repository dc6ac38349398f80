package vkfft

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/internal/engine"
	"github.com/vkfftgo/vkfftgo/internal/fftref"
)

// FFTW's (and numpy's) complex-to-real inverse is defined for any half spectrum: the
// imaginary parts of bins 0 and n/2 along the last axis are dropped only after the
// leading axes' complex transform, which equals projecting the self-conjugate planes
// onto Hermitian symmetry first. These tests feed random, non-Hermitian half spectra and
// compare with fftref.IRFFTN, which follows that definition.

// nonHermitian is a random half spectrum with no symmetry at all, in C and as the
// reference sees it.
func nonHermitian[C Complex](seed uint64, n int) ([]C, []complex128) {
	return randomComplex[C](rand.New(rand.NewPCG(seed, 0xc2)), n)
}

// c2rWant is the NormBackward inverse of half spectrum x: IRFFTN divided by the points
// of the transformed axes.
func c2rWant(x []complex128, cfg Config) []float64 {
	want := fftref.IRFFTN(x, cfg.Shape, cfg.Axes, max(cfg.Batch, 1))
	n := 1
	for _, a := range normAxesOf(cfg) {
		n *= cfg.Shape[a]
	}
	for i := range want {
		want[i] /= float64(n)
	}
	return want
}

func normAxesOf(cfg Config) []int {
	if cfg.Axes == nil {
		out := make([]int, len(cfg.Shape))
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := make([]int, len(cfg.Axes))
	for i, a := range cfg.Axes {
		out[i] = (a + len(cfg.Shape)) % len(cfg.Shape)
	}
	return out
}

type c2rCase struct {
	shape   []int
	batch   int
	double  bool
	inPlace bool
}

// Ranks 1 to 3, odd and even last axes, batches, out of place and in FFTW's padded
// in-place layout, single and double precision.
var c2rCases = []c2rCase{
	{shape: []int{16}, batch: 1},
	{shape: []int{15}, batch: 3, double: true},
	{shape: []int{4, 8}, batch: 1, double: true},
	{shape: []int{6, 8}, batch: 2},
	{shape: []int{5, 7}, batch: 1},
	{shape: []int{5, 7}, batch: 2, double: true},
	{shape: []int{4, 6, 10}, batch: 1},
	{shape: []int{3, 5, 9}, batch: 2, double: true},
	{shape: []int{6, 8}, batch: 2, double: true, inPlace: true},
	{shape: []int{5, 7}, batch: 2, inPlace: true},
	{shape: []int{4, 6, 10}, batch: 2, inPlace: true},
	{shape: []int{3, 5, 9}, batch: 1, double: true, inPlace: true},
}

func TestC2RNonHermitianMatchesFFTW(t *testing.T) {
	for _, tc := range sweepCases(c2rCases) {
		prec := "f32"
		if tc.double {
			prec = "f64"
		}
		layout := "out-of-place"
		if tc.inPlace {
			layout = "in-place"
		}
		t.Run(fmt.Sprintf("%s/%v/b%d/%s", prec, tc.shape, tc.batch, layout), func(t *testing.T) {
			cfg := Config{Shape: tc.shape, Batch: tc.batch, RealInPlace: tc.inPlace}
			if tc.double {
				checkC2R[float64, complex128](t, cfg, fftref.Double)
			} else {
				checkC2R[float32, complex64](t, cfg, fftref.Single)
			}
		})
	}
}

// checkC2R runs the inverse of a random half spectrum on host slices and on device
// buffers and compares both with the reference.
func checkC2R[R Real, C Complex](t *testing.T, cfg Config, prec fftref.Precision) {
	p := sharedRealPlan[R, C](t, cfg)
	last := cfg.Shape[len(cfg.Shape)-1]
	x, ref := nonHermitian[C](uint64(prod(cfg.Shape)), p.ComplexLen())
	want := c2rWant(ref, cfg)
	tol := fftref.Tolerance(prod(cfg.Shape), prec, false)

	if cfg.RealInPlace {
		data := unsafe.Slice((*R)(unsafe.Pointer(&x[0])), p.PaddedLen())
		host := append([]R(nil), data...)
		require.NoError(t, p.InverseInPlace(host))
		require.Less(t, fftref.LInfReal(toF64(unpad(host, last)), want), tol, "host, in place")

		buf, err := NewBuffer[R](testDev, p.PaddedLen())
		require.NoError(t, err)
		defer buf.Close()
		require.NoError(t, buf.Upload(data))
		require.NoError(t, p.InverseInPlaceBuffer(buf))
		got := make([]R, p.PaddedLen())
		require.NoError(t, buf.Download(got))
		require.Less(t, fftref.LInfReal(toF64(unpad(got, last)), want), tol, "buffer, in place")
		return
	}
	keep := append([]C(nil), x...)
	got := make([]R, p.RealLen())
	require.NoError(t, p.Inverse(got, x))
	require.Less(t, fftref.LInfReal(toF64(got), want), tol, "host")
	require.Equal(t, keep, x, "Inverse leaves its input alone")

	cb, err := NewBuffer[C](testDev, p.ComplexLen())
	require.NoError(t, err)
	defer cb.Close()
	rb, err := NewBuffer[R](testDev, p.RealLen())
	require.NoError(t, err)
	defer rb.Close()
	require.NoError(t, cb.Upload(x))
	require.NoError(t, p.InverseBuffer(rb, cb))
	clear(got)
	require.NoError(t, rb.Download(got))
	require.Less(t, fftref.LInfReal(toF64(got), want), tol, "buffer")
}

// The 4×8 cases users compared with fftw_plan_dft_c2r_2d (unnormalised, as FFTW's
// backward transform is: NormForward leaves the inverse unscaled). Before the
// projection, the first gave rows 0, 2, 0, 2 and the second all zeros.
func TestC2RUserCases4x8(t *testing.T) {
	cases := []struct {
		name string
		at   int
		v    complex128
		rows [4]float64
	}{
		{"DC 1+1i", 0, 1 + 1i, [4]float64{1, 1, 1, 1}},
		{"X[1][0] = 1", 5, 1, [4]float64{1, 0, -1, 0}},
	}
	cfg := Config{Shape: []int{4, 8}, Norm: NormForward}
	pd := sharedRealPlan[float64, complex128](t, cfg)
	ps := sharedRealPlan[float32, complex64](t, cfg)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			xd := make([]complex128, pd.ComplexLen())
			xd[c.at] = c.v
			gd := make([]float64, pd.RealLen())
			require.NoError(t, pd.Inverse(gd, xd))
			xs := make([]complex64, ps.ComplexLen())
			xs[c.at] = complex64(c.v)
			gs := make([]float32, ps.RealLen())
			require.NoError(t, ps.Inverse(gs, xs))
			for r, want := range c.rows {
				for j := 0; j < 8; j++ {
					require.InDelta(t, want, gd[r*8+j], 1e-14, "double, row %d column %d: %v", r, j, gd[r*8:r*8+8])
					require.InDelta(t, want, float64(gs[r*8+j]), 1e-6, "single, row %d column %d: %v", r, j, gs[r*8:r*8+8])
				}
			}
		})
	}
}

// Untransformed axes and the batch are not mirrored; a subset with one transformed axis
// is a batch of 1-D C2Rs; strided spectra are projected in their own layout, leaving the
// elements between the strided ones alone.
func TestC2RAxesAndStrides(t *testing.T) {
	t.Run("axes 0,2 of 3x4x6", func(t *testing.T) {
		cfg := Config{Shape: []int{3, 4, 6}, Axes: []int{0, 2}, Batch: 2}
		checkC2RHost[float32, complex64](t, cfg, fftref.Single)
	})
	t.Run("axis 1 of 5x6", func(t *testing.T) {
		cfg := Config{Shape: []int{5, 6}, Axes: []int{1}}
		checkC2RHost[float64, complex128](t, cfg, fftref.Double)
	})
	t.Run("axes 0,-1 of 4x3x2x6", func(t *testing.T) {
		cfg := Config{Shape: []int{4, 3, 2, 6}, Axes: []int{0, -1}}
		checkC2RHost[float64, complex128](t, cfg, fftref.Double)
	})
	t.Run("strided 4x6", func(t *testing.T) {
		cfg := Config{Shape: []int{4, 6}, Batch: 2, InStrides: []int{8, 1}, OutStrides: []int{5, 1}}
		p := sharedRealPlan[float64, complex128](t, cfg)
		l := &p.p.l
		cshape := []int{4, 4}
		x, ref := nonHermitian[complex128](46, 2*16)
		want := c2rWant(ref, Config{Shape: cfg.Shape, Batch: 2})
		rb, err := NewBuffer[float64](testDev, l.inSpan)
		require.NoError(t, err)
		defer rb.Close()
		cb, err := NewBuffer[complex128](testDev, l.outSpan)
		require.NoError(t, err)
		defer cb.Close()
		require.NoError(t, cb.Upload(image(x, cshape, cfg.OutStrides, 2, l.outSpan, 7i)))
		require.NoError(t, rb.Upload(image(make([]float64, 48), cfg.Shape, cfg.InStrides, 2, l.inSpan, 99)))
		require.NoError(t, p.InverseBuffer(rb, cb))
		img := make([]float64, rb.Len())
		require.NoError(t, rb.Download(img))
		require.Less(t, fftref.LInfReal(unimage(img, cfg.Shape, cfg.InStrides, 2), want), fftref.Tolerance(24, fftref.Double, false))
		gapsUntouched(t, img, cfg.Shape, cfg.InStrides, 2, 99, "real data")
		spec := make([]complex128, cb.Len())
		require.NoError(t, cb.Download(spec))
		gapsUntouched(t, spec, cshape, cfg.OutStrides, 2, 7i, "spectrum")
	})
}

func checkC2RHost[R Real, C Complex](t *testing.T, cfg Config, prec fftref.Precision) {
	p := sharedRealPlan[R, C](t, cfg)
	x, ref := nonHermitian[C](uint64(prod(cfg.Shape))+3, p.ComplexLen())
	got := make([]R, p.RealLen())
	require.NoError(t, p.Inverse(got, x))
	require.Less(t, fftref.LInfReal(toF64(got), c2rWant(ref, cfg)), fftref.Tolerance(prod(cfg.Shape), prec, false))
}

// BytePlan's real inverse is the same plan: FFTW's answer too, on bytes.
func TestC2RBytePlan(t *testing.T) {
	cfg := Config{Shape: []int{6, 9}, Batch: 2}
	p, err := NewBytePlan(testDev, cfg, ByteKind{Real: true})
	require.NoError(t, err)
	defer p.Close()
	x, ref := nonHermitian[complex64](69, 2*6*5)
	got := make([]float32, 2*6*9)
	src := unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), len(x)*8)
	dst := unsafe.Slice((*byte)(unsafe.Pointer(&got[0])), len(got)*4)
	require.NoError(t, p.Inverse(dst, src))
	require.Less(t, fftref.LInfReal(toF64(got), c2rWant(ref, cfg)), fftref.Tolerance(54, fftref.Single, false))
}

// fp16 storage projects its fp16 spectrum (on devices with fp16: not PoCL).
func TestC2RHalfStorage(t *testing.T) {
	if !testDev.info.HalfPrecision {
		t.Skipf("%s has no fp16", testDev.info.Name)
	}
	cfg := Config{Shape: []int{6, 8}, Batch: 2, Storage: StorageHalf}
	p := sharedRealPlan[float32, complex64](t, cfg)
	x, _ := nonHermitian[complex64](48, p.ComplexLen())
	ref := make([]complex128, len(x))
	for i, v := range x { // the reference sees the fp16 the device holds
		x[i] = complex(Float16From(real(v)).Float32(), Float16From(imag(v)).Float32())
		ref[i] = complex128(x[i])
	}
	got := make([]float32, p.RealLen())
	require.NoError(t, p.Inverse(got, x))
	require.Less(t, fftref.LInfReal(toF64(got), c2rWant(ref, cfg)), fftref.Tolerance(48, fftref.Half, false))
}

// Spectra larger than one kernel binding (Vulkan's maxStorageBufferRange) are projected
// in windows of a few slices and their mirrors: forced here with a small window limit,
// for a mirrored outer axis (even and odd lengths) and for a batch as the outer axis, with
// slices of 24 and 72 bytes too, whose windows start off Vulkan's offset alignment (16
// bytes on llvmpipe, up to 256 elsewhere: each window has room for that) and are aligned
// down.
func TestC2RWindowedLaunches(t *testing.T) {
	for _, tc := range []struct {
		shape  []int
		batch  int
		window uint64
	}{
		{[]int{40, 6}, 1, 3*4*8 + 256},      // rows of 32 bytes, a few per window
		{[]int{40, 5}, 1, 3*3*8 + 256},      // rows of 24 bytes
		{[]int{20, 4, 7}, 1, 2*4*4*8 + 256}, // slices of 4x4
		{[]int{4, 8}, 8, 2*4*5*8 + 256},     // the batch is the outer axis
		{[]int{3, 5}, 12, 2*3*3*8 + 256},    // batch slices of 72 bytes
	} {
		t.Run(fmt.Sprintf("%v/b%d", tc.shape, tc.batch), func(t *testing.T) {
			engine.SetHermWindowLimit(tc.window)
			cfg := Config{Shape: tc.shape, Batch: tc.batch}
			p, err := NewRealPlan[float32, complex64](testDev, cfg)
			engine.SetHermWindowLimit(0)
			require.NoError(t, err)
			defer p.Close()
			require.Greater(t, engine.PlanHermitianLaunches(p.p.h), 1, "the window limit splits the launches")
			x, ref := nonHermitian[complex64](uint64(tc.window), p.ComplexLen())
			got := make([]float32, p.RealLen())
			require.NoError(t, p.Inverse(got, x))
			require.Less(t, fftref.LInfReal(toF64(got), c2rWant(ref, cfg)), fftref.Tolerance(prod(tc.shape), fftref.Single, false))
		})
	}
}

// Plans of one storage type share the device's projection kernel: inverses from several
// goroutines at once (the OpenCL kernel keeps its arguments between set and launch).
func TestC2RConcurrentPlansShareKernel(t *testing.T) {
	cfgs := []Config{{Shape: []int{6, 8}, Batch: 2}, {Shape: []int{5, 7}}, {Shape: []int{4, 6, 10}}}
	plans := make([]*RealPlan[float32, complex64], len(cfgs))
	for i, cfg := range cfgs {
		plans[i] = sharedRealPlan[float32, complex64](t, cfg)
		require.NotNil(t, plans[i].p.herm)
		require.Equal(t, plans[0].p.herm, plans[i].p.herm, "one kernel per device and storage type")
	}
	var wg sync.WaitGroup
	errs := make([]error, len(cfgs))
	for i := range plans {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			p, cfg := plans[i], cfgs[i]
			x, ref := nonHermitian[complex64](uint64(i+100), p.ComplexLen())
			want := c2rWant(ref, cfg)
			got := make([]float32, p.RealLen())
			for r := 0; r < 20; r++ {
				if err := p.Inverse(got, x); err != nil {
					errs[i] = err
					return
				}
				if e := fftref.LInfReal(toF64(got), want); e > fftref.Tolerance(prod(cfg.Shape), fftref.Single, false) {
					errs[i] = fmt.Errorf("plan %v round %d: error %.3g", cfg.Shape, r, e)
					return
				}
			}
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
}
