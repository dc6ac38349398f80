package main

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// Cold plans kernel by kernel: what `vkfft cache bench` adds for VkFFT's compiles. A plan
// never seen is built in an empty cache twice, once as VkFFT builds it alone (each
// kernel compiled as it is generated, one after another: VKFFTGO_COMPILE_JOBS=off) and
// once with its kernels compiled several at once; then a fresh process whose cache
// holds only the kernels (no whole-plan entry) finds every kernel by its source. The
// three results of a forward and an inverse transform must agree bit for bit.

// coldKernelsRow is one shape's cold builds.
type coldKernelsRow struct {
	SerialMs   float64 // VkFFT alone, empty cache
	ParallelMs float64 // kernels compiled several at once, empty cache
	Compiled   int64   // kernels compiled in that build
	Parallel   int64   // of those, compiled ahead on the pool
	Forked     int64   // of those, in forked child processes (VKFFTGO_COMPILE_FORK)
	SourceMs   float64 // fresh process, every kernel found by its source
	Loaded     int64   // kernels it found
	Identical  bool    // the three results agree bit for bit
}

type cacheChild func(mode string, s benchSpec, dir string, env ...string) (cacheChildResult, error)

// coldKernels measures s's serial build and the build from kernels by source, next to
// cold, the build in dir with kernels compiled several at once.
func coldKernels(child cacheChild, s benchSpec, dir string, cold cacheChildResult) (*coldKernelsRow, error) {
	row := &coldKernelsRow{ParallelMs: cold.PlanMs, Compiled: cold.Compiled, Parallel: cold.Parallel,
		Forked: cold.Forked}
	if cold.Compiled == 0 {
		return row, errors.New("the cold build compiled no kernel one by one: kernel reuse is off (" +
			vkfft.EnvCompileJobs + "=off?) or not in this build (Vulkan)")
	}
	serial, err := child("cold", s, dir+"-serial", "VKFFTGO_COMPILE_JOBS=off")
	defer os.RemoveAll(dir + "-serial")
	if err != nil {
		return row, err
	}
	row.SerialMs = serial.PlanMs
	if serial.Compiled != 0 {
		return row, fmt.Errorf("VKFFTGO_COMPILE_JOBS=off still compiled %d kernels one by one", serial.Compiled)
	}
	// a cache of the kernels alone: the whole plan's entry is not there to be found
	kernels, err := kernelFolder(dir)
	if err != nil {
		return row, err
	}
	only := dir + "-kernels"
	defer os.RemoveAll(only)
	if err := os.MkdirAll(only, 0o700); err != nil {
		return row, err
	}
	if err := os.Symlink(kernels, filepath.Join(only, filepath.Base(kernels))); err != nil {
		return row, err
	}
	src, err := child("cold", s, only)
	if err != nil {
		return row, err
	}
	row.SourceMs, row.Loaded = src.PlanMs, src.Loaded
	row.Identical = serial.Sum != "" && serial.Sum == cold.Sum && src.Sum == cold.Sum
	switch {
	case src.Compiled != 0:
		return row, fmt.Errorf("a fresh process compiled %d of the kernels a cold build stored", src.Compiled)
	case !row.Identical:
		return row, fmt.Errorf("results differ: serial %s, parallel %s, kernels by source %s", serial.Sum, cold.Sum,
			src.Sum)
	}
	return row, nil
}

// kernelFolder is where the cache in dir keeps kernels by their source.
func kernelFolder(dir string) (string, error) {
	kc := vkfft.KernelCache()
	old, on := kc.Dir()
	kc.SetDir(dir)
	info, _, err := kc.Info()
	if !on {
		old = "off"
	}
	kc.SetDir(old)
	if err != nil {
		return "", err
	}
	if info.KernelDir == "" || info.KernelEntries == 0 {
		return "", errors.New("the cold build stored no kernel by its source")
	}
	return info.KernelDir, nil
}

func printColdKernels(rows []cacheBenchRow) {
	fmt.Printf("\ncold plans kernel by kernel: serial = VkFFT alone (VKFFTGO_COMPILE_JOBS=off), parallel = %d "+
		"compile jobs (forked children: %v), by source = a fresh process finding every kernel by its source's hash; "+
		"kernels = compiled (ahead, in children)\n", vkfft.KernelCache().CompileJobs(), vkfft.KernelCache().CompileFork())
	fmt.Printf("%-20s %10s %12s %8s %12s %13s %6s %10s\n", "shape", "serial ms", "parallel ms", "speedup",
		"kernels", "by source ms", "found", "identical")
	for _, r := range rows {
		k := r.Kernels
		if k == nil {
			continue
		}
		speedup := 0.0
		if k.ParallelMs > 0 {
			speedup = k.SerialMs / k.ParallelMs
		}
		fmt.Printf("%-20s %10.1f %12.1f %8.2f %12s %13.1f %6d %10v\n", r.Shape, k.SerialMs, k.ParallelMs, speedup,
			fmt.Sprintf("%d (%d, %d)", k.Compiled, k.Parallel, k.Forked), k.SourceMs, k.Loaded, k.Identical)
	}
}

// coldPlan times NewPlan of cfg and, when check, returns a checksum of a forward and an
// inverse transform of a fixed input.
func coldPlan[T vkfft.Complex](d *vkfft.Device, cfg vkfft.Config, check bool) (float64, string, error) {
	start := time.Now()
	p, err := vkfft.NewPlan[T](d, cfg)
	if err != nil {
		return 0, "", err
	}
	defer p.Close()
	ms := cacheMsSince(start)
	if !check {
		return ms, "", nil
	}
	x := make([]T, p.Len())
	for i := range x {
		// cheap, deterministic and not periodic at any transform length
		u := uint32(i) * 2654435761
		x[i] = T(complex(float64(u>>8)/(1<<24)-0.5, float64(u&0xffff)/(1<<16)-0.5))
	}
	y := make([]T, len(x))
	if err := p.Forward(y, x); err != nil {
		return 0, "", err
	}
	if err := p.Inverse(x, y); err != nil {
		return 0, "", err
	}
	h := checksum(0, y)
	h = checksum(h, x)
	return ms, hex.EncodeToString(binary.LittleEndian.AppendUint64(nil, h)), nil
}

// checksum folds v's bytes into h, 8 at a time (FNV-1a over words: gigabytes in a second).
func checksum[T any](h uint64, v []T) uint64 {
	if len(v) == 0 {
		return h
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*int(unsafe.Sizeof(v[0])))
	if h == 0 {
		h = 14695981039346656037
	}
	for len(b) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(b)) * 1099511628211
		b = b[8:]
	}
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}
