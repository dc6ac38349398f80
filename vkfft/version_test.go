package vkfft

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// The VkFFT pin has one source, cvendor/VERSION (read by cvendor/fetch.sh); the Go
// constants that invalidate Go's build cache (internal/engine/vkfft_pin.go) must say the same.
func TestVkFFTPinMatchesCvendor(t *testing.T) {
	f, err := os.Open("../cvendor/VERSION")
	if errors.Is(err, fs.ErrNotExist) && os.Getenv("VKFFTGO_SOURCE_TREE") == "" {
		t.Skip("not run from the source tree (a test binary in a GPU bundle): cvendor/VERSION is checked by go test in the repository")
	}
	require.NoError(t, err)
	defer f.Close()
	pin := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "="); ok && !strings.HasPrefix(k, "#") {
			pin[k] = v
		}
	}
	require.NoError(t, sc.Err())
	require.Equal(t, pin["VKFFT_DEB_SHA256"], engine.VkFFTDebSHA256, "the engine's pin differs from cvendor/VERSION")
	version := fmt.Sprintf("%d.%d.%d", VkFFTVersion/10000, VkFFTVersion/100%100, VkFFTVersion%100)
	require.True(t, strings.HasPrefix(pin["VKFFT_DEB_VERSION"], version+"+") || pin["VKFFT_DEB_VERSION"] == version,
		"cvendor/VERSION pins %s, the engine's pin says %s", pin["VKFFT_DEB_VERSION"], version)
	require.Equal(t, fmt.Sprintf("%s_%s_all.deb", pin["VKFFT_DEB"], pin["VKFFT_DEB_VERSION"]), pin["VKFFT_DEB_FILE"])
	if CurrentBackend() != NoBackend {
		require.Equal(t, VkFFTVersion, vkfftVersion(), "the compiled-in headers are another VkFFT")
	}
}

// A build without cgo compiles and reports ErrNoBackend instead of failing to build;
// a cgo build has a real backend.
func TestNoBackend(t *testing.T) {
	if CurrentBackend() != NoBackend {
		devs, err := Devices()
		require.NoError(t, err)
		require.NotEmpty(t, devs)
		require.Equal(t, CurrentBackend(), devs[0].Backend)
		return
	}
	_, err := Devices()
	require.ErrorIs(t, err, ErrNoBackend)
	_, err = Open(0)
	require.ErrorIs(t, err, ErrNoBackend)
	_, err = OpenPool()
	require.ErrorIs(t, err, ErrNoBackend)
	_, err = OpenPool(0, 1)
	require.ErrorIs(t, err, ErrNoBackend)
	require.Equal(t, "none", CurrentBackend().String())
	// the interop entry points exist in every build
	_, err = OpenCUDAContext(1, 0)
	require.ErrorIs(t, err, ErrNoBackend)
	_, err = OpenCLContext(1, 0, 0)
	require.ErrorIs(t, err, ErrNoBackend)
	var p Plan[complex64]
	require.ErrorIs(t, p.ForwardPtr(1, 1, 0), ErrNoBackend)
}
