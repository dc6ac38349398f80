//go:build cgo && cuda && !opencl

// Command bench times the binding on the DESIGN.md shapes on a CUDA GPU and, given the
// raw VkFFT C baseline's output (rawbench, same configurations), prints both side by
// side. Part of the GPU bundle (make gpu-bundle, tests/gpu/run.sh).
package main

import (
	"bufio"
	"flag"
	"fmt"
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
}

func main() {
	raw := flag.String("raw", "", "rawbench output to compare with")
	only := flag.String("only", "", "run only shapes whose name contains this")
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
		results = append(results, r)
		fmt.Printf("binding %-12s cold plan %8.1f ms  device fwd+inv %8.4f ms  host round trip %8.2f ms\n",
			r.name, r.coldMs, r.devMs, r.hostMs)
	}
	enq, syn := small(dev)
	fmt.Printf("binding small 1-D 1024: enqueue %.2f us/call, enqueue+sync %.2f us/call\n", enq, syn)

	if *raw == "" {
		return
	}
	rawDev, rawInit, rawSmall := readRaw(*raw)
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
	fmt.Println("| small 1-D 1024, batch 1 | binding (us) | raw C (us) | difference (us) |")
	fmt.Println("|---|---|---|---|")
	fmt.Printf("| enqueue only | %.2f | %.2f | %+.2f |\n", enq, rawSmall[0], enq-rawSmall[0])
	fmt.Printf("| enqueue + synchronize | %.2f | %.2f | %+.2f |\n", syn, rawSmall[1], syn-rawSmall[1])
}

func run[T vkfft.Complex](dev *vkfft.Device, s shape) result {
	cfg := vkfft.Config{Shape: s.dims, Batch: s.batch}
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
	return result{name: s.name, coldMs: ms(cold), devMs: devMs, hostMs: hostMs}
}

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

// readRaw parses rawbench lines: "raw NAME init_ms X fwdinv_ms Y" and
// "raw small enqueue_us X sync_us Y".
func readRaw(path string) (dev, init map[string]float64, small [2]float64) {
	dev, init = map[string]float64{}, map[string]float64{}
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
		if w[1] == "small" {
			small = [2]float64{a, b}
		} else {
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
