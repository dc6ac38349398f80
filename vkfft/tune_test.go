package vkfft

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Autotuner tests on the default device (PoCL in CI). A PoCL compile costs about half a
// second, so the search is cut down to two small stages (tuneTestStages); the full
// search runs on the H200 (tests/gpu/steps/tune.sh).

var tuneCfg = Config{Shape: []int{32, 32}, Batch: 2}

// tuneTestStages replaces the search with two stages of one candidate each, the first
// certain to win (a candidate must beat the defaults by 1 % to be adopted, which timing
// noise cannot guarantee, so the test stage is rigged through tuneTimeBias).
func tuneTestStages(t *testing.T) {
	t.Helper()
	old, oldBias := tuneStages, tuneTimeBias
	tuneStages = []tuneStage{
		{name: "test threads", cands: func(l *layout, best Tuning) []Tuning {
			t := best
			t.AimThreads = 64
			return []Tuning{t}
		}},
		{name: "test grouped", cands: func(l *layout, best Tuning) []Tuning {
			t := best
			t.GroupedBatch[0] = 2
			return []Tuning{t}
		}},
	}
	// the candidate with AimThreads 64 counts as a thousand times faster, so it wins
	// whatever the timing noise of a loaded machine
	tuneTimeBias = func(t Tuning) float64 {
		if t.AimThreads == 64 && t.GroupedBatch == ([maxRank]int{}) {
			return 1e-3
		}
		return 1
	}
	t.Cleanup(func() { tuneStages, tuneTimeBias = old, oldBias })
}

// tuneFresh gives the test its own kernel-cache directory and an empty tuning memory
// (as a new process would have).
func tuneFresh(t *testing.T) string {
	t.Helper()
	dir := kcDir(t)
	storedTunings.forget()
	t.Cleanup(storedTunings.forget)
	return dir
}

// tuneCheck runs p forward on random data against the float64 reference.
func tuneCheck(t *testing.T, p *Plan[complex64]) {
	t.Helper()
	cfg := p.Config()
	x, ref := randomComplex[complex64](rand.New(rand.NewPCG(3, 4)), p.Len())
	got := make([]complex64, len(x))
	require.NoError(t, p.Forward(got, x))
	require.Less(t, relErr(got, refFFT(ref, cfg.Shape, cfg.Batch, false)), 1e-5)
}

func TestTuneModes(t *testing.T) {
	for s, want := range map[string]TuneMode{"off": TuneOff, "cached": TuneCached, "": TuneCached,
		" Measure ": TuneMeasure, "refresh": TuneRefresh} {
		got, err := ParseTuneMode(s)
		require.NoError(t, err, s)
		require.Equal(t, want, got, s)
	}
	_, err := ParseTuneMode("fast")
	require.ErrorIs(t, err, ErrInvalidArgument)

	t.Setenv(EnvTune, "")
	m, err := resolveTuneMode(TuneDefault)
	require.NoError(t, err)
	require.Equal(t, TuneCached, m, "unset means cached")
	t.Setenv(EnvTune, "off")
	m, _ = resolveTuneMode(TuneDefault)
	require.Equal(t, TuneOff, m)
	m, _ = resolveTuneMode(TuneMeasure)
	require.Equal(t, TuneMeasure, m, "an explicit mode wins over the environment")

	t.Setenv(EnvTune, "sometimes")
	_, err = NewPlan[complex64](testDev, tuneCfg)
	require.ErrorIs(t, err, ErrInvalidArgument)
	require.Contains(t, err.Error(), "VKFFTGO_TUNE")
	require.Contains(t, err.Error(), "sometimes")

	_, err = NewPlan[complex64](testDev, Config{Shape: []int{8}, Tune: TuneRefresh + 1})
	require.ErrorIs(t, err, ErrInvalidArgument)
}

func TestTuningValuesChecked(t *testing.T) {
	for _, tc := range []struct {
		t     Tuning
		field string
	}{
		{Tuning{CoalescedMemory: -1}, "CoalescedMemory"},
		{Tuning{AimThreads: 1 << 20}, "AimThreads"},
		{Tuning{RegisterBoost: 17}, "RegisterBoost"},
		{Tuning{RegisterBoost4Step: -2}, "RegisterBoost4Step"},
		{Tuning{GroupedBatch: [maxRank]int{0, 4, 0}}, "GroupedBatch[1]"}, // the shape has one axis
		{Tuning{BandwidthBoost: -2}, "BandwidthBoost"},
		{Tuning{SwapTo3Stage4Step: 4096}, "SwapTo3Stage4Step"},
		{Tuning{LUT: LUTOff + 1}, "LUT"},
	} {
		_, err := NewPlan[complex64](testDev, Config{Shape: []int{64}, Tuning: tc.t})
		require.ErrorIs(t, err, ErrInvalidArgument, "%+v", tc.t)
		require.Contains(t, err.Error(), "Tuning."+tc.field, "%+v", tc.t)
	}
}

// Measure, store, and reuse: a later plan (a fresh process memory, a fresh plan cache)
// takes the stored tuning without measuring, and its kernels come from the disk cache.
func TestTuneMeasureStoreReuse(t *testing.T) {
	dir := tuneFresh(t)
	tuneTestStages(t)
	var lines []string
	var mu sync.Mutex
	SetTuneProgress(func(s string) { mu.Lock(); lines = append(lines, s); mu.Unlock() })
	defer SetTuneProgress(nil)
	defer func() {
		if t.Failed() {
			mu.Lock()
			t.Log("tuner progress:\n" + strings.Join(lines, "\n"))
			mu.Unlock()
		}
	}()

	cfg := tuneCfg
	cfg.Tune = TuneMeasure
	p, err := NewPlan[complex64](testDev, cfg)
	require.NoError(t, err)
	r := p.Tuned()
	require.Equal(t, TunedMeasured, r.Source)
	require.Equal(t, 64, r.Tuning.AimThreads, "the rigged winner")
	require.Equal(t, r.Tuning, p.Config().Tuning, "Config reports the tuning the plan runs with")
	require.Equal(t, 5, r.Candidates, "defaults + one candidate per stage + out of place: the winner and the defaults")
	require.Positive(t, r.DefaultMs)
	require.Positive(t, r.TunedMs)
	require.Positive(t, r.OutOfPlaceMs)
	require.Equal(t, 64, r.OutOfPlace.AimThreads, "the rigged winner, out of place too")
	tuneCheck(t, p)
	// the first out-of-place call loads the out-of-place kernels the tuner stored
	before := ReadKernelCacheStats()
	a, err := NewBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	b, err := NewBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	require.NoError(t, p.ForwardBuffer(b, a))
	require.NoError(t, testDev.Sync())
	require.Equal(t, before.Hits+1, ReadKernelCacheStats().Hits)
	require.Equal(t, before.Misses, ReadKernelCacheStats().Misses)
	require.NoError(t, a.Close())
	require.NoError(t, b.Close())
	require.NoError(t, p.Close())
	mu.Lock()
	require.NotEmpty(t, lines)
	require.Contains(t, strings.Join(lines, "\n"), "done in")
	mu.Unlock()

	list, err := ListTunings()
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, []int{32, 32}, list[0].Shape)
	require.Equal(t, 2, list[0].Batch)
	require.Equal(t, "c2c", list[0].Kind)
	require.Equal(t, r.Tuning, list[0].Tuning)
	require.Empty(t, list[0].Problem)
	require.Equal(t, dir, filepath.Dir(list[0].Path))

	// "a new process": nothing in memory, the store on disk
	storedTunings.forget()
	measured := tuneMeasurements.Load()
	before = ReadKernelCacheStats()
	for _, mode := range []TuneMode{TuneCached, TuneMeasure, TuneDefault} {
		cfg.Tune = mode
		q, err := NewPlan[complex64](testDev, cfg)
		require.NoError(t, err)
		require.Equal(t, TunedStored, q.Tuned().Source, mode)
		require.Equal(t, r.Tuning, q.Tuned().Tuning, mode)
		require.Equal(t, r.DefaultMs, q.Tuned().DefaultMs, mode)
		require.Equal(t, r.OutOfPlace, q.Tuned().OutOfPlace, mode)
		tuneCheck(t, q)
		require.NoError(t, q.Close())
	}
	require.Equal(t, measured, tuneMeasurements.Load(), "no measurement when a tuning is stored")
	after := ReadKernelCacheStats()
	require.Equal(t, before.Hits+3, after.Hits, "the tuned kernels come from the disk cache")
	require.Equal(t, before.Misses, after.Misses)

	// a fresh in-memory plan cache (a new device) finds the stored tuning as well
	d, err := Open(0)
	require.NoError(t, err)
	defer d.Close()
	lease, err := CachedPlan[complex64](d, Config{Shape: tuneCfg.Shape, Batch: tuneCfg.Batch})
	require.NoError(t, err)
	require.Equal(t, TunedStored, lease.Plan().Tuned().Source)
	lease.Release()

	// off keeps VkFFT's defaults; a Tuning given by hand is used as given
	cfg.Tune = TuneOff
	q, err := NewPlan[complex64](testDev, cfg)
	require.NoError(t, err)
	require.Equal(t, TuneResult{}, q.Tuned())
	require.NoError(t, q.Close())
	cfg.Tune = TuneMeasure
	cfg.Tuning = Tuning{CoalescedMemory: 64}
	q, err = NewPlan[complex64](testDev, cfg)
	require.NoError(t, err)
	require.Equal(t, TunedByHand, q.Tuned().Source)
	require.Equal(t, cfg.Tuning, q.Tuned().Tuning)
	require.NoError(t, q.Close())
	require.Equal(t, measured, tuneMeasurements.Load())
}

// TuneRefresh measures again and replaces the stored tuning; real plans are tuned too.
func TestTuneRefreshAndRealPlans(t *testing.T) {
	tuneFresh(t)
	tuneTestStages(t)
	cfg := Config{Shape: []int{16, 32}, Tune: TuneMeasure}
	measured := tuneMeasurements.Load()
	p, err := NewRealPlan[float32, complex64](testDev, cfg)
	require.NoError(t, err)
	require.Equal(t, TunedMeasured, p.Tuned().Source)
	x := make([]float32, p.RealLen())
	for i := range x {
		x[i] = float32(i%7) - 3
	}
	spec := make([]complex64, p.ComplexLen())
	back := make([]float32, p.RealLen())
	require.NoError(t, p.Forward(spec, x))
	require.NoError(t, p.Inverse(back, spec))
	for i := range x {
		require.InDelta(t, x[i], back[i], 1e-4)
	}
	require.NoError(t, p.Close())
	cfg.Tune = TuneRefresh
	q, err := NewRealPlan[float32, complex64](testDev, cfg)
	require.NoError(t, err)
	require.Equal(t, TunedMeasured, q.Tuned().Source)
	require.NoError(t, q.Close())
	require.Equal(t, measured+2, tuneMeasurements.Load())
	list, err := ListTunings()
	require.NoError(t, err)
	require.Len(t, list, 1, "refresh replaces the entry")
	require.Equal(t, "r2c", list[0].Kind)
}

// A stored tuning that is damaged, foreign or out of range is never used: the plan
// gets VkFFT's defaults (cached) or a fresh measurement that rewrites the entry.
func TestTuneDamagedStoreIgnored(t *testing.T) {
	dir := tuneFresh(t)
	tuneTestStages(t)
	l, err := validate(tuneCfg, kindC2C, 8)
	require.NoError(t, err)
	id := identFor(&testDev.info)
	key := tuningKey(&id, &l)
	path := filepath.Join(dir, kcacheFileName(key))
	good := tuneRecord{tuning: Tuning{AimThreads: 64}, defaultMs: 1, tunedMs: 0.5, candidates: 3}
	entry := func(payload []byte) []byte { return append(encodeEntryHeader(key, payload), payload...) }
	valid := entry(encodeTuning(good))

	damage := map[string][]byte{
		"flipped payload byte": func() []byte {
			b := append([]byte(nil), valid...)
			b[len(b)-3] ^= 0x10
			return b
		}(),
		"truncated":        valid[:len(valid)-5],
		"out of range":     entry(bytes.Replace(encodeTuning(good), []byte("aim_threads=64"), []byte("aim_threads=99999"), 1)),
		"unknown field":    entry(append(encodeTuning(good), "warp=7\n"...)),
		"missing field":    entry(bytes.Replace(encodeTuning(good), []byte("lut=0\n"), nil, 1)),
		"not a number":     entry(bytes.Replace(encodeTuning(good), []byte("tuned_ms=0.5"), []byte("tuned_ms=NaN"), 1)),
		"another device":   append(encodeEntryHeader(append([]byte("x"), key...), encodeTuning(good)), encodeTuning(good)...),
		"a kernel, not me": entry([]byte("\x00\x01binary")),
	}
	for name, data := range damage {
		t.Run(name, func(t *testing.T) {
			storedTunings.forget()
			require.NoError(t, os.WriteFile(path, data, 0o600))
			before := ReadKernelCacheStats()
			cfg := tuneCfg
			cfg.Tune = TuneCached
			p, err := NewPlan[complex64](testDev, cfg)
			require.NoError(t, err)
			requireUntuned(t, p.p)
			tuneCheck(t, p)
			require.NoError(t, p.Close())
			require.Equal(t, before.Rejected+1, ReadKernelCacheStats().Rejected)
			list, err := ListTunings()
			require.NoError(t, err)
			for _, e := range list {
				require.NotEmpty(t, e.Problem, "listed as usable: %+v", e)
			}
		})
	}
	// measure replaces the damaged entry with a good one
	storedTunings.forget()
	cfg := tuneCfg
	cfg.Tune = TuneMeasure
	p, err := NewPlan[complex64](testDev, cfg)
	require.NoError(t, err)
	require.Equal(t, TunedMeasured, p.Tuned().Source)
	require.NoError(t, p.Close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	payload, err := decodeEntry(data, key)
	require.NoError(t, err)
	rec, err := decodeTuning(payload)
	require.NoError(t, err)
	require.Equal(t, p.Tuned().Tuning, rec.tuning)
	// the valid entry written by hand is taken as is
	require.NoError(t, os.WriteFile(path, valid, 0o600))
	storedTunings.forget()
	cfg.Tune = TuneCached
	q, err := NewPlan[complex64](testDev, cfg)
	require.NoError(t, err)
	require.Equal(t, TunedStored, q.Tuned().Source)
	require.Equal(t, good.tuning, q.Tuned().Tuning)
	require.NoError(t, q.Close())
}

// A candidate whose result differs from VkFFT's defaults is rejected, never chosen.
func TestTuneRejectsWrongCandidates(t *testing.T) {
	tuneFresh(t)
	tuneTestStages(t)
	tuneAfterBaseline = func(tn *tuner) { // the reference no longer matches: every sign flipped
		for i := 3; i < len(tn.refOut); i += 4 {
			tn.refOut[i] ^= 0x80
		}
	}
	defer func() { tuneAfterBaseline = nil }()
	var lines []string
	SetTuneProgress(func(s string) { lines = append(lines, s) })
	defer SetTuneProgress(nil)
	cfg := tuneCfg
	cfg.Tune = TuneMeasure
	p, err := NewPlan[complex64](testDev, cfg)
	require.NoError(t, err)
	require.Equal(t, TunedMeasured, p.Tuned().Source)
	require.True(t, p.Tuned().Tuning.isZero(), "every candidate was wrong: the defaults stay")
	tuneCheck(t, p)
	require.NoError(t, p.Close())
	require.Contains(t, strings.Join(lines, "\n"), "differs from VkFFT's defaults")
}

// Another process finds the tuning this one stored, and measures nothing.
func TestTuneOtherProcess(t *testing.T) {
	if os.Getenv("VKFFTGO_TUNE_CHILD") != "" {
		t.Skip("child")
	}
	dir := tuneFresh(t)
	tuneTestStages(t)
	cfg := tuneCfg
	cfg.Tune = TuneMeasure
	p, err := NewPlan[complex64](testDev, cfg)
	require.NoError(t, err)
	want := p.Tuned().Tuning
	require.NoError(t, p.Close())

	cmd := exec.Command(os.Args[0], "-test.run=^TestTuneChildProcess$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "VKFFTGO_TUNE_CHILD="+dir, EnvTune+"=cached",
		"ASAN_OPTIONS=detect_leaks=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Run(), out.String())
	var got struct {
		Result   TuneResult
		Measured int64
		Hits     int64
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if s, ok := strings.CutPrefix(line, "TUNED "); ok {
			require.NoError(t, json.Unmarshal([]byte(s), &got))
		}
	}
	require.Equal(t, TunedStored, got.Result.Source, out.String())
	require.Equal(t, want, got.Result.Tuning)
	require.Zero(t, got.Measured)
	require.Equal(t, int64(1), got.Hits, "the child loaded the tuned kernels from disk")
}

// TestTuneChildProcess is the child side of TestTuneOtherProcess.
func TestTuneChildProcess(t *testing.T) {
	if os.Getenv("VKFFTGO_TUNE_CHILD") == "" {
		t.Skip("only run as a child of TestTuneOtherProcess")
	}
	SetKernelCacheDir(os.Getenv("VKFFTGO_TUNE_CHILD")) // TestMain pointed the environment elsewhere
	defer SetKernelCacheDir("")
	p, err := NewPlan[complex64](testDev, tuneCfg) // Tune from VKFFTGO_TUNE=cached
	require.NoError(t, err)
	tuneCheck(t, p)
	require.NoError(t, p.Close())
	b, _ := json.Marshal(map[string]any{"Result": p.Tuned(), "Measured": tuneMeasurements.Load(),
		"Hits": ReadKernelCacheStats().Hits})
	fmt.Printf("TUNED %s\n", b)
}

// Without a disk cache the process still remembers what it measured.
func TestTuneWithoutDiskCache(t *testing.T) {
	tuneFresh(t)
	tuneTestStages(t)
	SetKernelCacheDir("off")
	defer SetKernelCacheDir("")
	measured := tuneMeasurements.Load()
	cfg := tuneCfg
	cfg.Tune = TuneMeasure
	for i := 0; i < 2; i++ {
		p, err := NewPlan[complex64](testDev, cfg)
		require.NoError(t, err)
		tuneCheck(t, p)
		require.NoError(t, p.Close())
	}
	require.Equal(t, measured+1, tuneMeasurements.Load())
	list, err := ListTunings()
	require.NoError(t, err)
	require.Empty(t, list)
}

func TestTuningString(t *testing.T) {
	require.Equal(t, "defaults", Tuning{}.String())
	require.Equal(t, "coalesced=64 threads=256 grouped=[4 0 0 0] bwboost=-1 lut=off",
		Tuning{CoalescedMemory: 64, AimThreads: 256, GroupedBatch: [maxRank]int{4}, BandwidthBoost: -1,
			LUT: LUTOff}.String())
	require.True(t, errors.Is(Tuning{AimThreads: -1}.check(1), ErrInvalidArgument))
}

func TestTuneCandidates(t *testing.T) {
	require.Equal(t, []int{2100, 2160, 2187, 2205, 2240, 2304, 3072, 4096}, bluesteinSizes(1031))
	for _, tc := range []struct {
		shape []int
		want  int
	}{{[]int{1031}, 1031}, {[]int{243, 243}, 0}, {[]int{17, 64}, 17}, {[]int{17, 19}, -1}, {[]int{34, 17}, -1}} {
		l, err := validate(Config{Shape: tc.shape}, kindC2C, 8)
		require.NoError(t, err)
		require.Equal(t, tc.want, largePrimeAxis(&l), "%v", tc.shape)
	}
	// every stage's candidates pass the checks a Tuning given by hand must pass, and
	// differ from the tuning they start from
	for _, shape := range [][]int{{256, 256, 256}, {4096, 4096}, {4096}, {1031}, {1 << 17}} {
		for _, double := range []bool{false, true} {
			size := uintptr(8)
			if double {
				size = 16
			}
			l, err := validate(Config{Shape: shape}, kindC2C, size)
			require.NoError(t, err)
			best := Tuning{CoalescedMemory: 128, AimThreads: 64}
			for _, st := range tuneStages {
				for _, c := range st.cands(&l, best) {
					require.NoError(t, c.check(len(shape)), "%s %v", st.name, shape)
				}
			}
		}
	}
}
