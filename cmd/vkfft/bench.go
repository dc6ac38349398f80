package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/vkfft"
	"gonum.org/v1/gonum/dsp/fourier"
)

func init() {
	commands["bench"] = command{"cold plan time, warm forward+inverse time, allocs per call, error", runBench}
}

// defaultShapes suit a CPU device under PoCL; the GPU shapes (the measured anchors) are
// -shapes 256x256x256,512x512x512,4096x4096,4096:16384,256x256x256@c128
const defaultShapes = "4096:16,256x256,64x64x64,64x64x64@c128"

// benchSpec is one -shapes entry: NxNxN[:batch][@c128].
type benchSpec struct {
	spec   string // as written
	shape  []int
	batch  int
	double bool
}

func (s benchSpec) String() string {
	return strings.TrimSuffix(strings.TrimSuffix(s.spec, "@c128"), "@c64")
}

func parseSpecs(list string) ([]benchSpec, error) {
	var out []benchSpec
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		s := benchSpec{spec: item, batch: 1}
		if i := strings.Index(item, "@"); i >= 0 {
			switch item[i+1:] {
			case "c128", "double":
				s.double = true
			case "c64", "single":
			default:
				return nil, fmt.Errorf("shape %q: precision must be @c64 or @c128", item)
			}
			item = item[:i]
		}
		if i := strings.Index(item, ":"); i >= 0 {
			b, err := strconv.Atoi(item[i+1:])
			if err != nil || b < 1 {
				return nil, fmt.Errorf("shape %q: bad batch", item)
			}
			s.batch, item = b, item[:i]
		}
		for _, f := range strings.Split(item, "x") {
			d, err := strconv.Atoi(f)
			if err != nil || d < 1 {
				return nil, fmt.Errorf("shape %q: bad dimension %q", item, f)
			}
			s.shape = append(s.shape, d)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no shapes given")
	}
	return out, nil
}

type benchResult struct {
	spec                 benchSpec
	plan                 time.Duration
	planSource           string
	host, device         time.Duration // per forward+inverse
	floor                time.Duration // the device pair's memory floor (floor.go); 0: unknown
	allocsHost, allocsDv float64       // Go heap allocations per call
	roundTrip, forward   float64       // relative errors; forward is NaN when not checked
	tol                  float64
}

// benchHeader and benchRow are the lines of bench's table.
func benchHeader() string {
	return fmt.Sprintf("%-18s %-5s %11s %-5s %14s %14s %8s %8s %10s %10s", "shape", "prec", "plan", "from",
		"host f+i", "device f+i", "% floor", "allocs", "roundtrip", "vs ref")
}

func benchRow(r benchResult, verdict string) string {
	prec := "c64"
	if r.spec.double {
		prec = "c128"
	}
	return fmt.Sprintf("%-18s %-5s %11s %-5s %14s %14s %8s %8.1f %10.2e %10s%s", r.spec, prec, fmtDur(r.plan),
		r.planSource, fmtDur(r.host), fmtDur(r.device), fmtPercent(floorPercent(r.floor, r.device)),
		max(r.allocsHost, r.allocsDv), r.roundTrip, fmtErr(r.forward), verdict)
}

func runBench(args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	device := fs.Int("device", 0, "device ordinal (see vkfft info)")
	shapes := fs.String("shapes", defaultShapes, "comma-separated NxNxN[:batch][@c128]")
	minTime := fs.Duration("time", 500*time.Millisecond, "minimum measuring time per shape and path")
	refLimit := fs.Int("ref-limit", 1<<21, "check forward results against a float64 CPU reference up to this many elements")
	copyBytes := fs.Int64("copy-bytes", defaultCopyBytes, "buffer size of the copy that measures the memory floor (0: no floor)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	specs, err := parseSpecs(*shapes)
	if err != nil {
		return err
	}
	dev, err := vkfft.Open(*device)
	if err != nil {
		return err
	}
	defer dev.Close()
	info := dev.Info()
	fmt.Printf("device %s (%s, %s), VkFFT %s\n", info.Name, info.Backend, info.Driver, vkfft.VersionString())
	if dir, on := vkfft.KernelCache().Dir(); on {
		fmt.Printf("kernel cache %s\n", dir)
	} else {
		fmt.Println("kernel cache off")
	}
	rate := copyRateLine(dev, *copyBytes)
	fmt.Println(benchHeader())
	failed := 0
	for _, s := range specs {
		var r benchResult
		if s.double {
			r, err = benchOne[complex128](dev, s, *minTime, *refLimit, rate)
		} else {
			r, err = benchOne[complex64](dev, s, *minTime, *refLimit, rate)
		}
		if err != nil {
			fmt.Printf("%-18s error: %v\n", s, err)
			failed++
			continue
		}
		ok := r.roundTrip <= r.tol && (math.IsNaN(r.forward) || r.forward <= r.tol)
		verdict := ""
		if !ok {
			verdict = "  FAIL"
			failed++
		}
		fmt.Println(benchRow(r, verdict))
	}
	fmt.Println(CacheSummary(dev))
	if failed > 0 {
		return fmt.Errorf("%d shape(s) failed", failed)
	}
	fmt.Println("accuracy check passed: relative L2 error within 1e-5 (c64) and 1e-12 (c128)")
	return nil
}

func benchOne[T vkfft.Complex](dev *vkfft.Device, s benchSpec, minTime time.Duration, refLimit int,
	rate float64) (benchResult, error) {
	r := benchResult{spec: s, tol: 1e-5, forward: math.NaN()}
	if s.double {
		r.tol = 1e-12
	}
	progress("%s: building plan", s)
	before := vkfft.KernelCache().Stats()
	t0 := time.Now()
	p, err := vkfft.NewPlan[T](dev, vkfft.Config{Shape: s.shape, Batch: s.batch})
	r.plan = time.Since(t0)
	if err != nil {
		return r, err
	}
	defer p.Close()
	after := vkfft.KernelCache().Stats()
	switch {
	case after.Hits > before.Hits:
		r.planSource = "disk"
	case after.Misses > before.Misses:
		r.planSource = "jit"
	default:
		r.planSource = "jit"
	}

	n := p.Len()
	fwd, inv := p.Passes()
	r.floor = floorTime(fwd+inv, int64(n)*int64(unsafe.Sizeof(*new(T))), rate)
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	x := make([]T, n)
	for i := range x {
		x[i] = T(complex(rng.Float64()*2-1, rng.Float64()*2-1))
	}
	y := make([]T, n)
	z := make([]T, n)

	// accuracy: a round trip, and the forward result against a float64 reference
	if err := p.Forward(y, x); err != nil {
		return r, err
	}
	if err := p.Inverse(z, y); err != nil {
		return r, err
	}
	r.roundTrip = relL2(z, x)
	if n <= refLimit {
		progress("%s: float64 reference on the CPU", s)
		r.forward = relL2c(y, reference(x, s.shape, s.batch))
	}

	progress("%s: host round trips", s)
	r.host, r.allocsHost, err = timeLoop(minTime, func() error {
		if err := p.Forward(y, x); err != nil {
			return err
		}
		return p.Inverse(z, y)
	}, nil)
	if err != nil {
		return r, err
	}

	buf, err := vkfft.NewBuffer[T](dev, n)
	if err != nil {
		return r, err
	}
	defer buf.Close()
	if err := buf.Upload(x); err != nil {
		return r, err
	}
	progress("%s: device-resident round trips", s)
	r.device, r.allocsDv, err = timeLoop(minTime, func() error {
		if err := p.ForwardBuffer(buf, buf); err != nil {
			return err
		}
		return p.InverseBuffer(buf, buf)
	}, dev.Sync)
	return r, err
}

// timeLoop runs f until minTime has passed (at least 3 times, after one warm-up) and
// returns the mean time per call and Go heap allocations per transform (f does two).
func timeLoop(minTime time.Duration, f func() error, sync func() error) (time.Duration, float64, error) {
	if err := f(); err != nil {
		return 0, 0, err
	}
	if sync != nil {
		if err := sync(); err != nil {
			return 0, 0, err
		}
	}
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	start := time.Now()
	iters := 0
	lastReport := start
	for iters < 3 || time.Since(start) < minTime {
		if err := f(); err != nil {
			return 0, 0, err
		}
		iters++
		if sync != nil && iters%8 == 0 {
			if err := sync(); err != nil {
				return 0, 0, err
			}
		}
		if time.Since(lastReport) > time.Second {
			progress("  %d iterations", iters)
			lastReport = time.Now()
		}
	}
	if sync != nil {
		if err := sync(); err != nil {
			return 0, 0, err
		}
	}
	elapsed := time.Since(start)
	runtime.ReadMemStats(&ms1)
	return elapsed / time.Duration(iters), float64(ms1.Mallocs-ms0.Mallocs) / float64(2*iters), nil
}

func reference[T vkfft.Complex](x []T, shape []int, batch int) []complex128 {
	out := make([]complex128, len(x))
	for i, v := range x {
		out[i] = complex128(v)
	}
	n := len(x) / batch
	stride := n
	for _, d := range shape {
		stride /= d
		f := fourier.NewCmplxFFT(d)
		line, res := make([]complex128, d), make([]complex128, d)
		for b := 0; b < batch; b++ {
			for start := 0; start < n; start++ {
				if (start/stride)%d != 0 {
					continue
				}
				for i := range line {
					line[i] = out[b*n+start+i*stride]
				}
				f.Coefficients(res, line)
				for i := range res {
					out[b*n+start+i*stride] = res[i]
				}
			}
		}
	}
	return out
}

func relL2[T vkfft.Complex](got, want []T) float64 {
	var num, den float64
	for i := range want {
		d := complex128(got[i]) - complex128(want[i])
		w := complex128(want[i])
		num += real(d)*real(d) + imag(d)*imag(d)
		den += real(w)*real(w) + imag(w)*imag(w)
	}
	return math.Sqrt(num / den)
}

func relL2c[T vkfft.Complex](got []T, want []complex128) float64 {
	var num, den float64
	for i := range want {
		d := complex128(got[i]) - want[i]
		num += real(d)*real(d) + imag(d)*imag(d)
		den += real(want[i])*real(want[i]) + imag(want[i])*imag(want[i])
	}
	return math.Sqrt(num / den)
}

func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.3f ms", float64(d)/1e6)
	default:
		return fmt.Sprintf("%.1f µs", float64(d)/1e3)
	}
}

func fmtErr(e float64) string {
	if math.IsNaN(e) {
		return "-"
	}
	return fmt.Sprintf("%.2e", e)
}

// progress reports long-running steps on stderr, keeping stdout a clean table.
func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "vkfft: "+format+"\n", args...)
}
