package vkfft

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// The split direct kernels: beyond one work-group's shared memory, N = n1·n2 points in
// two kernels of the package's own (the four-step FFT). The column kernel transforms the
// n2 columns of n1 samples (sample n1·n2ᵢ + c of column c), multiplies bin k1 of column
// c by exp(-2πi c·k1/N) and stores it as element c of row k1 of the chunk's intermediate
// spectrum; the row kernel transforms each row k1 into bins k1 + n1·k2 and sums |X|² in
// registers over the transforms it runs, as the direct kernel does. The intermediate
// is read once and written once (18 bytes a complex int8 sample moves against VkFFT's
// two passes with |X|² added by every element).

// directSplitMaxN is the largest N the split kernels take: their twiddle table holds N
// values.
const directSplitMaxN = 1 << 22

// directSplit is N's columns and rows (powers of two), ok false for the sizes the split
// kernels do not take. Up to 2^18 the columns are at most 64 points, each transformed by
// one work-item in registers, so that a warp reads its columns' samples side by side;
// the rows are 1024 points up to 2^16 (the direct kernel's fastest size per sample on
// the H200), then up to 4096. Beyond, the columns are 512 points in shared memory (16
// work-items each, 8 side by side), rows up to 4096: on the H200 columns of 512 beat 128,
// 256 and 1024 at 2^19 and 2^20, and rows of 1024 beat 2048, and 2048 beat 4096
// (tests/gpu/RESULTS-fuse.md).
func directSplit(n int) (n1, n2 int, ok bool) {
	if n <= directMaxN || n > directSplitMaxN || n&(n-1) != 0 {
		return 0, 0, false
	}
	switch {
	case n <= 1<<16:
		n1 = n / 1024
	case n <= 1<<18:
		n1 = splitRegisterColumns
	default:
		n1 = max(512, n/directMaxN)
	}
	return n1, n / n1, true
}

// splitByDefault says whether FusionAuto takes the split kernels for n points (where
// directByDefault takes the direct kernels): from 2^15 up, where they measured faster
// than VkFFT's fused path at the default chunk on the H200 (CUDA: 2^20 a tie, 138.9 GS/s
// against 137.5 in one call, 137.9 against 139.2 in another; Vulkan: 1.3-1.5x from 2^15
// to 2^22); not 2^13 and 2^14, where VkFFT's kernels still fit one work-group (CUDA: 278
// and 219 GS/s against 192 and 190; Vulkan: a tie).
func splitByDefault(n int) bool {
	_, _, ok := directSplit(n)
	return ok && n >= 1<<15
}

// splitChunkBytes is the complex data of an automatic chunk of the split kernels on a GPU d
// (their intermediate spectra): a 32nd of its memory, from defaultChunkBytes to 1 GiB.
// Fewer launches of the two kernels ramp up and drain less often: on the H200 (141 GB)
// chunks of 256 MiB, 512 MiB and 1 GiB ran 65536 points at 187, 196 and 201 GS/s under
// CUDA and 148, 157 and 162 under Vulkan, 2^20 at 138, 147 and 152 (CUDA), and the
// whole 2 GiB batch within 2 % of 1 GiB. A CPU device keeps defaultChunkBytes.
func splitChunkBytes(d *Device) int64 {
	if d.props.HostMemory {
		return defaultChunkBytes
	}
	return min(1<<30, max(defaultChunkBytes, int64(d.info.GlobalMemory/32)))
}

// splitRegisterColumns is the longest column one work-item transforms in registers (as
// the direct kernel's work-items do at 4096 points); splitRegisterGroup columns a
// work-group.
const (
	splitRegisterColumns = 64
	splitRegisterGroup   = 64
)

// splitOrder is the split kernels' bin order: perm[position] = bin (Spectrometer.perm).
func splitOrder(n1, n2 int) []int32 {
	perm := make([]int32, n1*n2)
	for k1 := range n1 {
		for k2 := range n2 {
			perm[k1*n2+k2] = int32(k1 + n1*k2)
		}
	}
	return perm
}

// splitRowGroups is how many work-groups a launch of the row kernel aims at: each adds
// its bins once, so fewer groups running more transforms each add less; on the H200
// 1024 beat 4096 and 16384 at 2^16, 2^18 and 2^20.
var splitRowGroups = 1024

// splitColumnLayout is the shared-memory layout of the column kernel's columns of n1
// points on backend b, each column's values words apart, padded by one word per 2^shift:
// where splitColumnPairsOn has it, values as pairs in the layout countedLayout finds for
// the work-group's columns side by side (two wavefronts an access, half a warp each);
// else two arrays, one word per 32 and one word more between columns, so that columns
// start in different banks (still two or four wavefronts an access of each array: a
// warp's work-items meet in banks). None where the columns stay in registers.
func splitColumnLayout(b Backend, n1 int) (shift, words int, pairs bool) {
	switch {
	case n1 <= splitRegisterColumns:
		return 0, 0, false
	case splitColumnPairsOn[b][n1]:
		radices := directTwoPasses(n1)
		t, ty := splitColumnGroup(n1)
		shift, words = countedLayout(n1, radices, t, ty, true, true)
		return shift, words, true
	}
	return 5, n1 + n1/32 + 1, false
}

// splitColumnPairsOn are the backends and column lengths whose column kernel keeps its
// values as pairs in a counted layout, where that measured faster on the H200: CUDA at
// 512 and 1024 points (2^19 174.6 GS/s against 170.6 with its columns interleaved, 2^20
// 161.2 against 158.3, 2^21 and 2^22 0.4-0.6 % faster), Vulkan at 1024 (2^22 109.5
// against 104.0); not Vulkan at 512, where every layout without bank conflicts measured
// 10-12 % slower (2^20 111-112 against 125). A variable, so that the tests take it on
// every backend.
var splitColumnPairsOn = map[Backend]map[int]bool{
	CUDA:   {512: true, 1024: true},
	Vulkan: {1024: true},
}

// splitColumnGroup is the column kernel's work-group for columns of n1 points: t
// work-items per column, ty neighbouring columns at once (a power of two up to 16, their
// samples read side by side), within 40 KiB of shared memory in the layout of two arrays
// (splitColumnLayout's pairs take at most 31 words more a column). Its columns take two
// passes on every backend (directTwoPasses: the shapes measured).
func splitColumnGroup(n1 int) (t, ty int) {
	if n1 <= splitRegisterColumns {
		return 1, splitRegisterGroup
	}
	t = n1 / slices.Max(directTwoPasses(n1))
	return t, 1 << (bits.Len(uint(min(16, 40960/(8*(n1+n1/32+1))))) - 1)
}

// splitRowGroup is the row kernel's work-group on backend b: t work-items per row, ty
// rows.
func splitRowGroup(b Backend, n1, n2 int) (t, ty int) {
	t, ty = directGroup(n2, splitRowRadices(b, n2))
	return t, min(ty, n1)
}

// splitColumnKernel is vkg_direct_cols(src, mid, w, tw, first, count): the columns of
// transforms first .. first+count-1 of the samples in, into mid (count·N complex values,
// row k1 of transform j at (j·n1 + k1)·n2). The work-items of a column are the slower
// index, so that neighbouring work-items read and write neighbouring columns.
func splitColumnKernel(b Backend, s loadSpec) kernelDef {
	n1, n2, _ := directSplit(s.n)
	if n1 <= splitRegisterColumns {
		return splitRegisterKernel(b, s, n1, n2)
	}
	radices := directTwoPasses(n1)
	t, ty := splitColumnGroup(n1)
	last := radices[len(radices)-1]
	d := directDialectOf(b)
	shift, words, pairs := splitColumnLayout(b, n1)
	var body strings.Builder
	decl, helpers := d.sharedValues(ty*words, pairs)
	body.WriteString(decl)
	fmt.Fprintf(&body, "\t%[1]s vkg_y = %[2]s %% %[3]du, vkg_t = %[2]s / %[3]du, vkg_s = vkg_y * %[4]du;\n", d.u32, d.lid, ty, words)
	body.WriteString(splitColumnIndex(d, ty, "vkg_y", n2, s.n))
	var step []cval      // exp(-2πi c·ns·i/N), i < last: a bin's step within a butterfly
	w0 := map[int]cval{} // exp(-2πi c·j/N) of butterfly j
	fft := directFFT{n: n1, t: t, radices: radices, table: s.n, d: d, shift: shift, pairs: pairs,
		load: func(elem string) string {
			return fmt.Sprintf("vkg_live ? vkg_load(src, vkg_base + %s * %du, w) : VKG_F2(0.0f, 0.0f)",
				d.cast("vkg_u64", "("+elem+")"), n2)
		},
		result: func(g *dftGen, slot int, bin string, v cval) {
			bf, i := slot/last, slot%last
			if step == nil {
				step = directPowers(g, "vkg_cs", d, fmt.Sprintf("(vkg_n2 * %du)", n1/last), last, s.n)
			}
			w, ok := w0[bf]
			if !ok {
				name := fmt.Sprintf("vkg_c0_%d", bf)
				fmt.Fprintf(&g.sb, "\t\tfloat2 %s = %s;\n", name, d.ldg(fmt.Sprintf("tw[(vkg_n2 * (vkg_t + %du)) & %du]", bf*t, s.n-1)))
				w = cval{name + ".x", name + ".y"}
				w0[bf] = w
			}
			if i > 0 {
				w = g.mul(w, step[i])
			}
			fmt.Fprintf(&g.sb, "\t\tif (vkg_live) %s\n", splitStore(n1, n2, bin, g.mul(v, w)))
		}}
	body.WriteString("\t{\n")
	fft.write(&body)
	body.WriteString("\t}\n")
	return columnKernelDef(b, s, body.String(), helpers, t*ty)
}

// splitRegisterKernel is the column kernel of columns of n1 ≤ splitRegisterColumns
// points: one work-item per column, no shared memory.
func splitRegisterKernel(b Backend, s loadSpec, n1, n2 int) kernelDef {
	d := directDialectOf(b)
	g := &dftGen{indent: "\t\t"}
	g.sb.WriteString(splitColumnIndex(d, splitRegisterGroup, d.lid, n2, s.n))
	g.sb.WriteString("\tif (vkg_live) {\n")
	x := make([]cval, n1)
	for i := range x {
		name := fmt.Sprintf("vkg_x%d", i)
		fmt.Fprintf(&g.sb, "\t\tfloat2 %s = vkg_load(src, vkg_base + %du, w);\n", name, i*n2)
		x[i] = cval{name + ".x", name + ".y"}
	}
	tw := directPowers(g, "vkg_cs", d, "vkg_n2", n1, s.n) // exp(-2πi c·k1/N)
	for k1, v := range g.dft(x) {
		if k1 > 0 {
			v = g.mul(v, tw[k1])
		}
		fmt.Fprintf(&g.sb, "\t\t%s\n", splitStore(n1, n2, fmt.Sprint(k1)+"u", v))
	}
	g.sb.WriteString("\t}\n")
	return columnKernelDef(b, s, g.sb.String(), "", splitRegisterGroup)
}

// splitColumnIndex declares a column kernel's work-item's column: vkg_c among the
// transforms' columns (ty a work-group, item the work-item's among them), vkg_live
// whether it is one of count transforms', its transform vkg_jt, its index vkg_n2 within
// it and vkg_base, its first sample.
func splitColumnIndex(d directDialect, ty int, item string, n2, n int) string {
	return fmt.Sprintf(`	vkg_u64 vkg_c = %[1]s * %[2]du + %[3]s;
	%[6]s vkg_live = vkg_c < count * %[4]du;
	vkg_u64 vkg_jt = vkg_c / %[4]du;
	%[7]s vkg_n2 = %[8]s;
	vkg_u64 vkg_base = (first + vkg_jt) * %[5]du + vkg_n2;
`, d.cast("vkg_u64", d.group), ty, item, n2, n, d.flag, d.u32, d.cast(d.u32, fmt.Sprintf("(vkg_c %% %du)", n2)))
}

// splitStore stores v as bin k1 (an expression) of the work-item's column: element
// vkg_n2 of row k1 of its transform's intermediate spectrum.
func splitStore(n1, n2 int, k1 string, v cval) string {
	return fmt.Sprintf("mid[(vkg_jt * %du + %s) * %du + vkg_n2] = VKG_F2(%s, %s);", n1, k1, n2, v.re, v.im)
}

// columnKernelDef is the column kernel of body, helpers before it in GLSL, in
// work-groups of local work-items.
func columnKernelDef(b Backend, s loadSpec, body, helpers string, local int) kernelDef {
	return directDialectOf(b).finish(kernelDef{name: "vkg_direct_cols", params: []kernelParam{
		{name: "src", elem: s.format.load(b).elem, readOnly: true},
		{name: "mid", elem: "float2"},
		{name: "w", elem: "float", readOnly: true, unused: !s.window},
		{name: "tw", elem: "float2", readOnly: true},
		{name: "first"}, {name: "count"},
	}, body: body}, s, local, true, helpers)
}

// splitRowKernel is vkg_direct_rows(mid, psd, tw, count, per): the rows of count
// transforms' intermediate spectra in mid, each work-group ty rows of per transforms,
// |X|² summed in registers and added into psd once per work-group, in the rows' order
// (bin k1 + n1·k2 at k1·n2 + k2: splitOrder).
func splitRowKernel(b Backend, s loadSpec) kernelDef {
	n1, n2, _ := directSplit(s.n)
	t, ty := splitRowGroup(b, n1, n2)
	d := directDialectOf(b)
	radices := splitRowRadices(b, n2)
	pairs := directPairs(b, true, false)
	shift, words := directLayout(n2, radices, pairs)
	var body strings.Builder
	decl, helpers := d.sharedValues(ty*words, pairs)
	body.WriteString(decl)
	fmt.Fprintf(&body, `	%[1]s vkg_t = %[2]s %% %[3]du, vkg_y = %[2]s / %[3]du, vkg_s = vkg_y * %[4]du;
	%[1]s vkg_k1 = (%[5]s %% %[6]du) * %[7]du + vkg_y;
	vkg_u64 vkg_j0 = %[8]s * per, vkg_it;
`, d.u32, d.lid, t, words, d.group, n1/ty, ty, d.cast("vkg_u64", fmt.Sprintf("(%s / %du)", d.group, n1/ty)))
	fft := directFFT{n: n2, t: t, radices: radices, table: s.n, d: d, shift: shift, pairs: pairs,
		load:   func(elem string) string { return d.ldg(fmt.Sprintf("mid[vkg_base + %s]", elem)) },
		result: sumPower("")}
	fft.declareSums(&body)
	fmt.Fprintf(&body, `	for (vkg_it = 0; vkg_it < per && vkg_j0 + vkg_it < count; vkg_it++) {
		vkg_u64 vkg_base = ((vkg_j0 + vkg_it) * %[1]du + vkg_k1) * %[2]du;
`, n1, n2)
	fft.write(&body)
	body.WriteString("\t}\n")
	fft.addSums(&body, func(bin string) string { // row by row: a warp's adds fall side by side
		return fmt.Sprintf("vkg_k1 * %du + %s", n2, bin)
	})
	return d.finish(kernelDef{name: "vkg_direct_rows", params: []kernelParam{
		{name: "mid", elem: "float2", readOnly: true},
		{name: "psd", elem: "float"},
		{name: "tw", elem: "float2", readOnly: true},
		{name: "count"}, {name: "per"},
	}, body: body.String()}, s, t*ty, false, helpers)
}
