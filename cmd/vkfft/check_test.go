package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The check command runs its cases in child processes of this same executable: under
// `go test` that is the test binary, so it must act as the command when called so.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "check" {
		if err := runCheck(os.Args[2:]); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	// tests neither read nor fill the user's kernel cache (the children inherit this)
	dir, err := os.MkdirTemp("", "vkfft-check-test")
	if err == nil {
		os.Setenv("VKFFTGO_CACHE_DIR", dir)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func tinyCases() []checkCase {
	var s caseSet
	s.add("pow2", "c2c", false, "default", oneD(8, 16, 32)...)
	return s.cases
}

// A case that kills its child process is recorded as a crash with the child's stderr,
// and the cases after it still run in a new child; a case that hangs is stopped at the
// case timeout and recorded as such.
func TestCheckSurvivesCrashesAndHangs(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	t.Setenv("VKFFTGO_CHECK_CRASH_CASE", "c2c 16 single")
	res := runCases(exe, tinyCases(), checkOptions{jobs: 1, group: 3, caseTimeout: time.Minute, quiet: true})
	require.Len(t, res, 3)
	require.Equal(t, "pass", res[0].Status, res[0].Message)
	require.Equal(t, "crash", res[1].Status)
	require.Contains(t, res[1].Message, "exit status 3")
	require.Equal(t, "pass", res[2].Status, "the case after the crash ran in a new child: %s", res[2].Message)

	t.Setenv("VKFFTGO_CHECK_CRASH_CASE", "")
	t.Setenv("VKFFTGO_CHECK_HANG_CASE", "c2c 8 single")
	// the timeout must leave a loaded 2-core machine time to start a child and compile
	// the next case's kernel on PoCL (more than 3 s seen), so the hang costs that long
	res = runCases(exe, tinyCases(), checkOptions{jobs: 2, group: 2, caseTimeout: 15 * time.Second, quiet: true})
	require.Equal(t, "timeout", res[0].Status)
	require.Equal(t, "pass", res[1].Status, res[1].Message)
	require.Equal(t, "pass", res[2].Status, res[2].Message)
	for _, r := range res[1:] {
		require.Positive(t, r.FwdLInf, "a measured error")
		require.Less(t, r.FwdLInf, r.Tol)
	}
}

// The summary, the JSON lines and the HTML report say what happened per class.
func TestCheckReports(t *testing.T) {
	rs := []checkResult{
		{checkCase: checkCase{Class: "pow2", Kind: "c2c", Shape: []int{64}, Storage: "default"}, Status: "pass",
			Points: 64, FwdLInf: 1e-7, InvLInf: 2e-7, Tol: 3e-6},
		{checkCase: checkCase{Class: "pow2", Kind: "c2c", Shape: []int{128}, Double: true, Storage: "default"},
			Status: "fail", Points: 128, FwdLInf: 1e-3, InvLInf: 1e-15, Tol: 3e-14},
		{checkCase: checkCase{Class: "r2r-dct2", Kind: "DCT2", Shape: []int{8}, Storage: "half"}, Status: "unsupported",
			Message: "no fp16"},
		{checkCase: checkCase{Class: "r2r-dct2", Kind: "DCT2", Shape: []int{9}, Storage: "default"}, Status: "crash",
			Message: "child process died"},
	}
	var sb strings.Builder
	printSummary(&sb, rs)
	out := sb.String()
	require.Regexp(t, `pow2\s+2\s+1\s+1\s+0\s+0\s+0`, out)
	require.Regexp(t, `r2r-dct2\s+2\s+0\s+0\s+1\s+1\s+0`, out)
	require.Contains(t, out, "c2c 128 double: forward 1.00e-03")
	require.Contains(t, out, "crash       DCT2 9 single: child process died")

	dir := t.TempDir()
	jp := filepath.Join(dir, "r.jsonl")
	require.NoError(t, writeJSONLines(jp, rs))
	f, err := os.Open(jp)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var r checkResult
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		require.Equal(t, rs[n].Status, r.Status)
		n++
	}
	require.Equal(t, len(rs), n)

	hp := filepath.Join(dir, "r.html")
	require.NoError(t, writeHTMLReport(hp, "quick", rs, time.Second))
	html, err := os.ReadFile(hp)
	require.NoError(t, err)
	require.Contains(t, string(html), "<svg")
	require.Contains(t, string(html), "tolerance, single")
	require.Contains(t, string(html), "Cases that did not pass")
	require.Equal(t, 2, strings.Count(string(html), "<h2>pow2</h2>")+strings.Count(string(html), "<h2>r2r-dct2</h2>"))
}

// Both sweeps cover every class the issue names, each R2R kind, both precisions and
// every storage mode; -quick stays small enough for PoCL.
func TestCheckCaseLists(t *testing.T) {
	for name, cs := range map[string][]checkCase{"quick": quickCases(), "full": fullCases()} {
		classes := map[string]bool{}
		double, half, fcd := false, false, false
		for i, c := range cs {
			require.Equal(t, i, c.ID, name)
			classes[c.Class] = true
			double = double || c.Double
			half = half || c.Storage == "half"
			fcd = fcd || c.Storage == "float-compute-double"
			_, err := c.config()
			require.NoError(t, err)
		}
		for _, want := range []string{"pow2", "pow3", "pow5", "pow7", "pow11", "pow13", "rader", "bluestein", "large-1d",
			"2d", "3d", "r2c-odd", "r2r-dct1", "r2r-dct4", "r2r-dst1", "r2r-dst4", "axes", "storage-half", "storage-fcd"} {
			require.True(t, classes[want], "%s lacks class %s", name, want)
		}
		require.True(t, double && half && fcd, name)
	}
	require.LessOrEqual(t, len(quickCases()), 40)
	require.GreaterOrEqual(t, len(fullCases()), 250)
}
