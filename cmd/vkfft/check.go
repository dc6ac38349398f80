package main

// vkfft check: a systematic accuracy sweep over size classes (see check_cases.go),
// each case measured against the float64 reference in a child process, so a crash in
// the driver or VkFFT is recorded against its case and the sweep goes on.
//
// The parent hands a child a group of cases as JSON on stdin; the child answers with a
// "start" line before each case and a result line after it. If the child dies or stops
// answering, the case it had started is recorded as crashed (or timed out) and a new
// child takes the rest of the group.

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

func init() {
	commands["check"] = command{"accuracy sweep against a float64 reference (-quick for CI, -full for a GPU)", runCheck}
}

type checkOptions struct {
	full        bool
	device      int
	jobs        int
	group       int
	caseTimeout time.Duration
	deadline    time.Duration
	jsonPath    string
	htmlPath    string
	classes     string
	quiet       bool
}

func runCheck(args []string) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	var o checkOptions
	quick := fs.Bool("quick", false, "a few sizes per class, for CI on PoCL (the default)")
	fs.BoolVar(&o.full, "full", false, "every size class over its range, both precisions, every storage mode (for a GPU)")
	fs.IntVar(&o.device, "device", 0, "device index (see vkfft info)")
	fs.IntVar(&o.jobs, "j", 1, "child processes running at once")
	fs.IntVar(&o.group, "group", 16, "cases per child process")
	fs.DurationVar(&o.caseTimeout, "case-timeout", 5*time.Minute, "a case running longer is recorded as timed out")
	fs.DurationVar(&o.deadline, "deadline", 0, "stop starting cases after this long; the rest are recorded as skipped (0: none)")
	fs.StringVar(&o.jsonPath, "json", "", "write one JSON line per case to this file")
	fs.StringVar(&o.htmlPath, "html", "", "write an HTML report with error-vs-size plots per class")
	fs.StringVar(&o.classes, "classes", "", "comma-separated classes to run (default all)")
	fs.BoolVar(&o.quiet, "q", false, "no progress bar")
	child := fs.Bool("child", false, "internal: run the cases given on stdin")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *child {
		return checkChild(o.device, os.Stdin, os.Stdout)
	}
	if *quick && o.full {
		return errors.New("check: -quick and -full exclude each other")
	}
	cases := quickCases()
	mode := "quick"
	if o.full {
		cases, mode = fullCases(), "full"
	}
	if o.classes != "" {
		keep := map[string]bool{}
		for _, c := range strings.Split(o.classes, ",") {
			keep[strings.TrimSpace(c)] = true
		}
		var sel []checkCase
		for _, c := range cases {
			if keep[c.Class] {
				sel = append(sel, c)
			}
		}
		cases = sel
	}
	if len(cases) == 0 {
		return errors.New("check: no cases selected")
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("check: finding this program to run its cases: %w", err)
	}
	t0 := time.Now()
	results := runCases(exe, cases, o)
	elapsed := time.Since(t0)

	fmt.Printf("vkfft check -%s: %d cases in %.1fs on device %d\n", mode, len(results), elapsed.Seconds(), o.device)
	printSummary(os.Stdout, results)
	if o.jsonPath != "" {
		if err := writeJSONLines(o.jsonPath, results); err != nil {
			return err
		}
	}
	if o.htmlPath != "" {
		if err := writeHTMLReport(o.htmlPath, mode, results, elapsed); err != nil {
			return err
		}
	}
	bad := 0
	for _, r := range results {
		if r.Status == "fail" || r.Status == "crash" || r.Status == "timeout" || r.Status == "error" {
			bad++
		}
	}
	if bad > 0 {
		return fmt.Errorf("check: %d of %d cases failed, crashed or errored", bad, len(results))
	}
	return nil
}

// runCases runs cases in groups, o.jobs child processes at a time, and returns their
// results in case order.
func runCases(exe string, cases []checkCase, o checkOptions) []checkResult {
	results := make([]checkResult, len(cases))
	groups := make(chan []checkCase)
	bar := newProgress(len(cases), !o.quiet)
	var wg sync.WaitGroup
	var mu sync.Mutex
	start := time.Now()
	for j := 0; j < max(o.jobs, 1); j++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range groups {
				for len(g) > 0 {
					if o.deadline > 0 && time.Since(start) > o.deadline {
						for _, c := range g {
							mu.Lock()
							results[c.ID] = checkResult{checkCase: c, Points: c.points(), Status: "skipped",
								Message: "past -deadline"}
							bar.done(results[c.ID])
							mu.Unlock()
						}
						break
					}
					done := runGroup(exe, g, o, func(r checkResult) {
						mu.Lock()
						results[r.ID] = r
						bar.done(r)
						mu.Unlock()
					})
					g = g[done:]
				}
			}
		}()
	}
	// index results by position: case IDs are positions in the generated list, but a
	// -classes filter leaves gaps, so renumber
	for i := range cases {
		cases[i].ID = i
	}
	for i := 0; i < len(cases); i += max(o.group, 1) {
		groups <- cases[i:min(i+max(o.group, 1), len(cases))]
	}
	close(groups)
	wg.Wait()
	bar.finish()
	return results
}

// childLine is one line of a child's answer: a start marker or a result.
type childLine struct {
	Start  *int         `json:"start,omitempty"`
	Result *checkResult `json:"result,omitempty"`
}

// runGroup runs cases in one child and reports each result; it returns how many cases
// it accounted for (all of them, unless the child died after a crash, when the crashed
// case is the last one counted).
func runGroup(exe string, cases []checkCase, o checkOptions, report func(checkResult)) int {
	cmd := exec.Command(exe, "check", "-child", "-device", fmt.Sprint(o.device))
	in, _ := json.Marshal(cases)
	cmd.Stdin = strings.NewReader(string(in))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		for _, c := range cases {
			report(checkResult{checkCase: c, Points: c.points(), Status: "error", Message: "starting the child: " + err.Error()})
		}
		return len(cases)
	}
	lines := make(chan childLine)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var l childLine
			if json.Unmarshal(sc.Bytes(), &l) == nil {
				lines <- l
			}
		}
		close(lines)
	}()
	done := 0
	started := -1
	timer := time.NewTimer(o.caseTimeout)
	defer timer.Stop()
	byID := map[int]checkCase{}
	for _, c := range cases {
		byID[c.ID] = c
	}
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				werr := cmd.Wait()
				if done == len(cases) {
					return done
				}
				// the child died: the case it had started crashed
				c := cases[done]
				if started >= 0 {
					c = byID[started]
				}
				report(checkResult{checkCase: c, Points: c.points(), Status: "crash",
					Message: fmt.Sprintf("child process died (%v): %s", werr, lastLines(stderr.String(), 3))})
				return done + 1
			}
			if l.Start != nil {
				started = *l.Start
				timer.Reset(o.caseTimeout)
			}
			if l.Result != nil {
				report(*l.Result)
				done++
				started = -1
			}
		case <-timer.C:
			_ = cmd.Process.Kill()
			for range lines { // drain until the pipe closes
			}
			_ = cmd.Wait()
			c := cases[done]
			if started >= 0 {
				c = byID[started]
			}
			report(checkResult{checkCase: c, Points: c.points(), Status: "timeout",
				Message: fmt.Sprintf("no result within %v", o.caseTimeout)})
			return done + 1
		}
	}
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, " | ")
}

// checkChild runs the cases on stdin, one device for all of them.
func checkChild(device int, stdin io.Reader, stdout io.Writer) error {
	var cases []checkCase
	if err := json.NewDecoder(stdin).Decode(&cases); err != nil {
		return fmt.Errorf("check -child: reading cases: %w", err)
	}
	enc := json.NewEncoder(stdout)
	dev, err := vkfft.Open(device)
	if err != nil {
		for _, c := range cases {
			_ = enc.Encode(childLine{Result: &checkResult{checkCase: c, Points: c.points(), Status: "error",
				Message: err.Error()}})
		}
		return nil
	}
	defer dev.Close()
	// tests: make this process die, or hang, at a case
	crashAt, hangAt := os.Getenv("VKFFTGO_CHECK_CRASH_CASE"), os.Getenv("VKFFTGO_CHECK_HANG_CASE")
	for _, c := range cases {
		id := c.ID
		if err := enc.Encode(childLine{Start: &id}); err != nil {
			return err
		}
		switch c.String() {
		case crashAt:
			os.Exit(3)
		case hangAt:
			select {}
		}
		r := runCase(dev, c)
		if err := enc.Encode(childLine{Result: &r}); err != nil {
			return err
		}
	}
	return nil
}

// progress draws a bar on stderr: redrawn in place on a terminal, a line per tenth
// otherwise (logs).
type progressBar struct {
	total, n, bad int
	on, tty       bool
	lastTenth     int
	t0            time.Time
}

func newProgress(total int, on bool) *progressBar {
	fi, err := os.Stderr.Stat()
	tty := err == nil && fi.Mode()&os.ModeCharDevice != 0
	return &progressBar{total: total, on: on, tty: tty, t0: time.Now()}
}

func (b *progressBar) done(r checkResult) {
	b.n++
	if r.Status != "pass" && r.Status != "unsupported" && r.Status != "skipped" {
		b.bad++
	}
	if !b.on {
		return
	}
	const width = 40
	fill := width * b.n / b.total
	line := fmt.Sprintf("[%s%s] %d/%d cases, %d bad, %.0fs", strings.Repeat("#", fill), strings.Repeat(".", width-fill),
		b.n, b.total, b.bad, time.Since(b.t0).Seconds())
	if b.tty {
		fmt.Fprintf(os.Stderr, "\r%s  %-40.40s", line, r.checkCase.String())
		return
	}
	if tenth := 10 * b.n / b.total; tenth != b.lastTenth || r.Status == "fail" || r.Status == "crash" {
		b.lastTenth = tenth
		fmt.Fprintln(os.Stderr, line)
	}
}

func (b *progressBar) finish() {
	if b.on && b.tty {
		fmt.Fprintln(os.Stderr)
	}
}

// classSummary aggregates one size class.
type classSummary struct {
	class                                  string
	cases, pass, fail, crash, unsup, other int
	worst                                  float64 // max error/tolerance
	worstErr                               float64
	worstCase                              string
}

func summarize(results []checkResult) []classSummary {
	by := map[string]*classSummary{}
	var order []string
	for _, r := range results {
		s := by[r.Class]
		if s == nil {
			s = &classSummary{class: r.Class}
			by[r.Class] = s
			order = append(order, r.Class)
		}
		s.cases++
		switch r.Status {
		case "pass":
			s.pass++
		case "fail":
			s.fail++
		case "crash", "timeout":
			s.crash++
		case "unsupported":
			s.unsup++
		default:
			s.other++
		}
		if r.Status == "pass" || r.Status == "fail" {
			if w := r.worst(); w > s.worst {
				s.worst, s.worstErr, s.worstCase = w, max(r.FwdLInf, r.InvLInf), r.checkCase.String()
			}
		}
	}
	out := make([]classSummary, 0, len(order))
	for _, c := range order {
		out = append(out, *by[c])
	}
	return out
}

func printSummary(w io.Writer, results []checkResult) {
	sums := summarize(results)
	fmt.Fprintf(w, "%-14s %5s %5s %5s %5s %5s %5s  %-9s %-9s %s\n", "class", "cases", "pass", "fail", "crash",
		"unsup", "other", "worst/tol", "worst err", "worst case")
	var tot classSummary
	for _, s := range sums {
		fmt.Fprintf(w, "%-14s %5d %5d %5d %5d %5d %5d  %-9.3f %-9s %s\n", s.class, s.cases, s.pass, s.fail, s.crash,
			s.unsup, s.other, s.worst, fmtErr(s.worstErr), s.worstCase)
		tot.cases += s.cases
		tot.pass += s.pass
		tot.fail += s.fail
		tot.crash += s.crash
		tot.unsup += s.unsup
		tot.other += s.other
		if s.worst > tot.worst {
			tot.worst, tot.worstErr, tot.worstCase = s.worst, s.worstErr, s.worstCase
		}
	}
	fmt.Fprintf(w, "%-14s %5d %5d %5d %5d %5d %5d  %-9.3f %-9s %s\n", "total", tot.cases, tot.pass, tot.fail, tot.crash,
		tot.unsup, tot.other, tot.worst, fmtErr(tot.worstErr), tot.worstCase)
	var notes []string
	for _, r := range results {
		if r.Status != "pass" && r.Status != "fail" {
			notes = append(notes, fmt.Sprintf("  %-11s %s: %.160s", r.Status, r.checkCase.String(), r.Message))
		}
		if r.Status == "fail" {
			notes = append(notes, fmt.Sprintf("  %-11s %s: forward %.2e, inverse %.2e > tolerance %.2e", r.Status,
				r.checkCase.String(), r.FwdLInf, r.InvLInf, r.Tol))
		}
	}
	sort.Strings(notes)
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
}

func writeJSONLines(path string, results []checkResult) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, r := range results {
		if err := enc.Encode(r); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
