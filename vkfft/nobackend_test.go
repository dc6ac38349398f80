package vkfft

import (
	"testing"

	"github.com/stretchr/testify/require"
)

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
