package main

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/vkfftgo/vkfftgo/vkfft"
)

func TestMemoryFloor(t *testing.T) {
	for _, c := range []struct {
		name   string
		passes int
		bytes  int64
		rate   float64
		want   time.Duration
	}{
		{"3 passes of 1 MB at 2 GB/s", 3, 1e6, 2e9, 3 * time.Millisecond},
		{"a 4096² c64 pair, 2+2 passes, at 4 TB/s", 4, 4096 * 4096 * 8, 4e12, 268435 * time.Nanosecond}, // 268.435456 µs
		{"no rate", 2, 1e6, 0, 0},
		{"no passes", 0, 1e6, 1e9, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, floorTime(c.passes, c.bytes, c.rate))
		})
	}
	require.InDelta(t, 50.0, floorPercent(time.Millisecond, 2*time.Millisecond), 1e-12)
	require.InDelta(t, 100.0, floorPercent(time.Millisecond, time.Millisecond), 1e-12, "at the memory limit")
	require.True(t, math.IsNaN(floorPercent(0, time.Millisecond)))
	require.True(t, math.IsNaN(floorPercent(time.Millisecond, 0)))
	require.Equal(t, "87.3%", fmtPercent(87.34))
	require.Equal(t, "-", fmtPercent(math.NaN()))
	require.Equal(t, "4240.0 GB/s", fmtRate(4.24e12))
}

// The % floor column sits under its header, and shows "-" without a floor.
func TestBenchRowFormat(t *testing.T) {
	specs, err := parseSpecs("4096x4096")
	require.NoError(t, err)
	r := benchResult{spec: specs[0], plan: 700 * time.Millisecond, planSource: "disk", host: 30 * time.Millisecond,
		device: 2 * time.Millisecond, floor: time.Millisecond, roundTrip: 1e-7, forward: math.NaN()}
	head, row := benchHeader(), benchRow(r, "")
	end := func(s, sub string) int {
		i := strings.Index(s, sub)
		require.GreaterOrEqual(t, i, 0, "%q in %q", sub, s)
		return i + len(sub)
	}
	require.Equal(t, end(head, "% floor"), end(row, "50.0%"), "aligned:\n%s\n%s", head, row)
	// tests/gpu/steps/prior.sh reads device f+i as awk's $(NF-5) $(NF-4)
	deviceFromEnd := func(row string) string {
		f := strings.Fields(row)
		nf := len(f) // awk's $k is f[k-1]
		return f[nf-5-1] + " " + f[nf-4-1]
	}
	require.Equal(t, "2.000 ms", deviceFromEnd(row))
	require.Equal(t, end(head, "device f+i"), end(row, "2.000 ms"))
	require.Equal(t, end(head, "vs ref"), end(row, " -"))
	r.floor = 0
	require.Equal(t, end(head, "% floor"), end(benchRow(r, ""), "ms        -"), "no floor: -")
	require.Equal(t, "2.000 ms", deviceFromEnd(benchRow(r, "")))
}

// The copy rate of the default device is measured, and the bench table gives every
// shape its percentage of the floor.
func TestBenchFloor(t *testing.T) {
	dev, err := vkfft.Open(0)
	require.NoError(t, err)
	rate, err := measureCopyRate(dev, 4<<20, 20*time.Millisecond)
	require.NoError(t, err)
	require.Greater(t, rate, 1e8, "bytes per second")
	_, err = measureCopyRate(dev, 4, time.Millisecond)
	require.ErrorContains(t, err, "not a buffer")
	require.NoError(t, dev.Close())

	out := cacheCapture(t, func() error {
		return runBench([]string{"-shapes", "256x256,1024:4", "-time", "20ms", "-copy-bytes", "4194304"})
	})
	require.Regexp(t, `device copy rate [0-9.]+ GB/s`, out)
	re := regexp.MustCompile(`(?m)^(256x256|1024:4) .* ([0-9.]+)%`)
	rows := re.FindAllStringSubmatch(out, -1)
	require.Len(t, rows, 2, out)
	for _, m := range rows {
		pct, err := strconv.ParseFloat(m[2], 64)
		require.NoError(t, err)
		require.Positive(t, pct, m[0])
	}
}
