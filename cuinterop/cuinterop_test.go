//go:build cgo && cuda

package cuinterop

import (
	"math"
	"math/cmplx"
	"runtime"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"github.com/vkfftgo/vkfftgo/vkfft"
	"gorgonia.org/cu"
)

func dft(x []complex64, inverse bool) []complex128 {
	n := len(x)
	out := make([]complex128, n)
	sign := -1.0
	if inverse {
		sign = 1
	}
	for k := range out {
		for j := range x {
			out[k] += complex128(x[j]) * cmplx.Rect(1, sign*2*math.Pi*float64(j*k%n)/float64(n))
		}
	}
	return out
}

func input(n int) []complex64 {
	x := make([]complex64, n)
	for i := range x {
		x[i] = complex(float32(math.Sin(float64(i)*0.37)), float32(math.Cos(float64(i)*1.1)))
	}
	return x
}

// run does an out-of-place forward (src kept) and an in-place inverse on memory that
// gorgonia allocated, on a gorgonia stream, in ctx (current on this thread), and checks
// the numbers, and that ctx is still current afterwards.
func run(t *testing.T, dev *vkfft.Device, ctx cu.CUContext) {
	const n = 512
	p, err := vkfft.NewPlan[complex64](dev, vkfft.Config{Shape: []int{n}})
	require.NoError(t, err)
	defer p.Close()
	x := input(n)
	bytes := int64(n * 8)
	src, err := cu.MemAlloc(bytes)
	require.NoError(t, err)
	defer cu.MemFree(src)
	dst, err := cu.MemAlloc(bytes)
	require.NoError(t, err)
	defer cu.MemFree(dst)
	s, err := cu.MakeStream(cu.NonBlocking)
	require.NoError(t, err)
	defer s.Destroy()
	require.NoError(t, cu.MemcpyHtoD(src, unsafe.Pointer(&x[0]), bytes))

	require.NoError(t, Forward(p, dst, src, s))
	require.NoError(t, s.Synchronize())
	got := make([]complex64, n)
	require.NoError(t, cu.MemcpyDtoH(unsafe.Pointer(&got[0]), dst, bytes))
	want := dft(x, false)
	var e, m float64
	for i := range want {
		e = max(e, cmplx.Abs(complex128(got[i])-want[i]))
		m = max(m, cmplx.Abs(want[i]))
	}
	require.Less(t, e/m, 2e-6, "forward")
	back := make([]complex64, n)
	require.NoError(t, cu.MemcpyDtoH(unsafe.Pointer(&back[0]), src, bytes))
	require.Equal(t, x, back, "out-of-place source changed")

	require.NoError(t, Inverse(p, dst, dst, s))
	require.NoError(t, s.Synchronize())
	require.NoError(t, cu.MemcpyDtoH(unsafe.Pointer(&back[0]), dst, bytes))
	for i := range x {
		require.Less(t, cmplx.Abs(complex128(back[i]-x[i])), 1e-5)
	}
	cur, err := cu.CurrentContext()
	require.NoError(t, err)
	require.Equal(t, Context(ctx), Context(cur), "the caller's context is no longer current")
}

// TestPrimaryContext: gorgonia memory in the primary context, vkfft.Open's device.
func TestPrimaryContext(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	d, err := cu.GetDevice(0)
	require.NoError(t, err)
	ctx, err := d.RetainPrimaryCtx()
	require.NoError(t, err)
	defer d.ReleasePrimaryCtx()
	require.NoError(t, cu.SetCurrentContext(ctx))
	dev, err := vkfft.Open(0)
	require.NoError(t, err)
	defer dev.Close()
	require.Equal(t, Context(ctx), dev.CUDAContext())
	run(t, dev, ctx)
}

// TestOwnContext: a context gorgonia created (not the primary one), opened with OpenContext.
func TestOwnContext(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	d, err := cu.GetDevice(0)
	require.NoError(t, err)
	ctx, err := d.MakeContext(cu.SchedAuto) // current on this thread
	require.NoError(t, err)
	defer ctx.Destroy()
	dev, err := OpenContext(ctx)
	require.NoError(t, err)
	defer dev.Close()
	require.Equal(t, Context(ctx), dev.CUDAContext())
	run(t, dev, ctx)
}

// TestBufferPtr: a vkfft Buffer used through gorgonia's copies.
func TestBufferPtr(t *testing.T) {
	dev, err := vkfft.Open(0)
	require.NoError(t, err)
	defer dev.Close()
	b, err := vkfft.NewBuffer[complex64](dev, 64)
	require.NoError(t, err)
	defer b.Close()
	require.NotZero(t, DevicePtr(b))
	require.Zero(t, Stream(cu.NoStream))
}
