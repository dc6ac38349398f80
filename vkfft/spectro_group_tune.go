package vkfft

// Measuring a spectrometer's group sum: every candidate store (none, registers or shared
// memory, over 2 to 64 transforms per work-group) is built as a spectrometer of its own
// and timed on the same device-resident samples; the fastest is stored beside the plans'
// tunings (spectro_group.go) for spectrometers of the same key.

import (
	"fmt"
	"slices"
	"time"
)

// groupCandidates lists the group sums a tuning measures for n-point transforms in
// chunks of chunk: one atomic add per element, then registers and (for n ≤
// maxSharedBins) shared memory over 2 to 64 transforms per work-group, at most a chunk.
func groupCandidates(n, chunk int) []groupSpec {
	out := []groupSpec{{sum: GroupSumOff, transforms: 1}}
	for _, sum := range []GroupSum{GroupSumShared, GroupSumRegisters} {
		if sum == GroupSumShared && n > maxSharedBins {
			continue
		}
		for k := 2; k <= 64 && k <= chunk; k *= 2 {
			out = append(out, groupSpec{sum: sum, transforms: k})
		}
	}
	return out
}

// groupTuneBytes bounds the samples a tuning times per call.
const groupTuneBytes = 512 << 20

// Test hooks: groupCandidateList lists the candidates (tests: fewer), groupTuneBias
// scales a candidate's measured time (tests: a chosen winner; nil in normal use).
var (
	groupCandidateList = groupCandidates
	groupTuneBias      func(groupSpec) float64
)

// TuneSpectrometer measures which group sum (GroupSum, GroupTransforms) makes a
// spectrometer of cfg fastest on d, stores the winner in the kernel-cache directory for
// later spectrometers of the same N, chunk, format and launch configuration that leave
// the choice to GroupSumAuto, and returns it with every candidate's time. It compiles
// one plan per candidate (seconds; VKFFTGO_TUNE_BUDGET bounds the candidates started)
// and times calls of whole chunks of samples in device memory. cfg's own GroupSum,
// GroupTransforms and Tune are ignored, and FusionAuto stands for FusionAtomic (whose
// store the group sums shape, where FusionAuto may take the direct kernel); a
// configuration the fused atomic path does not serve (real input, a Vulkan device without
// float atomics, another Fusion) is ErrUnsupported.
func TuneSpectrometer(d *Device, cfg SpectrometerConfig) (GroupTuning, error) {
	const op = "tune spectrometer"
	if d == nil {
		return GroupTuning{}, opError(op, fmt.Errorf("%w: nil device", ErrInvalidArgument))
	}
	cfg.GroupSum, cfg.GroupTransforms, cfg.Tune = GroupSumAuto, 0, TuneOff
	if cfg.Fusion == FusionAuto {
		cfg.Fusion = FusionAtomic
	}
	cfg, err := validateSpectrometer(cfg)
	if err != nil {
		return GroupTuning{}, opError(op, err)
	}
	if !groupsApply(d, &cfg) {
		return GroupTuning{}, opError(op, fmt.Errorf("%w: group sums shape the fused atomic path (complex input, "+
			"FusionAuto or FusionAtomic; on Vulkan float atomics and a batch within one binding)", ErrUnsupported))
	}
	tuneMu.Lock()
	defer tuneMu.Unlock()
	start := time.Now()
	per := int64(cfg.Chunk) * int64(cfg.N) * int64(cfg.Input.sampleBytes())
	chunks := int(min(int64(cfg.Batch/cfg.Chunk), max(1, groupTuneBytes/per)))
	run := cfg
	run.Batch, run.Fusion, run.Tune = chunks*cfg.Chunk, FusionAtomic, TuneOff
	samples, err := NewBuffer[uint8](d, chunks*int(per))
	if err != nil {
		return GroupTuning{}, opError(op, err)
	}
	defer samples.Close()
	noise := make([]uint8, samples.Len())
	for i := range noise { // small values every format holds (halves too: no NaN)
		noise[i] = uint8(uint32(i)*2654435761>>24) & 0x3f
	}
	if err := samples.Upload(noise); err != nil {
		return GroupTuning{}, opError(op, err)
	}
	budget := tuneBudget()
	g := GroupTuning{Source: TunedMeasured, Batch: run.Batch}
	for _, c := range groupCandidateList(cfg.N, cfg.Chunk) {
		if time.Since(start) > budget && len(g.Candidates) > 0 {
			tunef("spectrometer N=%d: budget %v spent; %v x%d and the rest not measured", cfg.N, budget, c.sum,
				c.transforms)
			break
		}
		ms, err := timeGroup(d, run, c, uintptr(samples.b.m))
		if err != nil {
			tunef("spectrometer N=%d %v x%d: %v", cfg.N, c.sum, c.transforms, err)
			continue
		}
		if groupTuneBias != nil {
			ms *= groupTuneBias(c)
		}
		tunef("spectrometer N=%d chunk=%d %v x%d: %.3f ms per %d transforms", cfg.N, cfg.Chunk, c.sum, c.transforms,
			ms, run.Batch)
		g.Candidates = append(g.Candidates, GroupTiming{Sum: c.sum, Transforms: c.transforms, Ms: ms})
	}
	if len(g.Candidates) == 0 {
		return GroupTuning{}, opError(op, fmt.Errorf("%w: no candidate could be built", ErrUnsupported))
	}
	slices.SortStableFunc(g.Candidates, func(a, b GroupTiming) int {
		switch {
		case a.Ms < b.Ms:
			return -1
		case a.Ms > b.Ms:
			return 1
		}
		return 0
	})
	g.Sum, g.Transforms, g.Elapsed = g.Candidates[0].Sum, g.Candidates[0].Transforms, time.Since(start)
	stored := g
	stored.Refused = "" // a build's note, not part of what was measured
	storedGroupSums.save(kernelsFor(&d.info).store, spectroTuningKey(&d.info, &cfg), stored)
	return g, nil
}

// timeGroup builds a spectrometer of cfg with the group sum c and returns the device time
// of one call on samples (the least of three rounds of at least tuneTrialTime each); an
// error when c could not be built as asked (the rewriter refused it).
func timeGroup(d *Device, cfg SpectrometerConfig, c groupSpec, samples uintptr) (float64, error) {
	cfg.GroupSum, cfg.GroupTransforms = c.sum, c.transforms
	sp, err := NewSpectrometer(d, cfg)
	if err != nil {
		return 0, err
	}
	defer sp.Close()
	if got := sp.Group(); sp.Fusion() != FusionAtomic || got.Sum != c.sum || got.Transforms != c.transforms {
		return 0, fmt.Errorf("%w: built as %v with %v (%s)", ErrUnsupported, sp.Fusion(), got, got.Refused)
	}
	calls := func(n int) (float64, error) {
		t0 := time.Now()
		for i := 0; i < n; i++ {
			if err := sp.AccumulateNative(samples); err != nil {
				return 0, err
			}
		}
		if err := d.Sync(); err != nil {
			return 0, err
		}
		return float64(time.Since(t0).Nanoseconds()) / 1e6 / float64(n), nil
	}
	ms, err := calls(2) // warm-up, and the first estimate
	if err != nil {
		return 0, err
	}
	n := max(3, int(float64(tuneTrialTime.Milliseconds())/max(ms, 1e-3)))
	best := 0.0
	for r := 0; r < tuneTrials; r++ {
		t, err := calls(n)
		if err != nil {
			return 0, err
		}
		if r == 0 || t < best {
			best = t
		}
	}
	return best, nil
}
