package vkfft

// Stored spectrometer tunings, records of stored_records.go: a group sum measured by
// TuneSpectrometer, under a key (spectroTuningKey) that names the device and what shapes
// the last pass.

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// storedGroupSums are the spectrometer tunings in the kernel-cache directory and this
// process's memory.
var storedGroupSums = storedRecords[GroupTuning]{encode: encodeGroupTuning, decode: decodeGroupTuning}

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
