package vkfft

import (
	"flag"
	"fmt"
	"iter"
	"os"
	"sync"
	"testing"
)

// testDev is one device shared by the whole test binary: opening a context per test
// would dominate the run time on PoCL.
var testDev *Device

func TestMain(m *testing.M) {
	if CurrentBackend() == NoBackend {
		// CGO_ENABLED=0: there is no device; only the no-backend contract can be tested.
		flag.Parse()
		flag.Set("test.run", "^TestNoBackend$")
		os.Exit(m.Run())
	}
	// Tests must not read or fill the user's kernel cache.
	dir, err := os.MkdirTemp("", "vkfftgo-test-cache")
	if err == nil {
		os.Setenv("VKFFTGO_CACHE_DIR", dir)
	}
	// The pool tests need several devices. PoCL lists its CPU driver as often as
	// POCL_DEVICES names it, read when OpenCL starts: two identical devices (0 and 1),
	// so CI runs them too. Other OpenCL drivers ignore the variable.
	if CurrentBackend() == OpenCL && os.Getenv("POCL_DEVICES") == "" {
		os.Setenv("POCL_DEVICES", "pthread pthread")
	}
	testDev, err = Open(0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vkfft tests need a device (PoCL on a CPU machine: make setup):", err)
		os.Exit(1)
	}
	code := m.Run()
	testDev.Close()
	if dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// Plans are shared across test cases: building one costs 1–2 s on PoCL.
var (
	sharedMu    sync.Mutex
	sharedPlans = map[string]any{}
)

func sharedKey[T any](cfg Config) string {
	var z T
	return fmt.Sprintf("%T|%+v", z, cfg) // every field: plans differing in any of them differ
}

// sharedPlan returns a C2C plan for cfg, built once per test binary.
func sharedPlan[T Complex](t testing.TB, cfg Config) *Plan[T] {
	t.Helper()
	sharedMu.Lock()
	defer sharedMu.Unlock()
	k := "c2c|" + sharedKey[T](cfg)
	if p, ok := sharedPlans[k]; ok {
		return p.(*Plan[T])
	}
	p, err := NewPlan[T](testDev, cfg)
	if err != nil {
		t.Fatalf("NewPlan(%+v): %v", cfg, err)
	}
	sharedPlans[k] = p
	return p
}

// sharedRealPlan returns an R2C plan for cfg, built once per test binary.
func sharedRealPlan[R Real, C Complex](t testing.TB, cfg Config) *RealPlan[R, C] {
	t.Helper()
	sharedMu.Lock()
	defer sharedMu.Unlock()
	k := "r2c|" + sharedKey[R](cfg)
	if p, ok := sharedPlans[k]; ok {
		return p.(*RealPlan[R, C])
	}
	p, err := NewRealPlan[R, C](testDev, cfg)
	if err != nil {
		t.Fatalf("NewRealPlan(%+v): %v", cfg, err)
	}
	sharedPlans[k] = p
	return p
}

// sharedR2RPlan returns a real-to-real plan for cfg and kind, built once per test binary.
func sharedR2RPlan[T Real](t testing.TB, cfg Config, kind R2RKind) *R2RPlan[T] {
	t.Helper()
	sharedMu.Lock()
	defer sharedMu.Unlock()
	k := fmt.Sprintf("r2r|%v|", kind) + sharedKey[T](cfg)
	if p, ok := sharedPlans[k]; ok {
		return p.(*R2RPlan[T])
	}
	p, err := NewR2RPlan[T](testDev, cfg, kind)
	if err != nil {
		t.Fatalf("NewR2RPlan(%+v, %v): %v", cfg, kind, err)
	}
	sharedPlans[k] = p
	return p
}

// sweepCases yields the cases of a parameter sweep this test binary runs, with their index in
// cases: all of them in the plain run, which checks their numbers, and every other one
// under AddressSanitizer or cgocheck2 — several times slower, and there for memory and
// pointer errors in code the cases of a sweep share.
func sweepCases[T any](cases []T) iter.Seq2[int, T] {
	step := 1
	if sanitized {
		step = 2
	}
	return func(yield func(int, T) bool) {
		for i := 0; i < len(cases); i += step {
			if !yield(i, cases[i]) {
				return
			}
		}
	}
}

// sweepPrecisions says in which precisions case i of a sweep that compares two plans
// runs: both under -full; otherwise one, single and double in turn by pairs (single,
// double, double, single, …), so that each meets every kind of case, in the plain run
// and in the sanitized run's every other case alike. What such a sweep checks (slabs,
// shards, expansion) depends on the element size only through code both precisions
// share, and each precision's plans are kernels of their own for PoCL to compile, about
// half a second each from an empty cache.
// A device without double precision runs every case in single.
func sweepPrecisions(i int) (single, double bool) {
	if !testDev.Info().DoublePrecision {
		return true, false
	}
	if *fullSweep {
		return true, true
	}
	single = i%4 == 0 || i%4 == 3
	return single, !single
}

// runPrecisions runs case i of such a sweep as subtests in the precisions
// sweepPrecisions gives it.
func runPrecisions(t *testing.T, i int, singleName string, single func(*testing.T), doubleName string, double func(*testing.T)) {
	t.Helper()
	s, d := sweepPrecisions(i)
	if s {
		t.Run(singleName, single)
	}
	if d {
		t.Run(doubleName, double)
	}
}
