package vkfft

import (
	"fmt"
	"strings"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// The companion kernels' GLSL dialect (Vulkan). GLSL has no pointers and one entry point
// per shader, so a module is one compute shader per kernel, each after a header line
// that vkg_kern_vulkan.c reads:
//
//	//!vkg-kernel NAME SIGNATURE LOCAL
//
// SIGNATURE has a letter per launch argument: b a storage buffer (std430, bound in order
// at bindings 0, 1, ... by push descriptors), s a scalar (a 32-bit push constant, in
// order), - an argument the kernel ignores. Indices are 32-bit (a storage buffer binding
// covers at most maxStorageBufferRange bytes; the launch refuses larger scalars), and the
// grid's x is split over x and z when it exceeds the device's group count (VKG_GID).

// glslKernelMarker starts each kernel's shader in a Vulkan module.
const glslKernelMarker = "//!vkg-kernel "

// glslLocal is the work-group size of the companion kernels on Vulkan (their launches use
// 256; vkg_kern_vulkan.c refuses a launch of another size than its shader declares); the
// direct kernels declare their own (kernelDef.local).
const glslLocal = 256

// glslOptions are what a Vulkan module's shaders depend on beyond their kernels.
type glslOptions struct {
	atomics bool // VKG_ATOMIC_ADD adds atomically (GL_EXT_shader_atomic_float)
}

// glslDialect defines the kernel dialect's names in GLSL.
func glslDialect(o glslOptions) string {
	atomic := "#define VKG_ATOMIC_ADD(a, i, v) atomicAdd(a[i], v)\n#define VKG_GROUP_ADD(a, bins, i, v) VKG_ATOMIC_ADD(a, i, v)\n"
	if !o.atomics {
		// a group's sums written as its row, which a second launch adds; VKG_ATOMIC_ADD
		// only where one work-item adds to each address
		atomic = "#define VKG_ATOMIC_ADD(a, i, v) a[i] += (v)\n#define VKG_GROUP_ADD(a, bins, i, v) a[VKG_GROUP_Y * (bins) + (i)] = (v)\n"
	}
	return `#define vkg_u64 uint
#define float2 vec2
#define VKG_F2(x, y) vec2((x), (y))
#define VKG_GID ((gl_WorkGroupID.z * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x)
#define VKG_GROUP_Y (gl_WorkGroupID.y)
` + atomic
}

// glslModule is the Vulkan module of kernels defs.
func glslModule(defs []kernelDef, o glslOptions) string {
	var sb strings.Builder
	for _, k := range defs {
		sig, shader := k.glslShader(o)
		fmt.Fprintf(&sb, "%s%s %s %d\n%s", glslKernelMarker, k.name, sig, k.workGroup(), shader)
	}
	return sb.String()
}

// workGroup is the work-group size k's shader declares.
func (k kernelDef) workGroup() int {
	if k.local != 0 {
		return k.local
	}
	return glslLocal
}

// glslShader is kernel k as a compute shader, and its launch signature.
func (k kernelDef) glslShader(o glslOptions) (sig, shader string) {
	var sb, sg strings.Builder
	sb.WriteString("#version 450\n")
	// the extension only where an atomic add is written (and so only then the device feature)
	o.atomics = o.atomics && (strings.Contains(k.body, "VKG_ATOMIC_ADD") || strings.Contains(k.body, "VKG_GROUP_ADD"))
	if o.atomics {
		sb.WriteString("#extension GL_EXT_shader_atomic_float : require\n")
	}
	fmt.Fprintf(&sb, "layout(local_size_x = %d) in;\n", k.workGroup())
	sb.WriteString(glslDialect(o))
	binding := 0
	var scalars []string
	for _, p := range k.params {
		switch {
		case p.elem == "":
			sg.WriteByte('s')
			scalars = append(scalars, p.name)
		case p.unused:
			sg.WriteByte('-')
		default:
			sg.WriteByte('b')
			access := ""
			if p.readOnly {
				access = "readonly "
			}
			fmt.Fprintf(&sb, "layout(std430, set = 0, binding = %d) %sbuffer vkg_buf%d { %s %s[]; };\n",
				binding, access, binding, p.elem, p.name)
			binding++
		}
	}
	if len(scalars) > 0 {
		sb.WriteString("layout(push_constant) uniform vkg_args {")
		for _, n := range scalars {
			fmt.Fprintf(&sb, " uint %s;", n)
		}
		sb.WriteString(" } vkg_arg;\n")
	}
	sb.WriteString(k.helpers)
	sb.WriteString("void main() {\n")
	for _, n := range scalars {
		fmt.Fprintf(&sb, "\tuint %s = vkg_arg.%s;\n", n, n)
	}
	sb.WriteString(k.body)
	sb.WriteString("}\n")
	return sg.String(), sb.String()
}

// glslLoadFunc defines vkg_load(src, i, w) for GLSL: sample i of the uint words src (and
// the window w), as vec2 or float, times the scale — loadFunc's meaning, with the format's
// GLSL load (sampleFormats).
func glslLoadFunc(s loadSpec) string {
	return fmt.Sprintf("#define VKG_N %du\n", s.n) + glslLoadAt(s, "w[%s]") + "#define vkg_load(a, i, w) vkg_load_at(i)\n"
}

// glslLoadAt defines vkg_load_at(i): sample i of the uint words src, times the scale
// and, with a window, the window value that window (a format of the index) reads.
func glslLoadAt(s loadSpec, window string) string {
	var sb strings.Builder
	factor := floatLit(s.scale)
	if s.window {
		factor = fmt.Sprintf("(%s * %s)", floatLit(s.scale), fmt.Sprintf(window, "i % VKG_N"))
	}
	ret := "vec2"
	if !s.format.Complex() {
		ret = "float"
	}
	fmt.Fprintf(&sb, "%s vkg_load_at(uint i) {\n\tfloat f = %s;\n", ret, factor)
	sb.WriteString(s.format.load(Vulkan).body)
	sb.WriteString("}\n")
	return sb.String()
}

// glslFusedText is fusedText for VkFFT's GLSL (vkg_fuse.h). A shader's buffers are
// VkFFT's bindings, so the fused kernels use those: the first pass reads the samples
// through its input binding, redeclared as 32-bit words (the engine widens the binding
// to the caller's whole batch), and the last pass stores |X|² through its output
// binding, redeclared as floats, which the plan points at the powers or the bins (a
// separate output buffer). The window has no binding of its own: it is stored after the
// data of the buffer the first pass writes — the chunk's complex data (spec.chunk FFTs)
// when that pass is not also the last, else the powers or the bins (windowTail) — and
// read through the output binding. Which of the two a pass has, the rewriter's
// VKG_FUSE_ROLES tells. A storeGroup store sums as g says (glslGroupFunc).
func glslFusedText(s loadSpec, store int, g groupSpec) engine.FuseText {
	var sb strings.Builder
	if store == storeAtomic || store == storeGroup {
		sb.WriteString("#extension GL_EXT_shader_atomic_float : require\n")
	}
	stored := int64(s.n) // floats before the window in the store target: the bins
	if store == storePower {
		stored = int64(s.chunk) * int64(s.n) // one power per element
	}
	fmt.Fprintf(&sb, "#define VKG_N %du\n#define VKG_WINDOW 0u\n#define VKG_OUT 0u\n", s.n)
	fmt.Fprintf(&sb, `#if (VKG_FUSE_ROLES & %d) != 0
#define VKG_WIN(j) outputs[%du + (j)]
#else
#define VKG_WIN(j) outputs[%du + ((j) >> 1)][(j) & 1u]
#endif
#if (VKG_FUSE_ROLES & %d) != 0
#define src inputs
`, engine.FuseStoreRole, stored, int64(s.chunk)*int64(s.n), engine.FuseLoadRole)
	sb.WriteString(glslLoadAt(s, "VKG_WIN(%s)"))
	fmt.Fprintf(&sb, "#undef src\n#endif\n#if (VKG_FUSE_ROLES & %d) != 0\n", engine.FuseStoreRole)
	switch store {
	case storePower:
		sb.WriteString("void vkg_store_at(uint i, vec2 v) { outputs[i] = v.x * v.x + v.y * v.y; }\n")
	case storeAtomic:
		sb.WriteString("void vkg_store_at(uint i, vec2 v) { atomicAdd(outputs[i % VKG_N], v.x * v.x + v.y * v.y); }\n")
	}
	sb.WriteString("#endif\n#define vkg_load(a, i, w) vkg_load_at(i)\n#define vkg_store(o, i, v) vkg_store_at(i, v)\n")
	t := engine.FuseText{
		Entry: "main", InputVkFFT: "vec2 inputs", OutputVkFFT: "vec2 outputs",
		InputDecl: "uint inputs[]",
	}
	if store == storeGroup {
		sb.WriteString(glslGroupFunc(s.n, g))
		t.GroupID, t.GroupForbid = groupID(Vulkan)
		t.GroupShared = groupShared(s.n, g)
	}
	t.EntryPrelude = sb.String()
	if store != storeNone {
		t.OutputDecl = "float outputs[]"
	}
	return t
}

// glslGroupFunc is groupFunc in GLSL, for the pass of the group role only: VkFFT's grid
// along y is the batch, a turn ends with a barrier over shared memory, and the bins
// (outputs, redeclared as floats) take atomicAdd. GLSL declares shared memory only
// outside main, so the shared sums are declared here, before it; adding to them needs
// the device's shaderSharedFloat32AtomicAdd (the spectrometer asks for registers
// without it).
func glslGroupFunc(n int, g groupSpec) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, `#if (VKG_FUSE_ROLES & %d) != 0
#define VKG_GROUP_BATCH %du
#define VKG_GROUP_FIRST (gl_WorkGroupID.y * VKG_GROUP_BATCH)
#define VKG_GROUP_BEGIN for (uint vkg_it = 0u; vkg_it < VKG_GROUP_BATCH; vkg_it++) { \
	uint vkg_by = VKG_GROUP_FIRST + vkg_it; \
	if (vkg_by >= gl_NumWorkGroups.y) break;
#define VKG_GROUP_END memoryBarrierShared(); barrier(); }
`, engine.FuseGroupRole, g.transforms)
	if g.sum == GroupSumShared {
		fmt.Fprintf(&sb, `#define VKG_GBINS %du
#define VKG_NTHREADS (gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z)
shared float vkg_sacc[VKG_GBINS];
#define VKG_GROUP_ENTER if (VKG_GROUP_FIRST >= gl_NumWorkGroups.y) return; \
	for (uint vkg_i = gl_LocalInvocationIndex; vkg_i < VKG_GBINS; vkg_i += VKG_NTHREADS) vkg_sacc[vkg_i] = 0.0f; \
	memoryBarrierShared(); barrier();
#define VKG_GACC(a, b)
#define VKG_GSTORE(o, i, v, a, b) { vec2 vkg_v = v; \
	atomicAdd(vkg_sacc[uint(i) %% VKG_N], vkg_v.x * vkg_v.x + vkg_v.y * vkg_v.y); }
#define VKG_GFLUSH(o, a, b)
#define VKG_GROUP_LEAVE for (uint vkg_i = gl_LocalInvocationIndex; vkg_i < VKG_GBINS; vkg_i += VKG_NTHREADS) { \
	float vkg_s = vkg_sacc[vkg_i]; if (vkg_s != 0.0f) atomicAdd(outputs[vkg_i], vkg_s); }
#endif
`, n)
		return sb.String()
	}
	sb.WriteString(`#define VKG_NOBIN 0xffffffffu
#define VKG_GROUP_ENTER if (VKG_GROUP_FIRST >= gl_NumWorkGroups.y) return;
#define VKG_GACC(a, b) float a = 0.0f; uint b = VKG_NOBIN
#define VKG_GSTORE(o, i, v, a, b) { uint vkg_b = uint(i) % VKG_N; vec2 vkg_v = v; \
	if (vkg_b != b) { if (b != VKG_NOBIN) atomicAdd(outputs[b], a); b = vkg_b; a = 0.0f; } \
	a += vkg_v.x * vkg_v.x + vkg_v.y * vkg_v.y; }
#define VKG_GFLUSH(o, a, b) if (b != VKG_NOBIN) atomicAdd(outputs[b], a)
#define VKG_GROUP_LEAVE
#endif
`)
	return sb.String()
}

// glslStores reports whether glslFusedText has GLSL for a store of mode store.
func glslStores(store int) bool {
	return store == storeNone || store == storePower || store == storeAtomic || store == storeGroup
}

// windowTail is the bytes a GLSL fused kernel's window takes after the data of a buffer
// (glslFusedText): n floats, in whole complex elements.
func windowTail(n int) int64 { return (int64(n)*4 + 7) / 8 * 8 }
