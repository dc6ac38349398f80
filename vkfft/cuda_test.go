//go:build cgo && cuda

package vkfft

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/vkfft/internal/cudatest"
)

// CUDA-only tests: context discipline, caller streams and device pointers, free device
// memory across plan churn. The shared suite (the other _test.go files) runs on CUDA too.

func cuRandom(seed uint64, n int) []complex64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := make([]complex64, n)
	for i := range x {
		x[i] = complex(float32(rng.Float64()*2-1), float32(rng.Float64()*2-1))
	}
	return x
}

// cuDFT is a naive DFT of a batch of 1-D transforms (reference for small sizes).
func cuDFT(x []complex64, n int, inverse bool) []complex128 {
	out := make([]complex128, len(x))
	sign := -1.0
	if inverse {
		sign = 1
	}
	for b := 0; b < len(x)/n; b++ {
		for k := 0; k < n; k++ {
			var s complex128
			for j := 0; j < n; j++ {
				s += complex128(x[b*n+j]) * cmplx.Rect(1, sign*2*math.Pi*float64(j*k%n)/float64(n))
			}
			out[b*n+k] = s
		}
	}
	return out
}

func cuMaxRel[T Complex](got []T, want []complex128) float64 {
	var num, den float64
	for i := range want {
		num = max(num, cmplx.Abs(complex128(got[i])-want[i]))
		den = max(den, cmplx.Abs(want[i]))
	}
	return num / den
}

func cuMaxDiff(a, b []complex64) float64 {
	var m float64
	for i := range a {
		m = max(m, cmplx.Abs(complex128(a[i]-b[i])))
	}
	return m
}

// TestCUDAPrimaryContext: Open uses the GPU's primary context, the one the runtime API
// (CuPy, PyTorch) uses, and a second Open of the same ordinal shares it.
func TestCUDAPrimaryContext(t *testing.T) {
	d2, err := Open(0)
	require.NoError(t, err)
	defer d2.Close()
	require.NotZero(t, testDev.CUDAContext())
	require.Equal(t, testDev.CUDAContext(), d2.CUDAContext())
	require.NotEqual(t, testDev.CUDAStream(), d2.CUDAStream(), "each Device has its own stream")
	info := testDev.Info()
	require.Equal(t, CUDA, info.Backend)
	require.NotZero(t, info.ComputeMajor)
	t.Logf("%s, compute %d.%d, %s, %d MiB", info.Name, info.ComputeMajor, info.ComputeMinor, info.Driver,
		info.GlobalMemory>>20)
}

// TestCUDACallerContextUntouched plays a C host with its own context current on its thread:
// every entry point must leave it current, and leave "no context" alone as well.
func TestCUDACallerContextUntouched(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	own, err := cudatest.CreateContext(0)
	require.NoError(t, err)
	defer cudatest.DestroyContext(own)
	for _, current := range []uintptr{own, 0} {
		require.Zero(t, cudatest.SetCurrent(current))
		check := func(what string) {
			t.Helper()
			require.Equal(t, current, cudatest.CurrentContext(), "current context changed by %s", what)
		}
		d, err := Open(0)
		require.NoError(t, err)
		check("Open")
		p, err := NewPlan[complex64](d, Config{Shape: []int{64, 48}, Norm: NormOrtho})
		require.NoError(t, err)
		check("NewPlan")
		x := cuRandom(1, p.Len())
		y := make([]complex64, len(x))
		require.NoError(t, p.Forward(y, x))
		check("Forward")
		require.NoError(t, p.Inverse(y, y))
		check("Inverse")
		require.Less(t, cuMaxDiff(x, y), 1e-5)
		b, err := NewBuffer[complex64](d, p.Len())
		require.NoError(t, err)
		require.NoError(t, b.Upload(x))
		check("Upload")
		require.NoError(t, p.ForwardBuffer(b, b))
		check("ForwardBuffer")
		require.NoError(t, p.InversePtr(b.Ptr(), b.Ptr(), 0))
		check("InversePtr")
		require.NoError(t, d.Sync())
		check("Sync")
		require.NoError(t, b.Download(y))
		check("Download")
		require.Less(t, cuMaxDiff(x, y), 1e-5)
		_, err = d.FreeMemory()
		require.NoError(t, err)
		check("FreeMemory")
		require.NoError(t, b.Close())
		require.NoError(t, p.Close())
		check("Close plan")
		require.NoError(t, d.Close())
		check("Close device")
	}
}

// TestCUDAInterleavedContexts: two Devices in two different contexts (the primary one
// and one made by "the host"), plans of several shapes on each, driven from many
// goroutines at once. Memory of one context is invalid in the other, so a call that ran
// with the wrong context current would fail or give wrong numbers.
func TestCUDAInterleavedContexts(t *testing.T) {
	other, err := cudatest.CreateContext(0)
	require.NoError(t, err)
	defer cudatest.DestroyContext(other)
	devA, err := Open(0)
	require.NoError(t, err)
	defer devA.Close()
	devB, err := OpenContext(other)
	require.NoError(t, err)
	defer devB.Close()
	require.Equal(t, other, devB.CUDAContext())
	require.NotEqual(t, devA.CUDAContext(), devB.CUDAContext())

	type job struct {
		name string
		p    *Plan[complex64]
		b    *Buffer[complex64]
		x    []complex64
		want []complex64 // forward result from the host path, computed once
	}
	var jobs []*job
	for di, d := range []*Device{devA, devB} {
		for si, cfg := range []Config{
			{Shape: []int{16, 16, 16}},
			{Shape: []int{4096}, Batch: 4},
			{Shape: []int{120, 36}, Norm: NormOrtho},
		} {
			p, err := NewPlan[complex64](d, cfg)
			require.NoError(t, err)
			b, err := NewBuffer[complex64](d, p.Len())
			require.NoError(t, err)
			j := &job{name: fmt.Sprintf("dev%d/%v", di, cfg.Shape), p: p, b: b,
				x: cuRandom(uint64(10*di+si), p.Len())}
			j.want = make([]complex64, p.Len())
			require.NoError(t, p.Forward(j.want, j.x))
			jobs = append(jobs, j)
		}
	}
	// cross-check the two contexts against each other
	for i := 0; i < 3; i++ {
		a, b := jobs[i], jobs[i+3]
		got := make([]complex64, a.p.Len())
		require.NoError(t, b.p.Forward(got, a.x))
		require.Less(t, cuMaxDiff(got, a.want), 1e-4, "%s vs %s", a.name, b.name)
	}

	const goroutines, iters = 16, 40
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			got := make([]complex64, 4096*4)
			for i := 0; i < iters; i++ {
				j := jobs[(g+i)%len(jobs)]
				y := got[:j.p.Len()]
				var err error
				if (g+i)%2 == 0 {
					err = j.p.Forward(y, j.x)
				} else { // device path on a shared buffer: hold the job by its plan's order
					err = cuBufferForward(j.p, j.b, j.x, y)
				}
				if err != nil {
					errs <- fmt.Errorf("%s: %w", j.name, err)
					return
				}
				if d := cuMaxDiff(y, j.want); d > 1e-4 {
					errs <- fmt.Errorf("%s: goroutine %d iteration %d: off by %g", j.name, g, i, d)
					return
				}
				runtime.Gosched()
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

var cuBufMu sync.Map // *Buffer -> *sync.Mutex: a buffer's upload-run-download must not interleave

func cuBufferForward(p *Plan[complex64], b *Buffer[complex64], x, y []complex64) error {
	m, _ := cuBufMu.LoadOrStore(b, new(sync.Mutex))
	m.(*sync.Mutex).Lock()
	defer m.(*sync.Mutex).Unlock()
	if err := b.Upload(x); err != nil {
		return err
	}
	if err := p.ForwardBuffer(b, b); err != nil {
		return err
	}
	return b.Download(y)
}

// TestCUDAPointersOnCallerStream: transforms on raw device pointers on a stream the
// caller made, in place and out of place, with every normalisation (the scaling kernel
// runs on that stream too), single and double precision, C2C and R2C.
func TestCUDAPointersOnCallerStream(t *testing.T) {
	d := testDev
	s, err := cudatest.CreateStream(d.CUDAContext())
	require.NoError(t, err)
	defer cudatest.DestroyStream(d.CUDAContext(), s)

	const n, batch = 256, 3
	for _, norm := range []Norm{NormBackward, NormOrtho, NormForward} {
		t.Run("c64/"+norm.String(), func(t *testing.T) {
			p, err := NewPlan[complex64](d, Config{Shape: []int{n}, Batch: batch, Norm: norm})
			require.NoError(t, err)
			defer p.Close()
			x := cuRandom(3, p.Len())
			src, err := NewBuffer[complex64](d, p.Len())
			require.NoError(t, err)
			defer src.Close()
			dst, err := NewBuffer[complex64](d, p.Len())
			require.NoError(t, err)
			defer dst.Close()
			require.NoError(t, src.Upload(x))
			// out of place: src must survive
			require.NoError(t, p.ForwardPtr(dst.Ptr(), src.Ptr(), s))
			require.NoError(t, cudatest.SyncStream(d.CUDAContext(), s))
			got := make([]complex64, p.Len())
			require.NoError(t, dst.Download(got))
			want := cuDFT(x, n, false)
			fwd, inv := 1.0, 1.0/n
			switch norm {
			case NormOrtho:
				fwd, inv = 1/math.Sqrt(n), 1/math.Sqrt(n)
			case NormForward:
				fwd, inv = 1.0/n, 1
			}
			for i := range want {
				want[i] *= complex(fwd, 0)
			}
			require.Less(t, cuMaxRel(got, want), 2e-6)
			back := make([]complex64, p.Len())
			require.NoError(t, src.Download(back))
			require.Equal(t, x, back, "out-of-place source changed")
			// in place, inverse
			require.NoError(t, p.InversePtr(dst.Ptr(), dst.Ptr(), s))
			require.NoError(t, cudatest.SyncStream(d.CUDAContext(), s))
			require.NoError(t, dst.Download(back))
			require.Less(t, cuMaxDiff(back, x), 2e-6)
			_ = inv
		})
	}
	t.Run("c128/forward-norm", func(t *testing.T) {
		p, err := NewPlan[complex128](d, Config{Shape: []int{8, n}, Norm: NormForward})
		require.NoError(t, err)
		defer p.Close()
		x64 := cuRandom(4, p.Len())
		x := make([]complex128, len(x64))
		for i := range x {
			x[i] = complex128(x64[i])
		}
		b, err := NewBuffer[complex128](d, p.Len())
		require.NoError(t, err)
		defer b.Close()
		require.NoError(t, b.Upload(x))
		require.NoError(t, p.ForwardPtr(b.Ptr(), b.Ptr(), s))
		require.NoError(t, p.InversePtr(b.Ptr(), b.Ptr(), s))
		require.NoError(t, cudatest.SyncStream(d.CUDAContext(), s))
		got := make([]complex128, len(x))
		require.NoError(t, b.Download(got))
		var m float64
		for i := range x {
			m = max(m, cmplx.Abs(got[i]-x[i]))
		}
		require.Less(t, m, 1e-13)
	})
	t.Run("r2c", func(t *testing.T) {
		p, err := NewRealPlan[float32, complex64](d, Config{Shape: []int{32, 64}, Batch: 2})
		require.NoError(t, err)
		defer p.Close()
		rng := rand.New(rand.NewPCG(5, 5))
		x := make([]float32, p.RealLen())
		for i := range x {
			x[i] = float32(rng.Float64())
		}
		want := make([]complex64, p.ComplexLen())
		require.NoError(t, p.Forward(want, x))
		rb, err := NewBuffer[float32](d, p.RealLen())
		require.NoError(t, err)
		defer rb.Close()
		cb, err := NewBuffer[complex64](d, p.ComplexLen())
		require.NoError(t, err)
		defer cb.Close()
		require.NoError(t, rb.Upload(x))
		require.NoError(t, p.ForwardPtr(cb.Ptr(), rb.Ptr(), s))
		require.NoError(t, cudatest.SyncStream(d.CUDAContext(), s))
		got := make([]complex64, p.ComplexLen())
		require.NoError(t, cb.Download(got))
		require.Less(t, cuMaxDiff(got, want), 1e-4)
		require.NoError(t, p.InversePtr(rb.Ptr(), cb.Ptr(), s))
		require.NoError(t, cudatest.SyncStream(d.CUDAContext(), s))
		back := make([]float32, len(x))
		require.NoError(t, rb.Download(back))
		for i := range x {
			require.InDelta(t, x[i], back[i], 1e-5)
		}
	})
	t.Run("errors", func(t *testing.T) {
		p, err := NewPlan[complex64](d, Config{Shape: []int{n}})
		require.NoError(t, err)
		require.ErrorIs(t, p.ForwardPtr(0, 0, s), ErrNilBuffer)
		require.NoError(t, p.Close())
		require.ErrorIs(t, p.ForwardPtr(1, 1, s), ErrClosed)
	})
}

// TestCUDAPlanChurnDoesNotLeak: free device memory (cuMemGetInfo) stays flat across many
// round trips and many plan and buffer create/close cycles. VKFFTGO_LEAK_ROUNDS sets
// the number of round trips (default 200); a plan is made and closed every 50.
func TestCUDAPlanChurnDoesNotLeak(t *testing.T) {
	rounds := 200
	if n, err := strconv.Atoi(os.Getenv("VKFFTGO_LEAK_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	d, err := Open(0)
	require.NoError(t, err)
	defer d.Close()
	cfg := Config{Shape: []int{64, 64, 64}}
	p, err := NewPlan[complex64](d, cfg)
	require.NoError(t, err)
	defer p.Close()
	x := cuRandom(9, p.Len())
	y := make([]complex64, len(x))
	churn := func() {
		q, err := NewPlan[complex64](d, Config{Shape: []int{32, 32, 32}, Norm: NormOrtho})
		require.NoError(t, err)
		b, err := NewBuffer[complex64](d, q.Len())
		require.NoError(t, err)
		require.NoError(t, q.ForwardBuffer(b, b))
		require.NoError(t, b.Close())
		require.NoError(t, q.Close())
	}
	round := func(i int) {
		require.NoError(t, p.Forward(y, x))
		require.NoError(t, p.Inverse(y, y))
		if i%50 == 0 {
			churn()
		}
	}
	for i := 1; i <= 10; i++ { // warm-up
		round(i)
	}
	churn()
	require.NoError(t, d.Sync())
	free0, total, err := d.MemInfo()
	require.NoError(t, err)
	stats0 := d.MemStats()
	for i := 1; i <= rounds; i++ {
		round(i)
	}
	require.NoError(t, d.Sync())
	free1, _, err := d.MemInfo()
	require.NoError(t, err)
	require.Less(t, cuMaxDiff(x, y), 1e-5)
	drift := int64(free0) - int64(free1)
	t.Logf("%d round trips + %d plan create/close: cuMemGetInfo free %d -> %d bytes (drift %d bytes, total %d MiB); live allocations %d -> %d",
		rounds, rounds/50, free0, free1, drift, total>>20, stats0.LiveAllocations, d.MemStats().LiveAllocations)
	require.Equal(t, stats0.LiveAllocations, d.MemStats().LiveAllocations)
	require.LessOrEqual(t, max(drift, -drift), int64(1<<20), "free device memory moved by %d bytes", drift)
}
