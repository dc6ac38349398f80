package vkfft

// The spectrometer's sample formats. Everything the package, the C API (capi) and the
// CLI know of a format is its row in sampleFormats: a new format is a constant and a
// row here, its enum in include/vkfftgo.h, and `make api`. TestSampleFormatTable walks
// the table, checks every row against the header and runs a spectrometer of each format.

import (
	"fmt"
	"strings"
)

// SampleFormat is the storage format of a spectrometer's input samples. Its value is
// the C API's (VKFFTGO_COMPLEX_INT8, ... in vkfftgo.h).
type SampleFormat int

const (
	// ComplexInt8 is interleaved signed 8-bit re, im pairs (2 bytes per sample).
	ComplexInt8 SampleFormat = iota + 1
	// ComplexInt16 is interleaved signed 16-bit re, im pairs (4 bytes per sample).
	ComplexInt16
	// ComplexUint8 is interleaved offset-binary 8-bit re, im pairs: 128 means 0.
	ComplexUint8
	// ComplexFloat16 is interleaved IEEE 754 half-precision re, im pairs (Float16), as
	// VkFFT's halfPrecisionMemoryOnly stores them.
	ComplexFloat16
	// RealInt8 is signed 8-bit real samples; the spectrum has N/2+1 bins.
	RealInt8
	// RealInt16 is signed 16-bit real samples; the spectrum has N/2+1 bins.
	RealInt16
)

// formatInfo is one sample format.
type formatInfo struct {
	name  string // String()
	cName string // its enum in include/vkfftgo.h, of the SampleFormat's value
	// complex: re, im pairs (the spectrum has N bins), else real numbers (N/2+1 bins)
	complex bool
	// goType is the Go type of one number, which names the Accumulate method that takes
	// them: "int8" (Accumulate), "int16", "uint8" or "Float16" (AccumulateInt16, ...)
	goType      string
	scalarBytes int // bytes of one number (half a complex sample)
	// load is how each kernel dialect reads the format (loadFunc, glslLoadFunc)
	load [numDialects]sampleLoad
	// encode writes the number v, an integer of magnitude at most exact, as the format
	// stores it (the bin-order probe's tones and the tests' samples)
	encode func(dst []byte, v float64)
	exact  float64
}

// sampleLoad is how kernels of one dialect read a format. elem is the element type of
// the sample buffer; body is the body of vkg_load after `float f = <scale and window>;`,
// returning sample i times f as a float2 (complex formats) or a float (real ones).
// The C dialects' body reads `const VKG_GLOBAL elem *in`; GLSL's reads the 32-bit words
// `src` (little-endian), since GLSL reads no narrower storage without optional device
// features. Both are spliced into VkFFT's kernels by the fuse rewriter too (in GLSL, src
// is then VkFFT's input binding, redeclared as words: glslFusedText).
type sampleLoad struct {
	elem, body string
}

// kernelDialect is a language the companion kernels are generated in.
type kernelDialect int

const (
	dialectOpenCL kernelDialect = iota // OpenCL C
	dialectCUDA                        // CUDA C, for NVRTC
	dialectGLSL                        // GLSL compute shaders, for Vulkan
	numDialects
)

// dialectOf is the kernel language of backend b.
func dialectOf(b Backend) kernelDialect {
	switch b {
	case CUDA:
		return dialectCUDA
	case Vulkan:
		return dialectGLSL
	}
	return dialectOpenCL
}

// Load bodies shared by several formats.
const (
	cLoadVec2 = "\t%s v = in[i];\n\treturn VKG_F2((float)v.x * f, (float)v.y * f);\n" // %s: the elem
	cLoadReal = "\treturn (float)in[i] * f;\n"
)

// sampleFormats is indexed by SampleFormat; row 0 is no format.
var sampleFormats = [...]formatInfo{
	ComplexInt8: {name: "complex int8", cName: "VKFFTGO_COMPLEX_INT8", complex: true, goType: "int8", scalarBytes: 1,
		load: [numDialects]sampleLoad{
			dialectOpenCL: {"char2", fmt.Sprintf(cLoadVec2, "char2")},
			dialectCUDA:   {"char2", fmt.Sprintf(cLoadVec2, "char2")},
			dialectGLSL: {"uint", "\tint v = int(src[i >> 1]), sh = int(i & 1u) * 16;\n" +
				"\treturn vec2(float(bitfieldExtract(v, sh, 8)) * f, float(bitfieldExtract(v, sh + 8, 8)) * f);\n"},
		},
		encode: func(b []byte, v float64) { b[0] = byte(int8(v)) }, exact: 127},
	ComplexInt16: {name: "complex int16", cName: "VKFFTGO_COMPLEX_INT16", complex: true, goType: "int16", scalarBytes: 2,
		load: [numDialects]sampleLoad{
			dialectOpenCL: {"short2", fmt.Sprintf(cLoadVec2, "short2")},
			dialectCUDA:   {"short2", fmt.Sprintf(cLoadVec2, "short2")},
			dialectGLSL: {"uint", "\tint v = int(src[i]);\n" +
				"\treturn vec2(float(bitfieldExtract(v, 0, 16)) * f, float(bitfieldExtract(v, 16, 16)) * f);\n"},
		},
		encode: func(b []byte, v float64) { putU16(b, uint16(int16(v))) }, exact: 32767},
	ComplexUint8: {name: "complex uint8 (offset binary)", cName: "VKFFTGO_COMPLEX_UINT8", complex: true, goType: "uint8",
		scalarBytes: 1,
		load: [numDialects]sampleLoad{
			dialectOpenCL: {"uchar2", "\tuchar2 v = in[i];\n\treturn VKG_F2(((float)v.x - 128.0f) * f, ((float)v.y - 128.0f) * f);\n"},
			dialectCUDA:   {"uchar2", "\tuchar2 v = in[i];\n\treturn VKG_F2(((float)v.x - 128.0f) * f, ((float)v.y - 128.0f) * f);\n"},
			dialectGLSL: {"uint", "\tuint v = src[i >> 1];\n\tint sh = int(i & 1u) * 16;\n" +
				"\treturn vec2((float(bitfieldExtract(v, sh, 8)) - 128.0f) * f, (float(bitfieldExtract(v, sh + 8, 8)) - 128.0f) * f);\n"},
		},
		encode: func(b []byte, v float64) { b[0] = byte(int(v) + 128) }, exact: 127},
	ComplexFloat16: {name: "complex float16", cName: "VKFFTGO_COMPLEX_FLOAT16", complex: true, goType: "Float16",
		scalarBytes: 2,
		load: [numDialects]sampleLoad{
			dialectOpenCL: {"half", "\treturn VKG_F2(vload_half(2 * i, in) * f, vload_half(2 * i + 1, in) * f);\n"},
			// vkg_half is the CUDA dialect's conversion (dialect in kernels.go)
			dialectCUDA: {"ushort2", "\tushort2 v = in[i];\n\treturn VKG_F2(vkg_half(v.x) * f, vkg_half(v.y) * f);\n"},
			dialectGLSL: {"uint", "\treturn unpackHalf2x16(src[i]) * f;\n"},
		},
		encode: func(b []byte, v float64) { putU16(b, halfBits(float32(v))) }, exact: 2048},
	RealInt8: {name: "real int8", cName: "VKFFTGO_REAL_INT8", goType: "int8", scalarBytes: 1,
		load: [numDialects]sampleLoad{
			dialectOpenCL: {"char", cLoadReal},
			dialectCUDA:   {"char", cLoadReal},
			dialectGLSL:   {"uint", "\tint v = int(src[i >> 2]), sh = int(i & 3u) * 8;\n\treturn float(bitfieldExtract(v, sh, 8)) * f;\n"},
		},
		encode: func(b []byte, v float64) { b[0] = byte(int8(v)) }, exact: 127},
	RealInt16: {name: "real int16", cName: "VKFFTGO_REAL_INT16", goType: "int16", scalarBytes: 2,
		load: [numDialects]sampleLoad{
			dialectOpenCL: {"short", cLoadReal},
			dialectCUDA:   {"short", cLoadReal},
			dialectGLSL:   {"uint", "\tint v = int(src[i >> 1]), sh = int(i & 1u) * 16;\n\treturn float(bitfieldExtract(v, sh, 16)) * f;\n"},
		},
		encode: func(b []byte, v float64) { putU16(b, uint16(int16(v))) }, exact: 32767},
}

// info is f's row; f must be valid.
func (f SampleFormat) info() *formatInfo { return &sampleFormats[f] }

// valid reports whether f is a known format.
func (f SampleFormat) valid() bool {
	return f > 0 && int(f) < len(sampleFormats) && sampleFormats[f].name != ""
}

func (f SampleFormat) String() string {
	if f.valid() {
		return f.info().name
	}
	return fmt.Sprintf("SampleFormat(%d)", int(f))
}

// Complex reports whether samples are complex (re, im pairs).
func (f SampleFormat) Complex() bool { return f.valid() && f.info().complex }

// scalarBytes is the size of one real number of the format (half a complex sample).
func (f SampleFormat) scalarBytes() int { return f.info().scalarBytes }

// sampleBytes is the size of one sample.
func (f SampleFormat) sampleBytes() int {
	if f.Complex() {
		return 2 * f.scalarBytes()
	}
	return f.scalarBytes()
}

// goType is the Go type of one number of the format (the Accumulate method's).
func (f SampleFormat) goType() string { return f.info().goType }

// load is how backend b's kernels read the format.
func (f SampleFormat) load(b Backend) sampleLoad { return f.info().load[dialectOf(b)] }

// sampleFormatList is every format, in the order of their values.
func sampleFormatList() []SampleFormat {
	var out []SampleFormat
	for f := range SampleFormat(len(sampleFormats)) {
		if f.valid() {
			out = append(out, f)
		}
	}
	return out
}

// formatChoices lists every format as name(f) (value), for error messages.
func formatChoices(name func(SampleFormat) string) string {
	var s []string
	for _, f := range sampleFormatList() {
		s = append(s, fmt.Sprintf("%s (%d)", name(f), int(f)))
	}
	return strings.Join(s, ", ")
}

// sampleFormatFromC is the format of the C API's enum value v, or an error naming the
// values there are.
func sampleFormatFromC(v int32) (SampleFormat, error) {
	if f := SampleFormat(v); f.valid() {
		return f, nil
	}
	return 0, fmt.Errorf("%w: desc->input is %d; want %s", ErrInvalidArgument, v,
		formatChoices(func(f SampleFormat) string { return f.info().cName }))
}
