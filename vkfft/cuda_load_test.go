//go:build cgo && cuda

package vkfft

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The CUDA driver and NVRTC are opened at run time: the test binary links neither, the
// libraries reported are the ones mapped into the process, and NVRTC is the newest
// installed (the GPU step cuda13 sets VKFFTGO_EXPECT_NVRTC_MAJOR=13 on a machine that
// has only CUDA 13).
func TestCUDALoadedLibraries(t *testing.T) {
	libs, err := LoadedCUDALibraries()
	require.NoError(t, err)
	t.Logf("driver %s; NVRTC %d.%d from %s", libs.Driver, libs.NVRTCMajor, libs.NVRTCMinor, libs.NVRTC)
	require.NotEmpty(t, libs.Driver)
	require.NotEmpty(t, libs.NVRTC)
	require.True(t, libs.NVRTCMajor > 11 || (libs.NVRTCMajor == 11 && libs.NVRTCMinor >= 2))
	maps, err := os.ReadFile("/proc/self/maps")
	require.NoError(t, err)
	mapped, err := filepath.EvalSymlinks(libs.NVRTC) // /proc/self/maps names the file, not a link to it
	require.NoError(t, err)
	require.Contains(t, string(maps), mapped, "the NVRTC reported is not the one mapped")
	driver, err := filepath.EvalSymlinks(libs.Driver)
	require.NoError(t, err)
	require.Contains(t, string(maps), driver, "the driver reported is not the one mapped")
	if want := os.Getenv("VKFFTGO_EXPECT_NVRTC_MAJOR"); want != "" {
		major, err := strconv.Atoi(want)
		require.NoError(t, err)
		require.Equal(t, major, libs.NVRTCMajor, "NVRTC in use: %s", libs.NVRTC)
	}
	if os.Getenv("VKFFTGO_NVRTC") == "" {
		for _, line := range strings.Split(string(maps), "\n") {
			if strings.Contains(line, "libnvrtc.so.") && !strings.Contains(line, "builtins") {
				require.Contains(t, line, mapped, "another NVRTC is mapped too: %s", line)
			}
		}
	}
	// and the plans compile with it
	p, err := NewPlan[complex64](testDev, Config{Shape: []int{96, 40}})
	require.NoError(t, err)
	defer p.Close()
	x := cuRandom(12, p.Len())
	y := make([]complex64, len(x))
	require.NoError(t, p.Forward(y, x))
	require.NoError(t, p.Inverse(y, y))
	require.Less(t, cuMaxDiff(x, y), 1e-5)
}

// A process whose VKFFTGO_NVRTC names a library that cannot be opened gets ErrNoDevice
// from Open, naming the variable and the library: a child process of this test binary,
// whose TestMain then reports Open's error and exits (the libraries are opened once per
// process, so it must be another process).
func TestCUDAMissingNVRTC(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.count=1")
	cmd.Env = append(os.Environ(), "VKFFTGO_NVRTC=/nonexistent/libnvrtc.so.99")
	out, err := cmd.CombinedOutput()
	t.Logf("child: %s", out)
	require.Error(t, err)
	require.Contains(t, string(out), "VKFFTGO_NVRTC=/nonexistent/libnvrtc.so.99 could not be used", "%s", out)
	require.Contains(t, string(out), "no such device", "%s", out)
}
