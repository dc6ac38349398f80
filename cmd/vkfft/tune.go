package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

func init() {
	commands["tune"] = command{"autotune plans ahead of time; print before/after", runTune}
}

const tuneUsage = `usage: vkfft tune [flags]
Measures VkFFT launch parameters for each shape on this device and stores the winner
beside the kernels (the kernel cache), so that plans made later with Config.Tune =
TuneCached (the default) or TuneMeasure use it without measuring. A shape that already
has a stored tuning is only timed, unless -refresh. Progress goes to stderr; the table
(device forward+inverse, in place) to stdout. With -spectrometer it tunes spectrometers'
group sums instead (vkfft spectrometer -group-sum auto uses them).`

// tuneRow is one shape's outcome.
type tuneRow struct {
	spec                  benchSpec
	defMs, tunedMs, oopMs float64
	result                vkfft.TuneResult
	wall                  time.Duration // plan creation with tuning, as measured here
	cufftMs               float64       // from -cufft, 0 if none
	floor                 time.Duration // the tuned pair's memory floor (floor.go); 0: unknown
	oopErr                float64
	err                   error
}

func runTune(args []string) error {
	fs := flag.NewFlagSet("tune", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprintln(os.Stderr, tuneUsage); fs.PrintDefaults() }
	device := fs.Int("device", 0, "device ordinal (see vkfft info)")
	shapes := fs.String("shapes", defaultShapes, "comma-separated NxNxN[:batch][@c128]")
	refresh := fs.Bool("refresh", false, "measure again even where a tuning is stored")
	budget := fs.Duration("budget", 0, "time budget per shape (default $VKFFTGO_TUNE_BUDGET or 25s)")
	quiet := fs.Bool("q", false, "no progress lines on stderr")
	cufft := fs.String("cufft", "", "cuFFT timings to compare with (the output of cufft_peers.py)")
	copyBytes := fs.Int64("copy-bytes", defaultCopyBytes, "buffer size of the copy that measures the memory floor (0: no floor)")
	spectro := fs.String("spectrometer", "", "tune spectrometers instead (their group sum): comma-separated NxBATCH")
	format := fs.String("format", "complex-int8", "the spectrometers' sample format")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *spectro != "" {
		if *budget > 0 {
			os.Setenv(vkfft.EnvTuneBudget, budget.String())
		}
		return tuneSpectrometers(*device, *spectro, *format, *refresh, *quiet)
	}
	specs, err := parseSpecs(*shapes)
	if err != nil {
		return err
	}
	if *budget > 0 {
		os.Setenv(vkfft.EnvTuneBudget, budget.String())
	}
	var peers map[string]float64
	if *cufft != "" {
		if peers, err = readCuFFT(*cufft); err != nil {
			return err
		}
	}
	dev, err := vkfft.Open(*device)
	if err != nil {
		return err
	}
	defer dev.Close()
	info := dev.Info()
	fmt.Printf("device %s (%s, %s), VkFFT %s\n", info.Name, info.Backend, info.Driver, vkfft.VersionString())
	if dir, on := vkfft.KernelCache().Dir(); on {
		fmt.Printf("tunings stored in %s\n", dir)
	} else {
		fmt.Println("kernel cache off: tunings last for this process only")
	}
	if !*quiet {
		vkfft.SetTuneProgress(func(s string) { fmt.Fprintln(os.Stderr, s) })
		defer vkfft.SetTuneProgress(nil)
	}
	mode := vkfft.TuneMeasure
	if *refresh {
		mode = vkfft.TuneRefresh
	}
	rate := copyRateLine(dev, *copyBytes)
	var rows []tuneRow
	failed := 0
	for _, s := range specs {
		var r tuneRow
		if s.double {
			r = tuneOne[complex128](dev, s, mode, rate)
		} else {
			r = tuneOne[complex64](dev, s, mode, rate)
		}
		r.cufftMs = peers[cufftKey(s.shape, s.batch, s.double)]
		if r.err != nil {
			fmt.Fprintf(os.Stderr, "vkfft: tune %s: %v\n", s, r.err)
			failed++
		}
		rows = append(rows, r)
	}
	printTuneTable(os.Stdout, rows)
	if failed > 0 {
		return fmt.Errorf("%d shape(s) failed", failed)
	}
	return nil
}

func tuneOne[T vkfft.Complex](dev *vkfft.Device, s benchSpec, mode vkfft.TuneMode, rate float64) (r tuneRow) {
	r.spec = s
	cfg := vkfft.Config{Shape: s.shape, Batch: s.batch, Tune: vkfft.TuneOff}
	def, err := vkfft.NewPlan[T](dev, cfg)
	if err != nil {
		r.err = err
		return r
	}
	defer def.Close()
	in, err := vkfft.NewBuffer[T](dev, def.Len())
	if err != nil {
		r.err = err
		return r
	}
	defer in.Close()
	out, err := vkfft.NewBuffer[T](dev, def.Len())
	if err != nil {
		r.err = err
		return r
	}
	defer out.Close()
	x := make([]T, def.Len())
	for i := range x {
		x[i] = T(complex(float64(i%17)-8, float64(i%5)-2))
	}
	if r.err = in.Upload(x); r.err != nil {
		return r
	}
	if r.defMs, r.err = timePairs(dev, func() error {
		if err := def.ForwardBuffer(in, in); err != nil {
			return err
		}
		return def.InverseBuffer(in, in)
	}); r.err != nil {
		return r
	}

	cfg.Tune = mode
	t0 := time.Now()
	p, err := vkfft.NewPlan[T](dev, cfg)
	r.wall = time.Since(t0)
	if err != nil {
		r.err = err
		return r
	}
	defer p.Close()
	r.result = p.Tuned()
	fwd, inv := p.Passes()
	r.floor = floorTime(fwd+inv, int64(p.Len())*int64(unsafe.Sizeof(*new(T))), rate)
	if r.tunedMs, r.err = timePairs(dev, func() error {
		if err := p.ForwardBuffer(in, in); err != nil {
			return err
		}
		return p.InverseBuffer(in, in)
	}); r.err != nil {
		return r
	}
	// out of place: in -> out forward, out -> in inverse
	if r.oopMs, r.err = timePairs(dev, func() error {
		if err := p.ForwardBuffer(out, in); err != nil {
			return err
		}
		return p.InverseBuffer(in, out)
	}); r.err != nil {
		return r
	}
	// the out-of-place result equals the in-place one
	if r.err = in.Upload(x); r.err != nil {
		return r
	}
	oop, inplace := make([]T, len(x)), make([]T, len(x))
	if r.err = p.ForwardBuffer(out, in); r.err != nil {
		return r
	}
	if r.err = out.Download(oop); r.err != nil {
		return r
	}
	if r.err = p.ForwardBuffer(in, in); r.err != nil {
		return r
	}
	if r.err = in.Download(inplace); r.err != nil {
		return r
	}
	r.oopErr = relL2(oop, inplace)
	if !(r.oopErr <= 1e-6) {
		r.err = fmt.Errorf("out-of-place result differs from in place (relative error %.2e)", r.oopErr)
	}
	return r
}

// timePairs returns the best time of one forward+inverse pair over a few trials of at
// least 50 ms each, after a warm-up.
func timePairs(dev *vkfft.Device, pair func() error) (float64, error) {
	if err := pair(); err != nil {
		return 0, err
	}
	if err := dev.Sync(); err != nil {
		return 0, err
	}
	t0 := time.Now()
	if err := pair(); err != nil {
		return 0, err
	}
	if err := dev.Sync(); err != nil {
		return 0, err
	}
	iters := int(min(max(50*time.Millisecond/max(time.Since(t0), time.Microsecond), 3), 2000))
	best := math.Inf(1)
	for trial := 0; trial < 5; trial++ {
		t0 = time.Now()
		for i := 0; i < iters; i++ {
			if err := pair(); err != nil {
				return 0, err
			}
		}
		if err := dev.Sync(); err != nil {
			return 0, err
		}
		best = min(best, float64(time.Since(t0).Nanoseconds())/1e6/float64(iters))
	}
	return best, nil
}

func printTuneTable(w io.Writer, rows []tuneRow) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Device-resident forward+inverse (ms), in place unless noted; tuning time = the measurement (stored with the tuning); "+
		"% of floor = the memory floor (passes × 2 × bytes at the copy rate) over the tuned time, 100 % at the memory limit.")
	fmt.Fprintln(w, "| shape | VkFFT defaults | tuned | tuned / defaults | tuned % of floor | cuFFT | tuned / cuFFT | out-of-place / in-place | chosen parameters | source | tuning time |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		if r.err != nil && r.tunedMs == 0 {
			fmt.Fprintf(w, "| %s | error: %v ||||||||||\n", tuneShapeName(r.spec), r.err)
			continue
		}
		cu, ratio := "-", "-"
		if r.cufftMs > 0 {
			cu, ratio = fmt.Sprintf("%.4f", r.cufftMs), fmt.Sprintf("%.3f", r.tunedMs/r.cufftMs)
		}
		oop := "-"
		if r.oopMs > 0 {
			oop = fmt.Sprintf("%.3f", r.oopMs/r.tunedMs)
		}
		params := r.result.Tuning.String()
		if r.result.OutOfPlace != r.result.Tuning {
			params += "; out of place: " + r.result.OutOfPlace.String()
		}
		tuned := time.Duration(r.tunedMs * float64(time.Millisecond))
		fmt.Fprintf(w, "| %s | %.4f | %.4f | %.3f | %s | %s | %s | %s | %s | %s | %.1f s |\n", tuneShapeName(r.spec),
			r.defMs, r.tunedMs, r.tunedMs/r.defMs, fmtPercent(floorPercent(r.floor, tuned)), cu, ratio, oop, params,
			r.result.Source, r.result.Elapsed.Seconds())
	}
}

// tuneShapeName writes a spec as the tables of tests/gpu/RESULTS.md do.
func tuneShapeName(s benchSpec) string {
	var dims []string
	for _, d := range s.shape {
		dims = append(dims, strconv.Itoa(d))
	}
	name := strings.Join(dims, "×")
	if len(s.shape) == 3 && s.shape[0] == s.shape[1] && s.shape[1] == s.shape[2] {
		name = fmt.Sprintf("%d³", s.shape[0])
	} else if len(s.shape) == 2 && s.shape[0] == s.shape[1] {
		name = fmt.Sprintf("%d²", s.shape[0])
	}
	if len(s.shape) == 1 {
		name = "1-D " + name
	}
	if s.batch > 1 {
		name += fmt.Sprintf(" × %d", s.batch)
	}
	if s.double {
		name += " c128"
	}
	return name
}

// cufftKey identifies a transform across the binding's and cufft_peers.py's names.
func cufftKey(shape []int, batch int, double bool) string {
	return fmt.Sprintf("%v:%d:%v", shape, max(batch, 1), double)
}

// readCuFFT reads cufft_peers.py's lines "c2c 3d 256^3 fp32 | plan | fwd+inv | ..." and
// "c2c 1d 4096 x16384 fp32 | ...", keyed like cufftKey.
func readCuFFT(path string) (map[string]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	nd := regexp.MustCompile(`^c2c (\d)d (\d+)\^(\d) (fp32|fp64)`)
	oned := regexp.MustCompile(`^c2c 1d (\d+) x(\d+) (fp32|fp64)`)
	out := map[string]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "|")
		if len(cols) < 3 {
			continue
		}
		ms, err := strconv.ParseFloat(strings.TrimSpace(cols[2]), 64)
		if err != nil {
			continue
		}
		name := strings.TrimSpace(cols[0])
		if m := oned.FindStringSubmatch(name); m != nil {
			n, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			out[cufftKey([]int{n}, b, m[3] == "fp64")] = ms
		} else if m := nd.FindStringSubmatch(name); m != nil {
			rank, _ := strconv.Atoi(m[3])
			n, _ := strconv.Atoi(m[2])
			shape := make([]int, rank)
			for i := range shape {
				shape[i] = n
			}
			out[cufftKey(shape, 1, m[4] == "fp64")] = ms
		}
	}
	return out, sc.Err()
}
