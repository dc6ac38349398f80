package vkfft

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vkfftgo/vkfftgo/internal/engine"

	"github.com/stretchr/testify/require"
)

// The group-accumulating store on the last passes VkFFT 1.3.4 really generated (CUDA
// for an H200, one and two passes; OpenCL from PoCL; GLSL from llvmpipe, one, two and
// three passes), in both flavours: the loop opens
// after the shared-memory declarations and closes before the kernel's last brace, every
// write becomes a VKG_GSTORE of its own accumulator (declared before the loop, flushed
// after it), the batch index is read only as vkg_by, and nothing else changes. With
// VKFFTGO_REWRITE_OUT set the CUDA results are written there for NVRTC (make
// cuda-kernel-check).
func TestFuseGroupRewriteVkFFTKernels(t *testing.T) {
	if _, err := os.Stat("testdata/vkfft-src"); os.IsNotExist(err) {
		t.Skip("outside the source tree (a GPU bundle): testdata/ is not here")
	}
	for _, c := range []struct {
		file  string
		roles int // besides store and group
		n     int
	}{
		{"cu_n4096_0.cu", engine.FuseLoadRole, 4096},
		{"cu_n65536_0.cu", 0, 65536},
		{"cu_n1048576_0.cu", 0, 1 << 20},
		{"cl_n256_0.cl", engine.FuseLoadRole, 256},
		{"vk_n256_0.comp", engine.FuseLoadRole, 256},
		{"vk_n4096_0.comp", engine.FuseLoadRole, 4096},
		{"vk_n65536_0.comp", 0, 65536},
		{"vk_n1048576_0.comp", 0, 1 << 20},
	} {
		for _, sum := range []GroupSum{GroupSumRegisters, GroupSumShared} {
			if sum == GroupSumShared && c.n > maxSharedBins {
				continue
			}
			name := fmt.Sprintf("%s-%v", c.file, sum)
			t.Run(name, func(t *testing.T) {
				src := gunzip(t, "testdata/vkfft-src/"+c.file+".gz")
				backend := OpenCL
				switch filepath.Ext(c.file) {
				case ".cu":
					backend = CUDA
				case ".comp":
					backend = Vulkan
				}
				id, _ := groupID(backend)
				text := fusedText(backend, loadSpec{format: ComplexInt16, n: c.n, scale: 0.5, window: true, chunk: 2},
					storeGroup, groupSpec{sum: sum, transforms: 16})
				require.Contains(t, text.Prelude+text.EntryPrelude, "#define VKG_GROUP_BATCH 16u")
				roles := engine.FuseStoreRole | engine.FuseGroupRole | c.roles
				out, err := engine.FuseRewrite(src, roles, text)
				require.NoError(t, err)
				body := strings.TrimPrefix(out, text.Prelude)
				require.Len(t, body, len(out)-len(text.Prelude), "the prelude comes first")
				entry := "VkFFT_main"
				if text.EntryPrelude != "" { // GLSL's, right before main: the rest is VkFFT's
					entry = "void main()"
					pre := fmt.Sprintf("#define VKG_FUSE_ROLES %d\n%s", roles, text.EntryPrelude)
					require.Equal(t, 1, strings.Count(body, pre+entry))
					body = strings.Replace(body, pre, "", 1)
				}
				lines := strings.Split(body, "\n")
				at := func(marker string) int {
					t.Helper()
					found := -1
					for i, l := range lines {
						if strings.HasPrefix(l, marker) {
							require.Equal(t, -1, found, "%s appears once", marker)
							found = i
						}
					}
					require.NotEqual(t, -1, found, "%s is there", marker)
					return found
				}
				enter, begin, end, leave := at("VKG_GROUP_ENTER"), at("VKG_GROUP_BEGIN"), at("VKG_GROUP_END"),
					at("VKG_GROUP_LEAVE")
				sigRow := strings.Count(body[:strings.Index(body, entry)], "\n")
				// between the signature and the loop: only shared memory and blank lines
				for _, l := range lines[sigRow+1 : enter] {
					require.True(t, strings.TrimSpace(l) == "" || strings.Contains(l, "__local") ||
						strings.Contains(l, "shared"), "kernel scope holds only shared memory: %q", l)
				}
				require.Equal(t, enter+2, begin, "the accumulators' line sits between entry and loop")
				require.Equal(t, end+2, leave, "the flushes' line sits between loop and exit")
				require.Equal(t, "}", strings.TrimSpace(lines[leave+1]), "the kernel ends after the exit")
				require.Empty(t, strings.TrimSpace(strings.Join(lines[leave+2:], "")))

				declared := 0 // GLSL declares the buffers as "vec2 outputs[4096]", the C dialects as parameters
				if backend == Vulkan {
					declared = 1
				}
				stores := strings.Count(src, "outputs[") - declared
				require.Positive(t, stores)
				require.Equal(t, declared, strings.Count(body, "outputs["), "no write of outputs left")
				require.NotContains(t, body, "vkg_store(")
				loop := strings.Join(lines[begin+1:end], "\n")
				for s := 0; s < stores; s++ { // each statement its own accumulator, in order
					acc := fmt.Sprintf("vkg_acc%d, vkg_bin%d)", s, s)
					require.Equal(t, 1, strings.Count(loop, acc), "store %d once in the loop", s)
					require.Contains(t, lines[begin-1], "VKG_GACC("+acc)
					require.Contains(t, lines[end+1], "VKG_GFLUSH(VKG_OUT, "+acc)
				}
				require.Equal(t, stores, strings.Count(loop, "VKG_GSTORE(VKG_OUT, ("))
				require.NotContains(t, body, fmt.Sprintf("vkg_acc%d,", stores))
				// the batch index only as vkg_by, as often as VkFFT read the work-group's
				require.NotContains(t, body, id)
				require.Equal(t, strings.Count(src, id), strings.Count(loop, "vkg_by"))
				if c.roles&engine.FuseLoadRole != 0 {
					require.Equal(t, strings.Count(src, "inputs[")-declared, strings.Count(loop, "vkg_load(inputs, ("))
				}
				// every other line of VkFFT's is there unchanged, in order; six lines added
				kept := append(append(append([]string{}, lines[:enter]...), lines[begin+1:end]...), lines[leave+1:]...)
				srcLines := strings.Split(src, "\n")
				require.Len(t, kept, len(srcLines))
				for i, l := range srcLines {
					switch {
					case strings.Contains(l, entry):
					case strings.Contains(l, "outputs[") && backend == Vulkan && strings.HasPrefix(l, "\tvec2 outputs["):
						require.Equal(t, "\t"+text.OutputDecl+";", kept[i], "GLSL's output redeclared")
					case strings.Contains(l, "inputs[") && backend == Vulkan && strings.HasPrefix(l, "\tvec2 inputs["):
						if c.roles&engine.FuseLoadRole != 0 {
							require.Equal(t, "\t"+text.InputDecl+";", kept[i], "GLSL's input redeclared")
						} else {
							require.Equal(t, l, kept[i])
						}
					case strings.Contains(l, "outputs["):
						require.Contains(t, kept[i], "VKG_GSTORE(VKG_OUT, (")
					case strings.Contains(l, "inputs[") && c.roles&engine.FuseLoadRole != 0:
						require.Contains(t, kept[i], "vkg_load(inputs, (")
					default:
						require.Equal(t, strings.ReplaceAll(l, id, "vkg_by"), kept[i])
					}
				}
				if dir := os.Getenv("VKFFTGO_REWRITE_OUT"); dir != "" && backend == CUDA {
					require.NoError(t, os.WriteFile(filepath.Join(dir, "group-"+strings.TrimSuffix(c.file, ".cu")+"-"+
						sum.String()+".cu"), []byte(out), 0o644))
				}
			})
		}
	}
}

// What the group store cannot loop safely, the rewriter refuses (the spectrometer then
// adds every element atomically); what it can, it rewrites.
func TestFuseGroupRewriteRefuses(t *testing.T) {
	sig := "extern \"C\" __global__ void VkFFT_main (float2* inputs, float2* outputs, float2* twiddleLUT) {\n"
	shared := "float2* sdata = (float2*)shared;\n\n"
	ok := "shiftY = blockIdx.y;\ntemp_0 = sdata[shiftY];\noutputs[shiftY] = temp_0;\n"
	text := fusedText(CUDA, loadSpec{format: ComplexInt8, n: 64, scale: 1}, storeGroup,
		groupSpec{sum: GroupSumRegisters, transforms: 4})
	roles := engine.FuseStoreRole | engine.FuseGroupRole
	forbid := text
	forbid.GroupForbid = "gridDim.x  blockDim.y"
	noID := text
	noID.GroupID = ""
	for name, c := range map[string]struct {
		src   string
		roles int
		text  engine.FuseText
		why   string
	}{
		"early return":          {sig + shared + "if (threadIdx.x > 3) return;\n" + ok + "}\n", roles, text, "returns early"},
		"split dispatch":        {sig + shared + "shiftY = blockIdx.y + consts.workGroupShiftY;\n" + ok + "}\n", roles, text, "workGroupShift"},
		"forbidden read":        {sig + shared + "temp_1 = blockDim.y;\n" + ok + "}\n", roles, forbid, "reads blockDim.y"},
		"batch not in y":        {sig + shared + "shiftY = blockIdx.z;\noutputs[shiftY] = temp_0;\n}\n", roles, text, "not the work-group index"},
		"shared memory later":   {sig + shared + ok + "__shared__ float more[4];\n}\n", roles, text, "inside the body"},
		"store among shared":    {sig + "float2* sdata = (float2*)shared; outputs[0] = temp_0;\n" + ok + "}\n", roles, text, "among the shared-memory"},
		"brace not alone":       {sig + shared + ok + "temp_0 = temp_1; }\n", roles, text, "line of its own"},
		"text after the kernel": {sig + shared + ok + "}\n__device__ int x;\n", roles, text, "after VkFFT_main"},
		"code on the signature": {strings.TrimSuffix(sig, "\n") + " temp_0 = temp_1;\n" + shared + ok + "}\n", roles, text, "signature line"},
		"group without store":   {sig + shared + ok + "}\n", engine.FuseGroupRole | engine.FuseLoadRole, text, "a store mode"},
		"no spelling":           {sig + shared + ok + "}\n", roles, noID, "spelling"},
		"store not recognised":  {sig + shared + "shiftY = blockIdx.y;\noutputs[shiftY] += temp_0;\n}\n", roles, text, "outputs"},
	} {
		_, err := engine.FuseRewrite(c.src, c.roles, c.text)
		require.ErrorIs(t, err, ErrUnsupported, name)
		require.ErrorContains(t, err, c.why, name)
	}
	// the accepted form: a store inside a condition, the id read twice, a token that only
	// starts like the id left alone
	src := sig + shared + "shiftY = blockIdx.y;\nshiftZ = blockIdx.y * 2 + blockIdx.yz;\nif (shiftY < 3) {\n" +
		"  outputs[shiftY] = sdata[a[b]];\n}\noutputs[shiftZ] = temp_0;\n}\n"
	out, err := engine.FuseRewrite(src, roles, text)
	require.NoError(t, err)
	body := strings.TrimPrefix(out, text.Prelude)
	require.Equal(t, sig+shared+"VKG_GROUP_ENTER\nVKG_GACC(vkg_acc0, vkg_bin0); VKG_GACC(vkg_acc1, vkg_bin1);\n"+
		"VKG_GROUP_BEGIN\nshiftY = vkg_by;\nshiftZ = vkg_by * 2 + blockIdx.yz;\nif (shiftY < 3) {\n"+
		"  VKG_GSTORE(VKG_OUT, (shiftY), (sdata[a[b]]), vkg_acc0, vkg_bin0);\n}\n"+
		"VKG_GSTORE(VKG_OUT, (shiftZ), (temp_0), vkg_acc1, vkg_bin1);\nVKG_GROUP_END\n"+
		"VKG_GFLUSH(VKG_OUT, vkg_acc0, vkg_bin0); VKG_GFLUSH(VKG_OUT, vkg_acc1, vkg_bin1);\nVKG_GROUP_LEAVE\n}\n", body)
	// and OpenCL's spelling of the id, a call
	cl := "__kernel void VkFFT_main (__global float2* inputs, __global float2* outputs) {\n__local float2 sdata[4];\n" +
		"shiftY = get_group_id(1);\nshiftX = get_group_id(0);\noutputs[shiftY] = temp_0;\n}\n"
	clText := fusedText(OpenCL, loadSpec{format: ComplexInt8, n: 64, scale: 1}, storeGroup,
		groupSpec{sum: GroupSumShared, transforms: 4})
	out, err = engine.FuseRewrite(cl, roles, clText)
	require.NoError(t, err)
	require.Contains(t, out, "__local float2 sdata[4];\nVKG_GROUP_ENTER\n")
	require.Contains(t, out, "shiftY = vkg_by;\nshiftX = get_group_id(0);\n")
	_, err = engine.FuseRewrite(strings.Replace(cl, "get_group_id(0)", "get_global_id(1)", 1), roles, clText)
	require.ErrorContains(t, err, "reads get_global_id(1)")
	// and GLSL's: the id a vector's component, the shared sums declared before main (where
	// GLSL keeps shared memory), the global id refused
	glsl := "#version 450\nlayout(std430, binding = 0) buffer DataIn{\n\tvec2 inputs[64];\n};\n" +
		"layout(std430, binding = 1) buffer DataOut{\n\tvec2 outputs[64];\n};\nshared vec2 sdata[64];\n" +
		"void main() {\nshiftY = gl_WorkGroupID.y;\nshiftX = gl_WorkGroupID.x;\noutputs[shiftY] = temp_0;\n}\n"
	glText := fusedText(Vulkan, loadSpec{format: ComplexInt8, n: 64, scale: 1, chunk: 1}, storeGroup,
		groupSpec{sum: GroupSumShared, transforms: 4})
	require.Equal(t, 256, glText.GroupShared, "64 bins of shared sums")
	out, err = engine.FuseRewrite(glsl, roles, glText)
	require.NoError(t, err)
	main := strings.Index(out, "void main() {\nVKG_GROUP_ENTER\n")
	require.Positive(t, main)
	require.Less(t, strings.Index(out, "shared float vkg_sacc[VKG_GBINS];"), main)
	require.Contains(t, out, "shiftY = vkg_by;\nshiftX = gl_WorkGroupID.x;\n")
	require.Contains(t, out, "VKG_GSTORE(VKG_OUT, (shiftY), (temp_0), vkg_acc0, vkg_bin0);\nVKG_GROUP_END\n")
	_, err = engine.FuseRewrite(strings.Replace(glsl, "gl_WorkGroupID.x", "gl_GlobalInvocationID.y", 1), roles, glText)
	require.ErrorContains(t, err, "reads gl_GlobalInvocationID.y")
}
