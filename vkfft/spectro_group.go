package vkfft

// Group accumulation of the spectrometer's fused atomic path: which store VkFFT's last
// pass gets (kernels.go, groupFunc) and how it is chosen — by hand, stored by an earlier
// measurement (spectro_group_tune.go, spectro_group_store.go), or the default below.

import (
	"fmt"
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

// groupsApply says whether a spectrometer of cfg on d can take the fused atomic path, the
// only one a group sum shapes (not on a Vulkan device without float atomics, which
// takes the power store).
func groupsApply(d *Device, cfg *SpectrometerConfig) bool {
	return cfg.Input.Complex() && fusedStagesAvailable(d, cfg) && companionFloatAtomics(d) &&
		(cfg.Fusion == FusionAtomic || cfg.Fusion == FusionAuto && defaultFusion(d) == FusionAtomic &&
			!directByDefault(d, cfg))
}

// defaultGroup is the group sum of a GroupSum given without GroupTransforms: as many transforms per
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
	if !groupsApply(d, cfg) {
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
		if g, ok := storedGroupSums.lookup(kernelsFor(&d.info).store, spectroTuningKey(&d.info, cfg)); ok {
			g.Source = TunedStored
			return g, nil
		}
	}
	if mode == TuneMeasure || mode == TuneRefresh {
		return TuneSpectrometer(d, *cfg)
	}
	// nothing stored: one atomic add per element, which beat every group sum on the H200
	// at N = 4096, 65536 and 2^20 (tests/gpu/RESULTS-fuse.md); a group sum is taken when
	// asked for or measured faster on the device
	return off, nil
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
