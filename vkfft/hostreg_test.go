package vkfft

import (
	"math/rand/v2"
	"runtime/debug"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// mmapBytes is memory outside the Go heap, as a C caller's or an mmap'd file's.
func mmapBytes(t *testing.T, n int) []byte {
	t.Helper()
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	require.NoError(t, err)
	t.Cleanup(func() { syscall.Munmap(b) })
	return b
}

// asComplex64 views bytes as complex64 values.
func asComplex64(b []byte) []complex64 {
	return unsafe.Slice((*complex64)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/8)
}

var goGlobal [4096]byte

// goManaged tells Go memory (heap, globals) from memory the runtime does not manage.
func TestGoManaged(t *testing.T) {
	heap := make([]byte, 1<<16)
	small := new(int64)
	mapped := mmapBytes(t, 1<<16)
	require.True(t, goManaged(unsafe.Pointer(&heap[0])))
	require.True(t, goManaged(unsafe.Pointer(&heap[len(heap)-1])))
	require.True(t, goManaged(unsafe.Pointer(small)))
	require.True(t, goManaged(unsafe.Pointer(&goGlobal[100])))
	require.False(t, goManaged(unsafe.Pointer(&mapped[0])))
	require.False(t, goManaged(unsafe.Pointer(&mapped[len(mapped)-1])))
}

// Registered memory: host transforms on it are correct and skip staging (no stager is
// made even with staging on for every size), while the same transform on ordinary
// memory is staged; Go memory and overlaps are refused; Close and the device's Close
// undo the registration.
func TestRegisterHost(t *testing.T) {
	d, err := Open(0)
	require.NoError(t, err)
	defer d.Close()
	d.SetStagingThreshold(0) // stage every pageable transfer
	p, err := NewBytePlan(d, Config{Shape: []int{32, 48}, Batch: 2}, ByteKind{})
	require.NoError(t, err)
	n := p.ComplexBytes()

	mem := mmapBytes(t, int(3*n))
	reg, err := d.RegisterHost(mem[:2*n])
	require.NoError(t, err)
	require.Equal(t, 2*n, reg.Bytes())
	src, dst := mem[:n], mem[n:2*n]
	rng := rand.New(rand.NewPCG(21, 22))
	x, _ := randomComplex[complex64](rng, int(n/8))
	copy(asComplex64(src), x)
	require.NoError(t, p.Forward(dst, src))
	require.NoError(t, p.Inverse(dst, dst))
	require.Zero(t, d.staging.staged.Load(), "a transform on registered memory went through a stager")
	require.Less(t, relErr(asComplex64(dst), toC128(x)), 1e-6)

	// control: ordinary memory with the same threshold is staged
	plain := make([]byte, n)
	plainSrc := append([]byte(nil), src...)
	require.NoError(t, p.Forward(plain, plainSrc))
	require.Equal(t, int64(1), d.staging.staged.Load(), "ordinary memory was not staged: the check above proves nothing")

	// refused: Go memory, empty memory, overlaps, a partly registered range
	_, err = d.RegisterHost(make([]byte, 4096))
	require.ErrorIs(t, err, ErrInvalidArgument)
	require.ErrorContains(t, err, "Go memory")
	_, err = d.RegisterHost(goGlobal[:])
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = d.RegisterHost(mem[:0])
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = d.RegisterHost(mem[n : 3*n])
	require.ErrorContains(t, err, "overlaps")

	// unregistered, the same memory is ordinary memory again
	require.NoError(t, reg.Close())
	require.NoError(t, reg.Close())
	require.False(t, d.pinned.contains(unsafe.Pointer(&mem[0]), n))
	reg2, err := d.RegisterHost(mem[n : 3*n]) // no overlap now
	require.NoError(t, err)
	require.True(t, d.pinned.contains(unsafe.Pointer(&mem[n]), 2*n))
	require.NoError(t, d.Close()) // releases reg2 and the plan
	require.NoError(t, reg2.Close())
	require.Empty(t, d.pinned.ranges)
	_, err = d.RegisterHost(mem)
	require.ErrorIs(t, err, ErrClosed)
}

// A slice taken from a HostBuffer before its Close: every call of the package given it
// returns ErrClosed (it used to read or write freed memory), touching it directly faults
// instead of reaching other memory, and later HostBuffers never reuse its addresses.
func TestHostBufferSliceAfterClose(t *testing.T) {
	cfg := Config{Shape: []int{128}, Batch: 4}
	p := sharedPlan[complex64](t, cfg)
	rng := rand.New(rand.NewPCG(41, 42))
	x, _ := randomComplex[complex64](rng, p.Len())
	hb, err := NewHostBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	stale := hb.Slice()
	copy(stale, x)
	require.NoError(t, hb.Close())
	require.Nil(t, hb.Slice())

	y := make([]complex64, p.Len())
	require.ErrorIs(t, p.Forward(y, stale), ErrClosed, "stale src")
	require.ErrorIs(t, p.Inverse(stale, x), ErrClosed, "stale dst")
	buf, err := NewBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer buf.Close()
	require.ErrorIs(t, buf.Upload(stale), ErrClosed)
	require.ErrorIs(t, buf.Download(stale), ErrClosed)
	pl, err := NewPipeline[complex64](testDev, cfg, 2)
	require.NoError(t, err)
	defer pl.Close()
	require.ErrorIs(t, pl.Forward(stale, x), ErrClosed)

	fresh, err := NewHostBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer fresh.Close()
	a, n := uintptr(unsafe.Pointer(&stale[0])), uintptr(len(stale))*8
	b := uintptr(unsafe.Pointer(&fresh.Slice()[0]))
	require.False(t, b < a+n && a < b+n, "a new HostBuffer reuses a closed one's addresses")
	require.NoError(t, p.Forward(fresh.Slice(), x), "ordinary use goes on")

	var faulted any
	func() {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() { faulted = recover() }()
		faultSink = stale[0]
	}()
	require.NotNil(t, faulted, "reading a closed HostBuffer's memory must fault")
}

// faultSink keeps the compiler from dropping the read that must fault.
var faultSink complex64
