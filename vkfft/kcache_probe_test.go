package vkfft

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestKernelsCached: the C API's question "would this plan load its kernels from disk?"
// is answered without building: no before the first build, yes after it (for that
// plan only), no with the disk cache off or while the tuner would still measure one.
func TestKernelsCached(t *testing.T) {
	kc := KernelCache()
	kc.SetDir(t.TempDir())
	defer kc.SetDir("")
	built := Config{Shape: []int{18, 10}}
	real := ByteKind{Real: true}

	cases := []struct {
		name string
		cfg  Config
		kind ByteKind
		off  bool
		want bool
	}{
		{"the plan built", built, real, false, true},
		{"another shape", Config{Shape: []int{18, 12}}, real, false, false},
		{"another kind", built, ByteKind{}, false, false},
		{"another precision", built, ByteKind{Real: true, Double: true}, false, false},
		{"a tuning still to measure", Config{Shape: []int{18, 10}, Tune: TuneMeasure}, real, false, false},
		{"the disk cache off", built, real, true, false},
	}
	got, err := testDev.kernelsCached(built, real)
	require.NoError(t, err)
	require.False(t, got, "before the plan was ever built")
	before := kc.Stats()
	p, err := NewBytePlan(testDev, built, real)
	require.NoError(t, err)
	require.NoError(t, p.Close())
	require.Greater(t, kc.Stats().Stored, before.Stored, "the plan's kernels were stored")
	dir, _ := kc.Dir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.off {
				kc.SetDir("off")
				defer kc.SetDir(dir)
			}
			if c.kind.Double && !testDev.Info().DoublePrecision {
				t.Skip("no double precision on this device")
			}
			stats := kc.Stats()
			got, err := testDev.kernelsCached(c.cfg, c.kind)
			require.NoError(t, err)
			require.Equal(t, c.want, got)
			require.Equal(t, stats, kc.Stats(), "nothing was built or loaded")
		})
	}
	_, err = testDev.kernelsCached(Config{Shape: []int{0}}, real)
	require.ErrorIs(t, err, ErrInvalidShape)
}
