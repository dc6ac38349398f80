package vkfft

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// Samples in pinned memory (a HostBuffer) or in registered memory (RegisterHost) are
// uploaded straight from where they are, with no copy into the spectrometer's pinned
// chunks, and give the same bins as the same samples in ordinary memory; a slice that is
// only partly pinned is staged. Two chunks per call, so both turns of the double buffer
// run, and two calls, so the second turn's reuse of the first's buffers does too.
func TestSpectrometerPinnedSamplesSkipStaging(t *testing.T) {
	const n, batch = 256, 8
	cfg := SpectrometerConfig{N: n, Batch: batch, Chunk: batch / 2, Input: ComplexInt8}
	sp, err := NewSpectrometer(testDev, cfg)
	require.NoError(t, err)
	defer sp.Close()
	numbers := 2 * n * batch
	raw, val := randomSamples(rand.New(rand.NewPCG(7, 8)), ComplexInt8, numbers)
	twice := sp.Config()
	twice.Batch *= 2 // two calls of the same batch
	want := refPower(twice, append(val, val...))
	run := func(samples []int8) []float32 {
		t.Helper()
		require.NoError(t, sp.Reset())
		require.NoError(t, sp.Accumulate(samples))
		require.NoError(t, sp.Accumulate(samples))
		psd := make([]float32, sp.Bins())
		require.NoError(t, sp.Read(psd))
		return psd
	}
	asInt8 := func(b []byte) []int8 { return unsafe.Slice((*int8)(unsafe.Pointer(unsafe.SliceData(b))), len(b)) }
	// the same bins up to the order of float atomic adds (the fused atomic path's, where
	// the device has them)
	same := func(want, got []float32, what string) {
		t.Helper()
		w := make([]float64, len(want))
		for i, v := range want {
			w[i] = float64(v)
		}
		require.Less(t, relErrReal(got, w), 1e-6, what)
	}

	pageable := run(asInt8(append([]byte(nil), raw...)))
	require.Less(t, relErrReal(pageable, want), 1e-5)
	require.Equal(t, int64(2), sp.stagedCalls, "ordinary memory is staged: the checks below would prove nothing otherwise")

	hb, err := NewHostBuffer[int8](testDev, numbers+16)
	require.NoError(t, err)
	defer hb.Close()
	copy(hb.Slice(), asInt8(raw))
	same(pageable, run(hb.Slice()[:numbers]), "pinned samples")
	require.Equal(t, int64(2), sp.stagedCalls, "samples in a HostBuffer were staged")

	mem := mmapBytes(t, numbers+4096)
	reg, err := testDev.RegisterHost(mem[:numbers])
	require.NoError(t, err)
	defer reg.Close()
	copy(mem, raw)
	same(pageable, run(asInt8(mem[:numbers])), "registered samples")
	require.Equal(t, int64(2), sp.stagedCalls, "samples in registered memory were staged")

	// the registration ends before the samples do: staged, still the same bins
	copy(mem[1:], raw)
	same(pageable, run(asInt8(mem[1:numbers+1])), "partly registered samples")
	require.Equal(t, int64(4), sp.stagedCalls, "partly registered samples were not staged")
}
