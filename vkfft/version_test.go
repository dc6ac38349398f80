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
