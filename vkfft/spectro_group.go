package vkfft

// Group accumulation of the spectrometer's fused atomic path: which store VkFFT's last
// pass gets (kernels.go, groupFunc), how it is chosen — by hand, stored by an earlier
// measurement (spectro_group_tune.go), or the default below — and how a choice is kept
// in the kernel-cache directory beside the plans' tunings.

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// GroupSum says where FusionAtomic's rewritten last pass sums |X|² over the transforms
// one work-group runs before it adds them to the bins (SpectrometerConfig.GroupSum).
type GroupSum int

const (
	// GroupSumAuto takes the device's stored spectrometer tuning (vkfft tune
	// -spectrometer, TuneSpectrometer), else the default: shared memory for N ≤ 4096,
	// registers above, over a number of transforms that leaves the device enough
	// work-groups (docs/convolution-spectrometer.md).
	GroupSumAuto GroupSum = iota
	// GroupSumOff adds every element's |X|² to its bin atomically: one atomic add per
	// element, as many on each bin as transforms in the batch.
	GroupSumOff
	// GroupSumRegisters keeps one sum per store statement of VkFFT's kernel in a
	// register (and its bin beside it), added to the bin when the work-group is done.
	GroupSumRegisters
	// GroupSumShared keeps one sum per bin in shared memory (N floats of it, so N ≤
	// 8192), added to the bins when the work-group is done.
	GroupSumShared
)

var groupSumNames = [...]string{"auto", "off", "registers", "shared"}

func (g GroupSum) String() string {
	if g >= 0 && int(g) < len(groupSumNames) {
		return groupSumNames[g]
	}
	return fmt.Sprintf("GroupSum(%d)", int(g))
}

// ParseGroupSum reads a GroupSum's name.
func ParseGroupSum(s string) (GroupSum, error) {
	for i, n := range groupSumNames {
		if n == s {
			return GroupSum(i), nil
		}
	}
	return 0, fmt.Errorf("%w: group sum %q; want one of %v", ErrInvalidArgument, s, groupSumNames)
}

const (
	// maxSharedBins bounds N for GroupSumShared: its sums take N floats of shared memory
	// beside VkFFT's own.
	maxSharedBins = 8192
	// maxGroupTransforms bounds SpectrometerConfig.GroupTransforms.
	maxGroupTransforms = 1 << 16
	// groupWorkElems is the complex elements per work-group slot the default keeps: a
	// chunk's elements divided by the transforms per group should stay above it, so
	// that the fewer work-groups still fill the device.
	groupWorkElems = 1 << 22
)

// groupSpec is a group-accumulating store's shape: where the sums live and how many
// consecutive transforms each work-group runs (sum GroupSumOff: none, an atomic add per
// element).
type groupSpec struct {
	sum        GroupSum
	transforms int
}

// GroupTiming is one measured candidate of a spectrometer tuning: the device time of
// one call of Batch transforms (Batch as the tuning ran it).
type GroupTiming struct {
	Sum        GroupSum
	Transforms int
	Ms         float64
}

// GroupTuning is how a spectrometer's fused atomic store sums over transforms, and where
// that choice came from.
type GroupTuning struct {
	Sum        GroupSum // GroupSumOff: an atomic add per element
	Transforms int      // transforms per work-group (1 with GroupSumOff)
	// Source: TunedByHand (the configuration said), TunedStored, TunedMeasured, or
	// TunedNone (the default).
	Source TuneSource
	// Candidates are the measurements of the tuning (measured now or stored), fastest
	// first; Batch the transforms per timed call; Elapsed the tuning's length.
	Candidates []GroupTiming
	Batch      int
	Elapsed    time.Duration
	// Refused says why the rewriter could not build the store asked for, when the
	// spectrometer fell back to an atomic add per element ("" otherwise).
	Refused string
}

func (g GroupTuning) spec() groupSpec { return groupSpec{sum: g.Sum, transforms: g.Transforms} }

// String is "registers x8" or "off".
func (g GroupTuning) String() string {
	if g.Sum == GroupSumOff {
		return "off"
	}
	return fmt.Sprintf("%v x%d", g.Sum, g.Transforms)
}

// validateGroup checks the group-accumulation fields of cfg.
func validateGroup(cfg *SpectrometerConfig) error {
	switch {
	case cfg.GroupSum < GroupSumAuto || cfg.GroupSum > GroupSumShared:
		return fmt.Errorf("%w: unknown group sum %d", ErrInvalidArgument, int(cfg.GroupSum))
	case cfg.GroupTransforms < 0 || cfg.GroupTransforms > maxGroupTransforms:
		return fmt.Errorf("%w: GroupTransforms %d; want 0 (automatic) to %d", ErrInvalidArgument, cfg.GroupTransforms,
			maxGroupTransforms)
	case cfg.GroupSum == GroupSumOff && cfg.GroupTransforms > 1:
		return fmt.Errorf("%w: GroupTransforms %d with GroupSumOff (which adds every transform on its own)",
			ErrInvalidArgument, cfg.GroupTransforms)
	case cfg.GroupSum == GroupSumShared && cfg.N > maxSharedBins:
		return fmt.Errorf("%w: GroupSumShared keeps N sums in shared memory: N = %d is above %d", ErrUnsupported,
			cfg.N, maxSharedBins)
	case (cfg.GroupSum != GroupSumAuto || cfg.GroupTransforms != 0) && cfg.Fusion != FusionAuto &&
		cfg.Fusion != FusionAtomic:
		return fmt.Errorf("%w: GroupSum and GroupTransforms shape FusionAtomic's store, not %v's", ErrInvalidArgument,
			cfg.Fusion)
	case cfg.Tune < TuneDefault || cfg.Tune > TuneRefresh:
		return fmt.Errorf("%w: unknown tune mode %d", ErrInvalidArgument, int(cfg.Tune))
	}
	return nil
}

// groupsApply says whether a spectrometer of cfg can take the fused atomic path, the only
// one a group sum shapes.
func groupsApply(cfg *SpectrometerConfig) bool {
	return cfg.Input.Complex() && fusedStagesAvailable() && (cfg.Fusion == FusionAtomic ||
		cfg.Fusion == FusionAuto && defaultFusion() == FusionAtomic)
}

// defaultGroup is the group sum used when nothing is stored: as many transforms per
// work-group (a power of two, at most 8) as leave groupWorkElems elements of a chunk to
// each, in shared memory up to 4096 bins (no registers held across the FFT), else in
// registers; none (GroupSumOff) for chunks too small to share.
func defaultGroup(n, chunk int) groupSpec {
	k := 1
	for k < 8 && int64(chunk)*int64(n)/int64(2*k) >= groupWorkElems {
		k *= 2
	}
	switch {
	case k == 1:
		return groupSpec{sum: GroupSumOff, transforms: 1}
	case n <= 4096:
		return groupSpec{sum: GroupSumShared, transforms: k}
	}
	return groupSpec{sum: GroupSumRegisters, transforms: k}
}

// chooseGroup settles the group sum of a spectrometer of cfg (validated): by hand, stored,
// measured now when cfg.Tune asks for it and nothing is stored, or the default. It
// builds spectrometers to measure, so the caller holds no lock of d.
func chooseGroup(d *Device, cfg *SpectrometerConfig) (GroupTuning, error) {
	off := GroupTuning{Sum: GroupSumOff, Transforms: 1, Source: TunedNone}
	if !groupsApply(cfg) {
		return off, nil
	}
	def := defaultGroup(cfg.N, cfg.Chunk)
	switch {
	case cfg.GroupSum == GroupSumOff:
		return GroupTuning{Sum: GroupSumOff, Transforms: 1, Source: TunedByHand}, nil
	case cfg.GroupSum != GroupSumAuto:
		k := cfg.GroupTransforms
		if k == 0 {
			k = max(def.transforms, 2)
		}
		return GroupTuning{Sum: cfg.GroupSum, Transforms: k, Source: TunedByHand}, nil
	case cfg.GroupTransforms == 1:
		return GroupTuning{Sum: GroupSumOff, Transforms: 1, Source: TunedByHand}, nil
	case cfg.GroupTransforms > 1:
		sum := GroupSumRegisters
		if cfg.N <= 4096 {
			sum = GroupSumShared
		}
		return GroupTuning{Sum: sum, Transforms: cfg.GroupTransforms, Source: TunedByHand}, nil
	}
	mode, err := resolveTuneMode(cfg.Tune)
	if err != nil {
		return off, err
	}
	if mode == TuneCached || mode == TuneMeasure {
		if g, ok := groupLookup(kernelsFor(&d.info), spectroTuningKey(&d.info, cfg)); ok {
			g.Source = TunedStored
			return g, nil
		}
	}
	if mode == TuneMeasure || mode == TuneRefresh {
		return TuneSpectrometer(d, *cfg)
	}
	return GroupTuning{Sum: def.sum, Transforms: def.transforms, Source: TunedNone}, nil
}

// spectroTuningEntry is the kind of a stored spectrometer tuning's key.
const spectroTuningEntry = "spectro_tuning"

// spectroTunerVersion changes when the measurement changes enough that stored choices
// should be measured again.
const spectroTunerVersion = 1

// spectroTuningKey is the key of the group sum stored for spectrometers of cfg on the
// device of info: what shapes VkFFT's last pass and how much of it there is (the FFT
// length, the chunk, the sample format and window, the launch configuration), not the
// scale or the batch, which only repeat chunks.
func spectroTuningKey(info *DeviceInfo, cfg *SpectrometerConfig) []byte {
	id := identFor(info)
	return newCacheKey(nil, spectroTuningEntry).int("tuner", spectroTunerVersion).ident(&id).
		int("n", int64(cfg.N)).
		int("chunk", int64(cfg.Chunk)).
		word("input", cfg.Input.String()).
		bool("window", cfg.Window != nil).
		int("bin_order", int64(cfg.BinOrder)).
		int("shared_memory", int64(cfg.SharedMemory)).
		int("lut", int64(cfg.LUT)).
		tuning(&cfg.Tuning).
		bytes()
}

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
		kcacheProblem(&kcacheStats.rejected, fmt.Errorf("%s: %w: %v", path, errBadEntry, err))
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
