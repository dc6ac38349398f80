package api

import (
	"bufio"
	"bytes"
	"flag"
	"go/importer"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite v1.txt from the code (make api)")

const vkfftPath = "github.com/vkfftgo/vkfftgo/vkfft"

// loadVkfft type-checks package vkfft as the default build compiles it (cgo, the opencl
// backend), whatever tags this test was built with: from the compiler's export data,
// which `go list -export` builds (or finds in the build cache).
func loadVkfft(t *testing.T) []string {
	t.Helper()
	gobin := os.Getenv("GO")
	if gobin == "" {
		gobin = "go"
		if _, err := exec.LookPath(gobin); err != nil { // make's GO need not be on PATH
			gobin = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
	}
	cmd := exec.Command(gobin, "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", vkfftPath)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1", "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list -export: %s", stderr.String())
	exports := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			exports[k] = v
		}
	}
	lookup := func(path string) (io.ReadCloser, error) { return os.Open(exports[path]) }
	imp := importer.ForCompiler(token.NewFileSet(), "gc", lookup)
	pkg, err := imp.Import(vkfftPath)
	require.NoError(t, err)
	return Surface(pkg)
}

// TestGoAPI compares package vkfft's exported API with v1.txt: a line only in the code
// is an addition (regenerate with make api and review it), a line only in v1.txt is a
// removal or change, which v1 does not allow without a deprecation period.
func TestGoAPI(t *testing.T) {
	got := loadVkfft(t)
	require.NotEmpty(t, got)
	if *update {
		require.NoError(t, os.WriteFile("v1.txt", []byte(strings.Join(got, "\n")+"\n"), 0o644))
		return
	}
	data, err := os.ReadFile("v1.txt")
	require.NoError(t, err, "no api/v1.txt: run make api")
	want := strings.Split(strings.TrimSpace(string(data)), "\n")
	added, removed := diff(got, want)
	require.Empty(t, removed, "names in api/v1.txt that package vkfft no longer has (or has changed):\n%s",
		strings.Join(removed, "\n"))
	require.Empty(t, added, "names package vkfft exports that api/v1.txt does not list; if deliberate, run make api:\n%s",
		strings.Join(added, "\n"))
}

// diff returns the lines only in got and those only in want.
func diff(got, want []string) (added, removed []string) {
	in := func(lines []string) map[string]bool {
		m := map[string]bool{}
		for _, l := range lines {
			m[l] = true
		}
		return m
	}
	g, w := in(got), in(want)
	for _, l := range got {
		if !w[l] {
			added = append(added, l)
		}
	}
	for _, l := range want {
		if !g[l] {
			removed = append(removed, l)
		}
	}
	return added, removed
}

func TestDiff(t *testing.T) {
	added, removed := diff([]string{"a", "b", "c"}, []string{"b", "c", "d"})
	require.Equal(t, []string{"a"}, added)
	require.Equal(t, []string{"d"}, removed)
}
