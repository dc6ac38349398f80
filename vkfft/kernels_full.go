package vkfft

import (
	"fmt"
	"strings"
)

// fullSource is the module of a whole-spectrum real plan's companion kernels
// (Config.FullSpectrum; vkg_full.c launches them) in double or single precision:
//
//	vkg_herm_expand(hspec, wspec, batch, d0, d1, d2, n, mirror)   whole = the half spectrum and its mirror image
//	vkg_herm_fold(wspec, hspec, batch, d0, d1, d2, n, mirror)     half = (X + conj(X[-k]))/2 over the kept half
//	vkg_widen(real, complex, count)                              complex = real + 0i
//	vkg_real_part(complex, real, count)                          real = Re(complex)
//
// The data are batch × d0 × d1 × d2 × n, row-major, with n the halved axis (its spectrum
// keeps n/2+1 points); bit i of mirror says whether axis di is transformed, so that its
// index mirrors with the frequency (k → (d-k) mod d) and not only the halved axis's.
func fullSource(b Backend, double bool) string {
	re, cplx := "float", "float2"
	half, zero := "0.5f", "0.0f"
	ctor := map[Backend]string{CUDA: "make_float2", Vulkan: "vec2"}[b]
	if double {
		re, cplx, half, zero = "double", "double2", "0.5", "0.0"
		ctor = map[Backend]string{CUDA: "make_double2", Vulkan: "dvec2"}[b]
		if b == Vulkan {
			half, zero = "0.5lf", "0.0lf"
		}
	}
	if ctor == "" { // OpenCL C: a vector literal
		ctor = "(" + cplx + ")"
	}
	elem := cplx
	if b == Vulkan {
		elem = map[string]string{"float2": "vec2", "double2": "dvec2"}[cplx]
	}
	macros := fmt.Sprintf("#define VKG_CPLX(x, y) %s((x), (y))\n#define VKG_HALF %s\n#define VKG_ZERO %s\n", ctor, half, zero)
	// the index of element (b, i0, i1, i2, x) of rows of w points
	index := "(((b * d0 + i0) * d1 + i1) * d2 + i2)"
	split := `x = r % w; r = r / w; i2 = r % d2; r = r / d2; i1 = r % d1; r = r / d1; i0 = r % d0; b = r / d0;
`
	mirror := `	if ((mirror & 1u) != 0u && i0 != 0u) i0 = d0 - i0;
	if ((mirror & 2u) != 0u && i1 != 0u) i1 = d1 - i1;
	if ((mirror & 4u) != 0u && i2 != 0u) i2 = d2 - i2;
`
	geometry := func(src, dst string, srcElem, dstElem string) []kernelParam {
		return []kernelParam{{name: src, elem: srcElem, readOnly: true}, {name: dst, elem: dstElem},
			{name: "batch"}, {name: "d0"}, {name: "d1"}, {name: "d2"}, {name: "n"}, {name: "mirror"}}
	}
	defs := []kernelDef{
		{name: "vkg_herm_expand", params: geometry("hspec", "wspec", elem, elem), body: `	vkg_u64 i = VKG_GID, h = n / 2u + 1u, w = n, r = i, x, i0, i1, i2, b;
	if (i >= batch * d0 * d1 * d2 * n) return;
	` + split + `	if (x < h) { wspec[i] = hspec[` + index + ` * h + x]; return; }
` + mirror + `	x = n - x;
	wspec[i] = VKG_CPLX(hspec[` + index + ` * h + x].x, -hspec[` + index + ` * h + x].y);
`},
		{name: "vkg_herm_fold", params: geometry("wspec", "hspec", elem, elem), body: `	vkg_u64 j = VKG_GID, h = n / 2u + 1u, w = h, r = j, x, i0, i1, i2, b, k;
	if (j >= batch * d0 * d1 * d2 * h) return;
	` + split + `	k = ` + index + ` * n + x;
` + mirror + `	x = x == 0u ? 0u : n - x;
	hspec[j] = VKG_CPLX((wspec[k].x + wspec[` + index + ` * n + x].x) * VKG_HALF,
		(wspec[k].y - wspec[` + index + ` * n + x].y) * VKG_HALF);
`},
		{name: "vkg_widen", params: []kernelParam{{name: "src", elem: re, readOnly: true}, {name: "dst", elem: elem}, {name: "count"}},
			body: `	vkg_u64 i = VKG_GID;
	if (i < count) dst[i] = VKG_CPLX(src[i], VKG_ZERO);
`},
		{name: "vkg_real_part", params: []kernelParam{{name: "src", elem: elem, readOnly: true}, {name: "dst", elem: re}, {name: "count"}},
			body: `	vkg_u64 i = VKG_GID;
	if (i < count) dst[i] = src[i].x;
`},
	}
	if b == Vulkan {
		for i := range defs {
			defs[i].helpers = macros
		}
		return glslModule(defs, glslOptions{})
	}
	var sb strings.Builder
	if double && b != CUDA {
		sb.WriteString("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n")
	}
	sb.WriteString(dialect(b))
	sb.WriteString(macros)
	for _, k := range defs {
		sb.WriteString(k.cSource())
	}
	return sb.String()
}
