package vkfft

// Stored spectrometer tunings: a group sum measured by TuneSpectrometer is kept in the
// kernel-cache directory as an entry of the kernel cache's format (header, key,
// checksum; its key, spectroTuningKey, names the device and what shapes the last pass),
// with a payload of "field=value" lines parsed strictly and range-checked; the process
// remembers what it measured or read.

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// groupMemo holds the spectrometer tunings this process measured or read, by key.
var groupMemo struct {
	mu sync.Mutex
	m  map[string]GroupTuning
}

func groupMemoGet(key []byte) (GroupTuning, bool) {
	groupMemo.mu.Lock()
	defer groupMemo.mu.Unlock()
	g, ok := groupMemo.m[string(key)]
	return g, ok
}

func groupMemoPut(key []byte, g GroupTuning) {
	groupMemo.mu.Lock()
	defer groupMemo.mu.Unlock()
	if groupMemo.m == nil {
		groupMemo.m = make(map[string]GroupTuning)
	}
	groupMemo.m[string(key)] = g
}

// forgetGroupTunings drops the process's memory of spectrometer tunings (tests).
func forgetGroupTunings() {
	groupMemo.mu.Lock()
	groupMemo.m = nil
	groupMemo.mu.Unlock()
}

// groupLookup returns the spectrometer tuning stored under key: from this process's
// memory, else from the kernel-cache directory (verified, parsed and range-checked; a
// bad entry is counted as rejected and ignored).
func groupLookup(ks kernelSource, key []byte) (GroupTuning, bool) {
	if g, ok := groupMemoGet(key); ok {
		return g, true
	}
	payload, path := ks.store.load(key)
	if payload == nil {
		return GroupTuning{}, false
	}
	g, err := decodeGroupTuning(payload)
	if err != nil {
		kcacheProblem(&kcacheStats.plans.rejected, fmt.Errorf("%s: %w: %v", path, errBadEntry, err))
		return GroupTuning{}, false
	}
	groupMemoPut(key, g)
	return g, true
}

// groupStore remembers g and writes it to the kernel-cache directory.
func groupStore(ks kernelSource, key []byte, g GroupTuning) {
	g.Refused = ""
	groupMemoPut(key, g)
	ks.store.save(key, encodeGroupTuning(g))
}

func encodeGroupTuning(g GroupTuning) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "sum=%v\n", g.Sum)
	fmt.Fprintf(&b, "transforms=%d\n", g.Transforms)
	fmt.Fprintf(&b, "batch=%d\n", g.Batch)
	cands := make([]string, len(g.Candidates))
	for i, c := range g.Candidates {
		cands[i] = fmt.Sprintf("%v:%d:%s", c.Sum, c.Transforms, strconv.FormatFloat(c.Ms, 'g', -1, 64))
	}
	fmt.Fprintf(&b, "candidates=%s\n", strings.Join(cands, ","))
	fmt.Fprintf(&b, "elapsed_ms=%d\n", g.Elapsed.Milliseconds())
	return b.Bytes()
}

// decodeGroupTuning parses a payload of encodeGroupTuning: every field once, nothing
// else, every value in range.
func decodeGroupTuning(payload []byte) (GroupTuning, error) {
	var g GroupTuning
	parseSum := func(s string) (GroupSum, error) {
		sum, err := ParseGroupSum(s)
		if err == nil && sum == GroupSumAuto {
			err = fmt.Errorf("auto is not a choice")
		}
		return sum, err
	}
	checkK := func(sum GroupSum, k int) error {
		if k < 1 || k > maxGroupTransforms || sum == GroupSumOff && k != 1 {
			return fmt.Errorf("%d transforms for %v", k, sum)
		}
		return nil
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(payload))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if !ok || seen[k] {
			return g, fmt.Errorf("spectrometer tuning: malformed or repeated line %q", sc.Text())
		}
		seen[k] = true
		var err error
		switch k {
		case "sum":
			g.Sum, err = parseSum(v)
		case "transforms":
			g.Transforms, err = strconv.Atoi(v)
		case "batch":
			if g.Batch, err = strconv.Atoi(v); err == nil && g.Batch < 1 {
				err = fmt.Errorf("not positive")
			}
		case "elapsed_ms":
			var ms int
			if ms, err = strconv.Atoi(v); err == nil && ms < 0 {
				err = fmt.Errorf("negative")
			}
			g.Elapsed = time.Duration(ms) * time.Millisecond
		case "candidates":
			for _, c := range strings.Split(v, ",") {
				if c == "" {
					continue
				}
				f := strings.Split(c, ":")
				if len(f) != 3 {
					err = fmt.Errorf("candidate %q", c)
					break
				}
				var t GroupTiming
				if t.Sum, err = parseSum(f[0]); err == nil {
					if t.Transforms, err = strconv.Atoi(f[1]); err == nil {
						if err = checkK(t.Sum, t.Transforms); err == nil {
							t.Ms, err = strconv.ParseFloat(f[2], 64)
							if err == nil && !(t.Ms > 0 && t.Ms < 1e9) {
								err = fmt.Errorf("time %q out of range", f[2])
							}
						}
					}
				}
				if err != nil {
					break
				}
				g.Candidates = append(g.Candidates, t)
			}
		default:
			return g, fmt.Errorf("spectrometer tuning: unknown field %q", k)
		}
		if err != nil {
			return g, fmt.Errorf("spectrometer tuning: %s=%q: %v", k, v, err)
		}
	}
	if len(seen) != 5 {
		return g, fmt.Errorf("spectrometer tuning: %d fields, want 5", len(seen))
	}
	if err := checkK(g.Sum, g.Transforms); err != nil {
		return g, fmt.Errorf("spectrometer tuning: %v", err)
	}
	return g, nil
}
