package vkfft

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vkfftgo/vkfftgo/internal/engine"

	"github.com/stretchr/testify/require"
)

// The rewriter on kernels VkFFT 1.3.4 really generated: CUDA ones for an H200's limits
// (sm_90, 227 KiB of shared memory; one and two passes), an OpenCL one from PoCL and GLSL
// ones from Mesa's llvmpipe (one, two and three passes). A file's suffix is the pass
// (VkFFT's axis upload: _0 is launched last). Every global read of the first pass
// becomes a vkg_load, every write of the last a vkg_store; GLSL's buffer declarations
// are redeclared and its prelude goes before main; nothing else changes. With
// VKFFTGO_REWRITE_OUT set, the results are written there (to compile them with NVRTC
// where it is installed).
func TestFuseRewriteVkFFTKernels(t *testing.T) {
	if _, err := os.Stat("testdata/vkfft-src"); os.IsNotExist(err) {
		t.Skip("outside the source tree (a GPU bundle): testdata/ is not here")
	}
	files, err := filepath.Glob("testdata/vkfft-src/*.gz")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".gz")
		t.Run(name, func(t *testing.T) {
			src := gunzip(t, f)
			backend := OpenCL
			switch filepath.Ext(name) {
			case ".cu":
				backend = CUDA
			case ".comp":
				backend = Vulkan
			}
			roles := vkfftSampleRoles(name)
			spec := loadSpec{format: ComplexInt8, n: 65536, scale: 0.25, window: true, chunk: 4}
			text := fusedText(backend, spec, storePower, groupSpec{})
			out, err := engine.FuseRewrite(src, roles, text)
			require.NoError(t, err)
			require.True(t, strings.HasPrefix(out, text.Prelude))
			body := strings.TrimPrefix(out, text.Prelude)
			// GLSL's prelude goes right before main, after the rewriter's VKG_FUSE_ROLES;
			// the rest is VkFFT's, to count in
			added := 0
			if text.EntryPrelude != "" {
				entry := fmt.Sprintf("#define VKG_FUSE_ROLES %d\n%s", roles, text.EntryPrelude)
				require.Equal(t, 1, strings.Count(body, entry+"void main() {"), "the entry prelude right before main")
				body = strings.Replace(body, entry, "", 1)
				added = strings.Count(entry, "\n")
			}
			// counts, not Contains: a failure would print whole kernels
			reads, writes := strings.Count(src, "inputs["), strings.Count(src, "outputs[")
			declared := 0 // GLSL declares the buffers as "vec2 inputs[512]", the C dialects as parameters
			if backend == Vulkan {
				declared = 1
			}
			require.Positive(t, reads-declared)
			require.Positive(t, writes-declared)
			if roles&engine.FuseLoadRole != 0 {
				require.Equal(t, reads-declared, strings.Count(body, "vkg_load(inputs, ("))
				require.Equal(t, strings.Count(text.InputDecl, "inputs["), strings.Count(body, "inputs["),
					"no read of inputs left, and its declaration replaced")
				require.Equal(t, 1, strings.Count(body, text.InputDecl))
			} else {
				require.Zero(t, strings.Count(body, "vkg_load("))
				require.Equal(t, reads, strings.Count(body, "inputs["))
			}
			if roles&engine.FuseStoreRole != 0 {
				require.Equal(t, writes-declared, strings.Count(body, "vkg_store(VKG_OUT, ("))
				require.Equal(t, strings.Count(text.OutputDecl, "outputs["), strings.Count(body, "outputs["),
					"no write of outputs left, and its declaration replaced")
				if text.OutputDecl != "" {
					require.Equal(t, 1, strings.Count(body, "\t"+text.OutputDecl+";\n"), "the output redeclared")
				}
			} else {
				require.Zero(t, strings.Count(body, "vkg_store("))
				require.Equal(t, writes, strings.Count(body, "outputs["))
			}
			entry := cmp.Or(text.Entry, "VkFFT_main")
			i := strings.Index(body, entry+"(")
			if i < 0 {
				i = strings.Index(body, entry+" (")
			}
			require.GreaterOrEqual(t, i, 0)
			sigLine := body[i : i+strings.Index(body[i:], "\n")]
			require.Contains(t, sigLine, text.ExtraParams+") {", "extra parameters close the signature")
			// every other line is untouched
			require.Equal(t, strings.Count(src, "\n")+added, strings.Count(out, "\n")-strings.Count(text.Prelude, "\n"))
			if dir := os.Getenv("VKFFTGO_REWRITE_OUT"); dir != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(out), 0o644))
			}
		})
	}
}

// vkfftSampleRoles is what the rewriter does to the sample kernel name (testdata/vkfft-src:
// <dialect>_n<N>_<pass>): pass 0 of a transform of several passes stores, any later one
// loads, and the one pass of a short transform does both.
func vkfftSampleRoles(name string) int {
	base := strings.TrimSuffix(name, filepath.Ext(name))
	multi := strings.Contains(base, "n65536_") || strings.Contains(base, "n1048576_")
	switch {
	case multi && strings.HasSuffix(base, "_0"):
		return engine.FuseStoreRole
	case !strings.HasSuffix(base, "_0"):
		return engine.FuseLoadRole
	}
	return engine.FuseLoadRole | engine.FuseStoreRole
}

// What the rewriter does not recognise, it refuses (the caller then falls back to
// companion kernels) rather than guess.
func TestFuseRewriteRefusesUnknownCode(t *testing.T) {
	sig := "extern \"C\" __global__ void VkFFT_main (float2* inputs, float2* outputs, float2* twiddleLUT) {\n"
	text := fusedText(CUDA, loadSpec{format: ComplexInt8, n: 64, scale: 1}, storeAtomic, groupSpec{})
	for name, c := range map[string]struct {
		src   string
		roles int
		why   string
	}{
		"double precision":   {strings.ReplaceAll(sig, "float2", "double2") + "temp_0 = inputs[i];\n}\n", engine.FuseLoadRole, "float2* inputs"},
		"no kernel":          {"void f() {}\n", engine.FuseLoadRole, "VkFFT_main"},
		"two kernels":        {sig + "}\n" + sig + "}\n", engine.FuseLoadRole, "VkFFT_main"},
		"component read":     {sig + "temp_0.x = inputs[i].x;\n}\n", engine.FuseLoadRole, "inputs"},
		"read into sum":      {sig + "temp_0 += inputs[i];\n}\n", engine.FuseLoadRole, "inputs"},
		"two reads":          {sig + "temp_0 = inputs[i] + inputs[j];\n}\n", engine.FuseLoadRole, "inputs"},
		"accumulating store": {sig + "outputs[i] += temp_0;\n}\n", engine.FuseStoreRole, "outputs"},
		"read of outputs":    {sig + "temp_0 = outputs[i];\n}\n", engine.FuseStoreRole, "outputs"},
		"component store":    {sig + "outputs[i].x = temp_0.x;\n}\n", engine.FuseStoreRole, "outputs"},
		"nothing to load":    {sig + "temp_0 = sdata[i];\n}\n", engine.FuseLoadRole, "no read"},
		"nothing to store":   {sig + "sdata[i] = temp_0;\n}\n", engine.FuseStoreRole, "no write"},
		"no roles":           {sig + "temp_0 = inputs[i];\n}\n", 0, "nothing"},
	} {
		_, err := engine.FuseRewrite(c.src, c.roles, text)
		require.ErrorIs(t, err, ErrUnsupported, name)
		require.ErrorContains(t, err, c.why, name)
	}
	// and the recognised forms, with nested brackets in the index
	out, err := engine.FuseRewrite(sig+"  sdata[a[b]] = inputs[consts.inputOffset + a[b]];\n outputs[c[d]] = sdata[e];\n}\n",
		engine.FuseLoadRole|engine.FuseStoreRole, text)
	require.NoError(t, err)
	require.Contains(t, out, "  sdata[a[b]] = vkg_load(inputs, (consts.inputOffset + a[b]), VKG_WINDOW);\n")
	require.Contains(t, out, " vkg_store(VKG_OUT, (c[d]), sdata[e]);\n")
}

// The same for GLSL (whose buffers are blocks declared before main), and the recognised
// forms: the declarations of a fused pass replaced, the prelude right before main.
func TestFuseRewriteGLSL(t *testing.T) {
	decl := func(typ string) string {
		return "#version 450\nlayout(std430, binding = 0) buffer DataIn{\n\t" + typ + " inputs[64];\n};\n" +
			"layout(std430, binding = 1) buffer DataOut{\n\t" + typ + " outputs[64];\n};\n"
	}
	head := decl("vec2") + "void main() {\n"
	text := fusedText(Vulkan, loadSpec{format: ComplexInt8, n: 64, scale: 1, chunk: 1}, storeAtomic, groupSpec{})
	for name, c := range map[string]struct {
		src   string
		roles int
		why   string
	}{
		"double precision":  {decl("dvec2") + "void main() {\ntemp_0 = inputs[i];\n}\n", engine.FuseLoadRole, "vec2 inputs"},
		"no main":           {decl("vec2") + "void other() {\n}\n", engine.FuseLoadRole, "main"},
		"two mains":         {head + "}\nvoid main() {\n}\n", engine.FuseLoadRole, "main"},
		"blocks of buffers": {head + "temp_0 = inputBlocks[0].inputs[i];\n}\n", engine.FuseLoadRole, "inputs"},
		"component read":    {head + "temp_0.x = inputs[i].x;\n}\n", engine.FuseLoadRole, "inputs"},
		"component store":   {head + "outputs[i].x = temp_0.x;\n}\n", engine.FuseStoreRole, "outputs"},
		"nothing to store":  {head + "sdata[i] = temp_0;\n}\n", engine.FuseStoreRole, "no write"},
	} {
		_, err := engine.FuseRewrite(c.src, c.roles, text)
		require.ErrorIs(t, err, ErrUnsupported, name)
		require.ErrorContains(t, err, c.why, name)
	}
	// a store mode without GLSL is refused before any build (the spectrometer then takes another path)
	for store := storeNone; store <= storeGroup+1; store++ {
		require.Equal(t, store <= storeGroup, glslStores(store), "store %d", store)
	}
	src := head + "temp_0 = inputs[consts.inputOffset + a[b]];\noutputs[c[d]] = temp_0;\n}\n"
	for _, roles := range []int{engine.FuseLoadRole, engine.FuseStoreRole, engine.FuseLoadRole | engine.FuseStoreRole} {
		out, err := engine.FuseRewrite(src, roles, text)
		require.NoError(t, err)
		load, store := roles&engine.FuseLoadRole != 0, roles&engine.FuseStoreRole != 0
		require.Equal(t, load, strings.Contains(out, "\tuint inputs[];\n"), "roles %d", roles)
		require.Equal(t, !load, strings.Contains(out, "\tvec2 inputs[64];\n"), "roles %d", roles)
		require.Equal(t, store, strings.Contains(out, "\tfloat outputs[];\n"), "roles %d", roles)
		require.Equal(t, load, strings.Contains(out, "temp_0 = vkg_load(inputs, (consts.inputOffset + a[b]), VKG_WINDOW);\n"))
		require.Equal(t, store, strings.Contains(out, "vkg_store(VKG_OUT, (c[d]), temp_0);\n"))
		require.True(t, strings.HasPrefix(out, "#version 450\n"), "the version stays first")
		require.Contains(t, out, fmt.Sprintf("};\n#define VKG_FUSE_ROLES %d\n%svoid main() {\n", roles, text.EntryPrelude))
	}
}

func gunzip(t *testing.T, name string) string {
	t.Helper()
	f, err := os.ReadFile(name)
	require.NoError(t, err)
	r, err := gzip.NewReader(bytes.NewReader(f))
	require.NoError(t, err)
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	return string(b)
}

// The companion kernels and the fused preludes of every format build on this device;
// the CUDA texts (every store mode, group sums in both flavours) are written to
// VKFFTGO_REWRITE_OUT for NVRTC where it is installed.
func TestStageKernelsBuildForEveryFormat(t *testing.T) {
	h, err := testDev.use("test")
	require.NoError(t, err)
	defer testDev.mu.RUnlock()
	dir := os.Getenv("VKFFTGO_REWRITE_OUT")
	var cuSrc string
	if dir != "" {
		cuSrc = gunzip(t, "testdata/vkfft-src/cu_n4096_0.cu.gz")
	}
	for _, f := range sampleFormatList() {
		for _, window := range []bool{false, true} {
			spec := loadSpec{format: f, n: 64, scale: 3, window: window}
			if window { // a build costs a second on PoCL: one per format
				m, _, err := engine.ModuleBuild(h, companionSource(compiledBackend, spec, companionFloatAtomics(testDev)), nil)
				require.NoError(t, err, "%v window %v", f, window)
				engine.ModuleDestroy(m)
			}
			if dir == "" {
				continue
			}
			name := fmt.Sprintf("%s/companion-%d-%v.cu", dir, f, window)
			require.NoError(t, os.WriteFile(name, []byte(companionSource(CUDA, spec, true)), 0o644))
			if !f.Complex() {
				continue
			}
			for i, st := range []struct {
				store int
				group groupSpec
			}{{storeNone, groupSpec{}}, {storePower, groupSpec{}}, {storeAtomic, groupSpec{}},
				{storeGroup, groupSpec{sum: GroupSumRegisters, transforms: 3}},
				{storeGroup, groupSpec{sum: GroupSumShared, transforms: 8}}} {
				roles := engine.FuseLoadRole
				if st.store != storeNone {
					roles |= engine.FuseStoreRole
				}
				if st.store == storeGroup {
					roles |= engine.FuseGroupRole
				}
				out, err := engine.FuseRewrite(cuSrc, roles, fusedText(CUDA, spec, st.store, st.group))
				require.NoError(t, err)
				name := fmt.Sprintf("%s/fused-%d-%v-%d.cu", dir, f, window, i)
				require.NoError(t, os.WriteFile(name, []byte(out), 0o644))
			}
		}
	}
}
