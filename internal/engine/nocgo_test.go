package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// nocgo.go is what stubgen writes from this package's cgo files: a new or changed
// wrapper without its stub breaks builds without cgo.
func TestNoCgoStubsAreCurrent(t *testing.T) {
	gobin := os.Getenv("GO")
	if gobin == "" {
		gobin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	out, err := exec.Command(gobin, "run", "./stubgen", "-check").CombinedOutput()
	require.NoError(t, err, "%s", out)
}

// Every sentinel is what errorOf gives for its code, and unknown codes are backend
// errors: the Go side never reports a failed C call as success.
func TestErrorOfCodes(t *testing.T) {
	for code, want := range map[int]error{
		codeInvalid: ErrInvalidArgument, codeNoDevice: ErrNoDevice, codeOutOfMemory: ErrOutOfMemory,
		codeUnsupported: ErrUnsupported, codeBackend: ErrBackend, codeVkFFT: ErrVkFFT, codeVersion: ErrVersion,
		codeForked: ErrForked,
		99:         ErrBackend,
	} {
		require.ErrorIs(t, errorOf(code), want, "code %d", code)
	}
}
