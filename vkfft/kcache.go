package vkfft

// The persistent kernel cache: the kernel binaries VkFFT compiled for a plan, saved
// after a cold build and handed back to VkFFT (loadApplicationFromString) on later
// builds of the same plan, in this process or any other.
//
// VkFFT's saved strings carry no version, device or configuration header and VkFFT
// reads them without bounds checks, so every entry is wrapped in a header of our own:
//
//	magic "VKFGOKC\x00" | format u32 | key length u32 | key | payload length u64 |
//	SHA-256(key || payload) | payload
//
// The key (cachekey.go) is a canonical text listing everything that changes the kernels
// or their validity: this file format, VkFFT's version and the header package's
// checksum, a hash of vkg_core.c (the code that turns a plan into a VkFFT
// configuration), the backend, the device (name, vendor, vendor id, driver, platform,
// compute capability, plus a backend-specific tag such as the NVRTC version) and every
// plan parameter passed to VkFFT. The file name is the SHA-256 of the key. A file is handed to VkFFT
// only when its key matches byte for byte, its length is exact and its checksum
// verifies; anything else is counted as rejected, the plan is compiled afresh and the
// entry is rewritten.
//
// Writes go to a temporary file in the same directory and are renamed into place, so
// readers in other processes see either the old entry, the new one or none. Hits
// touch the file's modification time; when the directory grows past its byte cap the
// least recently used entries are removed.

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

const (
	kcacheMagic   = "VKFGOKC\x00"
	kcacheFormat  = 1
	kcacheExt     = ".vkfk"
	kcacheTmpPfx  = ".tmp-"
	kcacheHdrSize = len(kcacheMagic) + 4 + 4 // then the key, then length and checksum
	// DefaultKernelCacheMaxBytes is the disk cache's default byte cap.
	DefaultKernelCacheMaxBytes int64 = 1 << 30
	// kcacheMaxKey bounds the key length read from a file.
	kcacheMaxKey = 1 << 16
	// a temporary file older than this was left by a process that died mid-write
	kcacheStaleTmp = time.Hour
)

// Environment variables read at every plan creation (so tests and programs may set
// them at any time).
const (
	// EnvCacheDir names the kernel cache directory; "off" disables the disk cache.
	// Unset, the cache lives in os.UserCacheDir()/vkfftgo.
	EnvCacheDir = "VKFFTGO_CACHE_DIR"
	// EnvCacheMaxBytes caps the cache directory's size in bytes (default 1 GiB).
	EnvCacheMaxBytes = "VKFFTGO_CACHE_MAX_BYTES"
)

// kernel-cache settings made through the API; they override the environment.
var kcacheSettings struct {
	mu       sync.Mutex
	dir      string // "" = from the environment
	maxBytes int64  // 0 = from the environment
}

// SetKernelCacheDir sets the kernel cache directory for plans created from now on:
// "off" disables the disk cache, "" goes back to VKFFTGO_CACHE_DIR and the default.
//
// Deprecated: use KernelCache().SetDir; removed in the release after v1.
func SetKernelCacheDir(dir string) {
	kcacheSettings.mu.Lock()
	kcacheSettings.dir = dir
	kcacheSettings.mu.Unlock()
}

// SetKernelCacheMaxBytes sets the disk cache's byte cap; 0 goes back to
// VKFFTGO_CACHE_MAX_BYTES and the default (1 GiB).
//
// Deprecated: use KernelCache().SetMaxBytes; removed in the release after v1.
func SetKernelCacheMaxBytes(n int64) {
	kcacheSettings.mu.Lock()
	kcacheSettings.maxBytes = n
	kcacheSettings.mu.Unlock()
}

// KernelCacheDir returns the kernel cache directory plans use now, and false when the
// disk cache is off (VKFFTGO_CACHE_DIR=off, SetKernelCacheDir("off"), or no user cache
// directory).
//
// Deprecated: use KernelCache().Dir; removed in the release after v1.
func KernelCacheDir() (string, bool) {
	kcacheSettings.mu.Lock()
	dir := kcacheSettings.dir
	kcacheSettings.mu.Unlock()
	if dir == "" {
		dir = os.Getenv(EnvCacheDir)
	}
	if strings.EqualFold(dir, "off") {
		return "", false
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", false
		}
		dir = filepath.Join(base, "vkfftgo")
	}
	return dir, true
}

// KernelCacheMaxBytes returns the disk cache's byte cap.
//
// Deprecated: use KernelCache().MaxBytes; removed in the release after v1.
func KernelCacheMaxBytes() int64 {
	kcacheSettings.mu.Lock()
	n := kcacheSettings.maxBytes
	kcacheSettings.mu.Unlock()
	if n > 0 {
		return n
	}
	if v, err := strconv.ParseInt(strings.TrimSpace(os.Getenv(EnvCacheMaxBytes)), 10, 64); err == nil && v > 0 {
		return v
	}
	return DefaultKernelCacheMaxBytes
}

// KernelCacheStats counts what the disk cache did in this process.
type KernelCacheStats struct {
	Hits        int64  // plans built from a cached entry
	Misses      int64  // plans compiled because no usable entry existed (rejected ones included)
	Rejected    int64  // entries found but not trusted: truncated, corrupt, foreign, unreadable, refused by VkFFT
	Stored      int64  // entries written
	StoreErrors int64  // entries that could not be written (read-only or missing directory...)
	Evicted     int64  // entries removed to stay under the byte cap
	LastProblem string // the most recent rejection or write error, for diagnostics

	// A plan's kernels one by one (kreuse.go), found by their source's hash in memory
	// or in the directory's kernels/ folder, whose entries these count apart.
	KernelsCompiled    int64 // kernels compiled from source: ahead of VkFFT's initialisation or by it
	KernelsParallel    int64 // of those, compiled ahead, on the pool of compile jobs
	KernelsForked      int64 // of those, compiled in forked child processes (SetCompileFork)
	KernelsLoaded      int64 // kernels found by their source's hash instead of compiled
	KernelsStored      int64 // kernel entries written
	KernelsRejected    int64 // kernel entries found but not trusted
	KernelsStoreErrors int64 // kernel entries that could not be written
	KernelsEvicted     int64 // kernel entries removed to stay under the byte cap
}

// kcacheCounters are the counters one kind of entry moves.
type kcacheCounters struct{ rejected, stored, storeErrors, evicted atomic.Int64 }

var kcacheStats struct {
	hits, misses               atomic.Int64
	plans                      kcacheCounters // whole plans' entries
	kernels                    kcacheCounters // entries of kernels/
	compiled, parallel, loaded atomic.Int64   // kernels one by one
	forked                     atomic.Int64
	mu                         sync.Mutex
	last                       string
}

// ReadKernelCacheStats returns the disk cache's counters for this process.
//
// Deprecated: use KernelCache().Stats; removed in the release after v1.
func ReadKernelCacheStats() KernelCacheStats {
	kcacheStats.mu.Lock()
	last := kcacheStats.last
	kcacheStats.mu.Unlock()
	return KernelCacheStats{
		Hits:               kcacheStats.hits.Load(),
		Misses:             kcacheStats.misses.Load(),
		Rejected:           kcacheStats.plans.rejected.Load(),
		Stored:             kcacheStats.plans.stored.Load(),
		StoreErrors:        kcacheStats.plans.storeErrors.Load(),
		Evicted:            kcacheStats.plans.evicted.Load(),
		LastProblem:        last,
		KernelsCompiled:    kcacheStats.compiled.Load(),
		KernelsParallel:    kcacheStats.parallel.Load(),
		KernelsForked:      kcacheStats.forked.Load(),
		KernelsLoaded:      kcacheStats.loaded.Load(),
		KernelsStored:      kcacheStats.kernels.stored.Load(),
		KernelsRejected:    kcacheStats.kernels.rejected.Load(),
		KernelsStoreErrors: kcacheStats.kernels.storeErrors.Load(),
		KernelsEvicted:     kcacheStats.kernels.evicted.Load(),
	}
}

func kcacheProblem(counter *atomic.Int64, err error) {
	counter.Add(1)
	kcacheStats.mu.Lock()
	kcacheStats.last = err.Error()
	kcacheStats.mu.Unlock()
}

// kcacheFS is the file-system layer, replaceable by tests to inject faults that a
// root user cannot produce with permissions.
type kcacheFSOps interface {
	ReadFile(name string, limit int64) ([]byte, error)
	WriteAtomic(dir, name string, parts ...[]byte) error
	Touch(name string)
}

type osFS struct{}

// ReadFile reads a whole file of at most limit bytes: a huge file planted under an
// entry's name is rejected before it is read.
func (osFS) ReadFile(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", name)
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes, larger than the cache (%d)", name, fi.Size(), limit)
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return data, nil
}

func (osFS) Touch(name string) {
	now := time.Now()
	_ = os.Chtimes(name, now, now)
}

// WriteAtomic writes parts into a temporary file in dir and renames it to name.
func (osFS) WriteAtomic(dir, name string, parts ...[]byte) error {
	f, err := os.CreateTemp(dir, kcacheTmpPfx+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	for _, p := range parts {
		if _, err = f.Write(p); err != nil {
			break
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}

var kcacheFS kcacheFSOps = osFS{}

func kcacheFileName(key []byte) string {
	s := sha256.Sum256(key)
	return hex.EncodeToString(s[:]) + kcacheExt
}

func kcacheChecksum(key, payload []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write(key)
	h.Write(payload)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// encodeEntry returns the header (everything before the payload) of an entry.
func encodeEntryHeader(key, payload []byte) []byte {
	hdr := make([]byte, 0, kcacheHdrSize+len(key)+8+sha256.Size)
	hdr = append(hdr, kcacheMagic...)
	hdr = binary.LittleEndian.AppendUint32(hdr, kcacheFormat)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(key)))
	hdr = append(hdr, key...)
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(len(payload)))
	sum := kcacheChecksum(key, payload)
	return append(hdr, sum[:]...)
}

// errBadEntry marks a cache file that was found but is not to be trusted.
var errBadEntry = errors.New("bad kernel-cache entry")

// decodeEntry checks a whole file against the expected key and returns its payload.
// Nothing from a file reaches VkFFT unless every check here passed.
func decodeEntry(data, key []byte) ([]byte, error) {
	bad := func(format string, a ...any) ([]byte, error) {
		return nil, fmt.Errorf("%w: %s", errBadEntry, fmt.Sprintf(format, a...))
	}
	if len(data) < kcacheHdrSize {
		return bad("truncated header (%d bytes)", len(data))
	}
	if string(data[:len(kcacheMagic)]) != kcacheMagic {
		return bad("not a vkfftgo kernel-cache file")
	}
	if f := binary.LittleEndian.Uint32(data[8:]); f != kcacheFormat {
		return bad("format %d, this build reads %d", f, kcacheFormat)
	}
	kl := uint64(binary.LittleEndian.Uint32(data[12:]))
	rest := data[kcacheHdrSize:]
	if kl > kcacheMaxKey || uint64(len(rest)) < kl+8+sha256.Size {
		return bad("truncated key (%d bytes announced, %d present)", kl, len(rest))
	}
	fileKey := rest[:kl]
	if !bytes.Equal(fileKey, key) {
		return bad("made for another build, device or configuration (%s)", keyDiff(fileKey, key))
	}
	rest = rest[kl:]
	n := binary.LittleEndian.Uint64(rest)
	sum := rest[8 : 8+sha256.Size]
	payload := rest[8+sha256.Size:]
	if n == 0 || uint64(len(payload)) != n {
		return bad("payload is %d bytes, header says %d", len(payload), n)
	}
	if want := kcacheChecksum(key, payload); !bytes.Equal(sum, want[:]) {
		return bad("checksum mismatch")
	}
	return payload, nil
}

// keyDiff names the first key line that differs, for diagnostics. It walks both keys
// in place: a key of many lines costs no allocation.
func keyDiff(got, want []byte) string {
	for len(got) > 0 && len(want) > 0 {
		g, gRest, _ := bytes.Cut(got, []byte{'\n'})
		w, wRest, _ := bytes.Cut(want, []byte{'\n'})
		if !bytes.Equal(g, w) {
			return fmt.Sprintf("file has %.120s, want %.120s", g, w)
		}
		got, want = gRest, wRest
	}
	return "key lengths differ"
}

// kcacheLookup returns a verified payload for key from dir, or nil. A bad entry is
// counted as rejected and left to be overwritten.
func kcacheLookup(dir string, key []byte, maxBytes int64) (payload []byte, path string) {
	return kcacheLookupIn(&kcacheStats.plans, dir, key, maxBytes)
}

// kcacheLookupIn is kcacheLookup counting into c.
func kcacheLookupIn(c *kcacheCounters, dir string, key []byte, maxBytes int64) (payload []byte, path string) {
	path = filepath.Join(dir, kcacheFileName(key))
	data, err := kcacheFS.ReadFile(path, maxBytes)
	if err != nil {
		// no entry, or no directory at all, is a plain miss; anything else is an
		// entry we could not read
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			kcacheProblem(&c.rejected, fmt.Errorf("%w: %v", errBadEntry, err))
		}
		return nil, path
	}
	payload, err = decodeEntry(data, key)
	if err != nil {
		kcacheProblem(&c.rejected, fmt.Errorf("%s: %w", path, err))
		return nil, path
	}
	kcacheFS.Touch(path)
	return payload, path
}

// kcacheStore writes an entry atomically and then trims the directory to maxBytes.
// Failures are counted, never returned: a cache that cannot be written only costs
// compile time.
func kcacheStore(dir, path string, key, payload []byte, maxBytes int64) {
	if kcacheWrite(&kcacheStats.plans, dir, path, key, payload, maxBytes) {
		kcacheTrim(&kcacheStats.plans, dir, maxBytes, path)
	}
}

// kcacheWrite writes an entry atomically, counting into c; it says whether it did.
func kcacheWrite(c *kcacheCounters, dir, path string, key, payload []byte, maxBytes int64) bool {
	if len(payload) == 0 {
		return false
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		kcacheProblem(&c.storeErrors, err)
		return false
	}
	hdr := encodeEntryHeader(key, payload)
	if int64(len(hdr)+len(payload)) > maxBytes {
		return false // would evict itself
	}
	if err := kcacheFS.WriteAtomic(dir, path, hdr, payload); err != nil {
		kcacheProblem(&c.storeErrors, err)
		return false
	}
	c.stored.Add(1)
	return true
}

// KernelCacheEntry describes one file of the disk cache.
type KernelCacheEntry struct {
	Path    string
	Bytes   int64
	ModTime time.Time // last written or used
}

// listEntries returns the cache's entries, oldest first, and stale temporary files.
func listEntries(dir string) (entries []KernelCacheEntry, stale []string, err error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	for _, de := range des {
		name := de.Name()
		isTmp := strings.HasPrefix(name, kcacheTmpPfx)
		if !de.Type().IsRegular() || (!isTmp && !strings.HasSuffix(name, kcacheExt)) {
			continue
		}
		fi, err := de.Info()
		if err != nil {
			continue // removed meanwhile
		}
		p := filepath.Join(dir, name)
		if isTmp {
			if now.Sub(fi.ModTime()) > kcacheStaleTmp {
				stale = append(stale, p)
			}
			continue
		}
		entries = append(entries, KernelCacheEntry{Path: p, Bytes: fi.Size(), ModTime: fi.ModTime()})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].ModTime.Before(entries[j].ModTime) })
	return entries, stale, nil
}

// kcacheTrim removes least recently used entries until the directory holds at most
// maxBytes, counting into c; keep is never removed (it was just written).
func kcacheTrim(c *kcacheCounters, dir string, maxBytes int64, keep string) {
	entries, stale, err := listEntries(dir)
	if err != nil {
		return
	}
	for _, p := range stale {
		_ = os.Remove(p)
	}
	var total int64
	for _, e := range entries {
		total += e.Bytes
	}
	for _, e := range entries {
		if total <= maxBytes {
			break
		}
		if e.Path == keep {
			continue
		}
		if os.Remove(e.Path) == nil {
			c.evicted.Add(1)
		}
		total -= e.Bytes
	}
}

// KernelCacheInfo summarises the disk cache directory.
type KernelCacheInfo struct {
	Dir      string
	Enabled  bool
	Entries  int   // whole plans' entries
	Bytes    int64 // their size
	MaxBytes int64
	// Kernels kept one by one, by their source, in KernelDir (capped at MaxBytes on
	// their own).
	KernelDir     string
	KernelEntries int
	KernelBytes   int64
}

// ReadKernelCacheInfo lists the cache directory (missing counts as empty).
//
// Deprecated: use KernelCache().Info; removed in the release after v1.
func ReadKernelCacheInfo() (KernelCacheInfo, []KernelCacheEntry, error) {
	dir, ok := KernelCacheDir()
	info := KernelCacheInfo{Dir: dir, Enabled: ok, MaxBytes: KernelCacheMaxBytes()}
	if !ok {
		return info, nil, nil
	}
	info.KernelDir = filepath.Join(dir, kernelsDir)
	entries, _, err := listEntries(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return info, nil, err
	}
	info.Entries = len(entries)
	for _, e := range entries {
		info.Bytes += e.Bytes
	}
	kernels, _, err := listEntries(info.KernelDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return info, nil, err
	}
	info.KernelEntries = len(kernels)
	for _, e := range kernels {
		info.KernelBytes += e.Bytes
	}
	return info, entries, nil
}

// ClearKernelCache removes every entry (and leftover temporary file) from the disk
// cache directory, kernels kept by their source included, and returns how many plan
// entries (KernelCacheInfo.Entries) it removed.
//
// Deprecated: use KernelCache().Clear; removed in the release after v1.
func ClearKernelCache() (int, error) {
	dir, ok := KernelCacheDir()
	if !ok {
		return 0, nil
	}
	n, err := clearEntries(dir)
	if _, kerr := clearEntries(filepath.Join(dir, kernelsDir)); err == nil {
		err = kerr
	}
	return n, err
}

// clearEntries removes the entries and temporary files of one folder.
func clearEntries(dir string) (int, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, nil
		}
		return 0, err
	}
	n := 0
	var first error
	for _, de := range des {
		name := de.Name()
		if !strings.HasSuffix(name, kcacheExt) && !strings.HasPrefix(name, kcacheTmpPfx) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		if strings.HasSuffix(name, kcacheExt) {
			n++
		}
	}
	return n, first
}

// kernelStore is the kernel-cache directory as one build uses it: the settings in force
// when the build began.
type kernelStore struct {
	dir      string
	on       bool
	maxBytes int64
}

// currentKernelStore reads the settings (SetDir, the environment) now.
func currentKernelStore() kernelStore {
	dir, on := KernelCacheDir()
	return kernelStore{dir: dir, on: on, maxBytes: KernelCacheMaxBytes()}
}

// load returns the verified payload stored under key and the entry's path, or a nil
// payload (the cache is off, or holds no usable entry).
func (s kernelStore) load(key []byte) (payload []byte, path string) {
	if !s.on {
		return nil, ""
	}
	return kcacheLookup(s.dir, key, s.maxBytes)
}

// save stores payload under key; a cache that is off or cannot be written stores nothing.
func (s kernelStore) save(key, payload []byte) {
	if s.on {
		kcacheStore(s.dir, filepath.Join(s.dir, kcacheFileName(key)), key, payload, s.maxBytes)
	}
}
