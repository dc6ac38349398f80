package vkfft

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLeaseHasEveryPlanMethod: a lease offers every exported method of its plan type
// (Close excepted: Release does it), with the same signature, so code written against
// a plan works on a lease.
func TestLeaseHasEveryPlanMethod(t *testing.T) {
	for _, tc := range []struct {
		plan, lease reflect.Type
	}{
		{reflect.TypeFor[*Plan[complex64]](), reflect.TypeFor[PlanLease[complex64]]()},
		{reflect.TypeFor[*RealPlan[float64, complex128]](), reflect.TypeFor[RealPlanLease[float64, complex128]]()},
		{reflect.TypeFor[*BytePlan](), reflect.TypeFor[BytePlanLease]()},
	} {
		for i := 0; i < tc.plan.NumMethod(); i++ {
			m := tc.plan.Method(i)
			if m.Name == "Close" {
				continue
			}
			lm, ok := tc.lease.MethodByName(m.Name)
			require.True(t, ok, "%v lacks %s", tc.lease, m.Name)
			// compare without the receiver
			want, got := m.Type, lm.Type
			require.Equal(t, want.NumIn(), got.NumIn(), "%v.%s", tc.lease, m.Name)
			for j := 1; j < want.NumIn(); j++ {
				require.Equal(t, want.In(j), got.In(j), "%v.%s argument %d", tc.lease, m.Name, j)
			}
			require.Equal(t, want.NumOut(), got.NumOut(), "%v.%s", tc.lease, m.Name)
			for j := 0; j < want.NumOut(); j++ {
				require.Equal(t, want.Out(j), got.Out(j), "%v.%s result %d", tc.lease, m.Name, j)
			}
		}
	}
}

// TestLeaseMethodsAfterRelease: the methods added to leases work on a held lease and
// return ErrClosed (or zero values) once it is released.
func TestLeaseMethodsAfterRelease(t *testing.T) {
	cfg := Config{Shape: []int{16, 6}}
	l, err := CachedPlan[complex64](testDev, cfg)
	require.NoError(t, err)
	require.Equal(t, cfg.Shape, l.Config().Shape)
	in, out := l.Spans()
	require.Equal(t, 96, in)
	require.Equal(t, 96, out)
	b, err := NewBuffer[complex64](testDev, l.Len())
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, l.ForwardNative(b.Native(), b.Native()))
	require.NoError(t, l.InverseNative(b.Native(), b.Native()))
	l.Release()
	require.Zero(t, l.Config().Shape)
	require.ErrorIs(t, l.ForwardNative(b.Native(), b.Native()), ErrClosed)
	require.ErrorIs(t, l.InverseHalf(nil, nil), ErrClosed)
	require.ErrorIs(t, l.ForwardAsync(nil, nil, nil), ErrClosed)

	rl, err := CachedRealPlan[float32, complex64](testDev, Config{Shape: []int{16}})
	require.NoError(t, err)
	require.Equal(t, 16, rl.RealLen())
	require.Equal(t, 9, rl.ComplexLen())
	rl.Release()
	require.Zero(t, rl.RealLen())
	require.ErrorIs(t, rl.ForwardInPlace(nil), ErrClosed)
}

// TestRealPlanPairs: the named pairings build plans of the right precision, and the
// mismatched generic form is refused at run time, as documented.
func TestRealPlanPairs(t *testing.T) {
	p32, err := NewRealPlan32(testDev, Config{Shape: []int{16}})
	require.NoError(t, err)
	require.Equal(t, 9, p32.ComplexLen())
	require.NoError(t, p32.Close())
	_, err = NewRealPlan[float32, complex128](testDev, Config{Shape: []int{16}})
	require.ErrorIs(t, err, ErrPrecision)
}

// TestLeaseCallsAllocateNothing: a leased plan's per-call path is its plan's, plus a
// check of the lease: no allocation either.
func TestLeaseCallsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	cfg := Config{Shape: []int{16, 6}}
	l, err := CachedPlan[complex64](testDev, cfg)
	require.NoError(t, err)
	defer l.Release()
	rl, err := CachedRealPlan[float32, complex64](testDev, Config{Shape: []int{16}})
	require.NoError(t, err)
	defer rl.Release()
	bl, err := CachedBytePlan(testDev, cfg, ByteKind{})
	require.NoError(t, err)
	defer bl.Release()

	x := make([]complex64, l.Len())
	r := make([]float32, rl.RealLen())
	c := make([]complex64, rl.ComplexLen())
	bx, err := NewBuffer[complex64](testDev, l.Len())
	require.NoError(t, err)
	defer bx.Close()
	dst, src := bl.ForwardBytes()
	bdst, bsrc := make([]byte, dst), make([]byte, src)

	for _, call := range []struct {
		name string
		f    func() error
	}{
		{"PlanLease.Forward", func() error { return l.Forward(x, x) }},
		{"PlanLease.InverseBuffer", func() error { return l.InverseBuffer(bx, bx) }},
		{"PlanLease.ForwardNative", func() error { return l.ForwardNative(bx.Native(), bx.Native()) }},
		{"RealPlanLease.Forward", func() error { return rl.Forward(c, r) }},
		{"RealPlanLease.Inverse", func() error { return rl.Inverse(r, c) }},
		{"BytePlanLease.Forward", func() error { return bl.Forward(bdst, bsrc) }},
	} {
		t.Run(call.name, func(t *testing.T) {
			require.NoError(t, call.f()) // warm-up
			var err error
			allocs := testing.AllocsPerRun(20, func() {
				if e := call.f(); e != nil {
					err = e
				}
			})
			require.NoError(t, err)
			require.Zero(t, allocs, "%s allocates %.1f times per call", call.name, allocs)
		})
	}
	require.NoError(t, testDev.Sync())
}
