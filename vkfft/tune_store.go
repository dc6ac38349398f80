package vkfft

// Stored tunings, records of stored_records.go. A tuning's key (tuningKey, cachekey.go)
// has the fields of the untuned plan's kernel key, marked as a tuning, so it names the
// VkFFT version, the core, the backend, the device, its driver and compiler (NVRTC) and
// every plan parameter.

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// tunerVersion changes when the search changes enough that old tunings should be
// measured again.
const tunerVersion = 1

// tuneKeyPrefix starts every stored tuning's key (tuningKey), and no other.
const tuneKeyPrefix = "entry=" + tuningEntry + "\n"

// tuneRecord is one stored tuning.
type tuneRecord struct {
	tuning             Tuning
	oop                Tuning  // the out-of-place application's (oop.go)
	oopMs              float64 // its forward+inverse time (0: not measured)
	defaultMs, tunedMs float64
	candidates         int
	elapsed            time.Duration
}

// storedTunings are the tunings in the kernel-cache directory and this process's memory.
var storedTunings = storedRecords[tuneRecord]{encode: encodeTuning, decode: decodeTuning}

func encodeTuning(r tuneRecord) []byte {
	t := r.tuning
	var b bytes.Buffer
	fmt.Fprintf(&b, "coalesced_memory=%d\n", t.CoalescedMemory)
	fmt.Fprintf(&b, "aim_threads=%d\n", t.AimThreads)
	fmt.Fprintf(&b, "register_boost=%d\n", t.RegisterBoost)
	fmt.Fprintf(&b, "register_boost_4step=%d\n", t.RegisterBoost4Step)
	fmt.Fprintf(&b, "grouped_batch=%s\n", joinInts(t.GroupedBatch[:]))
	fmt.Fprintf(&b, "bandwidth_boost=%d\n", t.BandwidthBoost)
	fmt.Fprintf(&b, "swap_to_3stage_4step=%d\n", t.SwapTo3Stage4Step)
	fmt.Fprintf(&b, "shared_memory=%d\n", t.SharedMemory)
	fmt.Fprintf(&b, "bluestein_size=%d\n", t.BluesteinSize)
	fmt.Fprintf(&b, "lut=%d\n", int(t.LUT))
	o := r.oop
	fmt.Fprintf(&b, "oop=%s\n", joinInts(tuningFields(&o)))
	fmt.Fprintf(&b, "oop_ms=%s\n", strconv.FormatFloat(r.oopMs, 'g', -1, 64))
	fmt.Fprintf(&b, "default_ms=%s\n", strconv.FormatFloat(r.defaultMs, 'g', -1, 64))
	fmt.Fprintf(&b, "tuned_ms=%s\n", strconv.FormatFloat(r.tunedMs, 'g', -1, 64))
	fmt.Fprintf(&b, "candidates=%d\n", r.candidates)
	fmt.Fprintf(&b, "elapsed_ms=%d\n", r.elapsed.Milliseconds())
	return b.Bytes()
}

// decodeTuning parses a payload written by encodeTuning: every field exactly once,
// nothing else, every value in range.
func decodeTuning(payload []byte) (tuneRecord, error) {
	var r tuneRecord
	t := &r.tuning
	ints := map[string]*int{
		"coalesced_memory":     &t.CoalescedMemory,
		"aim_threads":          &t.AimThreads,
		"register_boost":       &t.RegisterBoost,
		"register_boost_4step": &t.RegisterBoost4Step,
		"bandwidth_boost":      &t.BandwidthBoost,
		"swap_to_3stage_4step": &t.SwapTo3Stage4Step,
		"shared_memory":        &t.SharedMemory,
		"bluestein_size":       &t.BluesteinSize,
		"candidates":           &r.candidates,
	}
	var lut, elapsedMs int
	ints["lut"] = &lut
	ints["elapsed_ms"] = &elapsedMs
	floats := map[string]*float64{"default_ms": &r.defaultMs, "tuned_ms": &r.tunedMs, "oop_ms": &r.oopMs}
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(payload))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if !ok || seen[k] {
			return r, fmt.Errorf("tuning: malformed or repeated line %q", sc.Text())
		}
		seen[k] = true
		var err error
		switch {
		case ints[k] != nil:
			*ints[k], err = strconv.Atoi(v)
		case floats[k] != nil:
			*floats[k], err = strconv.ParseFloat(v, 64)
			if err == nil && (*floats[k] < 0 || *floats[k] > 1e9 || *floats[k] != *floats[k]) {
				err = fmt.Errorf("out of range")
			}
		case k == "oop":
			dst := tuningFieldPtrs(&r.oop)
			f := strings.Split(v, ",")
			if len(f) != len(dst) {
				err = fmt.Errorf("%d values", len(f))
			}
			for i := 0; err == nil && i < len(dst); i++ {
				*dst[i], err = strconv.Atoi(f[i])
			}
		case k == "grouped_batch":
			g := strings.Split(v, ",")
			if len(g) != maxRank {
				err = fmt.Errorf("%d values", len(g))
			}
			for i := 0; err == nil && i < maxRank; i++ {
				t.GroupedBatch[i], err = strconv.Atoi(g[i])
			}
		default:
			return r, fmt.Errorf("tuning: unknown field %q", k)
		}
		if err != nil {
			return r, fmt.Errorf("tuning: %s=%q: %v", k, v, err)
		}
	}
	if want := len(ints) + len(floats) + 2; len(seen) != want {
		return r, fmt.Errorf("tuning: %d fields, want %d", len(seen), want)
	}
	t.LUT = LUT(lut)
	if err := t.check(maxRank); err != nil {
		return r, fmt.Errorf("tuning: %v", err)
	}
	if err := r.oop.check(maxRank); err != nil {
		return r, fmt.Errorf("tuning: out of place: %v", err)
	}
	if r.candidates < 0 || elapsedMs < 0 {
		return r, fmt.Errorf("tuning: negative count")
	}
	r.elapsed = time.Duration(elapsedMs) * time.Millisecond
	return r, nil
}

// tuningFieldPtrs lists a Tuning's fields in the order of a stored "oop=" line.
func tuningFieldPtrs(t *Tuning) []*int {
	out := []*int{&t.CoalescedMemory, &t.AimThreads, &t.RegisterBoost, &t.RegisterBoost4Step}
	for i := range t.GroupedBatch {
		out = append(out, &t.GroupedBatch[i])
	}
	return append(out, &t.BandwidthBoost, &t.SwapTo3Stage4Step, &t.SharedMemory, &t.BluesteinSize, (*int)(&t.LUT))
}

func tuningFields(t *Tuning) []int {
	var out []int
	for _, p := range tuningFieldPtrs(t) {
		out = append(out, *p)
	}
	return out
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

// TunedEntry is a stored tuning as ListTunings reports it.
type TunedEntry struct {
	Path               string
	Device             string // the device's name
	Shape              []int
	Batch              int
	Kind               string // "c2c" or "r2c"
	Double             bool
	Tuning             Tuning
	OutOfPlace         Tuning // the out-of-place kernels' tuning
	DefaultMs, TunedMs float64
	Candidates         int
	Elapsed            time.Duration
	Problem            string // why the entry would not be used ("" if it would)
}

// ListTunings returns the tunings stored in the kernel-cache directory.
func ListTunings() ([]TunedEntry, error) {
	_, entries, err := ReadKernelCacheInfo()
	if err != nil {
		return nil, err
	}
	var out []TunedEntry
	for _, e := range entries {
		data, err := kcacheFS.ReadFile(e.Path, KernelCacheMaxBytes())
		if err != nil || len(data) < kcacheHdrSize+len(tuneKeyPrefix) {
			continue
		}
		key := entryKey(data)
		if !bytes.HasPrefix(key, []byte(tuneKeyPrefix)) {
			continue
		}
		te := TunedEntry{Path: e.Path}
		fields := keyFields(key)
		te.Device = fields["device"]
		te.Kind = fields["kind"]
		te.Double = fields["double"] == "true"
		te.Batch, _ = strconv.Atoi(fields["batch"])
		for _, f := range strings.Fields(strings.Trim(fields["shape"], "[]")) {
			n, _ := strconv.Atoi(f)
			te.Shape = append(te.Shape, n)
		}
		payload, err := decodeEntry(data, key)
		if err == nil {
			var r tuneRecord
			if r, err = decodeTuning(payload); err == nil {
				te.Tuning, te.OutOfPlace, te.DefaultMs, te.TunedMs = r.tuning, r.oop, r.defaultMs, r.tunedMs
				te.Candidates, te.Elapsed = r.candidates, r.elapsed
			}
		}
		if err != nil {
			te.Problem = err.Error()
		}
		out = append(out, te)
	}
	return out, nil
}

// entryKey returns the key of an entry's header, or nil if the header is unreadable.
func entryKey(data []byte) []byte {
	if len(data) < kcacheHdrSize || string(data[:len(kcacheMagic)]) != kcacheMagic {
		return nil
	}
	kl := int(uint32(data[12]) | uint32(data[13])<<8 | uint32(data[14])<<16 | uint32(data[15])<<24)
	if kl > kcacheMaxKey || kcacheHdrSize+kl > len(data) {
		return nil
	}
	return data[kcacheHdrSize : kcacheHdrSize+kl]
}
