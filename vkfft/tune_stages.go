package vkfft

// The autotuner's search space: the stages of tune_search.go, each a group of VkFFT's
// knobs varied together from the best tuning so far, and the shape facts they depend on.
// What the H200 showed about each knob is in tests/gpu/RESULTS.md.

// tuneStage is one group of knobs the search varies together.
type tuneStage struct {
	name  string
	cands func(l *layout, best Tuning) []Tuning
	// accuracy: the candidates change the arithmetic, not only the launch, so each must
	// also be as accurate as VkFFT's defaults against a float64 reference (tune_exact.go)
	accuracy bool
}

var tuneStages = []tuneStage{
	// the twiddle source first: it moves a kernel's balance between arithmetic and memory,
	// which the launch knobs after it are then tuned for. In double precision both
	// sources are accurate, so the faster one may be chosen.
	{name: "twiddles", cands: func(l *layout, best Tuning) []Tuning {
		if !l.double || l.cfg.LUT != LUTDefault {
			return nil
		}
		var out []Tuning
		for _, v := range []LUT{LUTOn, LUTOff} {
			t := best
			t.LUT = v
			out = append(out, t)
		}
		return out
	}},
	// single precision keeps its twiddle tables unless computing the twiddles in the
	// kernels proves as accurate on this device and shape (on the H200 they are 3.5 %
	// faster at 4096² but 2.5-3× the tables' error, so they are refused there)
	{name: "computed twiddles", accuracy: true, cands: func(l *layout, best Tuning) []Tuning {
		if l.double || l.cfg.LUT != LUTDefault {
			return nil
		}
		t := best
		t.LUT = LUTOff
		return []Tuning{t}
	}},
	// the knobs that mattered most on the H200 (512³: 0.70× of the defaults)
	{name: "coalescing×threads", cands: func(l *layout, best Tuning) []Tuning {
		var out []Tuning
		for _, c := range []int{32, 64, 128, 256} {
			for _, a := range []int{64, 128, 256} {
				t := best
				t.CoalescedMemory, t.AimThreads = c, a
				out = append(out, t)
			}
		}
		return out
	}},
	// smaller blocks (more per multiprocessor), with registers standing in for the
	// shared memory taken away
	{name: "shared memory×register boost", cands: func(l *layout, best Tuning) []Tuning {
		boosts := []int{1, 2, 4}
		if l.kind == kindR2C { // VkFFT uses no register boost for R2C
			boosts = []int{best.RegisterBoost}
		}
		var out []Tuning
		for _, sm := range []int{0, 48 << 10, 64 << 10, 96 << 10} {
			for _, r := range boosts {
				t := best
				t.SharedMemory, t.RegisterBoost = sm, r
				if t != best {
					out = append(out, t)
				}
			}
		}
		return out
	}},
	{name: "four-step register boost", cands: func(l *layout, best Tuning) []Tuning {
		if l.kind == kindR2C || maxAxis(l) <= 8192 {
			return nil
		}
		var out []Tuning
		for _, r := range []int{1, 2, 4} {
			t := best
			t.RegisterBoost4Step = r
			if t != best {
				out = append(out, t)
			}
		}
		return out
	}},
	{name: "grouped batch", cands: func(l *layout, best Tuning) []Tuning {
		var out []Tuning
		for _, g := range []int{8, 16, 32} { // smaller caps were always slower on the H200
			t := best
			for i := range l.cfg.Shape {
				t.GroupedBatch[i] = g
			}
			if t != best {
				out = append(out, t)
			}
		}
		return out
	}},
	// each axis's cap alone: the strided axes of a 2-D or 3-D transform coalesce best with
	// more transforms per block than the contiguous one, which the shared cap above
	// cannot express
	{name: "grouped batch per axis", cands: func(l *layout, best Tuning) []Tuning {
		if len(l.cfg.Shape) < 2 {
			return nil
		}
		var out []Tuning
		for i := range l.cfg.Shape {
			for _, g := range []int{1, 2, 4, 8, 16, 32, 64} {
				t := best
				t.GroupedBatch[i] = g
				if t != best {
					out = append(out, t)
				}
			}
		}
		return out
	}},
	// larger blocks: fewer, longer-lived blocks per multiprocessor for sequences whose
	// passes are bound by arithmetic rather than memory (Bluestein's padded transforms)
	{name: "large blocks", cands: func(l *layout, best Tuning) []Tuning {
		var out []Tuning
		for _, a := range []int{512, 1024} {
			t := best
			t.AimThreads = a
			out = append(out, t)
		}
		return out
	}},
	{name: "bandwidth boost", cands: func(l *layout, best Tuning) []Tuning {
		if len(l.cfg.Shape) < 2 && largePrimeAxis(l) == 0 {
			return nil
		}
		var out []Tuning
		for _, b := range []int{-1, 1, 2, 4} {
			t := best
			t.BandwidthBoost = b
			if t != best {
				out = append(out, t)
			}
		}
		return out
	}},
	{name: "Bluestein padding", cands: func(l *layout, best Tuning) []Tuning {
		n := largePrimeAxis(l)
		if n <= 0 {
			return nil
		}
		var out []Tuning
		for _, m := range bluesteinSizes(n) {
			t := best
			t.BluesteinSize = m
			if t != best {
				out = append(out, t)
			}
		}
		return out
	}},
	{name: "four-step split", cands: func(l *layout, best Tuning) []Tuning {
		var out []Tuning
		for s := 65536; s <= maxAxis(l) && s <= 1<<22; s *= 2 {
			t := best
			t.SwapTo3Stage4Step = s
			if t != best {
				out = append(out, t)
			}
		}
		return out
	}},
}

func maxAxis(l *layout) int {
	m := 0
	for _, d := range l.cfg.Shape {
		m = max(m, d)
	}
	return m
}

// largePrimeAxis returns the length of the axes VkFFT computes with Bluestein's or
// Rader's algorithm (a prime factor above 13), 0 if there is none, and -1 if there are
// several different ones (VkFFT's forced Bluestein length is one for all axes).
func largePrimeAxis(l *layout) int {
	n := 0
	for _, d := range l.cfg.Shape {
		r := d
		for _, f := range []int{2, 3, 5, 7, 11, 13} {
			for r%f == 0 {
				r /= f
			}
		}
		if r == 1 {
			continue
		}
		if n != 0 && n != d {
			return -1
		}
		n = d
	}
	return n
}

// bluesteinSizes are padded lengths to try for an axis of length n: the first 7-smooth
// lengths from 2n-1 on, the first of the form 2^a·3^b (a >= 2), 3·2^k and the next
// power of two.
func bluesteinSizes(n int) []int {
	lo := 2*n - 1
	smooth := func(m int, fs ...int) bool {
		for _, f := range fs {
			for m%f == 0 {
				m /= f
			}
		}
		return m == 1
	}
	var out []int
	seen := map[int]bool{}
	add := func(m int) {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	for m := lo; len(out) < 5 && m < 4*n; m++ {
		if smooth(m, 2, 3, 5, 7) {
			add(m)
		}
	}
	for m := lo; m < 4*n; m++ {
		if m%4 == 0 && smooth(m, 2, 3) {
			add(m)
			break
		}
	}
	p := 1
	for p < lo {
		p *= 2
	}
	if 3*p/4 >= lo {
		add(3 * p / 4)
	}
	add(p)
	return out
}
