package vkfft

import (
	"fmt"
	"strings"
)

// kernelParam is one parameter of a companion kernel: a buffer of elem elements (a type
// of the kernel's dialect), or a vkg_u64 scalar when elem is "".
type kernelParam struct {
	name     string
	elem     string
	readOnly bool
	// unused: the body never reads it (a window that is not there); C keeps it in the
	// signature, GLSL leaves it unbound, and the launch ignores its argument
	unused bool
}

// kernelDef is a companion kernel written once: its parameters and a body in the common
// subset of C and GLSL (see kernels.go). helpers is backend text the body needs that
// the module prelude does not give (GLSL: per shader, e.g. the sample load). local is
// the work-items of a work-group a GLSL shader declares (0: glslLocal); C takes it at
// launch.
type kernelDef struct {
	name    string
	params  []kernelParam
	body    string
	helpers string
	local   int
}

// cSource is the kernel in the C dialects (CUDA C, OpenCL C), after dialect(b).
func (k kernelDef) cSource() string {
	ps := make([]string, len(k.params))
	for i, p := range k.params {
		switch {
		case p.elem == "":
			ps[i] = "vkg_u64 " + p.name
		case p.readOnly:
			ps[i] = fmt.Sprintf("const VKG_GLOBAL %s *%s", p.elem, p.name)
		default:
			ps[i] = fmt.Sprintf("VKG_GLOBAL %s *%s", p.elem, p.name)
		}
	}
	return fmt.Sprintf("%sVKG_KERNEL %s(%s) {\n%s}\n", k.helpers, k.name, strings.Join(ps, ", "), k.body)
}

// moduleSource is the module of kernels defs on backend b (the one prelude, then each
// kernel; one shader each on Vulkan).
func moduleSource(b Backend, defs []kernelDef) string {
	if b == Vulkan {
		return glslModule(defs, glslOptions{})
	}
	var sb strings.Builder
	sb.WriteString(dialect(b))
	for _, k := range defs {
		sb.WriteString(k.cSource())
	}
	return sb.String()
}
