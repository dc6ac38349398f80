package vkfft

// The autotuner's search. The plan builder (planbuilder.go) runs it on the plan's own
// device buffers, and it builds its candidates exactly as the builder builds any plan
// with a Config.Tuning (the same planParams, through the kernel cache), so a tuned plan
// is an ordinary plan.
//
// The search goes in stages, each over one group of VkFFT's knobs with the others held
// at the best values so far (not the full product): twiddle source, coalescing ×
// threads per block, register boost, grouped batch, bandwidth boost, the four-step split.
// A stage's candidates compile in parallel, then are timed one after another (nothing
// else runs on the device meanwhile). A stage is skipped when it does not apply to the
// shape or when it would run past the time budget; a candidate's timing stops after its
// first trial when that is clearly slower than the best; a stage's winner is adopted
// only if it beats the best by 1 %, so noise does not pick. Every candidate is checked
// before it is timed: its forward transform of a random input must match VkFFT's
// defaults and its round trip must return the input (sampled windows), so a
// configuration that computes wrongly is never chosen; a candidate that changes the
// arithmetic (computed twiddles in single precision) must also be as accurate as the
// defaults against a float64 reference (tune_exact.go). At the end the winner and the
// defaults are timed again side by side, and the defaults are kept unless the winner is
// still 1 % faster.

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

const (
	tuneAdopt     = 0.99 // a candidate must take at most this fraction of the best's time
	tuneAbort     = 1.3  // a first trial this much slower than the best ends the candidate
	tuneTrialTime = 20 * time.Millisecond
	tuneTrials    = 3
	tuneWindow    = 64 << 10 // bytes per sampled window of the checks
	tuneWinCount  = 8
)

// Test hooks: nil in normal use.
var (
	tuneTimeBias      func(Tuning) float64 // scales a candidate's measured time
	tuneAfterBaseline func(*tuner)         // runs once VkFFT's defaults have been checked
)

// tuneBudget is the time one measured tuning may take (EnvTuneBudget).
func tuneBudget() time.Duration {
	if d, err := time.ParseDuration(strings.TrimSpace(os.Getenv(EnvTuneBudget))); err == nil && d > 0 {
		return d
	}
	return DefaultTuneBudget
}

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

// tuneMeasurements counts measured tunings in this process (tests: "nothing measured").
var tuneMeasurements atomic.Int64

// tuneCand is one configuration under test.
type tuneCand struct {
	t   Tuning
	oop bool // the out-of-place application (reads the spare input, writes the plan's buffer)
	h   engine.Plan
	bin []byte // kernels loaded from the kernel cache (nil: compiled, saved in the app)
	ms  float64
	err error
}

// tuneWin is a sampled window of a buffer: offset and length in bytes.
type tuneWin struct{ off, n int64 }

// tuneTarget is what the tuner measures on: a plan's layout and buffers on a device, and
// the kernel cache its candidates come from and the winner's kernels go to.
type tuneTarget struct {
	d            *Device // allocates the spare input; the caller holds d.mu shared
	h            engine.Device
	l            *layout
	buf, realBuf uint64
	herm         engine.Kernel // the C2R projection kernel the plan's inverse runs (herm.go)
	hermWhy      string
	ks           *kernelSource
}

type tuner struct {
	*tuneTarget
	st        engine.Status
	name      string
	start     time.Time
	budget    time.Duration
	workers   int
	inBuf     uint64 // the transform's input: C2C the data buffer, R2C the real buffer
	inBytes   int64
	spare     uint64 // a device copy of the random input (0: upload from host each time)
	host      []byte // the random input on the host, when there is no spare
	inWins    []tuneWin
	outWins   []tuneWin
	inSample  []byte      // the input at inWins
	refOut    []byte      // VkFFT's defaults' forward output at outWins
	refInv    []byte      // the winner's inverse of the input at outWins (out-of-place checks)
	runnersUp []*tuneCand // the first stage's candidates, for the out-of-place stage
	tol       float64
	measured  int
	exact     []float64 // the float64 reference at outWins (tune_exact.go), or why there is none
	exactWhy  error
	baseExact float64 // VkFFT's defaults' error against it
}

// measure searches launch parameters for the plan of target and returns the winner,
// with its application (its kernels stored in the kernel cache), which the plan keeps.
func measure(target *tuneTarget) (rec tuneRecord, app engine.Plan, err error) {
	tuneMeasurements.Add(1)
	tn := &tuner{tuneTarget: target, st: engine.NewStatus(), start: time.Now(), budget: tuneBudget(),
		name: tuneName(target.l)}
	defer engine.FreeStatus(tn.st)
	tn.workers = min(runtime.NumCPU(), 8)
	tn.tol = 1e-3
	if tn.l.double {
		tn.tol = 1e-8
	}
	if err := tn.prepare(); err != nil {
		return rec, nil, err
	}
	defer tn.release()
	tunef("tune %s: measuring on the plan's buffers (budget %v, %d compile workers)", tn.name, tn.budget, tn.workers)

	base := tn.build([]Tuning{{}})[0]
	tn.measured++
	if base.err == nil {
		tn.time(base, 0)
	}
	if base.err != nil {
		tn.drop(base)
		return rec, nil, fmt.Errorf("tuning: VkFFT's default configuration: %w", base.err)
	}
	tunef("tune %s:   defaults: %.4f ms", tn.name, base.ms)
	if tuneAfterBaseline != nil {
		tuneAfterBaseline(tn)
	}
	best := base
	var lastDur time.Duration
	lastN := 1
	for _, st := range tuneStages {
		cands := st.cands(tn.l, best.t)
		if len(cands) == 0 {
			continue
		}
		elapsed := time.Since(tn.start)
		if est := lastDur * time.Duration(len(cands)) / time.Duration(lastN); elapsed+est > tn.budget {
			tunef("tune %s: stage %s skipped: %v spent, about %v more would pass the budget", tn.name, st.name,
				elapsed.Round(time.Millisecond), est.Round(time.Millisecond))
			continue
		}
		if st.accuracy {
			if _, err := tn.exactOut(); err != nil {
				tunef("tune %s: stage %s skipped: %v", tn.name, st.name, err)
				continue
			}
		}
		t0 := time.Now()
		built := tn.build(cands)
		stageBest := best
		for _, c := range built {
			tn.measured++
			if c.err == nil && st.accuracy {
				c.err = tn.asAccurate(c, base)
			}
			if c.err == nil {
				tn.time(c, best.ms*tuneAbort)
			}
			switch {
			case c.err != nil:
				tunef("tune %s:   %s: rejected: %v", tn.name, c.t, firstLine(c.err))
			default:
				tunef("tune %s:   %s: %.4f ms (%.3f× defaults)", tn.name, c.t, c.ms, c.ms/base.ms)
			}
			if c.err == nil && c.ms < stageBest.ms*tuneAdopt {
				stageBest = c
			}
		}
		if len(tn.runnersUp) == 0 {
			tn.runnersUp = built
		}
		for _, c := range built {
			if c != stageBest {
				tn.drop(c)
			}
		}
		if stageBest != best {
			if best != base {
				tn.drop(best)
			}
			best = stageBest
		}
		lastDur, lastN = time.Since(t0), len(cands)
		tunef("tune %s: stage %s: best %s %.4f ms", tn.name, st.name, best.t, best.ms)
	}

	// the winner against the defaults, side by side, with fresh timings
	winner := base
	if best != base {
		for i := 0; i < 2; i++ {
			b, w := base.ms, best.ms
			tn.time(base, 0)
			tn.time(best, 0)
			base.ms, best.ms = min(b, base.ms), min(w, best.ms)
		}
		if best.err == nil && best.ms < base.ms*tuneAdopt {
			winner = best
			tn.drop(base)
		} else {
			tn.drop(best)
		}
	}
	rec = tuneRecord{tuning: winner.t, oop: winner.t, defaultMs: base.ms, tunedMs: winner.ms}
	rec.oop, rec.oopMs = tn.outOfPlace(winner)
	rec.candidates, rec.elapsed = tn.measured, time.Since(tn.start)
	tunef("tune %s: done in %v, %d candidates: defaults %.4f ms, tuned %.4f ms (%.3f×): %s; out of place %.4f ms: %s",
		tn.name, rec.elapsed.Round(time.Millisecond), rec.candidates, rec.defaultMs, rec.tunedMs,
		rec.tunedMs/rec.defaultMs, rec.tuning, rec.oopMs, rec.oop)
	return rec, tn.adopt(winner), nil
}

// outOfPlace tunes the plan's out-of-place application (oop.go), which has kernels of
// its own: the in-place winner against the runners-up of the first stage and VkFFT's
// defaults, timed out of place. The winner's kernels go to the kernel cache, so the
// plan's first out-of-place call loads them. It returns the in-place winner's tuning
// (and no time) when there is nothing to try: real plans, no room for the spare input,
// or no time left.
func (tn *tuner) outOfPlace(winner *tuneCand) (Tuning, float64) {
	if tn.l.kind != kindC2C || tn.spare == 0 {
		return winner.t, 0
	}
	if time.Since(tn.start) > tn.budget {
		tunef("tune %s: out-of-place stage skipped: the budget is spent", tn.name)
		return winner.t, 0
	}
	// the reference for the inverse: the winner's, in place
	err := engine.MemCopy(tn.h, tn.st, tn.buf, tn.spare, tn.inBytes)
	if err == nil {
		err = tn.run(winner, true)
	}
	if err == nil {
		tn.refInv, err = tn.sample(tn.buf, tn.outWins)
	}
	if err != nil {
		tunef("tune %s: out-of-place stage skipped: %v", tn.name, firstLine(err))
		return winner.t, 0
	}
	ts := []Tuning{winner.t}
	seen := map[Tuning]bool{winner.t: true}
	ups := append([]*tuneCand(nil), tn.runnersUp...)
	sort.Slice(ups, func(i, j int) bool { return rank(ups[i]) < rank(ups[j]) })
	for _, c := range append(ups, &tuneCand{}) {
		if len(ts) < 5 && c.err == nil && !seen[c.t] {
			seen[c.t] = true
			ts = append(ts, c.t)
		}
	}
	built := tn.buildWith(ts, true)
	best := built[0]
	for _, c := range built {
		tn.measured++
		if c.err == nil {
			tn.time(c, 0)
		}
		if c.err != nil {
			tunef("tune %s:   out of place %s: rejected: %v", tn.name, c.t, firstLine(c.err))
		} else {
			tunef("tune %s:   out of place %s: %.4f ms", tn.name, c.t, c.ms)
		}
		if c.err == nil && (best.err != nil || c.ms < best.ms*tuneAdopt) {
			best = c
		}
	}
	if best.err == nil && best.bin == nil {
		if bin := engine.PlanBinary(best.h); bin != nil {
			tn.store(tn.params(best.t, true), bin)
		}
	}
	for _, c := range built {
		tn.drop(c)
	}
	if best.err != nil {
		return winner.t, 0
	}
	return best.t, best.ms
}

// rank orders candidates by time, failed ones last.
func rank(c *tuneCand) float64 {
	if c.err != nil || c.ms == 0 {
		return math.Inf(1)
	}
	return c.ms
}

// tuneName is how progress lines name a plan: "256x256x256 c64", "4096 x16384 r2c c64".
func tuneName(l *layout) string {
	var b strings.Builder
	for i, d := range l.cfg.Shape {
		if i > 0 {
			b.WriteByte('x')
		}
		fmt.Fprint(&b, d)
	}
	if l.cfg.Batch > 1 {
		fmt.Fprintf(&b, " x%d", l.cfg.Batch)
	}
	if l.kind == kindR2C {
		b.WriteString(" r2c")
	}
	if l.double {
		b.WriteString(" c128")
	} else {
		b.WriteString(" c64")
	}
	return b.String()
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}

// prepare makes the random input and the sampled windows of the checks.
func (tn *tuner) prepare() error {
	l := tn.l
	tn.inBuf, tn.inBytes = tn.buf, l.complexBytes
	outBytes := l.complexBytes
	if l.kind == kindR2C {
		tn.inBuf, tn.inBytes = tn.realBuf, l.realBytes
	}
	elem := int64(4)
	if l.double {
		elem = 8
	}
	tn.inWins = tuneWindows(tn.inBytes, elem)
	tn.outWins = tuneWindows(outBytes, elem)
	host := randomBytes(tn.inBytes, l.double)
	tn.inSample = gather(host, tn.inWins)
	if m, err := tn.d.alloc(tn.inBytes); err == nil {
		if err = engine.MemUpload(tn.h, tn.st, m, unsafe.Pointer(&host[0]), tn.inBytes); err != nil {
			tn.d.free(m, tn.inBytes)
			return fmt.Errorf("tuning: %w", err)
		}
		tn.spare = m
	} else {
		tn.host = host // no room for a device copy: upload before every check
	}
	return nil
}

func (tn *tuner) release() {
	if tn.spare != 0 {
		tn.d.free(tn.spare, tn.inBytes)
		tn.spare = 0
	}
}

// tuneWindows spreads up to tuneWinCount windows of tuneWindow bytes over a buffer of n
// bytes (all of it when it is small), aligned to the element size.
func tuneWindows(n, elem int64) []tuneWin {
	if n <= tuneWinCount*tuneWindow {
		return []tuneWin{{0, n}}
	}
	var ws []tuneWin
	for k := int64(0); k < tuneWinCount; k++ {
		off := k * (n - tuneWindow) / (tuneWinCount - 1)
		off -= off % (2 * elem)
		ws = append(ws, tuneWin{off, tuneWindow})
	}
	return ws
}

func gather(b []byte, ws []tuneWin) []byte {
	var out []byte
	for _, w := range ws {
		out = append(out, b[w.off:w.off+w.n]...)
	}
	return out
}

// randomChunk is the granule of randomBytes: each chunk's values follow from its offset.
const randomChunk = 8 << 20

// randomBytes returns n bytes of floats (float64 if double) uniform in [-1, 1), made
// in parallel: a 512³ input is 1 GiB.
func randomBytes(n int64, double bool) []byte {
	b := make([]byte, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.NumCPU())
	for off := int64(0); off < n; off += randomChunk {
		end := min(off+randomChunk, n)
		wg.Add(1)
		sem <- struct{}{}
		go func(off, end int64) {
			defer wg.Done()
			defer func() { <-sem }()
			fillRandom(b[off:end], off, double)
		}(off, end)
	}
	wg.Wait()
	return b
}

// randomRange returns bytes [off, off+n) of randomBytes(total, double) without making
// the rest.
func randomRange(total, off, n int64, double bool) []byte {
	out := make([]byte, 0, n)
	for c := off - off%randomChunk; c < off+n; c += randomChunk {
		seg := make([]byte, min(randomChunk, total-c))
		fillRandom(seg, c, double)
		lo, hi := max(off, c)-c, min(off+n, c+int64(len(seg)))-c
		out = append(out, seg[lo:hi]...)
	}
	return out
}

// fillRandom fills seg, the chunk of randomBytes at offset off.
func fillRandom(seg []byte, off int64, double bool) {
	s := uint64(off)*0x9E3779B97F4A7C15 + 1
	next := func() float64 { // splitmix64
		s += 0x9E3779B97F4A7C15
		z := s
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		z ^= z >> 31
		return float64(z>>11)/(1<<52) - 1
	}
	if double {
		f := unsafe.Slice((*float64)(unsafe.Pointer(&seg[0])), len(seg)/8)
		for i := range f {
			f[i] = next()
		}
	} else {
		f := unsafe.Slice((*float32)(unsafe.Pointer(&seg[0])), len(seg)/4)
		for i := range f {
			f[i] = float32(next())
		}
	}
}

// build creates the candidates' applications on the plan's buffers, in parallel. A
// candidate whose kernels are in the kernel cache is loaded instead of compiled.
func (tn *tuner) build(ts []Tuning) []*tuneCand { return tn.buildWith(ts, false) }

// buildWith builds in-place candidates, or out-of-place ones (oop).
func (tn *tuner) buildWith(ts []Tuning, oop bool) []*tuneCand {
	out := make([]*tuneCand, len(ts))
	var wg sync.WaitGroup
	sem := make(chan struct{}, tn.workers)
	for i, t := range ts {
		wg.Add(1)
		go func(i int, t Tuning) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			c := &tuneCand{t: t, oop: oop}
			params := tn.params(t, oop)
			c.h, c.bin, c.err = tn.ks.candidate(tn.h, &params)
			out[i] = c
		}(i, t)
	}
	wg.Wait()
	return out
}

// params are the planParams of the plan with tuning t, as the builder (or, oop, the
// plan's first out-of-place call) would build it.
func (tn *tuner) params(t Tuning, oop bool) planParams {
	l := *tn.l
	l.cfg.Tuning = t
	realBuf := tn.realBuf
	if oop {
		realBuf = tn.spare
	}
	p := newPlanParams(l, tn.buf, realBuf, oop)
	p.herm, p.hermWhy = tn.herm, tn.hermWhy
	return p
}

// store puts a candidate's kernels in the kernel cache under the key of params.
func (tn *tuner) store(params planParams, bin []byte) { tn.ks.keep(&params, bin) }

func (tn *tuner) drop(c *tuneCand) {
	if c.h != nil {
		engine.PlanDestroy(c.h)
		c.h = nil
	}
}

// run enqueues one transform of candidate c on the plan's buffers (out of place: from
// the spare input into the plan's buffer, in both directions).
func (tn *tuner) run(c *tuneCand, inverse bool) error {
	in := tn.realBuf
	if c.oop {
		in = tn.spare
	}
	return engine.PlanRunDevice(c.h, tn.st, inverse, tn.buf, in, 0, 0)
}

func (tn *tuner) pairs(c *tuneCand, n int) error {
	for i := 0; i < n; i++ {
		if err := tn.run(c, false); err != nil {
			return err
		}
		if err := tn.run(c, true); err != nil {
			return err
		}
	}
	return engine.DeviceSyncWith(tn.h, tn.st)
}

// time checks c, then sets c.ms to its best forward+inverse time over a few trials; a
// first trial slower than abortOver (if > 0) ends the timing early.
func (tn *tuner) time(c *tuneCand, abortOver float64) {
	if err := tn.check(c); err != nil {
		c.err = err
		return
	}
	if err := tn.pairs(c, 1); err != nil { // warm-up
		c.err = err
		return
	}
	t0 := time.Now()
	if err := tn.pairs(c, 1); err != nil {
		c.err = err
		return
	}
	one := time.Since(t0)
	iters := int(min(max(tuneTrialTime/max(one, time.Microsecond), 1), 1000))
	c.ms = math.Inf(1)
	for trial := 0; trial < tuneTrials; trial++ {
		t0 = time.Now()
		if err := tn.pairs(c, iters); err != nil {
			c.err = err
			return
		}
		ms := float64(time.Since(t0).Nanoseconds()) / 1e6 / float64(iters)
		if tuneTimeBias != nil {
			ms *= tuneTimeBias(c.t)
		}
		c.ms = min(c.ms, ms)
		if abortOver > 0 && ms > abortOver {
			break
		}
	}
}

// check runs c's forward transform on the random input and compares sampled windows
// with VkFFT's defaults' result (the first candidate checked provides it), then its
// inverse, which must give back the input.
func (tn *tuner) check(c *tuneCand) error {
	if c.oop {
		return tn.checkOutOfPlace(c)
	}
	err := tn.loadInput()
	if err == nil {
		err = tn.run(c, false)
	}
	var out []byte
	if err == nil {
		out, err = tn.sample(tn.buf, tn.outWins)
	}
	if err != nil {
		return err
	}
	if tn.refOut == nil {
		tn.refOut = out
	} else if e := sampleErr(out, tn.refOut, tn.l.double); !(e <= tn.tol) {
		return fmt.Errorf("forward result differs from VkFFT's defaults (relative error %.3g)", e)
	}
	if err = tn.run(c, true); err != nil {
		return err
	}
	back, err := tn.sample(tn.inBuf, tn.inWins)
	if err != nil {
		return err
	}
	if e := sampleErr(back, tn.inSample, tn.l.double); !(e <= tn.tol) {
		return fmt.Errorf("round trip does not return the input (relative error %.3g)", e)
	}
	return nil
}

// loadInput puts the random input into the transform's input buffer.
func (tn *tuner) loadInput() error {
	if tn.spare != 0 {
		return engine.MemCopy(tn.h, tn.st, tn.inBuf, tn.spare, tn.inBytes)
	}
	return engine.MemUpload(tn.h, tn.st, tn.inBuf, unsafe.Pointer(&tn.host[0]), tn.inBytes)
}

// checkOutOfPlace compares an out-of-place candidate's forward and inverse transforms of
// the spare input with the references.
func (tn *tuner) checkOutOfPlace(c *tuneCand) error {
	for _, inverse := range []bool{false, true} {
		ref := tn.refOut
		if inverse {
			ref = tn.refInv
		}
		if err := tn.run(c, inverse); err != nil {
			return err
		}
		got, err := tn.sample(tn.buf, tn.outWins)
		if err != nil {
			return err
		}
		if e := sampleErr(got, ref, tn.l.double); !(e <= tn.tol) {
			return fmt.Errorf("%s differs from in place (relative error %.3g)", direction(inverse), e)
		}
	}
	return nil
}

func (tn *tuner) sample(m uint64, ws []tuneWin) ([]byte, error) {
	var total int64
	for _, w := range ws {
		total += w.n
	}
	out := make([]byte, total)
	pos := int64(0)
	for _, w := range ws {
		if err := engine.MemDownloadRange(tn.h, tn.st, unsafe.Pointer(&out[pos]), m, w.off, w.n); err != nil {
			return nil, err
		}
		pos += w.n
	}
	return out, nil
}

// sampleErr is ||got - want|| / ||want|| over float32 (or float64) values; NaN if any
// value is not finite.
func sampleErr(got, want []byte, double bool) float64 {
	var num, den float64
	if double {
		g := unsafe.Slice((*float64)(unsafe.Pointer(&got[0])), len(got)/8)
		w := unsafe.Slice((*float64)(unsafe.Pointer(&want[0])), len(want)/8)
		for i := range w {
			d := g[i] - w[i]
			num += d * d
			den += w[i] * w[i]
		}
	} else {
		g := unsafe.Slice((*float32)(unsafe.Pointer(&got[0])), len(got)/4)
		w := unsafe.Slice((*float32)(unsafe.Pointer(&want[0])), len(want)/4)
		for i := range w {
			d := float64(g[i]) - float64(w[i])
			num += d * d
			den += float64(w[i]) * float64(w[i])
		}
	}
	if math.IsNaN(num) || math.IsInf(num, 0) || den == 0 {
		return math.NaN()
	}
	return math.Sqrt(num / den)
}

// adopt hands over the winner's application, for the plan to keep, and stores its
// kernels in the kernel cache under the tuned plan's key, as a cold build would have.
func (tn *tuner) adopt(w *tuneCand) engine.Plan {
	if w.bin == nil {
		if bin := engine.PlanBinary(w.h); bin != nil {
			tn.store(tn.params(w.t, false), bin)
		}
	}
	h := w.h
	w.h = nil
	return h
}
