package vkfft

import (
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/internal/ccore"
	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// headerSampleFormats are the spectrometer's sample formats as include/vkfftgo.h
// declares them: enum name to value.
func headerSampleFormats(t *testing.T) map[string]int {
	t.Helper()
	b, err := os.ReadFile("../include/vkfftgo.h")
	if os.IsNotExist(err) {
		t.Skip("outside the source tree (a GPU bundle): include/vkfftgo.h is not here")
	}
	require.NoError(t, err)
	out := map[string]int{}
	for _, m := range regexp.MustCompile(`\b(VKFFTGO_(?:COMPLEX|REAL)_[A-Z0-9_]+)\s*=\s*(\d+)`).FindAllStringSubmatch(string(b), -1) {
		v, err := strconv.Atoi(m[2])
		require.NoError(t, err)
		out[m[1]] = v
	}
	require.NotEmpty(t, out, "the sample format enum of vkfftgo.h")
	return out
}

// Every row of the sample-format table, end to end: its name, sizes and element type,
// its loads in every kernel dialect, its C enum (the header's value, and capi's mapping
// through ccore), and a spectrometer of the format built on the test device (companion
// kernels and, for complex formats where the backend fuses, the rewritten VkFFT
// kernels) fed through capi's byte path and checked against the float64 reference.
func TestSampleFormatTable(t *testing.T) {
	header := headerSampleFormats(t)
	formats := sampleFormatList()
	require.Len(t, formats, len(header), "a table row for every enum of vkfftgo.h and no other")
	goTypeBytes := map[string]uintptr{}
	for _, z := range []any{int8(0), int16(0), uint8(0), Float16(0)} { // Accumulate's element types
		goTypeBytes[scalarTypeName(z)] = reflect.TypeOf(z).Size()
	}
	names, cNames := map[string]bool{}, map[string]bool{}
	rng := rand.New(rand.NewPCG(11, 12))
	for i, f := range formats {
		fi := f.info()
		t.Run(strings.ReplaceAll(f.String(), " ", "_"), func(t *testing.T) {
			require.Equal(t, SampleFormat(i+1), f, "values run from 1 without gaps, as the C enum's")
			require.True(t, f.valid())
			require.NotEmpty(t, fi.name)
			require.Equal(t, fi.name, f.String())
			require.False(t, names[fi.name], "names are unique")
			names[fi.name] = true
			require.Equal(t, fi.complex, f.Complex())

			require.Contains(t, header, fi.cName, "vkfftgo.h declares the format")
			require.Equal(t, int(f), header[fi.cName], "%s has the SampleFormat's value", fi.cName)
			require.False(t, cNames[fi.cName], "C names are unique")
			cNames[fi.cName] = true
			got, err := ccore.SampleFormat(int32(header[fi.cName]))
			require.NoError(t, err)
			require.Equal(t, int(f), got, "capi maps %s to the format", fi.cName)

			size, ok := goTypeBytes[fi.goType]
			require.True(t, ok, "goType %q is the element type of an Accumulate method", fi.goType)
			require.Equal(t, int(size), f.scalarBytes(), "a number is one %s", fi.goType)
			comps := 1
			if f.Complex() {
				comps = 2
			}
			require.Equal(t, comps*f.scalarBytes(), f.sampleBytes())
			require.Positive(t, fi.exact)
			for d, ld := range fi.load {
				require.NotEmpty(t, ld.elem, "dialect %d", d)
				require.Contains(t, ld.body, "return", "dialect %d", d)
			}
			require.Equal(t, "uint", fi.load[dialectGLSL].elem, "GLSL reads samples as 32-bit words")
			for _, b := range []Backend{OpenCL, CUDA, Vulkan} {
				src := companionSource(b, loadSpec{format: f, n: 64, scale: 1}, true)
				require.Contains(t, src, fi.load[dialectOf(b)].body, "%v's companion kernels load through the table", b)
			}

			win := make([]float32, 64)
			for k := range win {
				win[k] = 1 - float32(k)/128
			}
			cfg := SpectrometerConfig{N: 64, Batch: 2, Input: f, Window: win, Scale: 3}
			sp, err := NewSpectrometer(testDev, cfg)
			require.NoError(t, err)
			defer sp.Close()
			raw, val := randomSamples(rng, f, sp.numbers())
			require.Equal(t, int(sp.SampleBytes()), len(raw))
			// capi's byte path: the C record's spectrometer, fed the bytes as they come
			cs := ccore.SpectrometerOf(sp)
			require.Equal(t, int64(len(raw)), cs.SampleBytes)
			require.Equal(t, sp.Bins(), cs.Bins)
			require.NotNil(t, cs.PrepareHost, "host streaming is made on first use")
			require.NoError(t, cs.PrepareHost())
			require.Nil(t, ccore.SpectrometerOf(sp).PrepareHost, "made once")
			st := engine.NewStatus()
			defer engine.FreeStatus(st)
			require.NoError(t, engine.SpectroHost(engine.Spectro(cs.Core), nil, st, unsafe.Pointer(&raw[0]), false, cs.Batch))
			psd := make([]float32, sp.Bins())
			require.NoError(t, sp.Read(psd))
			require.Less(t, relErrReal(psd, refPower(cfg, val)), 1e-5, "%v (fusion %v)", f, sp.Fusion())
		})
	}
}

// Values outside the table are refused by name, listing the formats there are.
func TestSampleFormatUnknown(t *testing.T) {
	for _, v := range []int{0, -1, len(sampleFormats), 1000} {
		f := SampleFormat(v)
		require.False(t, f.valid(), v)
		require.False(t, f.Complex(), v)
		require.Equal(t, "SampleFormat("+strconv.Itoa(v)+")", f.String())
		_, err := ccore.SampleFormat(int32(v))
		require.ErrorIs(t, err, ErrInvalidArgument)
		require.ErrorContains(t, err, "desc->input is "+strconv.Itoa(v))
		_, err = NewSpectrometer(testDev, SpectrometerConfig{N: 64, Batch: 1, Input: f})
		require.ErrorIs(t, err, ErrInvalidArgument)
		for _, g := range sampleFormatList() {
			_, cerr := ccore.SampleFormat(int32(v))
			require.ErrorContains(t, cerr, g.info().cName)
			require.ErrorContains(t, err, g.String())
		}
	}
}
