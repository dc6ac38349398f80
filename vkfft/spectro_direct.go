package vkfft

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// The direct spectrometer kernel: the whole FFT of each transform in one work-group,
// written by dftGen instead of VkFFT, with |X|² summed in registers over all the
// transforms a work-group runs. The transform is a sequence of Stockham passes of the
// radices r₀·r₁·… = n: in each, t = n/max(r) work-items run n/r butterflies of
// radix r in registers between shared-memory exchanges, and the last pass leaves every
// work-item the same n/t bins of every transform, summed in registers and added to the
// bins once per work-group. VkFFT's kernel for 4096 points adds every |X|² to the bins
// and keeps its intermediate values at a lower occupancy.

// Sizes the direct kernel takes.
const (
	directMinN = 16
	directMaxN = 4096
)

// directTwoPasses is the direct kernel's passes for n points under CUDA and OpenCL (nil:
// n is not one it takes): two, as equal as can be, the larger last. On the H200 two
// passes beat three and four at every size measured (4096: 64·64 322 GS/s, 16·16·16 203,
// 8·8·8·8 149; 1024: 32·32 554, 4·16·16 415): each pass is a shared-memory exchange and
// barriers.
func directTwoPasses(n int) []int {
	if n < directMinN || n > directMaxN || n&(n-1) != 0 {
		return nil
	}
	m := bits.TrailingZeros(uint(n))
	return []int{1 << (m / 2), 1 << (m - m/2)}
}

// directRadices is the direct kernel's passes for n points on backend b (nil: n is not
// one it takes): directPasses' where it has some, else directTwoPasses.
func directRadices(b Backend, n int) []int {
	if r, ok := directPasses[b][n]; ok {
		return r
	}
	return directTwoPasses(n)
}

// splitRowRadices is the split kernels' row passes for rows of n points on backend b.
func splitRowRadices(b Backend, n int) []int {
	if r, ok := splitRowPasses[b][n]; ok {
		return r
	}
	return directTwoPasses(n)
}

// directPasses and splitRowPasses are the pass shapes that differ from two passes: under
// Vulkan at 2048 and 4096 points three, as NVIDIA's GLSL compiler ran them faster on the
// H200 (as they are not under CUDA: 4096 as 16·16·16 203 GS/s against 64·64's 322). One
// kernel: 4096 as 32·16·8 311-312 GS/s against 16·16·16's 280, 8·16·32 281, 16·8·32 284,
// 64·64 206; 2048 as 8·16·16 332 against 16·16·8 321, 32·8·8 310, 32·64 196. Rows of
// 4096 (2^21, 2^22 points): 8·16·32 122.6 and 104.8 GS/s against 16·16·16's 113.0 and
// 97.3, 16·8·32 120.5 and 102.9, 32·16·8 114.7 and 98.7; rows of 2048 (2^20): 8·16·16
// 126.3 against 32·8·8 109.0 and 16·16·8 114.7. 1024 keeps 32·32 (308 against 4·16·16's
// 290). Variables, so that the tests run Vulkan's shapes on every backend.
var (
	directPasses = map[Backend]map[int][]int{
		Vulkan: {2048: {8, 16, 16}, 4096: {32, 16, 8}},
	}
	splitRowPasses = map[Backend]map[int][]int{
		Vulkan: {2048: {8, 16, 16}, 4096: {8, 16, 32}},
	}
)

// directSupported reports whether the direct kernel (or the split kernels beyond it)
// takes a spectrometer of cfg: complex samples, a power-of-two N within range (directFits
// says whether a device runs it).
func directSupported(cfg *SpectrometerConfig) bool {
	_, _, split := directSplit(cfg.N)
	return (directTwoPasses(cfg.N) != nil || split) && cfg.Input.Complex()
}

// directFits says whether device d runs the direct kernels of n points: their shared
// memory within a work-group's, and for the split kernels, which add into the bins,
// float atomics (on Vulkan VK_EXT_shader_atomic_float; the C dialects add floats by
// compare-and-swap where the device has no atomic add). The one-kernel path writes rows
// where d has none (directRows).
func directFits(d *Device, n int) bool {
	if _, _, split := directSplit(n); split && !companionFloatAtomics(d) {
		return false
	}
	return d.props.LocalMemory == 0 || int64(directSharedBytes(compiledBackend, n)) <= int64(d.props.LocalMemory)
}

// directSharedBytes is the most shared memory a work-group of the direct kernels of n
// points (of directSupported's sizes) on backend b declares.
func directSharedBytes(b Backend, n int) int {
	n1, n2, split := directSplit(n)
	if !split {
		r := directRadices(b, n)
		_, ty := directGroup(n, r)
		_, words := directLayout(n, r, directPairs(b, false, false))
		_, rowsWords := directLayout(n, r, directPairs(b, false, true))
		return ty * max(words, rowsWords) * 8
	}
	_, rowTy := splitRowGroup(b, n1, n2)
	_, rowWords := directLayout(n2, splitRowRadices(b, n2), directPairs(b, true, false))
	rows := rowTy * rowWords * 8
	if n1 <= splitRegisterColumns { // the columns in registers
		return rows
	}
	_, colTy := splitColumnGroup(n1)
	_, colWords, _ := splitColumnLayout(b, n1)
	return max(rows, colTy*colWords*8)
}

// directRows says whether the direct kernel on d writes one row of sums per work-group,
// which the sum kernel then adds into the bins (sumGroups), instead of adding its sums
// into them: on OpenCL, whose C adds floats by compare-and-swap — thousands of
// work-groups retrying on the same bins ran the kernel on the H200's OpenCL driver at 70
// GS/s at 4096 points and 20 at 1024; writing rows, at 270 and 407 (CUDA's atomic adds:
// 308 and 477) — and on a Vulkan device without float atomics.
func directRows(d *Device) bool { return compiledBackend == OpenCL || !companionFloatAtomics(d) }

// directByDefault says whether FusionAuto takes the direct kernels for cfg on d: where
// they measured faster than VkFFT's fused path on the H200 (tests/gpu/RESULTS-fuse.md),
// on a GPU under every backend, at every size of the one-kernel path and the split sizes
// of splitByDefault (OpenCL: 232-452 GS/s from 4096 down to 16 points against 1.8 and
// less for VkFFT's fused atomic store and 19-169 for the power store; 181 and 133 at
// 2^16 and 2^20 against 127 and 87; Vulkan without float atomics, where the split
// kernels do not run: 346, 297 and 237 GS/s at 256, 1024 and 4096 points against the
// power store's 154, 170 and 157, both with their sums written as rows). Not where a
// group sum was asked for (which shapes FusionAtomic's store), nor on CPU devices (on
// PoCL within 15 % of VkFFT's fused path either way from 16 to 65536 points).
func directByDefault(d *Device, cfg *SpectrometerConfig) bool {
	gpu := compiledBackend == CUDA || !d.props.HostMemory
	return gpu && (directTwoPasses(cfg.N) != nil || splitByDefault(cfg.N)) && directSupported(cfg) &&
		cfg.GroupSum == GroupSumAuto && cfg.GroupTransforms == 0
}

// takesDirect says whether a spectrometer of cfg on d runs the direct kernels: asked for
// (FusionDirect) or FusionAuto's choice, where d runs them.
func takesDirect(d *Device, cfg *SpectrometerConfig) bool {
	want := cfg.Fusion == FusionDirect || cfg.Fusion == FusionAuto && directByDefault(d, cfg)
	return want && directSupported(cfg) && directFits(d, cfg.N)
}

// directGroup is the direct kernel's work-group for radices: t work-items per
// transform, ty transforms at once, so that a group has at least 64 work-items.
func directGroup(n int, radices []int) (t, ty int) {
	t = n / slices.Max(radices)
	return t, max(1, 64/t)
}

// directGroups is how many work-groups a launch of the direct kernel aims at, whatever
// its transforms: each adds every bin once, so more groups mean more atomic adds on the
// same n addresses, fewer leave the GPU idle at the end. On the H200 4096 groups were
// the fastest or within 4 % of it at every size (256 points: 598 GS/s against 371 with
// 16384 groups and 101 with 65536).
const directGroups = 4096

// directPairs says whether a direct kernel on backend b (the split kernels' rows where
// split; writing rows of sums where rows) keeps each value in shared memory as a pair of
// floats, one access a value instead of two (directPairsOn, splitRowPairsOn).
func directPairs(b Backend, split, rows bool) bool {
	if split {
		return splitRowPairsOn[b]
	}
	return !rows && directPairsOn[b]
}

// directPairsOn and splitRowPairsOn are the backends where pairs measured faster on the
// H200: the one-kernel path adding into the bins under CUDA and Vulkan (CUDA: 16 points
// 485 GS/s against 447, 256 608 against 568, 1024 528 against 476, 4096 359 against 340;
// Vulkan: 1024 325 against 309, 4096 267 against 247) and the split kernels' rows under
// Vulkan (2^20 123.5 against 119.8); not OpenCL's rows of sums (4096 248 against 283)
// nor the split kernels' rows under CUDA (65536 193-195 against 196-199). Variables, so
// that the tests take pairs on every backend.
var (
	directPairsOn   = map[Backend]bool{CUDA: true, Vulkan: true}
	splitRowPairsOn = map[Backend]bool{Vulkan: true}
)

// directFoldOn are the backends whose direct kernels and split rows address a butterfly's
// values in shared memory from one base (directFFT.addrs): on the H200 CUDA 2048 points
// 380 GS/s against 370, 4096 364 against 358, 2^20 158.5 against 153.0, the other sizes
// within 0.5 %; Vulkan 1024 345 against 322, 2048 333 against 300, 4096 280 against 267,
// 2^20 125.6 against 122.7; not NVIDIA's OpenCL (4096 273 against 281).
var directFoldOn = map[Backend]bool{CUDA: true, Vulkan: true}

// directTwiddles are the kernel's exp(-2πi e/n), e < n, from float64.
func directTwiddles(n int) []float32 {
	tw := make([]float32, 2*n)
	for e := range n {
		s, c := math.Sincos(-2 * math.Pi * float64(e) / float64(n))
		tw[2*e], tw[2*e+1] = float32(c), float32(s)
	}
	return tw
}

// directPad is the padded index of bin a in a work-group's rows of sums in shared memory
// (storeGroupSums): one word per 32, within directLayout's words.
func directPad(a string) string { return directPadBy(a, 5) }

// directPadBy is a + a/2^shift: one word of padding per 2^shift.
func directPadBy(a string, shift int) string {
	return fmt.Sprintf("((%[1]s) + ((%[1]s) >> %[2]d))", a, shift)
}

// directKernel is the kernel vkg_direct(src, psd, w, tw, first, count, per): transforms
// first .. first+count-1 of the samples in, per transforms per work-group (a multiple of
// directGroup's ty), |X|² added into psd (n bins in frequency order), in the passes of
// radices; where rows, partial takes the place of psd: a row of n sums per work-group.
func directKernel(b Backend, s loadSpec, radices []int, rows bool) kernelDef {
	n := s.n
	t, ty := directGroup(n, radices)
	d := directDialectOf(b)
	pairs := directPairs(b, false, rows)
	shift, words := directLayout(n, radices, pairs)
	var body strings.Builder
	decl, helpers := d.sharedValues(ty*words, pairs)
	body.WriteString(decl)
	fmt.Fprintf(&body, `	%[1]s vkg_t = %[2]s %% %[3]du, vkg_y = %[2]s / %[3]du, vkg_s = vkg_y * %[4]du;
	vkg_u64 vkg_j0 = %[5]s * per, vkg_it;
`, d.u32, d.lid, t, words, d.cast("vkg_u64", d.group))
	fft := directFFT{n: n, t: t, radices: radices, table: n, d: d, shift: shift, pairs: pairs,
		load: func(elem string) string {
			return fmt.Sprintf("vkg_live ? vkg_load(src, vkg_base + %s, w) : VKG_F2(0.0f, 0.0f)", elem)
		},
		result: sumPower("vkg_live")}
	fft.declareSums(&body)
	fmt.Fprintf(&body, `	for (vkg_it = 0; vkg_it < per; vkg_it += %[1]du) {
		vkg_u64 vkg_j = vkg_j0 + vkg_it + vkg_y;
		%[3]s vkg_live = vkg_it + vkg_y < per && vkg_j < count;
		vkg_u64 vkg_base = (first + vkg_j) * %[2]du;
`, ty, n, d.flag)
	fft.write(&body)
	body.WriteString("\t}\n")
	out := "psd"
	if rows {
		out = "partial"
		fft.storeGroupSums(&body, ty, words)
	} else {
		fft.addSums(&body, func(bin string) string { return bin })
	}
	return d.finish(kernelDef{name: "vkg_direct", params: []kernelParam{
		{name: "src", elem: s.format.load(b).elem, readOnly: true},
		{name: out, elem: "float"},
		{name: "w", elem: "float", readOnly: true, unused: !s.window},
		{name: "tw", elem: "float2", readOnly: true},
		{name: "first"}, {name: "count"}, {name: "per"},
	}, body: body.String()}, s, t*ty, true, helpers)
}

// directFFT writes one FFT of n points per transform of a work-group as Stockham passes
// of radices: t work-items per transform, vkg_t the work-item's index among them,
// vkg_sre/vkg_sim + vkg_s its transform's padded values in shared memory, the twiddles
// read from tw, a table of exp(-2πi e/table) (table a multiple of n).
type directFFT struct {
	n, t    int
	radices []int
	table   int
	d       directDialect
	// shift pads the transform's values in shared memory: one word per 2^shift
	// (directLayout)
	shift int
	// pairs keeps each value's parts side by side (vkg_sv), not in two arrays (vkg_sre
	// and vkg_sim)
	pairs bool
	// load is the float2 expression of element elem (an expression) of the work-item's
	// transform
	load func(elem string) string
	// result writes into g what the last pass does with value v of bin (an expression),
	// the work-item's slot-th value
	result func(g *dftGen, slot int, bin string, v cval)
}

// bin is the expression of the bin the last pass leaves in the work-item's slot-th value:
// butterfly bf's output i is bin j + i·ns, j = vkg_t + bf·t.
func (f directFFT) bin(slot int) string {
	last := f.radices[len(f.radices)-1]
	bf, i := slot/last, slot%last
	return fmt.Sprintf("vkg_t + %du", bf*f.t+i*(f.n/last))
}

// declareSums declares the work-item's |X|² sums, one per slot (sumPower adds to them).
func (f directFFT) declareSums(body *strings.Builder) {
	for slot := range f.n / f.t {
		fmt.Fprintf(body, "\tfloat vkg_p%d = 0.0f;\n", slot)
	}
}

// addSums adds every slot's sum to psd at the position at(bin) gives.
func (f directFFT) addSums(body *strings.Builder, at func(bin string) string) {
	for slot := range f.n / f.t {
		fmt.Fprintf(body, "\tVKG_ATOMIC_ADD(psd, %s, vkg_p%d);\n", at(f.bin(slot)), slot)
	}
}

// storeGroupSums writes the sums of the work-group's ty transforms (words apart in
// shared memory) added together as row g of partial, g the work-group's index: n bins,
// each written once, for the sum kernel to add into the bins (directRows).
func (f directFFT) storeGroupSums(body *strings.Builder, ty, words int) {
	fmt.Fprintf(body, "\t%s;\n", f.d.barrier) // the last pass's values are read
	for slot := range f.n / f.t {
		fmt.Fprintf(body, "\t%s = vkg_p%d;\n", f.word("vkg_s + "+directPad(f.bin(slot))), slot)
	}
	fmt.Fprintf(body, "\t%s;\n", f.d.barrier)
	var sum strings.Builder
	for y := range ty {
		if y > 0 {
			sum.WriteString(" + ")
		}
		sum.WriteString(f.word(fmt.Sprintf("%du + %s", y*words, directPad("vkg_k"))))
	}
	fmt.Fprintf(body, `	for (%[1]s vkg_k = %[2]s; vkg_k < %[3]du; vkg_k += %[4]du)
		partial[%[5]s * %[3]du + vkg_k] = %[6]s;
`, f.d.u32, f.d.lid, f.n, f.t*ty, f.d.cast("vkg_u64", f.d.group), sum.String())
}

// sumPower is the result that adds |X|² to the slot's sum, where live (an expression;
// "" for always) holds.
func sumPower(live string) func(g *dftGen, slot int, _ string, v cval) {
	return func(g *dftGen, slot int, _ string, v cval) {
		power := fmt.Sprintf("%s * %s + %s * %s", v.re, v.re, v.im, v.im)
		if live != "" {
			power = fmt.Sprintf("%s ? %s : 0.0f", live, power)
		}
		fmt.Fprintf(&g.sb, "\t\tvkg_p%d += %s;\n", slot, power)
	}
}

// word is a float of shared memory, at index i (an expression) of vkg_sre or, for pairs,
// the first part of vkg_sv's.
func (f directFFT) word(i string) string {
	if f.pairs {
		return "vkg_sv[" + i + "].x"
	}
	return "vkg_sre[" + i + "]"
}

// addrs is the index in shared memory of a butterfly's r values, value i at index expr(i)
// of its transform (an expression of vkg_t), index(j, i) when vkg_t is j. Where the
// padding puts value i at the same distance from value 0 for every work-item, its index
// is a variable name (declared into sb) plus that distance, which the compilers fold into
// the access: one address a butterfly instead of one a value (on directFoldOn's backends).
func (f directFFT) addrs(sb *strings.Builder, name string, r int, expr func(i int) string, index func(j, i int) int) []string {
	out := make([]string, r)
	fold := directFoldOn[f.d.backend]
	at := func(j, i int) int { return directPadded(index(j, i), f.shift) }
	declared := false
	for i := range r {
		out[i] = f.addr(expr(i))
		if !fold {
			continue
		}
		d, same := at(0, i)-at(0, 0), true
		for jv := 1; jv < f.t && same; jv++ {
			same = at(jv, i)-at(jv, 0) == d
		}
		if !same || d < 0 {
			continue
		}
		if !declared {
			fmt.Fprintf(sb, "\t\t%s %s = %s;\n", f.d.u32, name, f.addr(expr(0)))
			declared = true
		}
		out[i] = fmt.Sprintf("%s + %du", name, d)
	}
	return out
}

// addr is the index in shared memory of value k (an expression) of the work-item's
// transform.
func (f directFFT) addr(k string) string {
	return "vkg_s + " + directPadBy(k, f.shift)
}

// write writes the passes into body.
func (f directFFT) write(body *strings.Builder) {
	n, t := f.n, f.t
	g := &dftGen{indent: "\t\t"}
	ns := 1 // Stockham's span: the product of the radices before this pass
	for p, r := range f.radices {
		last := p == len(f.radices)-1
		butterflies := n / r / t // per work-item
		vals := make([][]cval, butterflies)
		for bf := range butterflies {
			j := fmt.Sprintf("(vkg_t + %du)", bf*t) // the butterfly
			v := make([]cval, r)
			var loads []string
			if p > 0 {
				loads = f.addrs(&g.sb, fmt.Sprintf("vkg_la%d_%d", p, bf), r,
					func(i int) string { return fmt.Sprintf("%s + %du", j, i*(n/r)) },
					func(jv, i int) int { return passLoad(n, r, t, jv, bf, i) })
			}
			for i := range r {
				if p == 0 {
					name := fmt.Sprintf("vkg_x%d", bf*r+i)
					fmt.Fprintf(&g.sb, "\t\tfloat2 %s = %s;\n", name, f.load(fmt.Sprintf("%s + %du", j, i*(n/r))))
					v[i] = cval{name + ".x", name + ".y"}
					continue
				}
				at := loads[i]
				if f.pairs {
					name := fmt.Sprintf("vkg_v%d_%d", p, bf*r+i)
					fmt.Fprintf(&g.sb, "\t\tfloat2 %s = vkg_sv[%s];\n", name, at)
					v[i] = cval{name + ".x", name + ".y"}
					continue
				}
				v[i] = g.def("vkg_sre["+at+"]", "vkg_sim["+at+"]")
			}
			if ns > 1 { // v[i] *= exp(-2πi (j mod ns)·i / (ns·r))
				e := fmt.Sprintf("(%s %% %du) * %du", j, ns, f.table/(ns*r))
				pow := directPowers(g, fmt.Sprintf("vkg_w%d_%d_", p, bf), f.d, e, r, f.table)
				for i := 1; i < r; i++ {
					v[i] = g.mul(v[i], pow[i])
				}
			}
			vals[bf] = g.dft(v)
		}
		body.WriteString(g.sb.String())
		g.sb.Reset()
		if p > 0 { // every value of the pass is read before any is overwritten
			fmt.Fprintf(body, "\t\t%s;\n", f.d.barrier)
		}
		for bf, out := range vals {
			j := fmt.Sprintf("(vkg_t + %du)", bf*t)
			var stores []string
			if !last {
				span := ns
				stores = f.addrs(body, fmt.Sprintf("vkg_sa%d_%d", p, bf), r,
					func(i int) string {
						return fmt.Sprintf("(%[1]s / %[2]du) * %[3]du + %[1]s %% %[2]du + %[4]du", j, span, span*r, i*span)
					},
					func(jv, i int) int { return passStore(r, t, span, jv, bf, i) })
			}
			for i, v := range out {
				if last {
					f.result(g, bf*r+i, f.bin(bf*r+i), v)
					continue
				}
				at := stores[i]
				if f.pairs {
					fmt.Fprintf(body, "\t\tvkg_sv[%s] = VKG_F2(%s, %s);\n", at, v.re, v.im)
					continue
				}
				fmt.Fprintf(body, "\t\tvkg_sre[%[1]s] = %[2]s; vkg_sim[%[1]s] = %[3]s;\n", at, v.re, v.im)
			}
		}
		body.WriteString(g.sb.String())
		g.sb.Reset()
		if !last {
			fmt.Fprintf(body, "\t\t%s;\n", f.d.barrier)
		}
		ns *= r
	}
}

// directPowers returns exp(-2πi e·i/table) for i < r as values of g: the powers of two
// read from the table tw, the rest products of at most log2(r) of them, which keeps their
// error within a few units of float precision.
func directPowers(g *dftGen, name string, d directDialect, e string, r, table int) []cval {
	pow := make([]cval, r)
	for i := 1; i < r; i++ {
		if i&(i-1) == 0 {
			fmt.Fprintf(&g.sb, "\t\tfloat2 %s%d = %s;\n", name, i, d.ldg(fmt.Sprintf("tw[(%s * %du) & %du]", e, i, table-1)))
			pow[i] = cval{fmt.Sprintf("%s%d.x", name, i), fmt.Sprintf("%s%d.y", name, i)}
			continue
		}
		lo := i & -i
		pow[i] = g.mul(pow[i-lo], pow[lo])
	}
	return pow
}

// directModuleSource is the module of the direct path on backend b: the direct kernel
// of its default passes, writing rows where rows (directRows), beside the companion
// kernels (the zero kernel clears the bins). Under Vulkan rows are for a device without
// float atomics, which the module then does not use.
func directModuleSource(b Backend, spec loadSpec, rows bool) string {
	ks := companionKernels(b, spec)
	if _, _, split := directSplit(spec.n); split {
		ks = append(ks, splitColumnKernel(b, spec), splitRowKernel(b, spec))
	} else {
		ks = append(ks, directKernel(b, spec, directRadices(b, spec.n), rows))
	}
	return sampleModuleSource(b, spec, ks, b != Vulkan || !rows)
}

// buildDirect makes the direct path: its kernels in one module with the companion
// kernels (the zero kernel clears the bins) and their twiddles; no VkFFT plan.
func (sp *Spectrometer) buildDirect(h engine.Device, spec loadSpec, f *engine.SpectroFields) error {
	var err error
	ks := kernelsFor(&sp.dev.info)
	rows := directRows(sp.dev)
	if sp.module, err = ks.module(h, directModuleSource(compiledBackend, spec, rows)); err != nil {
		return err
	}
	if f.Zero, err = engine.ModuleKernel(sp.module, "vkg_zero"); err != nil {
		return err
	}
	if _, _, split := directSplit(spec.n); split {
		err = sp.buildSplit(spec, f)
	} else {
		err = sp.buildOneKernel(spec, f, rows)
	}
	if err != nil {
		return err
	}
	tw := directTwiddles(spec.n)
	if f.Twiddles, err = sp.alloc(int64(len(tw)) * 4); err != nil {
		return err
	}
	if err = engine.MemUpload(h, sp.st, f.Twiddles, unsafe.Pointer(&tw[0]), int64(len(tw))*4); err != nil {
		return err
	}
	sp.fusion = FusionDirect
	return sp.finish(h, f)
}

// buildOneKernel fills in the one-kernel path: its kernel and launch shape and, where it
// writes rows, the rows and the sum kernel that adds them into the bins.
func (sp *Spectrometer) buildOneKernel(spec loadSpec, f *engine.SpectroFields, rows bool) error {
	var err error
	if f.Direct, err = engine.ModuleKernel(sp.module, "vkg_direct"); err != nil {
		return err
	}
	t, ty := directGroup(spec.n, directRadices(compiledBackend, spec.n))
	f.DirectTransforms, f.DirectLocal, f.DirectGroups = ty, t*ty, directGroups
	if !rows {
		return nil
	}
	// a row per work-group of a launch, which aims at no more, each of at least ty
	// transforms of the batch
	f.DirectGroups = min(directGroups, (sp.cfg.Batch+ty-1)/ty)
	if f.SumF, err = engine.ModuleKernel(sp.module, "vkg_sum_f"); err != nil {
		return err
	}
	if f.Partials, err = sp.alloc(int64(f.DirectGroups) * int64(spec.n) * 4); err != nil {
		return err
	}
	f.SumGroups = sumGroups(sp.dev, f.DirectGroups, spec.n)
	return sp.allocSums(f, spec.n)
}

// buildSplit fills in the split path: its column and row kernels and their launch shapes,
// a chunk's intermediate spectra, and the rows' bin order that Read undoes.
func (sp *Spectrometer) buildSplit(spec loadSpec, f *engine.SpectroFields) error {
	var err error
	n1, n2, _ := directSplit(spec.n)
	if f.Direct, err = engine.ModuleKernel(sp.module, "vkg_direct_rows"); err != nil {
		return err
	}
	if f.Columns, err = engine.ModuleKernel(sp.module, "vkg_direct_cols"); err != nil {
		return err
	}
	if f.Mid, err = sp.alloc(int64(sp.chunk) * int64(spec.n) * 8); err != nil {
		return err
	}
	sp.perm = splitOrder(n1, n2)
	t, ty := splitRowGroup(compiledBackend, n1, n2)
	f.DirectTransforms, f.DirectLocal, f.DirectGroups = ty, t*ty, splitRowGroups
	t, ty = splitColumnGroup(n1)
	f.Columns1, f.ColumnsTransforms, f.ColumnsLocal = n1, ty, t*ty
	return nil
}
