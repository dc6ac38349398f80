package vkfft

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vkfftgo/vkfftgo/internal/fftref"
)

// The tuner's float64 reference is the transform its checks sample: VkFFT's defaults
// match it at the sampled windows, for complex and real plans, batches, axes subsets,
// normalisations and buffers large enough to be sampled in windows.
func TestTuneExactReference(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		real bool
	}{
		{"2-D batch", Config{Shape: []int{16, 24}, Batch: 3}, false},
		{"sampled windows", Config{Shape: []int{256, 256}, Batch: 2}, false},
		{"axes subset, ortho", Config{Shape: []int{8, 12, 10}, Axes: []int{1, 2}, Norm: NormOrtho}, false},
		{"real, batch", Config{Shape: []int{20, 18}, Batch: 2}, true},
		{"real, sampled windows", Config{Shape: []int{512, 256}}, true},
		{"batch of Bluestein lines, sampled windows", Config{Shape: []int{1031}, Batch: 200}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tuneFresh(t)
			old := tuneStages
			tuneStages = nil
			t.Cleanup(func() { tuneStages = old })
			checked := false
			tuneAfterBaseline = func(tn *tuner) {
				want, err := tn.exactOut()
				require.NoError(t, err)
				got := float32sWidened(tn.refOut)
				require.Len(t, want, len(got))
				require.Less(t, fftref.L2Real(got, want), 1e-5, "VkFFT's defaults against the tuner's float64 reference")
				if strings.Contains(tc.name, "windows") {
					require.Greater(t, len(tn.outWins), 1, "the buffer is sampled in windows")
				}
				checked = true
			}
			t.Cleanup(func() { tuneAfterBaseline = nil })
			cfg := tc.cfg
			cfg.Tune = TuneMeasure
			if tc.real {
				p, err := NewRealPlan32(testDev, cfg)
				require.NoError(t, err)
				require.NoError(t, p.Close())
			} else {
				p, err := NewPlan[complex64](testDev, cfg)
				require.NoError(t, err)
				require.NoError(t, p.Close())
			}
			require.True(t, checked)
		})
	}
}

// The host reference covers at most tuneExactMax points: one transform too large is
// refused (and the refusal kept), a long batch costs only the transforms the sampled
// windows reach.
func TestTuneExactReferenceSize(t *testing.T) {
	for _, tc := range []struct {
		cfg    Config
		refuse string
	}{
		{Config{Shape: []int{8192, 4096}}, "no float64 reference for 33554432 points"},
		{Config{Shape: []int{4096}, Batch: 16384}, ""},
	} {
		l, err := validate(tc.cfg, kindC2C, 8)
		require.NoError(t, err)
		tn := &tuner{tuneTarget: &tuneTarget{l: &l}, inBytes: l.complexBytes, outWins: tuneWindows(l.complexBytes, 4)}
		got, err := tn.exactOut()
		if tc.refuse != "" {
			require.ErrorContains(t, err, tc.refuse)
			_, again := tn.exactOut()
			require.Equal(t, err, again, "the refusal is kept, not recomputed")
			continue
		}
		require.NoError(t, err)
		require.Len(t, got, int(tuneWinCount*tuneWindow/4), "%v: one value per float of the windows", tc.cfg)
	}
}

// Computed twiddles in single precision are adopted only when they are as accurate as
// VkFFT's defaults (tables) against float64: here they are made to win on time, and
// their measured error is scaled to a tenth or ten times (on PoCL they are really 1.3×
// the tables' error, which the tuner rejects).
func TestTuneComputedTwiddles(t *testing.T) {
	var stage tuneStage
	for _, st := range tuneStages {
		if st.name == "computed twiddles" {
			stage = st
		}
	}
	require.True(t, stage.accuracy, "the stage checks accuracy")
	for _, tc := range []struct {
		name    string
		errBias float64
		want    LUT
		line    string
	}{
		{"as accurate", 0.1, LUTOff, "against float64 (defaults"},
		{"less accurate", 10, LUTDefault, "less accurate than VkFFT's defaults"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tuneFresh(t)
			old, oldBias := tuneStages, tuneTimeBias
			tuneStages = []tuneStage{stage}
			tuneTimeBias = func(t Tuning) float64 {
				if t.LUT == LUTOff {
					return 1e-3
				}
				return 1
			}
			tuneExactBias = func(t Tuning) float64 {
				if t.LUT == LUTOff {
					return tc.errBias
				}
				return 1
			}
			t.Cleanup(func() { tuneStages, tuneTimeBias, tuneExactBias = old, oldBias, nil })
			var lines []string
			SetTuneProgress(func(s string) { lines = append(lines, s) })
			t.Cleanup(func() { SetTuneProgress(nil) })
			cfg := Config{Shape: []int{64, 96}, Batch: 2, Tune: TuneMeasure}
			p, err := NewPlan[complex64](testDev, cfg)
			require.NoError(t, err)
			defer func() { require.NoError(t, p.Close()) }()
			log := strings.Join(lines, "\n")
			require.Contains(t, log, tc.line)
			require.Equal(t, tc.want, p.Tuned().Tuning.LUT, "%s", log)
			tuneCheck(t, p)

			// a double-precision plan is not offered the stage
			l, err := validate(Config{Shape: cfg.Shape}, kindC2C, 16)
			require.NoError(t, err)
			require.Empty(t, stage.cands(&l, Tuning{}))
		})
	}
}

func TestRandomRangeIsPartOfRandomBytes(t *testing.T) {
	total := int64(2*randomChunk + 4096)
	for _, double := range []bool{false, true} {
		all := randomBytes(total, double)
		for _, r := range [][2]int64{{0, 64}, {randomChunk - 32, 64}, {8, 2*randomChunk - 8}, {total - 16, 16}} {
			require.Equal(t, all[r[0]:r[0]+r[1]], randomRange(total, r[0], r[1], double), "%v double=%v", r, double)
		}
	}
}
