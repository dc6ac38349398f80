package vkfft

import "strings"

// The Hermitian projection that gives a multi-dimensional complex-to-real inverse FFTW's
// (and numpy's) answer on any input, not only on exactly Hermitian spectra: before
// VkFFT's C2R, each pair of bins {k, -k} of the self-conjugate planes (last-axis index
// 0, and n/2 for even n) becomes (X[k] + conj(X[-k]))/2 and its conjugate
// (vkg_herm.h has the why and the launch geometry; vkg_herm.c fills the arguments).

// hermElem is the storage type of the spectrum the projection works on.
type hermElem int

const (
	hermFloat  hermElem = iota // complex64, also StorageFloatComputeDouble
	hermDouble                 // complex128
	hermHalf                   // StorageHalf: two fp16 per complex value
)

func (e hermElem) String() string {
	return [...]string{"float", "double", "half"}[e]
}

// hermElemOf is the storage type of l's spectrum.
func hermElemOf(l *layout) hermElem {
	switch {
	case l.double:
		return hermDouble
	case l.cfg.Storage == StorageHalf:
		return hermHalf
	}
	return hermFloat
}

// needsHermitian reports whether l's inverse is a C2R of more than one line
// (vkg_herm_init decides the same from the C parameters): over several axes, or a batch
// of 1-D lines, which VkFFT transforms in pairs (two real lines as one complex one), so
// that the imaginary parts of one line's bins 0 and n/2 reach the other. A single line
// is exact already: VkFFT's 1-D C2R ignores them as FFTW's does.
func needsHermitian(l *layout) bool {
	// a FullSpectrum inverse folds the whole spectrum into a Hermitian half itself
	return l.kind == kindR2C && l.full == fullNone && (l.vk.dim > 1 || l.vk.batch > 1)
}

// hermBody is the kernel in the dialect common to C and GLSL. A work-item owns the pair
// of its element and the mirrored one, and works only if it is the one at the lower
// offset; an element that is its own mirror loses its imaginary part. ia and ib index
// the two views of the buffer (xa, xb: one buffer, two bindings), whose offsets aoff and
// boff are subtracted (on Vulkan modulo 2^32, which the unsigned arithmetic undoes).
const hermBody = `	vkg_u64 i = VKG_GID;
	if (i >= count) return;
	vkg_u64 planes = nyq != 0u ? 2u : 1u;
	vkg_u64 p = (i % planes) * nyq, r = i / planes;
	vkg_u64 j1 = r % n1; r = r / n1;
	vkg_u64 j2 = r % n2; r = r / n2;
	vkg_u64 j3 = r % n3;
	vkg_u64 j = j0 + r / n3;
	vkg_u64 k1 = (mirror & 1u) != 0u && j1 != 0u ? n1 - j1 : j1;
	vkg_u64 k2 = (mirror & 2u) != 0u && j2 != 0u ? n2 - j2 : j2;
	vkg_u64 k3 = (mirror & 4u) != 0u && j3 != 0u ? n3 - j3 : j3;
	vkg_u64 mj = (mirror & 8u) != 0u && j != 0u ? nout - j : j;
	vkg_u64 io = p + j1 * s1 + j2 * s2 + j3 * s3;
	vkg_u64 im = p + k1 * s1 + k2 * s2 + k3 * s3;
	if (mj < j || (mj == j && im < io)) return;
	vkg_u64 ia = j * sout + io - aoff;
	VKG_HW a = VKG_HLOAD(xa, ia);
	if (mj == j && im == io) { VKG_HSTORE(xa, ia, a.x, VKG_HZERO); return; }
	vkg_u64 ib = mj * sout + im - boff;
	VKG_HW b = VKG_HLOAD(xb, ib);
	VKG_HR re = (a.x + b.x) * VKG_HHALF;
	VKG_HR d = (a.y - b.y) * VKG_HHALF;
	VKG_HSTORE(xa, ia, re, d);
	VKG_HSTORE(xb, ib, re, -d);
`

// hermTypes is, per backend language, the element type of the buffer and the macros the
// body reads and writes it with.
func hermTypes(b Backend, e hermElem) (elem, macros string) {
	switch {
	case b == Vulkan && e == hermFloat:
		return "vec2", "#define VKG_HW vec2\n#define VKG_HR float\n#define VKG_HLOAD(x, i) x[i]\n" +
			"#define VKG_HSTORE(x, i, r, m) x[i] = vec2(r, m)\n#define VKG_HHALF 0.5\n#define VKG_HZERO 0.0\n"
	case b == Vulkan && e == hermDouble:
		return "dvec2", "#define VKG_HW dvec2\n#define VKG_HR double\n#define VKG_HLOAD(x, i) x[i]\n" +
			"#define VKG_HSTORE(x, i, r, m) x[i] = dvec2(r, m)\n#define VKG_HHALF 0.5lf\n#define VKG_HZERO 0.0lf\n"
	case b == Vulkan: // fp16 pairs are one 32-bit word
		return "uint", "#define VKG_HW vec2\n#define VKG_HR float\n#define VKG_HLOAD(x, i) unpackHalf2x16(x[i])\n" +
			"#define VKG_HSTORE(x, i, r, m) x[i] = packHalf2x16(vec2(r, m))\n#define VKG_HHALF 0.5\n#define VKG_HZERO 0.0\n"
	case b == CUDA && e == hermHalf:
		return "ushort2", `VKG_FN unsigned short vkg_to_half(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
VKG_FN float2 vkg_hload(const ushort2 *x, vkg_u64 i) { ushort2 v = x[i]; return make_float2(vkg_half(v.x), vkg_half(v.y)); }
#define VKG_HW float2
#define VKG_HR float
#define VKG_HLOAD(x, i) vkg_hload(x, i)
#define VKG_HSTORE(x, i, r, m) x[i] = make_ushort2(vkg_to_half(r), vkg_to_half(m))
#define VKG_HHALF 0.5f
#define VKG_HZERO 0.0f
`
	case e == hermHalf: // OpenCL reads and writes half without cl_khr_fp16
		return "half", "#define VKG_HW float2\n#define VKG_HR float\n#define VKG_HLOAD(x, i) vload_half2(i, x)\n" +
			"#define VKG_HSTORE(x, i, r, m) vstore_half2(VKG_F2(r, m), i, x)\n#define VKG_HHALF 0.5f\n#define VKG_HZERO 0.0f\n"
	case e == hermDouble:
		mk := "((double2)((r), (m)))"
		if b == CUDA {
			mk = "make_double2((r), (m))"
		}
		return "double2", "#define VKG_HW double2\n#define VKG_HR double\n#define VKG_HLOAD(x, i) x[i]\n" +
			"#define VKG_HSTORE(x, i, r, m) x[i] = " + mk + "\n#define VKG_HHALF 0.5\n#define VKG_HZERO 0.0\n"
	}
	return "float2", "#define VKG_HW float2\n#define VKG_HR float\n#define VKG_HLOAD(x, i) x[i]\n" +
		"#define VKG_HSTORE(x, i, r, m) x[i] = VKG_F2(r, m)\n#define VKG_HHALF 0.5f\n#define VKG_HZERO 0.0f\n"
}

// hermitianSource is the module holding vkg_herm for spectra of type e on backend b:
//
//	vkg_herm(xa, xb, count, nyq, n1, n2, n3, s1, s2, s3, mirror, nout, sout, j0, aoff, boff)
//
// in the argument order of vkg_herm.h's VKG_HERM_* indices.
func hermitianSource(b Backend, e hermElem) string {
	elem, macros := hermTypes(b, e)
	params := []kernelParam{{name: "xa", elem: elem}, {name: "xb", elem: elem}}
	for _, n := range []string{"count", "nyq", "n1", "n2", "n3", "s1", "s2", "s3", "mirror", "nout", "sout",
		"j0", "aoff", "boff"} {
		params = append(params, kernelParam{name: n})
	}
	k := kernelDef{name: "vkg_herm", params: params, body: hermBody}
	if b == Vulkan {
		k.helpers = macros
		return glslModule([]kernelDef{k}, glslOptions{})
	}
	var sb strings.Builder
	if b != CUDA && e == hermDouble {
		sb.WriteString("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n")
	}
	sb.WriteString(dialect(b))
	sb.WriteString(macros)
	sb.WriteString(k.cSource())
	return sb.String()
}
