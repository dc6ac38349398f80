package vkfft

// A plan's kernels one by one. VkFFT compiles a plan's kernels one after another while
// it builds the application, 0.1–0.3 s each with NVRTC: a never-seen 3-D plan costs a
// second or more. The engine instead learns every kernel's source first (a dry
// initialisation), then takes each kernel whose source was compiled before, by any plan
// of this or an earlier process, from here, and compiles the rest several at once
// (engine.KernelReuse). A kernel is found by the SHA-256 of its source, its compile
// options and the identity of compiler and device (kernelSourceKey): in memory for the
// process, and on disk in the kernel cache directory's kernels/ folder, in entries of
// the same format as whole plans' (kcache.go: header, checksum, atomic writes, LRU).

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// EnvCompileJobs sets how many of a plan's kernels compile at once: a number, or "off"
// to leave every compile to VkFFT, one after another, with no kernel found by its
// source. Unset (or 0), as many as the machine has CPUs.
const EnvCompileJobs = "VKFFTGO_COMPILE_JOBS"

// CompileJobsOff, given to SetCompileJobs, turns kernel reuse and parallel compiles off.
const CompileJobsOff = -1

const (
	// kernelsDir is the folder of the kernel cache directory that holds kernels by source.
	kernelsDir = "kernels"
	// kernelMemMaxBytes caps the binaries kept in memory.
	kernelMemMaxBytes = 64 << 20
)

var compileJobsSetting atomic.Int64 // 0: from the environment

// SetCompileJobs sets how many of a plan's kernels compile at once for plans created
// from now on: n > 0 that many, 0 back to VKFFTGO_COMPILE_JOBS and the default (the
// number of CPUs), CompileJobsOff (any n < 0) to let VkFFT compile each kernel itself,
// one after another, reusing none by its source.
func (*KernelCacheControl) SetCompileJobs(n int) {
	if n < 0 {
		n = CompileJobsOff
	}
	compileJobsSetting.Store(int64(n))
}

// CompileJobs returns how many kernels compile at once now; 0 when kernels are left to
// VkFFT (CompileJobsOff, or VKFFTGO_COMPILE_JOBS=off).
func (*KernelCacheControl) CompileJobs() int {
	if n := compileJobsSetting.Load(); n != 0 {
		return max(int(n), 0)
	}
	v := strings.TrimSpace(os.Getenv(EnvCompileJobs))
	if strings.EqualFold(v, "off") {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return n
	}
	return runtime.NumCPU()
}

// EnvCompileFork says where a plan's kernels compile under CUDA: "on" in child processes
// forked from this one, each running only compiles (NVRTC's compiles on threads of one
// process wait on each other; in processes they do not), with threads taking the places
// of the children not forked once fork() has used its time budget; "off" on threads of
// this process. Unset (or anything else), compileForkDefault.
const EnvCompileFork = "VKFFTGO_COMPILE_FORK"

// compileForkDefault is off until forked compiles have been timed and checked on a GPU
// machine (GPU steps coldplan and nvrtc).
const compileForkDefault = false

var compileForkSetting atomic.Int32 // 0: from the environment; 1 on; 2 off

// SetCompileFork says whether plans created from now on may compile their kernels in
// child processes forked from this one (see EnvCompileFork); it overrides the
// environment.
func (*KernelCacheControl) SetCompileFork(on bool) {
	if on {
		compileForkSetting.Store(1)
	} else {
		compileForkSetting.Store(2)
	}
}

// CompileFork says whether kernels may compile in forked child processes now.
func (*KernelCacheControl) CompileFork() bool {
	switch compileForkSetting.Load() {
	case 1:
		return true
	case 2:
		return false
	}
	switch strings.ToLower(strings.TrimSpace(os.Getenv(EnvCompileFork))) {
	case "on", "1", "true":
		return true
	case "off", "0", "false":
		return false
	}
	return compileForkDefault
}

// kernelReuse is engine.KernelReuse for the builds of one kernelSource.
type kernelReuse struct {
	store  kernelStore // the kernels/ folder, with the settings of the build
	id     kcacheIdent
	jobs   int
	fork   bool
	stored atomic.Bool // something was written: trim the folder afterwards
}

// newKernelReuse is kernel reuse for builds on the device of id with store's settings,
// or nil when it is off.
func newKernelReuse(store kernelStore, id kcacheIdent) *kernelReuse {
	jobs := kernelCache.CompileJobs()
	if jobs == 0 || !engine.PlanKernelsSupported() {
		return nil
	}
	if store.on {
		store.dir = filepath.Join(store.dir, kernelsDir)
	}
	// a kernel's binary depends on its source, not on the code that asked VkFFT for it
	id.coreHash = ""
	return &kernelReuse{store: store, id: id, jobs: jobs, fork: kernelCache.CompileFork()}
}

// kernelSourceKey is the key of one kernel's binary.
func kernelSourceKey(id *kcacheIdent, k *engine.SourceKernel) []byte {
	return newCacheKey(nil, kernelSourceEntry).ident(id).
		digest("source", k.Source).
		str("options", k.Options).
		str("program", k.Name).
		bytes()
}

// Load implements engine.KernelReuse: memory first, then the disk.
func (r *kernelReuse) Load(k *engine.SourceKernel) []byte {
	key := kernelSourceKey(&r.id, k)
	name := kcacheFileName(key)
	writeKernelSource(k, name)
	if bin := kernelMem.get(name); bin != nil {
		kcacheStats.loaded.Add(1)
		return bin
	}
	if !r.store.on {
		return nil
	}
	bin, _ := kcacheLookupIn(&kcacheStats.kernels, r.store.dir, key, r.store.maxBytes)
	if bin == nil {
		return nil
	}
	kernelMem.put(name, bin)
	kcacheStats.loaded.Add(1)
	return bin
}

// Forked implements engine.KernelReuse.
func (r *kernelReuse) Forked(n int) { kcacheStats.forked.Add(int64(n)) }

// Keep implements engine.KernelReuse.
func (r *kernelReuse) Keep(k *engine.SourceKernel, bin []byte, ahead bool) {
	kcacheStats.compiled.Add(1)
	if ahead {
		kcacheStats.parallel.Add(1)
	}
	key := kernelSourceKey(&r.id, k)
	name := kcacheFileName(key)
	kernelMem.put(name, bin)
	if r.store.on &&
		kcacheWrite(&kcacheStats.kernels, r.store.dir, filepath.Join(r.store.dir, name), key, bin, r.store.maxBytes) {
		r.stored.Store(true)
	}
}

// Jobs implements engine.KernelReuse.
func (r *kernelReuse) Jobs() int { return r.jobs }

// Fork implements engine.KernelReuse.
func (r *kernelReuse) Fork() bool { return r.fork }

// done trims the kernels/ folder once a build stored entries in it.
func (r *kernelReuse) done() {
	if r != nil && r.stored.Swap(false) {
		kcacheTrim(&kcacheStats.kernels, r.store.dir, r.store.maxBytes, "")
	}
}

// kernelMem holds kernel binaries for the process, up to kernelMemMaxBytes; the oldest
// go first.
var kernelMem kernelMemory

type kernelMemory struct {
	mu    sync.Mutex
	m     map[string][]byte
	order []string
	bytes int
}

func (c *kernelMemory) get(name string) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[name]
}

func (c *kernelMemory) put(name string, bin []byte) {
	if len(bin) > kernelMemMaxBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string][]byte{}
	}
	if _, ok := c.m[name]; ok {
		return
	}
	for c.bytes+len(bin) > kernelMemMaxBytes && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= len(c.m[old])
		delete(c.m, old)
	}
	c.m[name] = bin
	c.order = append(c.order, name)
	c.bytes += len(bin)
}

// reset forgets every binary: the process starts afresh, as far as kernels go.
func (c *kernelMemory) reset() {
	c.mu.Lock()
	c.m, c.order, c.bytes = nil, nil, 0
	c.mu.Unlock()
}
