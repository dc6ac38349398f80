package vkfft

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/vkfftgo/vkfftgo/internal/engine"

	"github.com/stretchr/testify/require"
)

// Kernel-cache tests. Each builds plans on the shared test device (testDev, opened by
// TestMain) with its own cache directory, so the user's cache is never touched. A PoCL
// compile costs about a second: the tests use a 1-D 64-point plan and share the cold
// reference result and a known-good entry.

// Tuning is off: the stored-tuning lookup (tune_store.go) would read the cache directory
// too, and the fault-injection tests count every read.
var kcCfg = Config{Shape: []int{64}, Batch: 2, Tune: TuneOff}

// kcDir points the kernel cache at a fresh directory for the test.
func kcDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv(EnvCacheDir, dir)
	SetKernelCacheDir("")
	return dir
}

// kcKey returns the key and entry path of cfg (C2C, complex64) on testDev in dir.
func kcKey(t *testing.T, dir string, cfg Config, mod func(*kcacheIdent)) ([]byte, string) {
	t.Helper()
	l, err := validate(cfg, kindC2C, 8)
	require.NoError(t, err)
	id := identFor(&testDev.info)
	if mod != nil {
		mod(&id)
	}
	p := planParams{l: l, useLUT: lutSetting(l)}
	key := kernelKey(&id, &p)
	return key, filepath.Join(dir, kcacheFileName(key))
}

func kcInput(n int) []complex64 {
	rng := rand.New(rand.NewPCG(5, 6))
	x := make([]complex64, n)
	for i := range x {
		x[i] = complex(float32(rng.Float64()*2-1), float32(rng.Float64()*2-1))
	}
	return x
}

// kcNaiveDFT is the unnormalised forward DFT of each length-n batch of x.
func kcNaiveDFT(x []complex64, n int) []complex128 {
	out := make([]complex128, len(x))
	for b := 0; b < len(x)/n; b++ {
		for k := 0; k < n; k++ {
			var s complex128
			for j := 0; j < n; j++ {
				s += complex128(x[b*n+j]) * cmplx.Exp(complex(0, -2*math.Pi*float64(j*k)/float64(n)))
			}
			out[b*n+k] = s
		}
	}
	return out
}

// kcGolden is the result of a cold plan and the entry it stored, made once.
var kcGolden struct {
	once  sync.Once
	err   error
	ref   []complex64 // forward transform of kcInput by a cold plan
	entry []byte      // the good cache file
	blob  []byte      // its payload (VkFFT's kernel string)
}

func kcGood(t *testing.T) {
	t.Helper()
	kcGolden.once.Do(func() {
		dir, err := os.MkdirTemp("", "vkfftgo-kc-golden")
		if err != nil {
			kcGolden.err = err
			return
		}
		defer os.RemoveAll(dir)
		SetKernelCacheDir(dir)
		defer SetKernelCacheDir("")
		before := ReadKernelCacheStats()
		p, err := NewPlan[complex64](testDev, kcCfg)
		if err != nil {
			kcGolden.err = err
			return
		}
		defer p.Close()
		after := ReadKernelCacheStats()
		if after.Misses != before.Misses+1 || after.Stored != before.Stored+1 {
			kcGolden.err = fmt.Errorf("cold build did not store an entry: %+v -> %+v", before, after)
			return
		}
		x := kcInput(p.Len())
		kcGolden.ref = make([]complex64, len(x))
		if kcGolden.err = p.Forward(kcGolden.ref, x); kcGolden.err != nil {
			return
		}
		if e := kcRelErr(kcGolden.ref, kcNaiveDFT(x, 64)); e > 1e-5 {
			kcGolden.err = fmt.Errorf("cold plan is wrong: rel err %g", e)
			return
		}
		l, _ := validate(kcCfg, kindC2C, 8)
		id := identFor(&testDev.info)
		key := kernelKey(&id, &planParams{l: l, useLUT: lutSetting(l)})
		kcGolden.entry, kcGolden.err = os.ReadFile(filepath.Join(dir, kcacheFileName(key)))
		if kcGolden.err == nil {
			kcGolden.blob, kcGolden.err = decodeEntry(kcGolden.entry, key)
		}
	})
	require.NoError(t, kcGolden.err)
}

func kcRelErr(got []complex64, want []complex128) float64 {
	var num, den float64
	for i := range want {
		d := complex128(got[i]) - want[i]
		num += real(d)*real(d) + imag(d)*imag(d)
		den += real(want[i])*real(want[i]) + imag(want[i])*imag(want[i])
	}
	return math.Sqrt(num / den)
}

// kcCheckPlan builds kcCfg, checks its result against the cold plan's, and returns
// the counters' change.
func kcCheckPlan(t *testing.T) KernelCacheStats {
	t.Helper()
	before := ReadKernelCacheStats()
	p, err := NewPlan[complex64](testDev, kcCfg)
	require.NoError(t, err)
	defer p.Close()
	after := ReadKernelCacheStats()
	x := kcInput(p.Len())
	got := make([]complex64, len(x))
	require.NoError(t, p.Forward(got, x))
	want := make([]complex128, len(x))
	for i, v := range kcGolden.ref {
		want[i] = complex128(v)
	}
	require.LessOrEqual(t, kcRelErr(got, want), 1e-6, "plan disagrees with the cold plan")
	return KernelCacheStats{
		Hits:        after.Hits - before.Hits,
		Misses:      after.Misses - before.Misses,
		Rejected:    after.Rejected - before.Rejected,
		Stored:      after.Stored - before.Stored,
		StoreErrors: after.StoreErrors - before.StoreErrors,
		Evicted:     after.Evicted - before.Evicted,
		LastProblem: after.LastProblem,
	}
}

// kcRequireValid asserts that path holds a valid entry for key.
func kcRequireValid(t *testing.T, path string, key []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	_, err = decodeEntry(data, key)
	require.NoError(t, err, "entry was not replaced by a valid one")
}

func kcNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		require.False(t, strings.HasPrefix(de.Name(), kcacheTmpPfx), "temporary file %s left behind", de.Name())
	}
}

func TestKernelCacheDirSettings(t *testing.T) {
	t.Setenv(EnvCacheDir, "off")
	_, on := KernelCacheDir()
	require.False(t, on)
	SetKernelCacheDir("/some/where")
	dir, on := KernelCacheDir()
	require.True(t, on)
	require.Equal(t, "/some/where", dir)
	SetKernelCacheDir("")
	t.Setenv(EnvCacheDir, "")
	t.Setenv("XDG_CACHE_HOME", "/xdg")
	dir, on = KernelCacheDir()
	require.True(t, on)
	require.Equal(t, "/xdg/vkfftgo", dir)

	t.Setenv(EnvCacheMaxBytes, "12345")
	require.Equal(t, int64(12345), KernelCacheMaxBytes())
	SetKernelCacheMaxBytes(99)
	require.Equal(t, int64(99), KernelCacheMaxBytes())
	SetKernelCacheMaxBytes(0)
	t.Setenv(EnvCacheMaxBytes, "junk")
	require.Equal(t, DefaultKernelCacheMaxBytes, KernelCacheMaxBytes())
}

// The key covers the build, the device and every plan parameter that changes kernels.
func TestKernelCacheKeyCoversEverything(t *testing.T) {
	base, basePath := kcKey(t, "d", kcCfg, nil)
	mods := map[string]func(*kcacheIdent){
		"vkfft version": func(id *kcacheIdent) { id.vkfftVersion++ },
		"headers":       func(id *kcacheIdent) { id.headerSHA = "x" },
		"core source":   func(id *kcacheIdent) { id.coreHash = "x" },
		"backend":       func(id *kcacheIdent) { id.backend = CUDA + Vulkan + 7 },
		"device":        func(id *kcacheIdent) { id.name += "x" },
		"vendor":        func(id *kcacheIdent) { id.vendor += "x" },
		"vendor id":     func(id *kcacheIdent) { id.vendorID++ },
		"driver":        func(id *kcacheIdent) { id.driver += "x" },
		"platform":      func(id *kcacheIdent) { id.platform += "x" },
		"compute":       func(id *kcacheIdent) { id.computeMajor++ },
		"compute minor": func(id *kcacheIdent) { id.computeMinor++ },
		"backend tag":   func(id *kcacheIdent) { id.tag += " nvrtc 99.0" },
	}
	seen := map[string]string{string(base): "base"}
	for name, m := range mods {
		k, p := kcKey(t, "d", kcCfg, m)
		require.NotEqual(t, base, k, name)
		require.NotEqual(t, basePath, p, name)
		seen[string(k)] = name
	}
	cfgs := []Config{
		{Shape: []int{64}, Batch: 3},
		{Shape: []int{32}, Batch: 2},
		{Shape: []int{2, 32}, Batch: 2},
		{Shape: []int{64}, Batch: 2, Norm: NormOrtho}, // normalize off
		{Shape: []int{64}, Batch: 2, LUT: LUTOff},
		{Shape: []int{64}, Batch: 2, Tuning: Tuning{CoalescedMemory: 64}},
		{Shape: []int{64}, Batch: 2, Tuning: Tuning{AimThreads: 256}},
		{Shape: []int{64}, Batch: 2, Tuning: Tuning{RegisterBoost: 2}},
		{Shape: []int{64}, Batch: 2, Tuning: Tuning{RegisterBoost4Step: 2}},
		{Shape: []int{64}, Batch: 2, Tuning: Tuning{GroupedBatch: [maxRank]int{8}}},
		{Shape: []int{64}, Batch: 2, Tuning: Tuning{BandwidthBoost: -1}},
		{Shape: []int{64}, Batch: 2, Tuning: Tuning{SwapTo3Stage4Step: 65536}},
		{Shape: []int{64}, Batch: 2, Tuning: Tuning{SharedMemory: 49152}},
		{Shape: []int{64}, Batch: 2, Tuning: Tuning{BluesteinSize: 128}},
		{Shape: []int{64}, Batch: 2, Tuning: Tuning{LUT: LUTOff, CoalescedMemory: 64}},
	}
	for _, c := range cfgs {
		k, _ := kcKey(t, "d", c, nil)
		require.NotEqual(t, base, k, "%+v", c)
		_, dup := seen[string(k)]
		require.False(t, dup, "%+v", c)
		seen[string(k)] = "cfg"
	}
	// precision and kind
	l, _ := validate(kcCfg, kindC2C, 16)
	id := identFor(&testDev.info)
	require.NotEqual(t, base, kernelKey(&id, &planParams{l: l, useLUT: lutSetting(l)}))
	l, _ = validate(kcCfg, kindR2C, 8)
	require.NotEqual(t, base, kernelKey(&id, &planParams{l: l, useLUT: lutSetting(l)}))
	// the out-of-place application has kernels of its own
	l, _ = validate(kcCfg, kindC2C, 8)
	require.NotEqual(t, base, kernelKey(&id, &planParams{l: l, useLUT: lutSetting(l), outOfPlace: true}))
	// the tune mode is not part of the kernels: the same entry
	kt, _ := kcKey(t, "d", Config{Shape: []int{64}, Batch: 2, Tune: TuneMeasure}, nil)
	require.Equal(t, base, kt)
	// Batch 0 means 1: the same plan
	k0, _ := kcKey(t, "d", Config{Shape: []int{64}}, nil)
	k1, _ := kcKey(t, "d", Config{Shape: []int{64}, Batch: 1}, nil)
	require.Equal(t, k0, k1)
}

// Every truncation and every flipped byte of an entry is rejected before its payload
// could reach VkFFT.
func TestKernelCacheDecodeRejectsDamage(t *testing.T) {
	key, _ := kcKey(t, "d", kcCfg, nil)
	payload := make([]byte, 300)
	for i := range payload {
		payload[i] = byte(i * 7)
	}
	entry := append(encodeEntryHeader(key, payload), payload...)
	got, err := decodeEntry(entry, key)
	require.NoError(t, err)
	require.Equal(t, payload, got)

	for n := 0; n < len(entry); n++ {
		_, err := decodeEntry(entry[:n], key)
		require.ErrorIs(t, err, errBadEntry, "truncated to %d bytes", n)
	}
	_, err = decodeEntry(append(append([]byte(nil), entry...), 0), key)
	require.ErrorIs(t, err, errBadEntry, "trailing byte")
	bad := append([]byte(nil), entry...)
	for i := range bad {
		for _, bit := range []byte{0x01, 0x80} {
			bad[i] ^= bit
			_, err := decodeEntry(bad, key)
			require.ErrorIs(t, err, errBadEntry, "byte %d ^ %#x", i, bit)
			bad[i] ^= bit
		}
	}
	// a file of another build or device, and a zero-length payload
	other, _ := kcKey(t, "d", kcCfg, func(id *kcacheIdent) { id.vkfftVersion = 10305 })
	_, err = decodeEntry(append(encodeEntryHeader(other, payload), payload...), key)
	require.ErrorIs(t, err, errBadEntry)
	require.Contains(t, err.Error(), "vkfft=10305")
	_, err = decodeEntry(encodeEntryHeader(key, nil), key)
	require.ErrorIs(t, err, errBadEntry)
}

func TestKernelCacheOff(t *testing.T) {
	kcGood(t)
	dir := t.TempDir()
	t.Setenv(EnvCacheDir, "off")
	SetKernelCacheDir("")
	d := kcCheckPlan(t)
	require.Equal(t, KernelCacheStats{LastProblem: d.LastProblem}, d, "the disabled cache was used")
	// the API setting wins over the environment
	t.Setenv(EnvCacheDir, dir)
	SetKernelCacheDir("off")
	defer SetKernelCacheDir("")
	_, on := KernelCacheDir()
	require.False(t, on)
}

func TestKernelCacheColdThenHit(t *testing.T) {
	kcGood(t)
	dir := kcDir(t)
	key, path := kcKey(t, dir, kcCfg, nil)
	d := kcCheckPlan(t)
	require.Equal(t, int64(1), d.Misses)
	require.Equal(t, int64(1), d.Stored)
	require.Zero(t, d.Hits)
	kcRequireValid(t, path, key)
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(path, old, old))

	d = kcCheckPlan(t)
	require.Equal(t, int64(1), d.Hits)
	require.Zero(t, d.Misses)
	require.Zero(t, d.Rejected)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.True(t, fi.ModTime().After(old.Add(time.Minute)), "a hit must touch the entry (LRU)")
	kcNoTempFiles(t, dir)
}

// Each kind of bad entry is detected, the plan is compiled afresh and correct, and the
// entry is replaced by a good one.
func TestKernelCacheBadEntries(t *testing.T) {
	kcGood(t)
	cases := map[string]func(key []byte) []byte{
		"empty":     func([]byte) []byte { return nil },
		"truncated": func([]byte) []byte { return kcGolden.entry[:len(kcGolden.entry)/2] },
		"flipped payload byte": func([]byte) []byte {
			b := append([]byte(nil), kcGolden.entry...)
			b[len(b)-len(kcGolden.blob)/3] ^= 0x10
			return b
		},
		"other VkFFT version": func([]byte) []byte {
			k, _ := kcKey(t, "", kcCfg, func(id *kcacheIdent) { id.vkfftVersion = 10303 })
			return append(encodeEntryHeader(k, kcGolden.blob), kcGolden.blob...)
		},
		"other device": func([]byte) []byte {
			k, _ := kcKey(t, "", kcCfg, func(id *kcacheIdent) { id.name += " (another device)"; id.computeMajor++ })
			return append(encodeEntryHeader(k, kcGolden.blob), kcGolden.blob...)
		},
		"other driver": func([]byte) []byte {
			k, _ := kcKey(t, "", kcCfg, func(id *kcacheIdent) { id.driver = "0.0" })
			return append(encodeEntryHeader(k, kcGolden.blob), kcGolden.blob...)
		},
		"garbage": func([]byte) []byte { return bytes.Repeat([]byte{0xA5}, 4096) },
	}
	for name, bad := range cases {
		t.Run(name, func(t *testing.T) {
			dir := kcDir(t)
			key, path := kcKey(t, dir, kcCfg, nil)
			require.NoError(t, os.WriteFile(path, bad(key), 0o600))
			d := kcCheckPlan(t)
			require.Equal(t, int64(1), d.Rejected, "bad entry not detected")
			require.Equal(t, int64(1), d.Misses)
			require.Zero(t, d.Hits)
			require.Equal(t, int64(1), d.Stored)
			kcRequireValid(t, path, key)
			kcNoTempFiles(t, dir)
			// and the replacement is used
			d = kcCheckPlan(t)
			require.Equal(t, int64(1), d.Hits)
		})
	}
}

// faultFS fails reads or writes the way a permission problem or a read-only file
// system would, which a root user cannot produce with chmod.
type faultFS struct {
	osFS
	readErr, writeErr error
}

func (f faultFS) ReadFile(name string, limit int64) ([]byte, error) {
	if f.readErr != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: f.readErr}
	}
	return f.osFS.ReadFile(name, limit)
}

func (f faultFS) WriteAtomic(dir, name string, parts ...[]byte) error {
	if f.writeErr != nil {
		return &os.PathError{Op: "open", Path: dir, Err: f.writeErr}
	}
	return f.osFS.WriteAtomic(dir, name, parts...)
}

func withFS(t *testing.T, f kcacheFSOps) {
	old := kcacheFS
	kcacheFS = f
	t.Cleanup(func() { kcacheFS = old })
}

func TestKernelCacheUnreadable(t *testing.T) {
	kcGood(t)
	t.Run("entry unreadable (EACCES), directory writable", func(t *testing.T) {
		dir := kcDir(t)
		key, path := kcKey(t, dir, kcCfg, nil)
		require.NoError(t, os.WriteFile(path, kcGolden.entry, 0o600))
		withFS(t, faultFS{readErr: syscall.EACCES})
		d := kcCheckPlan(t)
		require.Equal(t, int64(1), d.Rejected)
		require.Equal(t, int64(1), d.Misses)
		require.Equal(t, int64(1), d.Stored, "entry should be replaced")
		kcRequireValid(t, path, key)
	})
	t.Run("entry is a directory", func(t *testing.T) {
		dir := kcDir(t)
		_, path := kcKey(t, dir, kcCfg, nil)
		require.NoError(t, os.Mkdir(path, 0o700))
		d := kcCheckPlan(t)
		require.Equal(t, int64(1), d.Rejected)
		require.Equal(t, int64(1), d.Misses)
		require.Equal(t, int64(1), d.StoreErrors, "cannot replace a directory")
		kcNoTempFiles(t, dir)
	})
	t.Run("directory unreadable (chmod 000)", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root reads any file; the EACCES cases above cover this")
		}
		dir := kcDir(t)
		key, path := kcKey(t, dir, kcCfg, nil)
		require.NoError(t, os.WriteFile(path, kcGolden.entry, 0o600))
		require.NoError(t, os.Chmod(dir, 0))
		defer os.Chmod(dir, 0o700)
		d := kcCheckPlan(t)
		require.Equal(t, int64(1), d.Misses)
		require.Equal(t, int64(1), d.Rejected)
		require.Equal(t, int64(1), d.StoreErrors)
		require.NoError(t, os.Chmod(dir, 0o700))
		kcRequireValid(t, path, key)
	})
}

func TestKernelCacheReadOnly(t *testing.T) {
	kcGood(t)
	t.Run("read-only file system (EROFS)", func(t *testing.T) {
		dir := kcDir(t)
		_, path := kcKey(t, dir, kcCfg, nil)
		withFS(t, faultFS{writeErr: syscall.EROFS})
		d := kcCheckPlan(t)
		require.Equal(t, int64(1), d.Misses)
		require.Equal(t, int64(1), d.StoreErrors)
		require.Zero(t, d.Stored)
		require.NoFileExists(t, path)
		require.Contains(t, d.LastProblem, "read-only")
	})
	t.Run("read-only with a good entry still hits", func(t *testing.T) {
		dir := kcDir(t)
		_, path := kcKey(t, dir, kcCfg, nil)
		require.NoError(t, os.WriteFile(path, kcGolden.entry, 0o600))
		withFS(t, faultFS{writeErr: syscall.EROFS})
		d := kcCheckPlan(t)
		require.Equal(t, int64(1), d.Hits)
	})
	t.Run("directory cannot be created", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		require.NoError(t, os.WriteFile(file, nil, 0o600))
		t.Setenv(EnvCacheDir, filepath.Join(file, "cache")) // ENOTDIR, for root too
		d := kcCheckPlan(t)
		require.Equal(t, int64(1), d.Misses)
		require.Equal(t, int64(1), d.StoreErrors)
		require.Zero(t, d.Rejected, "a missing directory is a plain miss")
	})
	t.Run("directory read-only (chmod 500)", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root writes anywhere; the EROFS case above covers this")
		}
		dir := kcDir(t)
		_, path := kcKey(t, dir, kcCfg, nil)
		require.NoError(t, os.Chmod(dir, 0o500))
		defer os.Chmod(dir, 0o700)
		d := kcCheckPlan(t)
		require.Equal(t, int64(1), d.StoreErrors)
		require.NoFileExists(t, path)
	})
}

func TestKernelCacheLRUByteCap(t *testing.T) {
	dir := kcDir(t)
	payload := bytes.Repeat([]byte{1}, 1000)
	keys := make([][]byte, 3)
	paths := make([]string, 3)
	for i := range keys {
		keys[i], paths[i] = kcKey(t, dir, Config{Shape: []int{64 << i}}, nil)
	}
	entryBytes := int64(len(encodeEntryHeader(keys[0], payload)) + len(payload))
	capBytes := 2*entryBytes + entryBytes/2 // room for two entries
	kcacheStore(dir, paths[0], keys[0], payload, capBytes)
	kcacheStore(dir, paths[1], keys[1], payload, capBytes)
	stale := filepath.Join(dir, kcacheTmpPfx+"dead")
	require.NoError(t, os.WriteFile(stale, payload, 0o600))
	for i, age := range []time.Duration{3 * time.Hour, 2 * time.Hour} {
		old := time.Now().Add(-age)
		require.NoError(t, os.Chtimes(paths[i], old, old))
	}
	require.NoError(t, os.Chtimes(stale, time.Now().Add(-2*kcacheStaleTmp), time.Now().Add(-2*kcacheStaleTmp)))
	// a hit makes entry 0 the most recently used
	got, _ := kcacheLookup(dir, keys[0], capBytes)
	require.Equal(t, payload, got)
	before := ReadKernelCacheStats()
	kcacheStore(dir, paths[2], keys[2], payload, capBytes)
	require.Equal(t, before.Evicted+1, ReadKernelCacheStats().Evicted)
	require.FileExists(t, paths[0])
	require.NoFileExists(t, paths[1], "the least recently used entry must go")
	require.FileExists(t, paths[2])
	require.NoFileExists(t, stale, "stale temporary files are removed")

	info, entries, err := ReadKernelCacheInfo()
	require.NoError(t, err)
	require.Equal(t, dir, info.Dir)
	require.Equal(t, 2, info.Entries)
	entry2 := int64(len(encodeEntryHeader(keys[2], payload)) + len(payload))
	require.Equal(t, entryBytes+entry2, info.Bytes)
	require.Len(t, entries, 2)
	n, err := ClearKernelCache()
	require.NoError(t, err)
	require.Equal(t, 2, n)
	info, _, err = ReadKernelCacheInfo()
	require.NoError(t, err)
	require.Zero(t, info.Entries)
	// a file larger than the cap is rejected unread
	big := filepath.Join(dir, kcacheFileName(keys[1]))
	require.NoError(t, os.WriteFile(big, make([]byte, 4096), 0o600))
	before = ReadKernelCacheStats()
	got, _ = kcacheLookup(dir, keys[1], 4000)
	require.Nil(t, got)
	require.Equal(t, before.Rejected+1, ReadKernelCacheStats().Rejected)
	require.Contains(t, ReadKernelCacheStats().LastProblem, "larger than the cache")
	require.NoError(t, os.Remove(big))
	// an entry larger than the cap is not written (it would evict itself)
	kcacheStore(dir, paths[0], keys[0], payload, 10)
	require.NoFileExists(t, paths[0])
}

// Several processes write the same keys at once; no reader ever sees a torn entry.
// The children are this test binary re-executed (see TestKernelCacheChildProcess).
func TestKernelCacheConcurrentProcesses(t *testing.T) {
	if os.Getenv("VKFFTGO_KC_CHILD") != "" {
		t.Skip("child")
	}
	kcGood(t)
	run := func(t *testing.T, mode, dir string, n int) []KernelCacheStats {
		cmds := make([]*exec.Cmd, n)
		outs := make([]*bytes.Buffer, n)
		for i := range cmds {
			cmds[i] = exec.Command(os.Args[0], "-test.run=^TestKernelCacheChildProcess$", "-test.count=1", "-test.v")
			// leak checking (go test -asan) is the parent's job: the children only race
			cmds[i].Env = append(os.Environ(), "VKFFTGO_KC_CHILD="+mode, "VKFFTGO_KC_CHILD_DIR="+dir,
				fmt.Sprintf("VKFFTGO_KC_CHILD_SEED=%d", i), "ASAN_OPTIONS=detect_leaks=0")
			outs[i] = new(bytes.Buffer)
			cmds[i].Stdout, cmds[i].Stderr = outs[i], outs[i]
			require.NoError(t, cmds[i].Start())
		}
		stats := make([]KernelCacheStats, n)
		for i, c := range cmds {
			err := c.Wait()
			require.NoError(t, err, "child %d:\n%s", i, outs[i])
			line := ""
			for _, l := range strings.Split(outs[i].String(), "\n") {
				if strings.HasPrefix(l, "KCSTATS ") {
					line = strings.TrimPrefix(l, "KCSTATS ")
				}
			}
			require.NoError(t, json.Unmarshal([]byte(line), &stats[i]), "child %d:\n%s", i, outs[i])
		}
		return stats
	}
	t.Run("store stress", func(t *testing.T) {
		dir := t.TempDir()
		for i, s := range run(t, "store", dir, 4) {
			require.Zero(t, s.Rejected, "child %d saw a torn or foreign entry: %s", i, s.LastProblem)
			require.Zero(t, s.StoreErrors, "child %d: %s", i, s.LastProblem)
			require.Positive(t, s.Hits, "child %d", i)
		}
		kcNoTempFiles(t, dir)
	})
	t.Run("plans", func(t *testing.T) {
		dir := kcDir(t)
		key, path := kcKey(t, dir, kcCfg, nil)
		for i, s := range run(t, "plan", dir, 3) {
			require.Zero(t, s.Rejected, "child %d: %s", i, s.LastProblem)
			require.Zero(t, s.StoreErrors, "child %d: %s", i, s.LastProblem)
		}
		kcRequireValid(t, path, key)
		kcNoTempFiles(t, dir)
		d := kcCheckPlan(t)
		require.Equal(t, int64(1), d.Hits)
	})
}

// TestKernelCacheChildProcess is the child side of TestKernelCacheConcurrentProcesses.
func TestKernelCacheChildProcess(t *testing.T) {
	mode := os.Getenv("VKFFTGO_KC_CHILD")
	if mode == "" {
		t.Skip("only run as a child of TestKernelCacheConcurrentProcesses")
	}
	dir := os.Getenv("VKFFTGO_KC_CHILD_DIR")
	SetKernelCacheDir(dir) // TestMain has pointed the environment at its own directory
	defer SetKernelCacheDir("")
	switch mode {
	case "plan":
		p, err := NewPlan[complex64](testDev, kcCfg)
		require.NoError(t, err)
		x := kcInput(p.Len())
		got := make([]complex64, len(x))
		require.NoError(t, p.Forward(got, x))
		require.LessOrEqual(t, kcRelErr(got, kcNaiveDFT(x, 64)), 1e-5)
		require.NoError(t, p.Close())
	case "store":
		var seed uint64
		fmt.Sscan(os.Getenv("VKFFTGO_KC_CHILD_SEED"), &seed)
		rng := rand.New(rand.NewPCG(seed, 1))
		keys := make([][]byte, 3)
		paths := make([]string, 3)
		for i := range keys {
			keys[i], paths[i] = kcKey(t, dir, Config{Shape: []int{8 << i}}, nil)
		}
		deadline := time.Now().Add(1500 * time.Millisecond)
		for i := 0; time.Now().Before(deadline) || i < 50; i++ {
			k := rng.IntN(len(keys))
			if rng.IntN(2) == 0 {
				payload := make([]byte, 1+rng.IntN(256<<10))
				for j := range payload {
					payload[j] = byte(j + i)
				}
				// a cap of ~2 entries keeps the trimming busy too
				kcacheStore(dir, paths[k], keys[k], payload, 600<<10)
			} else if got, _ := kcacheLookup(dir, keys[k], 1<<30); got != nil {
				kcacheStats.hits.Add(1)
			}
		}
	default:
		t.Fatalf("unknown child mode %q", mode)
	}
	b, _ := json.Marshal(ReadKernelCacheStats())
	fmt.Printf("KCSTATS %s\n", b)
}

// BenchmarkPlanFromDisk measures plan creation from a kernel-cache entry (the plan's
// buffers included), as a new process would build it.
func BenchmarkPlanFromDisk(b *testing.B) {
	for _, cfg := range []Config{{Shape: []int{64}, Batch: 2}, {Shape: []int{64, 64}}} {
		b.Run(fmt.Sprint(cfg.Shape), func(b *testing.B) {
			dir := b.TempDir()
			SetKernelCacheDir(dir)
			defer SetKernelCacheDir("")
			p, err := NewPlan[complex64](testDev, cfg) // cold: fills the cache
			if err != nil {
				b.Fatal(err)
			}
			p.Close()
			before := ReadKernelCacheStats()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p, err := NewPlan[complex64](testDev, cfg)
				if err != nil {
					b.Fatal(err)
				}
				p.Close()
			}
			b.StopTimer()
			if h := ReadKernelCacheStats().Hits - before.Hits; h != int64(b.N) {
				b.Fatalf("%d hits for %d plans", h, b.N)
			}
		})
	}
}

// TestKernelCacheControl: the KernelCache value sets and reads the directory and cap,
// counts what plans did, lists and clears entries; the deprecated package functions see
// the same settings.
func TestKernelCacheControl(t *testing.T) {
	kc := KernelCache()
	require.Same(t, kc, KernelCache())
	dir := t.TempDir()
	kc.SetDir(dir)
	defer kc.SetDir("")
	got, on := kc.Dir()
	require.True(t, on)
	require.Equal(t, dir, got)
	legacy, _ := KernelCacheDir()
	require.Equal(t, dir, legacy)

	kc.SetMaxBytes(1 << 30)
	defer kc.SetMaxBytes(0)
	require.Equal(t, int64(1<<30), kc.MaxBytes())

	before := kc.Stats()
	p, err := NewPlan[complex64](testDev, Config{Shape: []int{24, 10}})
	require.NoError(t, err)
	require.NoError(t, p.Close())
	after := kc.Stats()
	require.Equal(t, before.Stored+1, after.Stored, "the plan's kernels were stored: %+v", after)

	info, entries, err := kc.Info()
	require.NoError(t, err)
	require.Equal(t, dir, info.Dir)
	require.Equal(t, 1, info.Entries)
	require.Len(t, entries, 1)
	require.Positive(t, info.Bytes)

	n, err := kc.Clear()
	require.NoError(t, err)
	if engine.PlanKernelsSupported() && kc.CompileJobs() > 0 {
		require.Positive(t, info.KernelEntries, "the plan's kernels are kept by their source too")
	}
	require.Equal(t, 1, n)
	info, _, err = kc.Info()
	require.NoError(t, err)
	require.Zero(t, info.Entries)
	require.Zero(t, info.KernelEntries)

	kc.SetDir("off")
	_, on = kc.Dir()
	require.False(t, on)
}

// TestKernelsCached: the C API's question "would this plan load its kernels from disk?"
// is answered without building: no before the first build, yes after it (for that
// plan only), no with the disk cache off or while the tuner would still measure one.
func TestKernelsCached(t *testing.T) {
	kc := KernelCache()
	kc.SetDir(t.TempDir())
	defer kc.SetDir("")
	built := Config{Shape: []int{18, 10}}
	real := ByteKind{Real: true}

	cases := []struct {
		name string
		cfg  Config
		kind ByteKind
		off  bool
		want bool
	}{
		{"the plan built", built, real, false, true},
		{"another shape", Config{Shape: []int{18, 12}}, real, false, false},
		{"another kind", built, ByteKind{}, false, false},
		{"another precision", built, ByteKind{Real: true, Double: true}, false, false},
		{"a tuning still to measure", Config{Shape: []int{18, 10}, Tune: TuneMeasure}, real, false, false},
		{"the disk cache off", built, real, true, false},
	}
	got, err := testDev.kernelsCached(built, real)
	require.NoError(t, err)
	require.False(t, got, "before the plan was ever built")
	before := kc.Stats()
	p, err := NewBytePlan(testDev, built, real)
	require.NoError(t, err)
	require.NoError(t, p.Close())
	require.Greater(t, kc.Stats().Stored, before.Stored, "the plan's kernels were stored")
	dir, _ := kc.Dir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.off {
				kc.SetDir("off")
				defer kc.SetDir(dir)
			}
			if c.kind.Double && !testDev.Info().DoublePrecision {
				t.Skip("no double precision on this device")
			}
			stats := kc.Stats()
			got, err := testDev.kernelsCached(c.cfg, c.kind)
			require.NoError(t, err)
			require.Equal(t, c.want, got)
			require.Equal(t, stats, kc.Stats(), "nothing was built or loaded")
		})
	}
	_, err = testDev.kernelsCached(Config{Shape: []int{0}}, real)
	require.ErrorIs(t, err, ErrInvalidShape)
}
