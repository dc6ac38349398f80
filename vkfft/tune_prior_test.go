package vkfft

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireUntuned checks that a TuneCached plan with nothing stored runs with the
// device's prior, or VkFFT's defaults where the device has none.
func requireUntuned(t *testing.T, p *plan) {
	t.Helper()
	if prior, ok := priorTuning(&p.dev.info, &p.l); ok {
		require.Equal(t, TunedPrior, p.tuned.Source)
		require.Equal(t, prior, p.l.cfg.Tuning)
		return
	}
	require.Equal(t, TunedNone, p.tuned.Source)
	require.True(t, p.l.cfg.Tuning.isZero())
}

func TestPriorTuningChoice(t *testing.T) {
	nvidia := func(b Backend) DeviceInfo { return DeviceInfo{Backend: b, VendorID: nvidiaVendorID} }
	prior := Tuning{CoalescedMemory: 128, AimThreads: 64}
	cases := []struct {
		name string
		info DeviceInfo
		cfg  Config
		kind kind
		want bool
	}{
		{"cuda 3-D", nvidia(CUDA), Config{Shape: []int{64, 64, 64}}, kindC2C, true},
		{"cuda 3-D batch", nvidia(CUDA), Config{Shape: []int{16, 16, 16}, Batch: 4}, kindC2C, true},
		{"cuda 2-D", nvidia(CUDA), Config{Shape: []int{4096, 4096}}, kindC2C, false},
		{"cuda 3-D with a unit axis", nvidia(CUDA), Config{Shape: []int{1, 64, 64}}, kindC2C, false},
		{"cuda 3-D, two axes transformed", nvidia(CUDA), Config{Shape: []int{8, 64, 64}, Axes: []int{1, 2}}, kindC2C, false},
		{"cuda 3-D real", nvidia(CUDA), Config{Shape: []int{64, 64, 64}}, kindR2C, false},
		{"vulkan 2-D", nvidia(Vulkan), Config{Shape: []int{4096, 4096}}, kindC2C, true},
		{"vulkan 1-D batch", nvidia(Vulkan), Config{Shape: []int{4096}, Batch: 16}, kindC2C, false},
		{"opencl on nvidia", nvidia(OpenCL), Config{Shape: []int{64, 64, 64}}, kindC2C, false},
		{"cuda, another vendor", DeviceInfo{Backend: CUDA, VendorID: 0x1002}, Config{Shape: []int{64, 64, 64}}, kindC2C, false},
		{"vulkan on a CPU", DeviceInfo{Backend: Vulkan, VendorID: nvidiaVendorID, HostMemory: true}, Config{Shape: []int{64, 64}}, kindC2C, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := validate(c.cfg, c.kind, 8)
			require.NoError(t, err)
			got, ok := priorTuning(&c.info, &l)
			require.Equal(t, c.want, ok)
			if c.want {
				require.Equal(t, prior, got)
			} else {
				require.True(t, got.isZero())
			}
		})
	}
}

// TestPriorTuningApplied opens a device whose description says NVIDIA under Vulkan, so
// this machine's device (PoCL in CI) builds plans with the prior: TuneCached applies it
// and reports it, TuneOff and a stored tuning do not, and VkFFT computes the same
// transform with it.
func TestPriorTuningApplied(t *testing.T) {
	tuneFresh(t)
	d, err := Open(testDev.Info().Index)
	require.NoError(t, err)
	defer d.Close()
	d.info.VendorID, d.info.Backend, d.info.HostMemory = nvidiaVendorID, Vulkan, false
	cfg := Config{Shape: []int{16, 16}, Batch: 2, Tune: TuneCached}

	p, err := NewPlan[complex64](d, cfg)
	require.NoError(t, err)
	defer p.Close()
	require.Equal(t, TunedPrior, p.Tuned().Source)
	require.Equal(t, "prior", p.Tuned().Source.String())
	require.Equal(t, Tuning{CoalescedMemory: 128, AimThreads: 64}, p.Config().Tuning)

	cfg.Tune = TuneOff
	q, err := NewPlan[complex64](d, cfg)
	require.NoError(t, err)
	defer q.Close()
	require.Equal(t, TunedNone, q.Tuned().Source)
	require.True(t, q.Config().Tuning.isZero())

	rng := rand.New(rand.NewPCG(11, 12))
	x, xw := randomComplex[complex64](rng, p.Len())
	want := refFFT(xw, cfg.Shape, cfg.Batch, false)
	for _, pl := range []*Plan[complex64]{p, q} {
		y := make([]complex64, len(x))
		require.NoError(t, pl.Forward(y, x))
		require.Less(t, relErr(y, want), 1e-5, "tuning %s", pl.Config().Tuning)
	}
}
