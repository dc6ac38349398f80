package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

func init() {
	commands["cache"] = command{"kernel cache: path, entries, bytes; list, clear, bench", runCache}
}

const cacheUsage = `usage: vkfft cache [info|list|clear|bench [flags]]
  info    directory, entries and bytes of the persistent kernel cache (the default)
  list    one line per entry, least recently used first, then the tuned plans
  clear   remove every entry
  bench   plan creation per shape: cold (compile), from disk in a fresh process,
          and from memory (the plan cache); cold with the kernels compiled one after
          another and several at once, and kernels found by their source in a fresh
          process; see 'vkfft cache bench -h'
The directory is $VKFFTGO_CACHE_DIR, else os.UserCacheDir()/vkfftgo; VKFFTGO_CACHE_DIR=off
disables the cache; $VKFFTGO_CACHE_MAX_BYTES caps its size (default 1 GiB).`

func runCache(args []string) error {
	sub := "info"
	if len(args) > 0 {
		sub, args = args[0], args[1:]
	}
	switch sub {
	case "info":
		return cacheInfo(false)
	case "list":
		return cacheInfo(true)
	case "clear":
		n, err := vkfft.KernelCache().Clear()
		dir, _ := vkfft.KernelCache().Dir()
		fmt.Printf("removed %d entries from %s\n", n, dir)
		return err
	case "bench":
		return cacheBench(args)
	case "bench-child": // internal: one measurement in a fresh process
		return cacheBenchChild(args)
	case "-h", "--help", "help":
		fmt.Println(cacheUsage)
		return nil
	}
	return fmt.Errorf("cache: unknown subcommand %q\n%s", sub, cacheUsage)
}

func cacheInfo(list bool) error {
	info, entries, err := vkfft.KernelCache().Info()
	if err != nil {
		return err
	}
	if !info.Enabled {
		fmt.Println("kernel cache: off")
		return nil
	}
	fmt.Printf("kernel cache: %s\n  entries %d, %s of %s\n  kernels by source %d, %s of %s\n", info.Dir,
		info.Entries, cacheMiB(info.Bytes), cacheMiB(info.MaxBytes), info.KernelEntries, cacheMiB(info.KernelBytes),
		cacheMiB(info.MaxBytes))
	if list {
		for _, e := range entries {
			fmt.Printf("  %s  %10d  %s\n", e.ModTime.Format(time.DateTime), e.Bytes, e.Path)
		}
		return listTunings()
	}
	return nil
}

// listTunings prints the stored tunings (entries of the same directory).
func listTunings() error {
	tunings, err := vkfft.ListTunings()
	if err != nil {
		return err
	}
	fmt.Printf("tuned plans: %d\n", len(tunings))
	for _, t := range tunings {
		prec := "c64"
		if t.Double {
			prec = "c128"
		}
		name := fmt.Sprintf("%s %v:%d %s", t.Kind, t.Shape, t.Batch, prec)
		if t.Problem != "" {
			fmt.Printf("  %-28s %s  not used: %s\n", name, t.Device, t.Problem)
			continue
		}
		oop := ""
		if t.OutOfPlace != t.Tuning {
			oop = "; out of place: " + t.OutOfPlace.String()
		}
		fmt.Printf("  %-28s %s  %s%s  (%.4f -> %.4f ms, %d candidates, %.1f s)  %s\n", name, t.Device, t.Tuning, oop,
			t.DefaultMs, t.TunedMs, t.Candidates, t.Elapsed.Seconds(), t.Path)
	}
	return nil
}

func cacheMiB(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// CacheSummary is one line on the caches for benchmark output: the disk cache's
// counters in this process and, given a device, its plan cache's.
func CacheSummary(d *vkfft.Device) string {
	ks := vkfft.KernelCache().Stats()
	dir, on := vkfft.KernelCache().Dir()
	if !on {
		dir = "off"
	}
	s := fmt.Sprintf("kernel cache %s: %d hits, %d misses, %d rejected, %d stored; kernels %d compiled (%d ahead), "+
		"%d found by source", dir, ks.Hits, ks.Misses, ks.Rejected, ks.Stored, ks.KernelsCompiled, ks.KernelsParallel,
		ks.KernelsLoaded)
	if ks.StoreErrors > 0 {
		s += fmt.Sprintf(", %d write errors (%s)", ks.StoreErrors, ks.LastProblem)
	}
	if d != nil {
		ps := d.PlanCache().Stats()
		s += fmt.Sprintf("; plan cache: %d hits, %d misses, %d plans", ps.Hits, ps.Misses, ps.Plans)
	}
	return s
}

// cacheDesignShapes are the shapes of the project's measured anchors, in vkfft bench's
// syntax (parseSpecs): NxNxN[:batch][@c128].
const cacheDesignShapes = "256x256x256,512x512x512,4096x4096,4096:16384,256x256x256@c128"

// cacheChildResult is what one bench-child process reports.
type cacheChildResult struct {
	PlanMs    float64 // NewPlan, cold or from disk
	MemoryNs  float64 // CachedPlan+Release on a hit, mean
	Hits      int64   // disk-cache counters of the child
	Misses    int64
	Rejected  int64
	Stored    int64
	Compiled  int64 // kernels compiled one by one (ahead or by VkFFT)
	Parallel  int64 // of those, ahead on the pool
	Forked    int64 // of those, in forked child processes
	Loaded    int64 // kernels found by their source
	Sum       string
	Device    string
	Backend   string
	Problem   string
	MemoryHit bool
}

type cacheBenchRow struct {
	Shape    string
	ColdMs   float64
	DiskMs   float64 // median over the fresh processes
	DiskMin  float64
	MemoryUs float64
	Ratio    float64 // cold / disk
	Hits     int64
	Misses   int64
	Kernels  *coldKernelsRow `json:",omitempty"`
	Error    string          `json:",omitempty"`
}

func cacheBench(args []string) error {
	fs := flag.NewFlagSet("cache bench", flag.ContinueOnError)
	shapes := fs.String("shapes", cacheDesignShapes,
		"comma-separated shapes NxNxN[:batch][@c128] (default: the measured anchors')")
	runs := fs.Int("runs", 3, "fresh processes loading each plan from disk (median reported)")
	kernels := fs.Bool("kernels", true, "also time cold builds with the kernels compiled one after another "+
		"(VKFFTGO_COMPILE_JOBS=off) and in a fresh process finding them by their source, results compared bit for bit")
	device := fs.Int("device", 0, "device ordinal")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	if err := fs.Parse(args); err != nil {
		return err
	}
	list, err := parseSpecs(*shapes)
	if err != nil {
		return err
	}
	// a new, empty kernel cache: the user's is neither used nor touched
	cacheDir, err := os.MkdirTemp("", "vkfftgo-cache-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(cacheDir)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	child := func(mode string, s benchSpec, dir string, env ...string) (cacheChildResult, error) {
		cmd := exec.Command(self, "cache", "bench-child", "-mode", mode, "-device", strconv.Itoa(*device),
			"-shape", s.spec, "-check="+strconv.FormatBool(*kernels))
		// every measurement starts with no cache but ours: PoCL's and CUDA's JIT caches off
		cmd.Env = append(os.Environ(), "VKFFTGO_CACHE_DIR="+dir, "POCL_KERNEL_CACHE=0",
			"CUDA_CACHE_DISABLE=1")
		cmd.Env = append(cmd.Env, env...)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		var r cacheChildResult
		if err != nil {
			return r, fmt.Errorf("%s %s: %w", mode, s.spec, err)
		}
		if err := json.Unmarshal(out, &r); err != nil {
			return r, fmt.Errorf("%s %s: bad child output %q", mode, s.spec, out)
		}
		return r, nil
	}
	var rows []cacheBenchRow
	var devName, backend string
	for i, s := range list {
		row := cacheBenchRow{Shape: s.spec}
		// each shape starts from an empty directory: no kernel of another shape is found
		dir := filepath.Join(cacheDir, strconv.Itoa(i))
		cold, err := child("cold", s, dir)
		if err != nil {
			row.Error = err.Error()
			rows = append(rows, row)
			fmt.Fprintln(os.Stderr, "vkfft cache bench:", err)
			continue
		}
		devName, backend = cold.Device, cold.Backend
		row.ColdMs = cold.PlanMs
		if *kernels {
			row.Kernels, err = coldKernels(child, s, dir, cold)
			if err != nil {
				row.Error = err.Error()
			}
		}
		row.Misses += cold.Misses
		row.Hits += cold.Hits
		if row.Error == "" && (cold.Misses != 1 || cold.Stored != 1) {
			row.Error = fmt.Sprintf("cold build was not a miss that stored an entry (%d misses, %d stored): %s",
				cold.Misses, cold.Stored, cold.Problem)
		}
		var disk []float64
		for i := 0; i < *runs; i++ {
			r, err := child("disk", s, dir)
			if err != nil {
				row.Error = err.Error()
				break
			}
			if r.Hits != 1 && row.Error == "" {
				row.Error = fmt.Sprintf("fresh process did not load from disk (%d hits, %d rejected: %s)",
					r.Hits, r.Rejected, r.Problem)
			}
			row.Hits += r.Hits
			row.Misses += r.Misses
			disk = append(disk, r.PlanMs)
			if r.MemoryHit {
				row.MemoryUs = r.MemoryNs / 1e3
			}
		}
		if len(disk) > 0 {
			sort.Float64s(disk)
			row.DiskMs, row.DiskMin = disk[len(disk)/2], disk[0]
			row.Ratio = row.ColdMs / row.DiskMs
		}
		rows = append(rows, row)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"device": devName, "backend": backend, "vkfft": vkfft.VersionString(),
			"rows": rows})
	}
	fmt.Printf("plan creation on %s (%s, VkFFT %s); disk = fresh process, median of %d\n", devName, backend,
		vkfft.VersionString(), *runs)
	fmt.Printf("%-20s %12s %12s %12s %12s %10s %12s\n", "shape", "cold ms", "disk ms", "disk min", "memory µs",
		"cold/disk", "hits/misses")
	var errs []error
	for _, r := range rows {
		if r.Error != "" {
			errs = append(errs, errors.New(r.Shape+": "+r.Error))
		}
		fmt.Printf("%-20s %12.1f %12.2f %12.2f %12.3f %10.0f %12s\n", r.Shape, r.ColdMs, r.DiskMs, r.DiskMin,
			r.MemoryUs, r.Ratio, fmt.Sprintf("%d/%d", r.Hits, r.Misses))
	}
	if *kernels {
		printColdKernels(rows)
	}
	return errors.Join(errs...)
}

// cacheBenchChild times one NewPlan in this fresh process, and for -mode disk also
// plan-cache hits, and prints a cacheChildResult as JSON.
func cacheBenchChild(args []string) error {
	fs := flag.NewFlagSet("cache bench-child", flag.ContinueOnError)
	mode := fs.String("mode", "cold", "cold or disk")
	spec := fs.String("shape", "", "shape spec")
	check := fs.Bool("check", false, "run a forward and an inverse transform and report a checksum of the results")
	device := fs.Int("device", 0, "device ordinal")
	if err := fs.Parse(args); err != nil {
		return err
	}
	list, err := parseSpecs(*spec)
	if err != nil || len(list) != 1 {
		return fmt.Errorf("bench-child: bad shape %q", *spec)
	}
	s := list[0]
	d, err := vkfft.Open(*device)
	if err != nil {
		return err
	}
	defer d.Close()
	cfg := vkfft.Config{Shape: s.shape, Batch: s.batch}
	var r cacheChildResult
	r.Device, r.Backend = d.Info().Name, vkfft.CurrentBackend().String()
	if s.double {
		r.PlanMs, r.Sum, err = coldPlan[complex128](d, cfg, *check)
	} else {
		r.PlanMs, r.Sum, err = coldPlan[complex64](d, cfg, *check)
	}
	if err != nil {
		return err
	}
	// the counters of the timed build (the plan cache's first build below loads from disk too)
	ks := vkfft.KernelCache().Stats()
	r.Hits, r.Misses, r.Rejected, r.Stored, r.Problem = ks.Hits, ks.Misses, ks.Rejected, ks.Stored, ks.LastProblem
	r.Compiled, r.Parallel, r.Forked, r.Loaded = ks.KernelsCompiled, ks.KernelsParallel, ks.KernelsForked,
		ks.KernelsLoaded
	if *mode == "disk" {
		if s.double {
			r.MemoryNs, err = cacheMemoryHit[complex128](d, cfg)
		} else {
			r.MemoryNs, err = cacheMemoryHit[complex64](d, cfg)
		}
		if err != nil {
			return err
		}
		r.MemoryHit = true
	}
	return json.NewEncoder(os.Stdout).Encode(r)
}

// cacheMemoryHit returns the mean time of CachedPlan+Release when the plan is cached.
func cacheMemoryHit[T vkfft.Complex](d *vkfft.Device, cfg vkfft.Config) (float64, error) {
	l, err := vkfft.CachedPlan[T](d, cfg)
	if err != nil {
		return 0, err
	}
	l.Release()
	const n = 100000
	start := time.Now()
	for i := 0; i < n; i++ {
		l, err := vkfft.CachedPlan[T](d, cfg)
		if err != nil {
			return 0, err
		}
		l.Release()
	}
	return float64(time.Since(start).Nanoseconds()) / n, nil
}

func cacheMsSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1e3 }
