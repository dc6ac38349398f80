package vkfft

import (
	"bytes"
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
// (sm_90, 227 KiB of shared memory; one and two passes) and an OpenCL one from PoCL.
// Every global read of the first pass becomes a vkg_load, every write of the last a
// vkg_store; nothing else changes. With VKFFTGO_REWRITE_OUT set, the results are written
// there (to compile them with NVRTC where it is installed).
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
			if strings.HasSuffix(name, ".cu") {
				backend = CUDA
			}
			// pass 0 of a multi-pass transform is launched last; single-pass files end in _0
			roles := engine.FuseLoadRole | engine.FuseStoreRole
			switch {
			case strings.Contains(name, "65536_0") || strings.Contains(name, "1048576_0"):
				roles = engine.FuseStoreRole
			case strings.HasSuffix(strings.TrimSuffix(name, filepath.Ext(name)), "_1"):
				roles = engine.FuseLoadRole
			}
			spec := loadSpec{format: ComplexInt8, n: 65536, scale: 0.25, window: true}
			text := fusedText(backend, spec, storePower, groupSpec{})
			out, err := engine.FuseRewrite(src, roles, text)
			require.NoError(t, err)
			require.True(t, strings.HasPrefix(out, text.Prelude))
			body := strings.TrimPrefix(out, text.Prelude)
			reads, writes := strings.Count(src, "inputs["), strings.Count(src, "outputs[")
			require.Positive(t, reads)
			require.Positive(t, writes)
			if roles&engine.FuseLoadRole != 0 {
				require.Equal(t, reads, strings.Count(body, "vkg_load(inputs, ("))
				require.NotContains(t, body, "inputs[")
				require.Contains(t, body, text.InputDecl)
			} else {
				require.Equal(t, reads, strings.Count(body, "inputs["))
			}
			if roles&engine.FuseStoreRole != 0 {
				require.Equal(t, writes, strings.Count(body, "vkg_store(VKG_OUT, ("))
				require.NotContains(t, body, "outputs[")
			} else {
				require.Equal(t, writes, strings.Count(body, "outputs["))
			}
			i := strings.Index(body, "VkFFT_main")
			sigLine := body[i : i+strings.Index(body[i:], "\n")]
			require.Contains(t, sigLine, text.ExtraParams+") {", "extra parameters close the signature")
			// every other line is untouched
			require.Equal(t, strings.Count(src, "\n"), strings.Count(body, "\n"))
			if dir := os.Getenv("VKFFTGO_REWRITE_OUT"); dir != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(out), 0o644))
			}
		})
	}
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
