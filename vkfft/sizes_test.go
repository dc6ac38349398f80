package vkfft

// Sizes that once took the whole process down on PoCL (a segmentation fault on a PoCL
// worker thread: VkFFT's largest work-groups overflowed its stack, see vkg_plan_create),
// each run in a child process so that a crash fails one case instead of the test binary.
// Three of the listed cases run always; -full adds the others and a sweep around each.

import (
	"flag"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var fullSweep = flag.Bool("full", false, "run the long sweeps: sizes around those that crashed PoCL, both precisions of every case")

// envSizeCase names the case a child process runs (TestSizeCaseChild).
const envSizeCase = "VKFFTGO_SIZE_CASE"

// sizeCase is one transform: kind c64, c128, r32 or r64, a shape and a batch.
type sizeCase struct {
	kind  string
	shape []int
	batch int
}

func (c sizeCase) String() string {
	dims := make([]string, len(c.shape))
	for i, d := range c.shape {
		dims[i] = strconv.Itoa(d)
	}
	return fmt.Sprintf("%s:%s:%d", c.kind, strings.Join(dims, "x"), c.batch)
}

func parseSizeCase(s string) (sizeCase, error) {
	f := strings.Split(s, ":")
	if len(f) != 3 {
		return sizeCase{}, fmt.Errorf("size case %q: want kind:shape:batch", s)
	}
	c := sizeCase{kind: f[0]}
	for _, d := range strings.Split(f[1], "x") {
		n, err := strconv.Atoi(d)
		if err != nil {
			return c, err
		}
		c.shape = append(c.shape, n)
	}
	var err error
	c.batch, err = strconv.Atoi(f[2])
	return c, err
}

// crashedOnPoCL are the transforms of the size sweep that crashed. Each kind's largest
// work-groups (the cause) run by default, the rest with -full: every case is a child
// process compiling VkFFT's biggest kernels, a quarter minute each on PoCL.
var crashedOnPoCL = []sizeCase{
	{"c64", []int{1055744}, 1},
	{"c128", []int{4391, 8}, 1},
	{"r64", []int{79658}, 1},
}

// crashedOnPoCLFull are the other transforms that crashed (-full).
var crashedOnPoCLFull = []sizeCase{
	{"c64", []int{262144}, 1},
	{"c64", []int{161051}, 1}, // 11^5
	{"c64", []int{65984}, 1},
	{"c64", []int{4391, 8}, 1},
	{"c128", []int{1055744}, 1},
	{"r32", []int{79658}, 1},
}

func allCrashedOnPoCL() []sizeCase {
	return append(append([]sizeCase(nil), crashedOnPoCL...), crashedOnPoCLFull...)
}

// aroundCrashes: each case's last axis moved by -3..+3, and the 2-D ones transposed.
func aroundCrashes() []sizeCase {
	var out []sizeCase
	for _, c := range allCrashedOnPoCL() {
		for delta := -3; delta <= 3; delta++ {
			if delta == 0 {
				continue
			}
			s := append([]int(nil), c.shape...)
			s[0] += delta
			out = append(out, sizeCase{c.kind, s, c.batch})
		}
		if len(c.shape) == 2 {
			out = append(out, sizeCase{c.kind, []int{c.shape[1], c.shape[0]}, c.batch})
		}
	}
	return out
}

func TestSizesThatCrashedPoCL(t *testing.T) {
	cases := crashedOnPoCL
	if *fullSweep {
		cases = allCrashedOnPoCL()
	}
	runSizeCases(t, cases)
}

func TestSizesAroundPoCLCrashes(t *testing.T) {
	if !*fullSweep {
		t.Skip("a long sweep: run with -full")
	}
	runSizeCases(t, aroundCrashes())
}

// A host whose threads get a small default stack (ulimit -s 1024) still runs the largest
// of them: PoCL's worker threads are given a larger stack of their own.
func TestSizesWithSmallThreadStacks(t *testing.T) {
	if !*fullSweep {
		t.Skip("a long case: run with -full")
	}
	if CurrentBackend() != OpenCL {
		t.Skip("the worker-stack setting is PoCL's")
	}
	out, err := runSizeChild(sizeCase{"c64", []int{1055744}, 1}, "ulimit -s 1024; ")
	require.NoError(t, err, "%s", out)
}

func runSizeCases(t *testing.T, cases []sizeCase) {
	if sanitized {
		t.Skip("child processes of VkFFT's largest plans: the plain run covers them")
	}
	for _, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			out, err := runSizeChild(c, "")
			require.NoError(t, err, "the child process failed (a crash is a signal here):\n%s", out)
		})
	}
}

// runSizeChild runs one case in a child process of this test binary; shellPrefix runs
// first in a shell around it (e.g. a ulimit).
func runSizeChild(c sizeCase, shellPrefix string) (string, error) {
	args := []string{"-test.run=^TestSizeCaseChild$", "-test.count=1", "-test.v"}
	var cmd *exec.Cmd
	if shellPrefix != "" {
		cmd = exec.Command("/bin/sh", append([]string{"-c", shellPrefix + `exec "$0" "$@"`, os.Args[0]}, args...)...)
	} else {
		cmd = exec.Command(os.Args[0], args...)
	}
	// PoCL's default work-group specialisation: these sizes crashed with it (the
	// Makefile turns it off for the other tests, to compile each kernel once).
	cmd.Env = append(os.Environ(), envSizeCase+"="+c.String(), "POCL_WORK_GROUP_SPECIALIZATION=1")
	out, err := cmd.CombinedOutput()
	if err == nil && !strings.Contains(string(out), "--- PASS: TestSizeCaseChild") {
		err = fmt.Errorf("the child did not run the case")
	}
	return string(out), err
}

// TestSizeCaseChild is the child's side: one transform each way, checked against the
// float64 reference.
func TestSizeCaseChild(t *testing.T) {
	spec := os.Getenv(envSizeCase)
	if spec == "" {
		t.Skip("runs in a child process of TestSizes*")
	}
	c, err := parseSizeCase(spec)
	require.NoError(t, err)
	cfg := Config{Shape: c.shape, Batch: c.batch}
	rng := rand.New(rand.NewPCG(uint64(len(spec)), 7))
	switch c.kind {
	case "c64":
		checkComplexCase[complex64](t, rng, cfg, tolSingle)
	case "c128":
		checkComplexCase[complex128](t, rng, cfg, tolDouble)
	case "r32":
		checkRealCase[float32, complex64](t, rng, cfg, tolSingle)
	case "r64":
		checkRealCase[float64, complex128](t, rng, cfg, tolDouble)
	default:
		t.Fatalf("unknown kind %q", c.kind)
	}
}

func checkComplexCase[T Complex](t *testing.T, rng *rand.Rand, cfg Config, tol float64) {
	p, err := NewPlan[T](testDev, cfg)
	require.NoError(t, err)
	defer p.Close()
	x, x64 := randomComplex[T](rng, p.Len())
	y := make([]T, p.Len())
	require.NoError(t, p.Forward(y, x))
	checkSpectrum(t, rng, y, x64, cfg, tol)
	require.NoError(t, p.Inverse(y, y))
	require.Less(t, relErr(y, x64), tol, "round trip")
}

func checkRealCase[R Real, C Complex](t *testing.T, rng *rand.Rand, cfg Config, tol float64) {
	p, err := NewRealPlan[R, C](testDev, cfg)
	require.NoError(t, err)
	defer p.Close()
	x, x64 := randomReal[R](rng, p.RealLen())
	spec := make([]C, p.ComplexLen())
	require.NoError(t, p.Forward(spec, x))
	full := make([]complex128, len(x64))
	for i, v := range x64 {
		full[i] = complex(v, 0)
	}
	checkSpectrum(t, rng, spec, full, cfg, tol)
	back := make([]R, p.RealLen())
	require.NoError(t, p.Inverse(back, spec))
	require.Less(t, relErrReal(back, x64), tol, "round trip")
}

// checkSpectrum compares a forward transform (a half spectrum for R2C, when got is
// shorter than x) with the float64 reference. The reference costs O(n·p) for a largest
// prime factor p, so one-dimensional cases check 64 random bins by a direct DFT instead,
// each against the spectrum's RMS (||x||₂ per bin, by Parseval).
func checkSpectrum[T Complex](t *testing.T, rng *rand.Rand, got []T, x []complex128, cfg Config, tol float64) {
	t.Helper()
	last := cfg.Shape[len(cfg.Shape)-1]
	if len(cfg.Shape) > 1 || cfg.Batch > 1 {
		want := refFFT(x, cfg.Shape, max(cfg.Batch, 1), false)
		if len(got) < len(want) {
			want = halfSpectrum(want, last)
		}
		require.Less(t, relErr(got, want), tol, "forward")
		return
	}
	var norm float64
	for _, v := range x {
		norm += real(v)*real(v) + imag(v)*imag(v)
	}
	norm = math.Sqrt(norm)
	for i := 0; i < 64; i++ {
		k := rng.IntN(len(got))
		var sum complex128
		for j, v := range x {
			// exp(-2πi·jk/n) with jk reduced mod n first, so the angle stays exact
			sum += v * cmplx.Rect(1, -2*math.Pi*float64(j*k%last)/float64(last))
		}
		e := cmplx.Abs(complex128(got[k])-sum) / norm
		require.Less(t, e, 4*tol, "forward, bin %d", k)
	}
}
