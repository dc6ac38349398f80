package vkfft

// Companion kernels: the small kernels that run beside VkFFT's on a plan's queue
// (sample conversion before the FFT, power accumulation after it), and the text the
// fused stages splice into VkFFT's own kernels. Kernel bodies are written once
// (kernelDef, kernels_def.go) in the subset of C that GLSL shares — no pointers, no
// casts, VKG_GID, VKG_GROUP_Y, VKG_F2, VKG_ATOMIC_ADD(array, index, value),
// VKG_GROUP_ADD(array, bins, index, value) — and a
// per-backend prelude and signature turn them into CUDA C for NVRTC, OpenCL C, or one
// GLSL compute shader per kernel for Vulkan (kernels_glsl.go). Only the sample loads
// differ per backend (they read bytes, which GLSL has no pointer type for): each
// format's row in sampleFormats (sampleformat.go) has one per dialect.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// dialect returns the macros the kernel text below is written in, for backend b.
func dialect(b Backend) string {
	if b == CUDA {
		return `typedef unsigned long long vkg_u64;
#define VKG_KERNEL extern "C" __global__ void
#define VKG_GLOBAL
#define VKG_FN static __device__ __forceinline__
#define VKG_F2(x, y) make_float2((x), (y))
#define VKG_GID (blockIdx.x * (vkg_u64)blockDim.x + threadIdx.x)
#define VKG_GROUP_Y ((vkg_u64)blockIdx.y)
#define VKG_ATOMIC_ADD(a, i, v) atomicAdd(&(a)[i], (v))
#define VKG_GROUP_ADD(a, bins, i, v) VKG_ATOMIC_ADD(a, i, v)
VKG_FN float vkg_half(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
`
	}
	return `typedef ulong vkg_u64;
#define VKG_KERNEL __kernel void
#define VKG_GLOBAL __global
#define VKG_FN inline
#define VKG_F2(x, y) ((float2)((x), (y)))
#define VKG_GID ((vkg_u64)get_global_id(0))
#define VKG_GROUP_Y ((vkg_u64)get_group_id(1))
VKG_FN void vkg_atomic_addf(volatile __global float *p, float v) {
	union { uint u; float f; } o, n;
	do { o.f = *p; n.f = o.f + v; } while (atomic_cmpxchg((volatile __global uint *)p, o.u, n.u) != o.u);
}
#define VKG_ATOMIC_ADD(a, i, v) vkg_atomic_addf(&(a)[i], (v))
#define VKG_GROUP_ADD(a, bins, i, v) VKG_ATOMIC_ADD(a, i, v)
`
}

// floatLit renders v as a single-precision literal that reads back exactly.
func floatLit(v float64) string {
	s := strconv.FormatFloat(float64(float32(v)), 'e', 9, 32)
	return s + "f"
}

// loadSpec is what the load function bakes in.
type loadSpec struct {
	format SampleFormat
	n      int     // points per transform (window period)
	scale  float64 // multiplies every sample
	window bool    // multiply by w[i % n]
	chunk  int     // FFTs per chunk: where GLSL's fused kernels find the window (glslFusedText)
}

// loadFunc defines vkg_load(in, i, w): sample i as float2 (complex formats) or float
// (real), times the scale and, with a window, w[i % n].
func loadFunc(b Backend, s loadSpec) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "#define VKG_N ((vkg_u64)%d)\n", s.n)
	factor := floatLit(s.scale)
	if s.window {
		factor = fmt.Sprintf("(%s * w[i %% VKG_N])", floatLit(s.scale))
	}
	ld := s.format.load(b)
	ret := "float2"
	if !s.format.Complex() {
		ret = "float"
	}
	fmt.Fprintf(&sb, "VKG_FN %s vkg_load(const VKG_GLOBAL %s *in, vkg_u64 i, const VKG_GLOBAL float *w) {\n", ret, ld.elem)
	fmt.Fprintf(&sb, "\tfloat f = %s;\n", factor)
	sb.WriteString(ld.body)
	sb.WriteString("}\n")
	if !s.window {
		sb.WriteString("#define VKG_UNUSED_WINDOW 1\n")
	}
	return sb.String()
}

// Store modes of a fused last pass.
const (
	storeNone   = 0
	storePower  = 1 // |X|^2 into a float buffer, one per element
	storeAtomic = 2 // |X|^2 added atomically into bin i % n
	storeGroup  = 3 // |X|^2 summed in registers over consecutive transforms, then added atomically
)

// storeFunc defines vkg_store(out, i, v) for mode.
func storeFunc(mode int) string {
	switch mode {
	case storePower:
		return "VKG_FN void vkg_store(VKG_GLOBAL float *out, vkg_u64 i, float2 v) { out[i] = v.x * v.x + v.y * v.y; }\n"
	case storeAtomic:
		return "VKG_FN void vkg_store(VKG_GLOBAL float *out, vkg_u64 i, float2 v) { VKG_ATOMIC_ADD(out, i % VKG_N, v.x * v.x + v.y * v.y); }\n"
	}
	return ""
}

// companionSource is the module of companion kernels for a spectrometer:
//
//	vkg_convert(src, dst, w, in_off, count)   dst[i] = vkg_load(src, in_off+i, w)
//	vkg_sum_c(x, psd, bins, stride, items, per)   psd[k] += sum of |x[b*stride+k]|^2
//	vkg_sum_f(x, psd, bins, stride, items, per)   the same over a float power buffer
//	vkg_zero(a, n)
//
// The sums take items in groups of per along the grid's y; with more than one group
// each group's sums go through VKG_GROUP_ADD: added into the bins atomically, or without
// float atomics (atomics false: a Vulkan device without VK_EXT_shader_atomic_float)
// written as the group's own row of bins in psd's place, rows that one more launch of
// vkg_sum_f adds into the bins (vkg_spectro.c).
func companionSource(b Backend, s loadSpec, atomics bool) string {
	return sampleModuleSource(b, s, companionKernels(b, s), atomics)
}

// sampleModuleSource is the module of kernels defs that read samples of s on backend b:
// in C one prelude with the sample load, in GLSL a shader per kernel (those that load
// samples carry their own load in helpers), with float atomics where atomics.
func sampleModuleSource(b Backend, s loadSpec, defs []kernelDef, atomics bool) string {
	if b == Vulkan {
		return glslModule(defs, glslOptions{atomics: atomics})
	}
	var sb strings.Builder
	sb.WriteString(dialect(b))
	sb.WriteString(loadFunc(b, s))
	for _, k := range defs {
		sb.WriteString(k.cSource())
	}
	return sb.String()
}

// companionKernels are the spectrometer's kernels for backend b.
func companionKernels(b Backend, s loadSpec) []kernelDef {
	out := "float2"
	if !s.format.Complex() {
		out = "float"
	}
	convert := kernelDef{name: "vkg_convert", params: []kernelParam{
		{name: "src", elem: s.format.load(b).elem, readOnly: true},
		{name: "dst", elem: out},
		{name: "w", elem: "float", readOnly: true, unused: !s.window},
		{name: "in_off"}, {name: "count"},
	}, body: `	vkg_u64 i = VKG_GID;
	if (i < count) dst[i] = vkg_load(src, in_off + i, w);
`}
	if b == Vulkan {
		convert.helpers = glslLoadFunc(s)
	}
	defs := []kernelDef{convert}
	for _, k := range []struct{ name, typ, pow string }{
		{"vkg_sum_c", "float2", "v.x * v.x + v.y * v.y"},
		{"vkg_sum_f", "float", "v"},
	} {
		defs = append(defs, kernelDef{name: k.name, params: []kernelParam{
			{name: "x", elem: k.typ, readOnly: true}, {name: "psd", elem: "float"},
			{name: "bins"}, {name: "stride"}, {name: "items"}, {name: "per"},
		}, body: fmt.Sprintf(`	vkg_u64 k = VKG_GID, b, b0 = VKG_GROUP_Y * per, b1 = b0 + per;
	float s = 0.0f;
	if (k >= bins) return;
	if (b1 > items) b1 = items;
	for (b = b0; b < b1; b++) { %s v = x[b * stride + k]; s += %s; }
	if (per < items) VKG_GROUP_ADD(psd, bins, k, s); else psd[k] += s;
`, k.typ, k.pow)})
	}
	return append(defs, kernelDef{name: "vkg_zero", params: []kernelParam{{name: "a", elem: "float"}, {name: "n"}},
		body: `	vkg_u64 i = VKG_GID;
	if (i < n) a[i] = 0.0f;
`})
}

// groupFunc defines the macros of a group-accumulating store (vkg_fuse.h) for n bins:
// every work-group runs g.transforms consecutive batch indices of VkFFT's grid (vkg_by)
// and adds each bin's sum once, atomically, at the end (or, with register sums, when a
// store statement's bin changes). Work-groups past the grid's end divided by
// g.transforms return at once. A barrier ends every turn: the next one reuses VkFFT's
// shared memory.
func groupFunc(b Backend, n int, g groupSpec) string {
	type words struct{ uint, id, count, barrier, tid, nthreads, local, addLocal string }
	w := words{"unsigned int", "blockIdx.y", "gridDim.y", "__syncthreads()",
		"(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z))",
		"(blockDim.x * blockDim.y * blockDim.z)", "__shared__", "atomicAdd(&(a)[i], (v))"}
	var sb strings.Builder
	if b != CUDA {
		w = words{"uint", "(uint)get_group_id(1)", "(uint)get_num_groups(1)", "barrier(CLK_LOCAL_MEM_FENCE)",
			"(uint)(get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)))",
			"(uint)(get_local_size(0) * get_local_size(1) * get_local_size(2))", "__local", "vkg_atomic_addf_local(&(a)[i], (v))"}
		if g.sum == GroupSumShared {
			sb.WriteString(`VKG_FN void vkg_atomic_addf_local(volatile __local float *p, float v) {
	union { uint u; float f; } o, n;
	do { o.f = *p; n.f = o.f + v; } while (atomic_cmpxchg((volatile __local uint *)p, o.u, n.u) != o.u);
}
`)
		}
	}
	fmt.Fprintf(&sb, `#define VKG_GROUP_BATCH %[1]du
#define VKG_GROUP_BEGIN for (%[2]s vkg_it = 0u; vkg_it < VKG_GROUP_BATCH; vkg_it++) { \
	%[2]s vkg_by = %[3]s * VKG_GROUP_BATCH + vkg_it; \
	if (vkg_by >= %[4]s) break;
#define VKG_GROUP_END %[5]s; }
`, g.transforms, w.uint, w.id, w.count, w.barrier)
	if g.sum == GroupSumShared {
		fmt.Fprintf(&sb, `#define VKG_GBINS %[1]du
#define VKG_ATOMIC_ADD_LOCAL(a, i, v) %[8]s
#define VKG_GROUP_ENTER %[7]s float vkg_sacc[VKG_GBINS]; \
	if (%[3]s * VKG_GROUP_BATCH >= %[4]s) return; \
	for (%[2]s vkg_i = %[5]s; vkg_i < VKG_GBINS; vkg_i += %[6]s) vkg_sacc[vkg_i] = 0.0f; \
	%[9]s;
#define VKG_GACC(acc, bin)
#define VKG_GSTORE(out, i, v, acc, bin) { float2 vkg_v = v; \
	VKG_ATOMIC_ADD_LOCAL(vkg_sacc, (%[2]s)((i) %% VKG_N), vkg_v.x * vkg_v.x + vkg_v.y * vkg_v.y); }
#define VKG_GFLUSH(out, acc, bin)
#define VKG_GROUP_LEAVE for (%[2]s vkg_i = %[5]s; vkg_i < VKG_GBINS; vkg_i += %[6]s) { \
	float vkg_s = vkg_sacc[vkg_i]; if (vkg_s != 0.0f) VKG_ATOMIC_ADD(VKG_OUT, vkg_i, vkg_s); }
`, n, w.uint, w.id, w.count, w.tid, w.nthreads, w.local, w.addLocal, w.barrier)
		return sb.String()
	}
	fmt.Fprintf(&sb, `#define VKG_NOBIN 0xffffffffu
#define VKG_GROUP_ENTER if (%[2]s * VKG_GROUP_BATCH >= %[3]s) return;
#define VKG_GACC(acc, bin) float acc = 0.0f; %[1]s bin = VKG_NOBIN
#define VKG_GSTORE(out, i, v, acc, bin) { \
	%[1]s vkg_b = (%[1]s)((i) %% VKG_N); float2 vkg_v = v; \
	if (vkg_b != bin) { if (bin != VKG_NOBIN) VKG_ATOMIC_ADD(out, bin, acc); bin = vkg_b; acc = 0.0f; } \
	acc += vkg_v.x * vkg_v.x + vkg_v.y * vkg_v.y; }
#define VKG_GFLUSH(out, acc, bin) if (bin != VKG_NOBIN) VKG_ATOMIC_ADD(out, bin, acc)
#define VKG_GROUP_LEAVE
`, w.uint, w.id, w.count)
	return sb.String()
}

// groupID is how VkFFT's kernels in b's dialect read their work-group's index along the
// batch, and forbid the other reads of a batch position the rewriter must refuse (each
// work-group of a group-accumulating kernel stands for several of VkFFT's).
func groupID(b Backend) (id, forbid string) {
	switch b {
	case CUDA:
		id, forbid = "blockIdx.y", ""
	case Vulkan:
		id, forbid = "gl_WorkGroupID.y", "gl_GlobalInvocationID.y"
	default:
		id, forbid = "get_group_id(1)", "get_global_id(1) get_global_offset(1)"
	}
	return id, strings.TrimSpace(forbid + " " + groupForbidHook)
}

// groupShared is the bytes of shared memory a group store of g for n bins declares
// beside VkFFT's: n floats for shared sums, none for register sums.
func groupShared(n int, g groupSpec) int {
	if g.sum == GroupSumShared {
		return 4 * n
	}
	return 0
}

// groupForbidHook adds words to the rewriter's refusals of a group store (tests: a
// refused one); "" in normal use.
var groupForbidHook string

// fusedText is the text the rewriter splices into VkFFT's kernels for a fused load of
// s and a store of mode store; a storeGroup store sums as g says.
func fusedText(b Backend, s loadSpec, store int, g groupSpec) engine.FuseText {
	if b == Vulkan {
		return glslFusedText(s, store, g)
	}
	var sb strings.Builder
	sb.WriteString(dialect(b))
	sb.WriteString(loadFunc(b, s))
	sb.WriteString(storeFunc(store))
	t := engine.FuseText{InputDecl: "const " + s.format.load(b).elem + "* inputs"}
	if store == storeGroup {
		sb.WriteString(groupFunc(b, s.n, g))
		t.GroupID, t.GroupForbid = groupID(b)
		t.GroupShared = groupShared(s.n, g)
	}
	if b == CUDA {
		// VkFFT passes a fixed argument list: the two pointers live in a module variable
		sb.WriteString(`struct vkg_fuse_args { const float *window; float *out; };
extern "C" { __device__ struct vkg_fuse_args vkg_fuse; }
#define VKG_WINDOW (vkg_fuse.window)
#define VKG_OUT (vkg_fuse.out)
`)
	} else {
		sb.WriteString("#define VKG_WINDOW vkg_window\n#define VKG_OUT vkg_out\n")
		t.ExtraParams = ", __global const float* vkg_window, __global float* vkg_out"
	}
	t.Prelude = sb.String()
	return t
}

// padCropSource is the module of a zero-padded convolution, for elements of typ
// ("float2", "double2", "float" or "double"):
//
//	vkg_pad(src, dst, comps, m0, m1, m2, p0, p1, p2, bc)   dst (comps arrays of p) = src (of m), and beyond it
//	                                                      zeros, the nearest edge value or the periodic
//	                                                      continuation (bc: engine.Boundary*; vkg_bc)
//	vkg_crop(src, dst, ..., bc)                           dst (comps arrays of m) = the first m points of src
func padCropSource(b Backend, typ string) string {
	elem := typ
	if b == Vulkan {
		// copies only: moved as bits, so double precision needs no shaderFloat64 here
		elem = map[string]string{"float2": "uvec2", "double2": "uvec4", "float": "uint", "double": "uvec2"}[typ]
	}
	var defs []kernelDef
	for _, k := range []struct{ name, body string }{
		{"vkg_pad", `	vkg_u64 i = VKG_GID, np = p0 * p1 * p2, c = i / np, r = i % np;
	vkg_u64 z = r / (p1 * p2), y = r / p2 % p1, x = r % p2;
	if (c >= comps) return;
	z = vkg_bc(z, m0, p0, bc); y = vkg_bc(y, m1, p1, bc); x = vkg_bc(x, m2, p2, bc);
	if (z < m0 && y < m1 && x < m2) dst[i] = src[c * m0 * m1 * m2 + (z * m1 + y) * m2 + x];
	else dst[i] = VKG_PAD_ZERO;
`},
		{"vkg_crop", `	vkg_u64 i = VKG_GID, nm = m0 * m1 * m2, c = i / nm, r = i % nm;
	vkg_u64 z = r / (m1 * m2), y = r / m2 % m1, x = r % m2;
	if (c >= comps) return;
	dst[i] = src[c * p0 * p1 * p2 + (z * p1 + y) * p2 + x];
`},
	} {
		params := []kernelParam{{name: "src", elem: elem, readOnly: true}, {name: "dst", elem: elem}}
		for _, n := range []string{"comps", "m0", "m1", "m2", "p0", "p1", "p2", "bc"} {
			params = append(params, kernelParam{name: n})
		}
		defs = append(defs, kernelDef{name: k.name, params: params, body: k.body})
	}
	zero := "0"
	switch {
	case b == Vulkan:
		zero = elem + "(0u)"
	case typ == "float2" && b == CUDA:
		zero = "make_float2(0.0f, 0.0f)"
	case typ == "double2" && b == CUDA:
		zero = "make_double2(0.0, 0.0)"
	case strings.HasSuffix(typ, "2"):
		zero = "(" + typ + ")(0, 0)"
	}
	if b == Vulkan {
		for i := range defs {
			defs[i].helpers = "#define VKG_PAD_ZERO " + zero + "\n#define VKG_FN\n" + boundaryFunc
		}
		return glslModule(defs, glslOptions{})
	}
	var sb strings.Builder
	if b != CUDA && strings.HasPrefix(typ, "double") {
		sb.WriteString("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n")
	}
	sb.WriteString(dialect(b))
	sb.WriteString("#define VKG_PAD_ZERO " + zero + "\n")
	sb.WriteString(boundaryFunc)
	for _, k := range defs {
		sb.WriteString(k.cSource())
	}
	return sb.String()
}

// boundaryFunc defines vkg_bc(x, m, p, bc): the data index that padded position x of an
// axis of m data points padded to p holds, or m for a zero. The first (p-m)/2 positions
// past the data stand for those after its end, the rest for those before its start (the
// transform is circular; a kernel of K points reaches (K-1)/2 after and K/2 before, and
// p-m >= K-1): bc 0 (engine.BoundaryZero) gives zeros, 1
// (BoundaryReplicate) the nearest edge point, 2 (BoundaryPeriodic) the data repeated.
const boundaryFunc = `VKG_FN vkg_u64 vkg_bc(vkg_u64 x, vkg_u64 m, vkg_u64 p, vkg_u64 bc) {
	vkg_u64 d;
	if (x < m) return x;
	if (bc == 0u) return m;
	if (x - m < (p - m) / 2u) return bc == 1u ? m - 1u : x % m;
	d = (p - x) % m;
	return bc == 1u ? 0u : (d == 0u ? 0u : m - d);
}
`
