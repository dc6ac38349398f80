package vkfft

// The autotuner's public face: tune modes, the environment default, what a plan reports
// about its tuning, and how a plan's tuning is chosen for the plan builder
// (planbuilder.go), which calls chooseTuning and, when it asks for one, measureTuning.
// The search itself, with its budget and progress lines, is in tune_search.go, the
// store in tune_store.go.

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// TuneMode says whether a plan uses autotuned launch parameters (Config.Tune).
type TuneMode int

const (
	// TuneDefault takes the mode from VKFFTGO_TUNE (off, cached, measure or refresh);
	// unset, it is TuneCached.
	TuneDefault TuneMode = iota
	// TuneOff keeps VkFFT's defaults.
	TuneOff
	// TuneCached uses the tuning stored for this device and plan if there is one, and
	// otherwise VkFFT's defaults, or a fixed prior where those are known to be slow
	// (multi-dimensional transforms on NVIDIA; TunedPrior). It never measures.
	TuneCached
	// TuneMeasure uses the stored tuning, or, when none is stored, measures candidates
	// on the plan's own buffers now (seconds), stores the winner and uses it.
	TuneMeasure
	// TuneRefresh measures even when a tuning is stored, and replaces it.
	TuneRefresh
)

func (m TuneMode) String() string {
	switch m {
	case TuneDefault:
		return "default"
	case TuneOff:
		return "off"
	case TuneCached:
		return "cached"
	case TuneMeasure:
		return "measure"
	case TuneRefresh:
		return "refresh"
	}
	return fmt.Sprintf("TuneMode(%d)", int(m))
}

// ParseTuneMode reads a mode as VKFFTGO_TUNE spells it: off, cached, measure, refresh.
func ParseTuneMode(s string) (TuneMode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "off":
		return TuneOff, nil
	case "cached", "":
		return TuneCached, nil
	case "measure":
		return TuneMeasure, nil
	case "refresh":
		return TuneRefresh, nil
	}
	return TuneDefault, fmt.Errorf("%w: tune mode %q; want off, cached, measure or refresh",
		ErrInvalidArgument, s)
}

// Environment variables of the autotuner, read at every plan creation.
const (
	// EnvTune is the default of Config.Tune: off, cached (the default) or measure.
	EnvTune = "VKFFTGO_TUNE"
	// EnvTuneBudget bounds the time one measured tuning may take (a Go duration, e.g.
	// "20s"); stages that would start past it are skipped. Default DefaultTuneBudget.
	EnvTuneBudget = "VKFFTGO_TUNE_BUDGET"
)

// DefaultTuneBudget is the time one measured tuning may take unless VKFFTGO_TUNE_BUDGET
// says otherwise.
const DefaultTuneBudget = 25 * time.Second

// resolveTuneMode turns TuneDefault into the environment's mode.
func resolveTuneMode(m TuneMode) (TuneMode, error) {
	if m != TuneDefault {
		return m, nil
	}
	mode, err := ParseTuneMode(os.Getenv(EnvTune))
	if err != nil {
		return mode, fmt.Errorf("%s: %w", EnvTune, err)
	}
	return mode, nil
}

// TuneSource says where a plan's launch parameters came from.
type TuneSource int

const (
	// TunedNone: VkFFT's defaults (TuneOff, or TuneCached with nothing stored and no
	// prior for the device).
	TunedNone TuneSource = iota
	// TunedByHand: Config.Tuning was given.
	TunedByHand
	// TunedStored: a tuning stored by an earlier measurement, in this process or another.
	TunedStored
	// TunedMeasured: measured while this plan was built.
	TunedMeasured
	// TunedPrior: TuneCached with nothing stored, on a device where VkFFT's defaults are
	// known to leave speed behind: a fixed starting tuning (tune_prior.go).
	TunedPrior
)

func (s TuneSource) String() string {
	switch s {
	case TunedNone:
		return "defaults"
	case TunedByHand:
		return "by hand"
	case TunedStored:
		return "stored"
	case TunedMeasured:
		return "measured"
	case TunedPrior:
		return "prior"
	}
	return fmt.Sprintf("TuneSource(%d)", int(s))
}

// TuneResult describes the launch parameters a plan runs with.
type TuneResult struct {
	Source TuneSource
	Tuning Tuning // what the plan runs with (zero: VkFFT's defaults)
	// DefaultMs and TunedMs are device forward+inverse times measured by the tuner on
	// this device, VkFFT's defaults against the winner (0 when never measured).
	DefaultMs, TunedMs float64
	// OutOfPlace is the tuning of the plan's out-of-place kernels (ForwardBuffer with
	// dst != src), tuned of their own; OutOfPlaceMs their forward+inverse time (0: not
	// measured, they run with Tuning).
	OutOfPlace   Tuning
	OutOfPlaceMs float64
	Candidates   int           // configurations the tuner measured
	Elapsed      time.Duration // the measurement's length (stored with the tuning)
}

// Tuned reports the plan's launch parameters and where they came from.
func (p *Plan[T]) Tuned() TuneResult { return p.p.tuned }

// Tuned reports the plan's launch parameters and where they came from.
func (p *RealPlan[R, C]) Tuned() TuneResult { return p.p.tuned }

// Tuned reports the plan's launch parameters and where they came from.
func (p *R2RPlan[T]) Tuned() TuneResult { return p.p.tuned }

// Tuned reports the launch parameters the plan runs with and where they came from.
func (p *BytePlan) Tuned() TuneResult { return p.p.tuned }

// isZero reports whether t keeps all of VkFFT's defaults.
func (t Tuning) isZero() bool { return t == Tuning{} }

// check reports a tuning value VkFFT could not take, naming the field. It allocates
// nothing when the tuning is valid (CachedPlan checks every key).
func (t Tuning) check(rank int) error {
	bad := func(field string, v int, want string) error {
		return fmt.Errorf("%w: tuning value Tuning.%s is %d; want %s", ErrInvalidArgument, field, v, want)
	}
	const def = "0 (VkFFT's default) to "
	switch {
	case t.CoalescedMemory < 0 || t.CoalescedMemory > 4096:
		return bad("CoalescedMemory", t.CoalescedMemory, def+"4096")
	case t.AimThreads < 0 || t.AimThreads > 4096:
		return bad("AimThreads", t.AimThreads, def+"4096")
	case t.RegisterBoost < 0 || t.RegisterBoost > 16:
		return bad("RegisterBoost", t.RegisterBoost, def+"16")
	case t.RegisterBoost4Step < 0 || t.RegisterBoost4Step > 16:
		return bad("RegisterBoost4Step", t.RegisterBoost4Step, def+"16")
	case t.BandwidthBoost < -1 || t.BandwidthBoost > 64:
		return bad("BandwidthBoost", t.BandwidthBoost, "-1 (off), 0 (VkFFT's default) or 1 to 64")
	case t.SwapTo3Stage4Step != 0 && (t.SwapTo3Stage4Step < 65536 || t.SwapTo3Stage4Step > 1<<30):
		return bad("SwapTo3Stage4Step", t.SwapTo3Stage4Step, "0 (VkFFT's default) or 65536 to 2^30")
	case t.SharedMemory != 0 && (t.SharedMemory < 1024 || t.SharedMemory > 1<<24):
		return bad("SharedMemory", t.SharedMemory, "0 (the device's) or 1024 to 16 MiB")
	case t.BluesteinSize != 0 && (t.BluesteinSize < 2 || t.BluesteinSize > 1<<24):
		return bad("BluesteinSize", t.BluesteinSize, "0 (VkFFT's choice) or 2 to 2^24")
	case t.LUT < LUTDefault || t.LUT > LUTOff:
		return bad("LUT", int(t.LUT), "a LUT value")
	}
	for i, g := range t.GroupedBatch {
		if g < 0 || g > 1<<16 {
			return bad(fmt.Sprintf("GroupedBatch[%d]", i), g, def+"65536")
		}
		if g != 0 && i >= rank {
			return bad(fmt.Sprintf("GroupedBatch[%d]", i), g, fmt.Sprintf("0: the shape has %d axes", rank))
		}
	}
	return nil
}

// String lists the fields that differ from VkFFT's defaults ("defaults" if none).
func (t Tuning) String() string {
	var parts []string
	add := func(name string, v int) {
		if v != 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", name, v))
		}
	}
	add("coalesced", t.CoalescedMemory)
	add("threads", t.AimThreads)
	add("regboost", t.RegisterBoost)
	add("regboost4step", t.RegisterBoost4Step)
	if t.GroupedBatch != ([maxRank]int{}) {
		parts = append(parts, fmt.Sprintf("grouped=%v", t.GroupedBatch))
	}
	add("bwboost", t.BandwidthBoost)
	add("3stage", t.SwapTo3Stage4Step)
	add("shared", t.SharedMemory)
	add("bluestein", t.BluesteinSize)
	switch t.LUT {
	case LUTOn:
		parts = append(parts, "lut=on")
	case LUTOff:
		parts = append(parts, "lut=off")
	}
	if len(parts) == 0 {
		return "defaults"
	}
	return strings.Join(parts, " ")
}

// tuneMu serialises measured tunings in this process: two at once would time each
// other's kernels. A tuning that waited re-checks the store before measuring.
var tuneMu sync.Mutex

// tuneChoice is the tuning a plan is built with, and what it reports about it.
type tuneChoice struct {
	result TuneResult // what Tuned reports; result.Tuning is what the plan runs with
	oop    *Tuning    // the out-of-place application's own tuning (oop.go); nil: the plan's
	// measure: nothing usable is stored and the mode asks for a measurement on the
	// plan's buffers (measureTuning), stored under key; refresh: whatever is stored
	measure, refresh bool
	key              []byte
}

// chooseTuning settles the tuning of a plan of l without touching the device: by hand,
// stored (in this process or the kernel-cache directory), the device's prior, VkFFT's
// defaults, or, when measure is set, a measurement still to make.
func chooseTuning(info *DeviceInfo, ks *kernelSource, l *layout) (tuneChoice, error) {
	if t := l.cfg.Tuning; !t.isZero() {
		return tuneChoice{result: TuneResult{Source: TunedByHand, Tuning: t, OutOfPlace: t}}, nil
	}
	mode, err := resolveTuneMode(l.cfg.Tune)
	if err != nil {
		return tuneChoice{}, err
	}
	if mode == TuneOff || !tunable(l) {
		return tuneChoice{}, nil
	}
	if l.full != fullNone && (mode == TuneMeasure || mode == TuneRefresh) {
		// the tuner measures plain plans; a FullSpectrum plan runs the kernels of one (its
		// kernel key is that plan's, kernelKey), so it takes that plan's stored tuning or prior
		mode = TuneCached
	}
	key := tuningKey(&ks.id, l)
	if mode != TuneRefresh {
		if rec, ok := storedTunings.lookup(ks.store, key); ok {
			return storedChoice(rec, TunedStored), nil
		}
	}
	if mode == TuneCached {
		if prior, ok := priorTuning(info, l); ok {
			return tuneChoice{result: TuneResult{Source: TunedPrior, Tuning: prior, OutOfPlace: prior}}, nil
		}
		return tuneChoice{}, nil
	}
	return tuneChoice{measure: true, refresh: mode == TuneRefresh, key: key}, nil
}

// measureTuning makes the measurement c asks for on target's buffers, stores the winner
// and returns it with the winning application, built on those buffers (so the plan is
// not compiled twice). A measurement that waited for another one in this process takes
// what that one stored, unless refreshing; it then returns no application.
func measureTuning(target *tuneTarget, c tuneChoice) (tuneChoice, engine.Plan, error) {
	tuneMu.Lock()
	defer tuneMu.Unlock()
	if !c.refresh {
		if rec, ok := storedTunings.lookup(target.ks.store, c.key); ok { // measured meanwhile by another goroutine
			return storedChoice(rec, TunedStored), nil, nil
		}
	}
	rec, winner, err := measure(target)
	if err != nil {
		return tuneChoice{}, nil, err
	}
	storedTunings.save(target.ks.store, c.key, rec)
	return storedChoice(rec, TunedMeasured), winner, nil
}

// tunable says whether the tuner can measure plans of l: complex and real-to-complex
// transforms of contiguous data in their own precision (its checks read the plan's
// buffers as floats of that precision). Other layouts keep VkFFT's defaults unless a
// Tuning is given by hand.
func tunable(l *layout) bool {
	return (l.kind == kindC2C || l.kind == kindR2C) && !l.strided && !l.cfg.RealInPlace &&
		l.cfg.Storage == StorageDefault
}

// storedChoice is the choice of a tuning measured now or earlier (src).
func storedChoice(rec tuneRecord, src TuneSource) tuneChoice {
	oop := rec.oop
	return tuneChoice{oop: &oop, result: TuneResult{Source: src, Tuning: rec.tuning, DefaultMs: rec.defaultMs,
		TunedMs: rec.tunedMs, OutOfPlace: rec.oop, OutOfPlaceMs: rec.oopMs, Candidates: rec.candidates,
		Elapsed: rec.elapsed}}
}
