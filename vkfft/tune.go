package vkfft

// The autotuner's public face: tune modes, the environment default, what a plan reports
// about its tuning, and how newPlan resolves a plan's Tuning before it builds the plan.
// The search itself is in tune_search.go, the store in tune_store.go.

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

func tuneBudget() time.Duration {
	if d, err := time.ParseDuration(strings.TrimSpace(os.Getenv(EnvTuneBudget))); err == nil && d > 0 {
		return d
	}
	return DefaultTuneBudget
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

// tuneProgress receives the tuner's progress lines (SetTuneProgress).
var tuneProgress struct {
	mu sync.Mutex
	fn func(string)
}

// SetTuneProgress sets a function that receives one line per step of a measured tuning
// (the vkfft CLI prints them on stderr); nil turns them off.
func SetTuneProgress(fn func(line string)) {
	tuneProgress.mu.Lock()
	tuneProgress.fn = fn
	tuneProgress.mu.Unlock()
}

func tunef(format string, a ...any) {
	tuneProgress.mu.Lock()
	fn := tuneProgress.fn
	tuneProgress.mu.Unlock()
	if fn != nil {
		fn(fmt.Sprintf(format, a...))
	}
}

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

// resolveTuning settles the plan's Tuning (p.l.cfg.Tuning) before it is built: by hand,
// from the store, measured, or VkFFT's defaults. A measured tuning leaves the winning
// application in p.h (with its kernels in p.binary when asked for), so the plan is not
// compiled twice.
func (p *plan) resolveTuning(h engine.Device, opt planOptions) error {
	key, mode, err := p.settleTuning(opt)
	if err != nil || key == nil {
		return err
	}
	tuneMu.Lock()
	defer tuneMu.Unlock()
	if mode != TuneRefresh {
		if rec, ok := tuneLookup(key); ok { // measured meanwhile by another goroutine
			p.useTuning(rec, TunedStored)
			return nil
		}
	}
	rec, err := p.measure(h, opt)
	if err != nil {
		return err
	}
	tuneStore(key, rec)
	p.useTuning(rec, TunedMeasured)
	return nil
}

// settleTuning applies the tuning the plan gets without measuring — by hand, stored,
// the prior, or none (VkFFT's defaults) — or returns the store key of the tuning the
// tuner must still measure (mode: the tune mode in force). Nothing is built.
func (p *plan) settleTuning(opt planOptions) (key []byte, mode TuneMode, err error) {
	l := &p.l
	if !l.cfg.Tuning.isZero() {
		p.tuned = TuneResult{Source: TunedByHand, Tuning: l.cfg.Tuning, OutOfPlace: l.cfg.Tuning}
		return nil, mode, nil
	}
	mode, err = resolveTuneMode(l.cfg.Tune)
	if err != nil {
		return nil, mode, err
	}
	if mode == TuneOff || len(opt.loadBlob) > 0 || !tunable(l) {
		return nil, mode, nil
	}
	key = tuneKey(&p.dev.info, l)
	if mode != TuneRefresh {
		if rec, ok := tuneLookup(key); ok {
			p.useTuning(rec, TunedStored)
			return nil, mode, nil
		}
	}
	if mode == TuneCached {
		if prior, ok := priorTuning(&p.dev.info, l); ok {
			p.l.cfg.Tuning = prior
			p.tuned = TuneResult{Source: TunedPrior, Tuning: prior, OutOfPlace: prior}
		}
		return nil, mode, nil
	}
	return key, mode, nil
}

// tunable says whether the tuner can measure plans of l: complex and real-to-complex
// transforms of contiguous data in their own precision (its checks read the plan's
// buffers as floats of that precision). Other layouts keep VkFFT's defaults unless a
// Tuning is given by hand.
func tunable(l *layout) bool {
	return (l.kind == kindC2C || l.kind == kindR2C) && !l.strided && !l.cfg.RealInPlace &&
		l.cfg.Storage == StorageDefault
}

func (p *plan) useTuning(rec tuneRecord, src TuneSource) {
	p.l.cfg.Tuning = rec.tuning
	oop := rec.oop
	p.oopTuning = &oop
	p.tuned = TuneResult{Source: src, Tuning: rec.tuning, DefaultMs: rec.defaultMs, TunedMs: rec.tunedMs,
		OutOfPlace: rec.oop, OutOfPlaceMs: rec.oopMs, Candidates: rec.candidates, Elapsed: rec.elapsed}
}
