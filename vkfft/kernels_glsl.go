package vkfft

import (
	"fmt"
	"strings"
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

// glslLocal is the work-group size of every companion kernel on Vulkan (the launches use
// 256; vkg_kern_vulkan.c refuses any other).
const glslLocal = 256

// glslOptions are what a Vulkan module's shaders depend on beyond their kernels.
type glslOptions struct {
	atomics bool // VKG_ATOMIC_ADD adds atomically (GL_EXT_shader_atomic_float)
}

// glslDialect defines the kernel dialect's names in GLSL.
func glslDialect(o glslOptions) string {
	atomic := "#define VKG_ATOMIC_ADD(a, i, v) atomicAdd(a[i], v)\n"
	if !o.atomics {
		// only reached with one group along y (each bin reduced by one work-item)
		atomic = "#define VKG_ATOMIC_ADD(a, i, v) a[i] += (v)\n"
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
		fmt.Fprintf(&sb, "%s%s %s %d\n%s", glslKernelMarker, k.name, sig, glslLocal, shader)
	}
	return sb.String()
}

// glslShader is kernel k as a compute shader, and its launch signature.
func (k kernelDef) glslShader(o glslOptions) (sig, shader string) {
	var sb, sg strings.Builder
	sb.WriteString("#version 450\n")
	// the extension only where an atomic add is written (and so only then the device feature)
	o.atomics = o.atomics && strings.Contains(k.body, "VKG_ATOMIC_ADD")
	if o.atomics {
		sb.WriteString("#extension GL_EXT_shader_atomic_float : require\n")
	}
	fmt.Fprintf(&sb, "layout(local_size_x = %d) in;\n", glslLocal)
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
	var sb strings.Builder
	fmt.Fprintf(&sb, "#define VKG_N %du\n", s.n)
	factor := floatLit(s.scale)
	if s.window {
		factor = fmt.Sprintf("(%s * w[i %% VKG_N])", floatLit(s.scale))
	}
	ret := "vec2"
	if !s.format.Complex() {
		ret = "float"
	}
	fmt.Fprintf(&sb, "%s vkg_load_at(uint i) {\n\tfloat f = %s;\n", ret, factor)
	sb.WriteString(s.format.load(Vulkan).body)
	sb.WriteString("}\n#define vkg_load(a, i, w) vkg_load_at(i)\n")
	return sb.String()
}
