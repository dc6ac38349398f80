package vkfft

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/vkfftgo/vkfftgo/internal/engine"

	"github.com/stretchr/testify/require"
)

// Kernel reuse tests (kreuse.go): a plan's kernels found by their source's hash, in
// memory and in the cache directory's kernels/ folder, and compiled several at once.
// Every plan's result is compared bit for bit with the same plan built the way VkFFT
// builds it alone (CompileJobsOff).

// krFresh gives the test a fresh cache directory, no kernel in memory (a new process,
// as far as kernels go) and jobs compile jobs (krNeed first).
func krFresh(t *testing.T, jobs int) string {
	t.Helper()
	krNeed(t)
	dir := kcDir(t)
	kernelMem.reset()
	KernelCache().SetCompileJobs(jobs)
	t.Cleanup(func() {
		KernelCache().SetCompileJobs(0)
		kernelMem.reset()
	})
	return dir
}

// krNeed skips the test where this build compiles as VkFFT does (Vulkan:
// TestKernelReuseNotOnVulkan).
func krNeed(t *testing.T) {
	t.Helper()
	if !engine.PlanKernelsSupported() {
		t.Skip("kernels are not compiled one by one on this backend")
	}
}

// krCounts is the change of the kernel counters between two readings.
type krCounts struct{ compiled, parallel, forked, loaded, stored, rejected int64 }

func krDelta(before, after KernelCacheStats) krCounts {
	return krCounts{
		compiled: after.KernelsCompiled - before.KernelsCompiled,
		parallel: after.KernelsParallel - before.KernelsParallel,
		forked:   after.KernelsForked - before.KernelsForked,
		loaded:   after.KernelsLoaded - before.KernelsLoaded,
		stored:   after.KernelsStored - before.KernelsStored,
		rejected: after.KernelsRejected - before.KernelsRejected,
	}
}

// krPlan is a plan of the tests: C2C or R2C, single or double precision.
type krPlan struct {
	name   string
	cfg    Config
	real   bool
	double bool
}

// krRun builds p, runs a forward and an inverse transform of a fixed input and returns
// both results as raw bytes, with the kernel counters' change during the build.
func krRun(t *testing.T, p krPlan) ([]byte, krCounts) {
	t.Helper()
	before := KernelCache().Stats()
	var out []byte
	switch {
	case p.real:
		pl, err := NewRealPlan[float32, complex64](testDev, p.cfg)
		require.NoError(t, err)
		defer pl.Close()
		after := KernelCache().Stats()
		rng := rand.New(rand.NewPCG(1, 2))
		x := make([]float32, pl.RealLen())
		for i := range x {
			x[i] = float32(rng.Float64()*2 - 1)
		}
		spec := make([]complex64, pl.ComplexLen())
		back := make([]float32, pl.RealLen())
		require.NoError(t, pl.Forward(spec, x))
		require.NoError(t, pl.Inverse(back, spec))
		out = append(krBytes(spec), krBytes(back)...)
		return out, krDelta(before, after)
	case p.double:
		pl, err := NewPlan[complex128](testDev, p.cfg)
		require.NoError(t, err)
		defer pl.Close()
		after := KernelCache().Stats()
		x, _ := randomComplex[complex128](rand.New(rand.NewPCG(1, 2)), pl.Len())
		fwd := make([]complex128, len(x))
		back := make([]complex128, len(x))
		require.NoError(t, pl.Forward(fwd, x))
		require.NoError(t, pl.Inverse(back, fwd))
		return append(krBytes(fwd), krBytes(back)...), krDelta(before, after)
	}
	pl, err := NewPlan[complex64](testDev, p.cfg)
	require.NoError(t, err)
	defer pl.Close()
	after := KernelCache().Stats()
	x, _ := randomComplex[complex64](rand.New(rand.NewPCG(1, 2)), pl.Len())
	fwd := make([]complex64, len(x))
	back := make([]complex64, len(x))
	require.NoError(t, pl.Forward(fwd, x))
	require.NoError(t, pl.Inverse(back, fwd))
	return append(krBytes(fwd), krBytes(back)...), krDelta(before, after)
}

func krBytes[T any](v []T) []byte {
	out, err := binary.Append(nil, binary.LittleEndian, v)
	if err != nil {
		panic(err)
	}
	return out
}

// krAlone is p's result built as VkFFT builds it alone: no kernel reused, none compiled
// ahead, no disk cache.
func krAlone(t *testing.T, p krPlan) []byte {
	t.Helper()
	KernelCache().SetCompileJobs(CompileJobsOff)
	defer KernelCache().SetCompileJobs(0)
	t.Setenv(EnvCacheDir, "off")
	out, d := krRun(t, p)
	require.Equal(t, krCounts{}, d, "kernel reuse is off")
	return out
}

// krDropPlans removes the whole plans' entries of dir, keeping the kernels/ folder: the
// next build of a plan goes through its kernels.
func krDropPlans(t *testing.T, dir string) {
	t.Helper()
	entries, _, err := listEntries(dir)
	require.NoError(t, err)
	for _, e := range entries {
		require.NoError(t, os.Remove(e.Path))
	}
}

// krKernelFiles lists the kernels/ folder's entries.
func krKernelFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, _, err := listEntries(filepath.Join(dir, kernelsDir))
	require.NoError(t, err)
	var paths []string
	for _, e := range entries {
		paths = append(paths, e.Path)
	}
	return paths
}

// krEntryKey reads the key written in an entry's header.
func krEntryKey(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Greater(t, len(data), kcacheHdrSize)
	kl := binary.LittleEndian.Uint32(data[12:])
	require.LessOrEqual(t, int(kl), len(data)-kcacheHdrSize)
	return data[kcacheHdrSize : kcacheHdrSize+int(kl)]
}

// Where kernels are not compiled one by one (Vulkan), plans are built as VkFFT builds
// them, whatever the setting, and nothing is counted.
func TestKernelReuseNotOnVulkan(t *testing.T) {
	if engine.PlanKernelsSupported() {
		t.Skip("this backend compiles kernels one by one")
	}
	kcDir(t)
	p := krPlan{cfg: Config{Shape: []int{12, 20}, Tune: TuneOff}}
	want := krAlone(t, p)
	got, d := krRun(t, p)
	require.Equal(t, want, got)
	require.Equal(t, krCounts{}, d)
}

func TestCompileJobsSettings(t *testing.T) {
	kc := KernelCache()
	defer kc.SetCompileJobs(0)
	cases := []struct {
		name string
		env  string
		set  int
		want int
	}{
		{"default", "", 0, runtime.NumCPU()},
		{"environment", "3", 0, 3},
		{"environment off", "off", 0, 0},
		{"environment OFF", " OFF ", 0, 0},
		{"environment junk", "many", 0, runtime.NumCPU()},
		{"environment zero", "0", 0, runtime.NumCPU()},
		{"API over the environment", "3", 5, 5},
		{"API off over the environment", "4", CompileJobsOff, 0},
		{"API negative is off", "", -7, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(EnvCompileJobs, c.env)
			kc.SetCompileJobs(c.set)
			require.Equal(t, c.want, kc.CompileJobs())
		})
	}
}

func TestCompileForkSettings(t *testing.T) {
	kc := KernelCache()
	defer compileForkSetting.Store(0)
	cases := []struct {
		name string
		env  string
		set  int // 0: leave to the environment; 1 SetCompileFork(true); 2 (false)
		want bool
	}{
		{"default", "", 0, compileForkDefault},
		{"environment off", "off", 0, false},
		{"environment OFF", " OFF ", 0, false},
		{"environment 0", "0", 0, false},
		{"environment on", "on", 0, true},
		{"environment ON", " ON ", 0, true},
		{"environment true", "true", 0, true},
		{"environment junk", "sometimes", 0, compileForkDefault},
		{"API on over the environment", "off", 1, true},
		{"API off over the environment", "on", 2, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(EnvCompileFork, c.env)
			compileForkSetting.Store(0)
			if c.set != 0 {
				kc.SetCompileFork(c.set == 1)
			}
			require.Equal(t, c.want, kc.CompileFork())
			require.Equal(t, c.want, newKernelReuseFork(t))
		})
	}
}

// newKernelReuseFork is what a plan's kernel reuse would be told now.
func newKernelReuseFork(t *testing.T) bool {
	t.Helper()
	r := newKernelReuse(kernelStore{}, kcacheIdent{})
	if r == nil { // this build compiles kernels only inside VkFFT (Vulkan)
		return kernelCache.CompileFork()
	}
	return r.Fork()
}

// A second plan whose kernels are partly the first's compiles only the others, and
// gives VkFFT's own result bit for bit.
func TestKernelReuseAcrossPlans(t *testing.T) {
	krNeed(t)
	cases := []struct {
		name          string
		first, second krPlan
		shared        int64 // kernels the second plan takes from the first
	}{
		{"forward kernels of another normalisation",
			krPlan{cfg: Config{Shape: []int{16, 24}, Tune: TuneOff}},
			krPlan{cfg: Config{Shape: []int{16, 24}, Norm: NormForward, Tune: TuneOff}}, 2},
		{"a 2-D plan's last axis for a batch of 1-D transforms",
			krPlan{cfg: Config{Shape: []int{16, 24}, Tune: TuneOff}},
			krPlan{cfg: Config{Shape: []int{24}, Batch: 16, Tune: TuneOff}}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := krAlone(t, c.second)
			krFresh(t, 2)
			_, first := krRun(t, c.first)
			require.Positive(t, first.compiled)
			require.Zero(t, first.loaded, "nothing compiled before")
			require.Equal(t, first.compiled, first.stored, "every kernel compiled is kept on disk")
			got, second := krRun(t, c.second)
			require.Equal(t, c.shared, second.loaded, "%+v", second)
			require.Less(t, second.compiled, first.compiled, "%+v", second)
			require.Equal(t, want, got, "the result differs from VkFFT's own plan's")
		})
	}
}

// Every way of getting a plan's kernels gives VkFFT's own result bit for bit: compiled
// one at a time, several at once, found in memory, found on disk in a new process.
func TestKernelReuseBitwise(t *testing.T) {
	krNeed(t)
	plans := []krPlan{
		{name: "2-D C2C", cfg: Config{Shape: []int{12, 20}, Batch: 2, Tune: TuneOff}},
		{name: "2-D R2C", cfg: Config{Shape: []int{8, 30}, Tune: TuneOff}, real: true},
		// Bluestein: VkFFT runs kernels of a plan of its own while building this one
		{name: "1-D Bluestein", cfg: Config{Shape: []int{1031}, Tune: TuneOff}},
		{name: "3-D C2C double", cfg: Config{Shape: []int{4, 6, 8}, Tune: TuneOff}, double: true},
	}
	for _, p := range plans {
		t.Run(p.name, func(t *testing.T) {
			if p.double && !testDev.Info().DoublePrecision {
				t.Skip("no double precision on this device")
			}
			want := krAlone(t, p)

			krFresh(t, 1)
			t.Setenv(EnvCacheDir, "off")
			got, d := krRun(t, p)
			require.Equal(t, want, got, "compiled one at a time")
			require.Positive(t, d.compiled)
			require.Equal(t, d.compiled, d.parallel, "every kernel was compiled ahead of VkFFT")

			dir := krFresh(t, 4)
			got, d = krRun(t, p)
			require.Equal(t, want, got, "compiled several at once")
			require.Equal(t, d.compiled, d.parallel)
			require.Zero(t, d.forked, "compiled in children with the fork off")
			n := d.compiled

			krDropPlans(t, dir)
			got, d = krRun(t, p)
			require.Equal(t, want, got, "found in memory")
			require.Equal(t, krCounts{loaded: n}, d)

			kernelMem.reset() // a new process
			krDropPlans(t, dir)
			got, d = krRun(t, p)
			require.Equal(t, want, got, "found on disk")
			require.Equal(t, krCounts{loaded: n}, d)

			// with the whole plan cached, its kernels are not looked at one by one
			got, d = krRun(t, p)
			require.Equal(t, want, got, "the whole plan from disk")
			require.Equal(t, krCounts{}, d)

			// in forked children: NVRTC's compiles only (OpenCL's compiler is the driver's)
			krFresh(t, 4)
			KernelCache().SetCompileFork(true)
			t.Cleanup(func() { compileForkSetting.Store(0) })
			got, fd := krRun(t, p)
			compileForkSetting.Store(0)
			require.Equal(t, want, got, "compiled in forked children")
			require.Equal(t, n, fd.compiled)
			require.Equal(t, fd.compiled, fd.parallel)
			if CurrentBackend() == CUDA && n > 1 {
				// all of them unless the forks ran past their time budget
				require.Positive(t, fd.forked, "no kernel compiled in a child")
				require.LessOrEqual(t, fd.forked, n)
			} else {
				require.Zero(t, fd.forked, "one kernel, or a backend that does not fork")
			}
		})
	}
}

// A damaged kernel entry is not trusted: the kernel is compiled afresh, the result is
// right, and the entry is rewritten.
func TestKernelReuseBadEntries(t *testing.T) {
	krNeed(t)
	p := krPlan{cfg: Config{Shape: []int{10, 12}, Tune: TuneOff}}
	want := krAlone(t, p)
	cases := []struct {
		name     string
		damage   func(t *testing.T, path string) []byte
		rejected int64 // entries the checks catch
		refused  int64 // entries found, then refused by the driver (counted loaded, then compiled)
	}{
		{"flipped byte", func(t *testing.T, path string) []byte {
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			b[len(b)-10] ^= 0x40
			return b
		}, 1, 0},
		{"truncated", func(t *testing.T, path string) []byte {
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			return b[:len(b)/2]
		}, 1, 0},
		{"garbage", func(*testing.T, string) []byte { return []byte("not a kernel-cache entry at all") }, 1, 0},
		// well formed, checksum right, but not a binary: the driver refuses it
		{"a binary the driver refuses", func(t *testing.T, path string) []byte {
			bogus := []byte("this is not a program binary of any device")
			key := krEntryKey(t, path)
			return append(encodeEntryHeader(key, bogus), bogus...)
		}, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := krFresh(t, 2)
			_, first := krRun(t, p)
			files := krKernelFiles(t, dir)
			require.Len(t, files, int(first.compiled))
			victim := files[0]
			good, err := os.ReadFile(victim)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(victim, c.damage(t, victim), 0o600))
			kernelMem.reset()
			krDropPlans(t, dir)

			got, d := krRun(t, p)
			require.Equal(t, want, got)
			require.Equal(t, c.rejected, d.rejected, "%+v", d)
			require.Positive(t, d.compiled, "the damaged kernel is compiled afresh")
			require.Equal(t, first.compiled+c.refused, d.compiled+d.loaded, "%+v", d)
			kcNoTempFiles(t, filepath.Join(dir, kernelsDir))
			fixed, err := os.ReadFile(victim)
			require.NoError(t, err)
			_, err = decodeEntry(fixed, krEntryKey(t, victim))
			require.NoError(t, err, "the entry is rewritten")
			require.Len(t, fixed, len(good))

			kernelMem.reset()
			krDropPlans(t, dir)
			got, d = krRun(t, p)
			require.Equal(t, want, got)
			require.Equal(t, krCounts{loaded: first.compiled}, d, "the rewritten entry is used")
		})
	}
}

// Plans sharing kernels, created from several goroutines at once, are all right.
func TestKernelReuseConcurrentPlans(t *testing.T) {
	krNeed(t)
	plans := []krPlan{
		{cfg: Config{Shape: []int{5, 20}, Tune: TuneOff}},
		{cfg: Config{Shape: []int{20}, Batch: 5, Tune: TuneOff}},
		{cfg: Config{Shape: []int{5, 20}, Norm: NormOrtho, Tune: TuneOff}},
	}
	want := make([][]byte, len(plans))
	for i, p := range plans {
		want[i] = krAlone(t, p)
	}
	krFresh(t, 2)
	before := KernelCache().Stats()
	const rounds = 2
	var wg sync.WaitGroup
	errs := make(chan error, rounds*len(plans))
	for r := 0; r < rounds; r++ {
		for i, p := range plans {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var got []byte
				ok := t.Run(fmt.Sprintf("round %d plan %d", r, i), func(t *testing.T) { got, _ = krRun(t, p) })
				if !ok {
					errs <- fmt.Errorf("round %d plan %d failed", r, i)
				} else if string(got) != string(want[i]) {
					errs <- fmt.Errorf("round %d plan %d: result differs from VkFFT's own plan's", r, i)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// which plan compiles a shared kernel and which finds it depends on their timing
	d := krDelta(before, KernelCache().Stats())
	require.Positive(t, d.compiled)
	require.Zero(t, d.rejected)
}

// The fused spectrometer's kernels are found by their rewritten source: two fusion
// modes of the same size rewrite the same VkFFT kernel differently and must not share
// it; the same mode at another batch does.
func TestKernelReuseFusedSpectrometer(t *testing.T) {
	krFresh(t, 2)
	rng := rand.New(rand.NewPCG(3, 4))
	cases := []struct {
		name     string
		cfg      SpectrometerConfig
		compiles bool // a kernel to compile: no earlier spectrometer has its rewritten source
	}{
		{"power", SpectrometerConfig{N: 256, Batch: 4, Input: ComplexInt8, Fusion: FusionPower}, true},
		{"atomic, the same VkFFT kernel rewritten otherwise", SpectrometerConfig{N: 256, Batch: 4, Input: ComplexInt8,
			Fusion: FusionAtomic}, true},
		{"atomic at another batch", SpectrometerConfig{N: 256, Batch: 2, Input: ComplexInt8, Fusion: FusionAtomic}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := KernelCache().Stats()
			sp, err := NewSpectrometer(testDev, c.cfg)
			require.NoError(t, err)
			defer sp.Close()
			d := krDelta(before, KernelCache().Stats())
			require.Equal(t, c.cfg.Fusion, sp.Fusion())
			if c.compiles {
				require.Positive(t, d.compiled, "%+v", d)
			} else {
				require.Zero(t, d.compiled, "%+v", d)
				require.Positive(t, d.loaded, "%+v", d)
			}
			raw, val := randomSamples(rng, c.cfg.Input, sp.numbers())
			require.NoError(t, accumulateRaw(sp, raw))
			got := make([]float32, sp.Bins())
			require.NoError(t, sp.Read(got))
			require.Less(t, relErrReal(got, refPower(sp.cfg, val)), 1e-5)
		})
	}
}

// VKFFTGO_KERNEL_SOURCES receives each kernel a plan compiles, once, with its options;
// a second plan that shares kernels adds only its own; a folder that cannot be written
// leaves plans as they are.
func TestKernelSourcesWritten(t *testing.T) {
	krNeed(t)
	want := krAlone(t, krPlan{cfg: Config{Shape: []int{16, 24}, Norm: NormForward, Tune: TuneOff}})
	krFresh(t, 2)
	dir := filepath.Join(t.TempDir(), "sources")
	t.Setenv(envKernelSources, dir)
	ext := ".cl"
	if compiledBackend == CUDA {
		ext = ".cu"
	}
	sources := func() []string {
		m, err := filepath.Glob(filepath.Join(dir, "*"+ext))
		require.NoError(t, err)
		return m
	}
	_, first := krRun(t, krPlan{cfg: Config{Shape: []int{16, 24}, Tune: TuneOff}})
	files := sources()
	require.Len(t, files, int(first.compiled), "one file a kernel compiled")
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		require.Contains(t, string(src), "__global", "%s is a kernel's source", f)
		_, err = os.Stat(strings.TrimSuffix(f, ext) + ".options")
		require.NoError(t, err, "%s has its options", f)
	}
	got, second := krRun(t, krPlan{cfg: Config{Shape: []int{16, 24}, Norm: NormForward, Tune: TuneOff}})
	require.Positive(t, second.loaded)
	require.Len(t, sources(), len(files)+int(second.compiled), "shared kernels are written once")
	require.Equal(t, want, got)

	blocked := filepath.Join(t.TempDir(), "a-file")
	require.NoError(t, os.WriteFile(blocked, nil, 0o644))
	t.Setenv(envKernelSources, filepath.Join(blocked, "sources"))
	krFresh(t, 2)
	got, _ = krRun(t, krPlan{cfg: Config{Shape: []int{16, 24}, Norm: NormForward, Tune: TuneOff}})
	require.Equal(t, want, got, "a folder that cannot be written changes nothing")
}
