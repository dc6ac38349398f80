package vkfft

import "fmt"

// directDialect is what the direct kernels' text differs in between CUDA C, OpenCL C and
// GLSL. Everything else they write — dftGen's arithmetic, the indices, the loops — is in
// the subset the three share, with the dialect's prelude (dialect, glslDialect) naming
// vkg_u64, float2, VKG_F2 and VKG_ATOMIC_ADD.
type directDialect struct {
	backend Backend
	// lid is the work-item's index in its work-group, group the work-group's index
	// (over x and z on Vulkan, where a launch's x beyond the device's group count
	// folds over z), barrier a barrier over the work-group's shared memory
	lid, group, barrier string
	u32, flag           string // the types of a 32-bit index and of a condition
	shared              string // the qualifier of a shared-memory array
	ldgWord             string // C: the function that loads a read-only value by address
}

// directDialectOf is backend b's dialect.
func directDialectOf(b Backend) directDialect {
	switch b {
	case CUDA:
		return directDialect{backend: CUDA, lid: "threadIdx.x", group: "blockIdx.x", barrier: "__syncthreads()",
			u32: "unsigned int", flag: "int", shared: "__shared__", ldgWord: "__ldg"}
	case Vulkan:
		return directDialect{backend: Vulkan, lid: "gl_LocalInvocationID.x",
			group:   "(gl_WorkGroupID.z * gl_NumWorkGroups.x + gl_WorkGroupID.x)",
			barrier: "memoryBarrierShared(); barrier()", u32: "uint", flag: "bool", shared: "shared"}
	}
	return directDialect{backend: OpenCL, lid: "get_local_id(0)", group: "get_group_id(0)", barrier: "barrier(CLK_LOCAL_MEM_FENCE)",
		u32: "unsigned int", flag: "int", shared: "__local", ldgWord: "*"}
}

// glsl says whether the dialect is GLSL (Vulkan's shaders).
func (d directDialect) glsl() bool { return d.backend == Vulkan }

// ldg is a read-only load of lvalue (an element of a buffer the kernel only reads).
func (d directDialect) ldg(lvalue string) string {
	if d.glsl() {
		return lvalue
	}
	return d.ldgWord + "(&" + lvalue + ")"
}

// cast converts x (a primary expression) to type typ.
func (d directDialect) cast(typ, x string) string {
	if d.glsl() {
		return typ + "(" + x + ")"
	}
	return "(" + typ + ")" + x
}

// sharedValues declares vkg_sre and vkg_sim, words floats each, or for pairs vkg_sv,
// words float2: in the kernel's body in C (the first return), before the shader's main in
// GLSL (the second).
func (d directDialect) sharedValues(words int, pairs bool) (body, helpers string) {
	decl := fmt.Sprintf("%s float vkg_sre[%d], vkg_sim[%d];\n", d.shared, words, words)
	if pairs {
		decl = fmt.Sprintf("%s float2 vkg_sv[%d];\n", d.shared, words)
	}
	if d.glsl() {
		return "", decl
	}
	return "\t" + decl, ""
}

// finish completes kernel k of the direct path for the dialect: its work-group of local
// work-items (a GLSL shader declares it) and, where it reads samples of spec, the
// sample load a GLSL shader defines for itself (C has it in the module's prelude).
func (d directDialect) finish(k kernelDef, spec loadSpec, local int, loads bool, helpers string) kernelDef {
	k.local = local
	if d.glsl() && loads {
		helpers += glslLoadFunc(spec)
	}
	k.helpers = helpers
	return k
}
