//go:build cgo && (cuda || vulkan)

// Command bench times the binding on the anchor shapes on a GPU (cuda or vulkan build) and, given the
// raw VkFFT C baseline's output (rawbench, same configurations), prints both side by
// side. Part of the GPU bundle (make gpu-bundle, tests/gpu/run.sh).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

type shape struct {
	name   string
	dims   []int
	batch  int
	double bool
	iters  int // device-resident forward+inverse pairs
	host   int // host round trips
}

var shapes = []shape{
	{"256^3", []int{256, 256, 256}, 1, false, 40, 5},
	{"512^3", []int{512, 512, 512}, 1, false, 20, 3},
	{"4096^2", []int{4096, 4096}, 1, false, 40, 5},
	{"4096x16384", []int{4096}, 16384, false, 40, 5},
	{"256^3-c128", []int{256, 256, 256}, 1, true, 30, 3},
}

type result struct {
	name                       string
	coldMs, devMs, hostMs, gbs float64
	// the autotuned plan (Config.Tune = TuneMeasure): device fwd+inv, the same fwd+inv
	// out of place, the parameters and the tuning's measuring time
	tunedMs, oopMs float64
	tuning         vkfft.TuneResult
	// one host round trip (upload, forward, download) per figure
	directMs, stagedMs, pinnedMs, pipeMs, pipePageMs float64
}

func main() {
	raw := flag.String("raw", "", "rawbench output to compare with")
	only := flag.String("only", "", "run only shapes whose name contains this")
	lut := flag.Bool("lut", true, "compare single-precision accuracy and speed with and without twiddle tables")
	alloc := flag.Bool("alloc", true, "run the allocation-cache loop")
	tune := flag.Bool("tune", true, "also time each shape autotuned (Config.Tune = TuneMeasure)")
	flag.Parse()
	dev, err := vkfft.Open(0)
	check(err)
	defer dev.Close()
	info := dev.Info()
	fmt.Printf("device: %s (compute %d.%d, %s), VkFFT %s, backend %v\n", info.Name, info.ComputeMajor,
		info.ComputeMinor, info.Driver, vkfft.VersionString(), vkfft.CurrentBackend())

	var results []result
	for _, s := range shapes {
		if *only != "" && !strings.Contains(s.name, *only) {
			continue
		}
		var r result
		if s.double {
			r = run[complex128](dev, s)
		} else {
			r = run[complex64](dev, s)
		}
		if *tune {
			if s.double {
				tuned[complex128](dev, s, &r)
			} else {
				tuned[complex64](dev, s, &r)
			}
		}
		results = append(results, r)
		fmt.Printf("binding %-12s cold plan %8.1f ms  device fwd+inv %8.4f ms  host round trip %8.2f ms\n",
			r.name, r.coldMs, r.devMs, r.hostMs)
	}
	if *tune {
		fmt.Println()
		fmt.Println("Autotuned (Config.Tune = TuneMeasure; tuning time = its measurement), device forward+inverse in ms:")
		fmt.Println("| shape | VkFFT defaults | tuned | tuned / defaults | tuned out of place | out of place / in place | chosen parameters | tuning time |")
		fmt.Println("|---|---|---|---|---|---|---|---|")
		for _, r := range results {
			fmt.Printf("| %s | %.4f | %.4f | %.3f | %.4f | %.3f | %s | %.1f s (%s, %d candidates) |\n", r.name, r.devMs,
				r.tunedMs, r.tunedMs/r.devMs, r.oopMs, r.oopMs/r.tunedMs, r.tuning.Tuning, r.tuning.Elapsed.Seconds(),
				r.tuning.Source, r.tuning.Candidates)
		}
	}
	enq, syn := small(dev)
	fmt.Printf("binding small 1-D 1024: enqueue %.2f us/call, enqueue+sync %.2f us/call\n", enq, syn)
	if *alloc {
		allocLoop(dev)
	}
	if *lut {
		lutTable(dev)
	}

	if *raw == "" {
		return
	}
	rawDev, rawInit, rawSmall, rawHost := readRaw(*raw)
	fmt.Println()
	fmt.Println("| shape | binding fwd+inv (ms) | raw C fwd+inv (ms) | binding / raw C | host round trip, Go slices (ms) | cold plan binding (ms) | cold plan raw C (ms) |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, r := range results {
		rd := rawDev[r.name]
		ratio := 0.0
		if rd > 0 {
			ratio = r.devMs / rd
		}
		fmt.Printf("| %s | %.4f | %.4f | %.3f | %.2f | %.0f | %.0f |\n", r.name, r.devMs, rd, ratio, r.hostMs,
			r.coldMs, rawInit[r.name])
	}
	fmt.Println()
	fmt.Println("One host round trip = upload, forward transform, download (ms); ratios against raw C pinned of this run.")
	fmt.Println("| shape | raw C pageable | raw C pinned | binding, Go slices, direct | binding, Go slices, staged | staged / raw pinned | binding, pinned HostBuffer | pipelined, pinned | pipelined / raw pinned | pipelined, Go slices |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range results {
		pg, pn := rawHost[r.name][0], rawHost[r.name][1]
		pipe, pipeRatio, pipePage := "-", "-", "-"
		if r.pipeMs > 0 {
			pipe, pipeRatio, pipePage = f2(r.pipeMs), f3(r.pipeMs/pn), f2(r.pipePageMs)
		}
		fmt.Printf("| %s | %.2f | %.2f | %.2f | %.2f | %.3f | %.2f | %s | %s | %s |\n", r.name, pg, pn, r.directMs,
			r.stagedMs, r.stagedMs/pn, r.pinnedMs, pipe, pipeRatio, pipePage)
	}
	fmt.Println()
	fmt.Println("| small 1-D 1024, batch 1 | binding (us) | raw C (us) | difference (us) |")
	fmt.Println("|---|---|---|---|")
	fmt.Printf("| enqueue only | %.2f | %.2f | %+.2f |\n", enq, rawSmall[0], enq-rawSmall[0])
	fmt.Printf("| enqueue + synchronize | %.2f | %.2f | %+.2f |\n", syn, rawSmall[1], syn-rawSmall[1])
}

// tuned times the shape with an autotuned plan, in place and out of place.
func tuned[T vkfft.Complex](dev *vkfft.Device, s shape, r *result) {
	p, err := vkfft.NewPlan[T](dev, vkfft.Config{Shape: s.dims, Batch: s.batch, Tune: vkfft.TuneMeasure})
	check(err)
	defer p.Close()
	r.tuning = p.Tuned()
	a, err := vkfft.NewBuffer[T](dev, p.Len())
	check(err)
	defer a.Close()
	b, err := vkfft.NewBuffer[T](dev, p.Len())
	check(err)
	defer b.Close()
	x := make([]T, p.Len())
	for i := range x {
		x[i] = T(complex(float32(i%17)-8, float32(i%5)))
	}
	check(a.Upload(x))
	timePair := func(fwd, inv func() error) float64 {
		for i := 0; i < 3; i++ { // warm-up (builds the out-of-place kernels on first use)
			check(fwd())
			check(inv())
		}
		check(dev.Sync())
		t0 := time.Now()
		for i := 0; i < s.iters; i++ {
			check(fwd())
			check(inv())
		}
		check(dev.Sync())
		return ms(time.Since(t0)) / float64(s.iters)
	}
	r.tunedMs = timePair(func() error { return p.ForwardBuffer(a, a) }, func() error { return p.InverseBuffer(a, a) })
	r.oopMs = timePair(func() error { return p.ForwardBuffer(b, a) }, func() error { return p.InverseBuffer(a, b) })
	fmt.Printf("binding %-12s tuned (%s, %s) device fwd+inv %8.4f ms, out of place %8.4f ms\n", s.name,
		r.tuning.Tuning, r.tuning.Source, r.tunedMs, r.oopMs)
}

func run[T vkfft.Complex](dev *vkfft.Device, s shape) result {
	// VkFFT's defaults, as the raw C baseline runs them
	cfg := vkfft.Config{Shape: s.dims, Batch: s.batch, Tune: vkfft.TuneOff}
	t0 := time.Now()
	p, err := vkfft.NewPlan[T](dev, cfg)
	check(err)
	cold := time.Since(t0)
	defer p.Close()
	n := p.Len()
	x := make([]T, n)
	for i := range x {
		x[i] = T(complex(float32(i%17)-8, float32(i%5)))
	}
	b, err := vkfft.NewBuffer[T](dev, n)
	check(err)
	defer b.Close()
	check(b.Upload(x))
	for i := 0; i < 3; i++ { // warm-up
		check(p.ForwardBuffer(b, b))
		check(p.InverseBuffer(b, b))
	}
	check(dev.Sync())
	t0 = time.Now()
	for i := 0; i < s.iters; i++ {
		check(p.ForwardBuffer(b, b))
		check(p.InverseBuffer(b, b))
	}
	check(dev.Sync())
	devMs := ms(time.Since(t0)) / float64(s.iters)

	y := make([]T, n)
	check(p.Forward(y, x))
	check(p.Inverse(y, y))
	t0 = time.Now()
	for i := 0; i < s.host; i++ {
		check(p.Forward(y, x))
		check(p.Inverse(y, y))
	}
	hostMs := ms(time.Since(t0)) / float64(s.host)
	// sanity: the round trip returns the input
	var e float64
	for i := range x {
		d := complex128(y[i] - x[i])
		e = max(e, real(d)*real(d)+imag(d)*imag(d))
	}
	if e > 1e-4 {
		fmt.Fprintf(os.Stderr, "%s: round trip error %g\n", s.name, e)
		os.Exit(1)
	}
	r := result{name: s.name, coldMs: ms(cold), devMs: devMs, hostMs: hostMs}
	transfers(dev, p, s, x, &r)
	return r
}

// transfers times one host round trip (Forward on host slices) from ordinary Go slices
// with staging off and on, from pinned HostBuffers, and, for batched shapes, through a
// Pipeline.
func transfers[T vkfft.Complex](dev *vkfft.Device, p *vkfft.Plan[T], s shape, x []T, r *result) {
	n := p.Len()
	y := make([]T, n)
	timeIt := func(f func() error) float64 {
		check(f())
		t0 := time.Now()
		for i := 0; i < s.host; i++ {
			check(f())
		}
		return ms(time.Since(t0)) / float64(s.host)
	}
	dev.SetStagingThreshold(-1)
	r.directMs = timeIt(func() error { return p.Forward(y, x) })
	dev.SetStagingThreshold(vkfft.DefaultStagingThreshold)
	r.stagedMs = timeIt(func() error { return p.Forward(y, x) })
	want := append([]T(nil), y...)

	in, err := vkfft.NewHostBuffer[T](dev, n)
	check(err)
	defer in.Close()
	out, err := vkfft.NewHostBuffer[T](dev, n)
	check(err)
	defer out.Close()
	copy(in.Slice(), x)
	r.pinnedMs = timeIt(func() error { return p.Forward(out.Slice(), in.Slice()) })
	same(s.name+" pinned", out.Slice(), want)
	registered(dev, p, s, x, want, r.pinnedMs, timeIt)
	if s.batch >= 16 {
		pl, err := vkfft.NewPipeline[T](dev, vkfft.Config{Shape: s.dims, Batch: s.batch}, 16)
		check(err)
		defer pl.Close()
		r.pipeMs = timeIt(func() error { return pl.Forward(out.Slice(), in.Slice()) })
		same(s.name+" pipelined", out.Slice(), want)
		r.pipePageMs = timeIt(func() error { return pl.Forward(y, x) })
		same(s.name+" pipelined pageable", y, want)
	}
	fmt.Printf("binding %-12s host round trip: direct %.2f ms, staged %.2f ms, pinned %.2f ms, pipelined %.2f ms (Go slices %.2f ms)\n",
		s.name, r.directMs, r.stagedMs, r.pinnedMs, r.pipeMs, r.pipePageMs)
}

// same stops the benchmark when a fast path's result differs from the reference path's.
func same[T vkfft.Complex](what string, got, want []T) {
	for i := range want {
		if got[i] != want[i] {
			fmt.Fprintf(os.Stderr, "%s: element %d is %v, want %v\n", what, i, got[i], want[i])
			os.Exit(1)
		}
	}
}

// allocLoop: 200 frames that each allocate a device buffer, transform on it and free
// it; the allocation cache keeps cudaMalloc/cudaFree off all but the first.
func allocLoop(dev *vkfft.Device) {
	p, err := vkfft.NewPlan[complex64](dev, vkfft.Config{Shape: []int{256, 256, 256}})
	check(err)
	defer p.Close()
	x := make([]complex64, p.Len())
	before := dev.MemStats()
	t0 := time.Now()
	for i := 0; i < 200; i++ {
		b, err := vkfft.NewBuffer[complex64](dev, p.Len())
		check(err)
		check(b.Upload(x))
		check(p.ForwardBuffer(b, b))
		check(b.Download(x))
		check(b.Close())
	}
	el := time.Since(t0)
	after := dev.MemStats()
	st := dev.AllocCache().Stats()
	fmt.Printf("allocation cache, 200 frames of 256^3 (new buffer, upload, forward, download, close): %.2f ms/frame; "+
		"cache hits %d, misses %d, evicted %d, held %d MiB; device allocations during the loop %d, frees %d\n",
		ms(el)/200, st.Hits, st.Misses, st.Evicted, st.BytesHeld>>20, after.Allocations-before.Allocations,
		after.Frees-before.Frees)
}

// lutTable compares single precision with twiddle tables (the default) and with
// sin/cos computed in the kernels, against a double-precision transform of the same input.
func lutTable(dev *vkfft.Device) {
	fmt.Println()
	fmt.Println("| shape | LUT on: rel. L2 error | LUT off: rel. L2 error | LUT on fwd+inv (ms) | LUT off fwd+inv (ms) |")
	fmt.Println("|---|---|---|---|---|")
	for _, s := range []shape{shapes[0], shapes[2], shapes[3]} {
		cfg := vkfft.Config{Shape: s.dims, Batch: s.batch}
		ref, err := vkfft.NewPlan[complex128](dev, cfg)
		check(err)
		n := ref.Len()
		x := make([]complex128, n)
		x32 := make([]complex64, n)
		for i := range x {
			x32[i] = complex(float32((i*7919)%1000)/500-1, float32((i*104729)%1000)/500-1)
			x[i] = complex128(x32[i])
		}
		want := make([]complex128, n)
		check(ref.Forward(want, x))
		ref.Close()
		var errs, times [2]float64
		for k, l := range []vkfft.LUT{vkfft.LUTOn, vkfft.LUTOff} {
			c := cfg
			c.LUT = l
			p, err := vkfft.NewPlan[complex64](dev, c)
			check(err)
			got := make([]complex64, n)
			check(p.Forward(got, x32))
			var num, den float64
			for i := range want {
				d := complex128(got[i]) - want[i]
				num += real(d)*real(d) + imag(d)*imag(d)
				den += real(want[i])*real(want[i]) + imag(want[i])*imag(want[i])
			}
			errs[k] = math.Sqrt(num / den)
			b, err := vkfft.NewBuffer[complex64](dev, n)
			check(err)
			check(b.Upload(x32))
			for i := 0; i < 3; i++ {
				check(p.ForwardBuffer(b, b))
				check(p.InverseBuffer(b, b))
			}
			check(dev.Sync())
			t0 := time.Now()
			for i := 0; i < s.iters; i++ {
				check(p.ForwardBuffer(b, b))
				check(p.InverseBuffer(b, b))
			}
			check(dev.Sync())
			times[k] = ms(time.Since(t0)) / float64(s.iters)
			b.Close()
			p.Close()
		}
		fmt.Printf("| %s | %.2e | %.2e | %.4f | %.4f |\n", s.name, errs[0], errs[1], times[0], times[1])
	}
}

func f2(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
func f3(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }

// small: the per-call cost of a tiny transform in place on a device buffer.
func small(dev *vkfft.Device) (enqueueUs, syncUs float64) {
	p, err := vkfft.NewPlan[complex64](dev, vkfft.Config{Shape: []int{1024}})
	check(err)
	defer p.Close()
	b, err := vkfft.NewBuffer[complex64](dev, 1024)
	check(err)
	defer b.Close()
	check(b.Upload(make([]complex64, 1024)))
	const n = 20000
	for i := 0; i < 1000; i++ {
		check(p.ForwardBuffer(b, b))
	}
	check(dev.Sync())
	t0 := time.Now()
	for i := 0; i < n; i++ {
		check(p.ForwardBuffer(b, b))
	}
	enq := time.Since(t0)
	check(dev.Sync())
	t0 = time.Now()
	for i := 0; i < n/4; i++ {
		check(p.ForwardBuffer(b, b))
		check(dev.Sync())
	}
	syn := time.Since(t0)
	return us(enq) / n, us(syn) / (n / 4)
}

// readRaw parses rawbench lines: "raw NAME init_ms X fwdinv_ms Y",
// "raw NAME pageable_ms X pinned_ms Y" and "raw small enqueue_us X sync_us Y".
func readRaw(path string) (dev, init map[string]float64, small [2]float64, host map[string][2]float64) {
	dev, init, host = map[string]float64{}, map[string]float64{}, map[string][2]float64{}
	f, err := os.Open(path)
	check(err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) < 6 || w[0] != "raw" {
			continue
		}
		a, _ := strconv.ParseFloat(w[3], 64)
		b, _ := strconv.ParseFloat(w[5], 64)
		switch {
		case w[1] == "small":
			small = [2]float64{a, b}
		case w[2] == "pageable_ms":
			host[w[1]] = [2]float64{a, b}
		default:
			init[w[1]], dev[w[1]] = a, b
		}
	}
	return
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
func us(d time.Duration) float64 { return float64(d) / 1e3 }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}
