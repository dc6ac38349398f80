package main

// The -html report of vkfft check: per size class, an SVG plot (gonum/plot) of the
// error against the number of points, each precision and direction a series, with the
// tolerance curve; then the cases that did not pass.

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"os"
	"sort"
	"time"

	"github.com/vkfftgo/vkfftgo/internal/fftref"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

type htmlClass struct {
	Name    string
	Summary classSummary
	SVG     template.HTML
}

type htmlReport struct {
	Mode    string
	When    string
	Elapsed string
	Classes []htmlClass
	Bad     []checkResult
	Totals  string
}

var reportTmpl = template.Must(template.New("r").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>vkfft check -{{.Mode}}</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}
th{background:#eee}.c{display:inline-block;margin:1em;vertical-align:top}h2{font-size:1.1em}</style></head><body>
<h1>vkfft check -{{.Mode}}</h1>
<p>{{.When}}, {{.Elapsed}}. {{.Totals}} Errors are max-norm, relative to the largest reference value, against a float64
reference; the tolerance grows with log10 of the points (doubled for prime factors above 13).</p>
<table><tr><th>class</th><th>cases</th><th>pass</th><th>fail</th><th>crash</th><th>unsupported</th><th>worst err/tol</th><th>worst case</th></tr>
{{range .Classes}}<tr><td>{{.Name}}</td><td>{{.Summary.Cases}}</td><td>{{.Summary.Pass}}</td><td>{{.Summary.Fail}}</td><td>{{.Summary.Crash}}</td><td>{{.Summary.Unsup}}</td><td>{{printf "%.3f" .Summary.Worst}}</td><td>{{.Summary.WorstCase}}</td></tr>
{{end}}</table>
{{if .Bad}}<h2>Cases that did not pass</h2><table><tr><th>case</th><th>status</th><th>forward</th><th>inverse</th><th>tolerance</th><th>message</th></tr>
{{range .Bad}}<tr><td>{{.CaseName}}</td><td>{{.Status}}</td><td>{{printf "%.2e" .FwdLInf}}</td><td>{{printf "%.2e" .InvLInf}}</td><td>{{printf "%.2e" .Tol}}</td><td style="text-align:left">{{.Message}}</td></tr>
{{end}}</table>{{end}}
{{range .Classes}}<div class="c"><h2>{{.Name}}</h2>{{.SVG}}</div>
{{end}}</body></html>
`))

// CaseName is the case's description, for the template.
func (r checkResult) CaseName() string { return r.checkCase.String() }

// exported views of classSummary for the template
func (s classSummary) Cases() int        { return s.cases }
func (s classSummary) Pass() int         { return s.pass }
func (s classSummary) Fail() int         { return s.fail }
func (s classSummary) Crash() int        { return s.crash }
func (s classSummary) Unsup() int        { return s.unsup }
func (s classSummary) Worst() float64    { return s.worst }
func (s classSummary) WorstCase() string { return s.worstCase }

func writeHTMLReport(path, mode string, results []checkResult, elapsed time.Duration) error {
	rep := htmlReport{Mode: mode, When: time.Now().Format(time.RFC1123), Elapsed: fmt.Sprintf("%.1f s", elapsed.Seconds())}
	pass := 0
	for _, r := range results {
		if r.Status == "pass" {
			pass++
		} else if r.Status != "unsupported" && r.Status != "skipped" {
			rep.Bad = append(rep.Bad, r)
		}
	}
	rep.Totals = fmt.Sprintf("%d of %d cases passed.", pass, len(results))
	for _, s := range summarize(results) {
		svg, err := classPlot(s.class, results)
		if err != nil {
			return fmt.Errorf("check: plotting %s: %w", s.class, err)
		}
		rep.Classes = append(rep.Classes, htmlClass{Name: s.class, Summary: s, SVG: template.HTML(svg)})
	}
	var buf bytes.Buffer
	if err := reportTmpl.Execute(&buf, rep); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// classPlot draws error against points for one class, a series per precision and
// direction, plus each precision's tolerance.
func classPlot(class string, results []checkResult) (string, error) {
	p := plot.New()
	p.Title.Text = class
	p.X.Label.Text = "points"
	p.Y.Label.Text = "max error / max |reference|"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: 0}
	p.Legend.Top = true
	type key struct {
		prec    string
		inverse bool
	}
	series := map[key]plotter.XYs{}
	precs := map[string]fftref.Precision{}
	minX, maxX := math.Inf(1), 0.0
	for _, r := range results {
		if r.Class != class || (r.Status != "pass" && r.Status != "fail") {
			continue
		}
		prec := "single"
		switch {
		case r.Storage == "half":
			prec = "fp16 storage"
		case r.Storage == "float-compute-double":
			prec = "float data, double compute"
		case r.Double:
			prec = "double"
		}
		precs[prec] = r.precision()
		x := float64(r.Points)
		minX, maxX = math.Min(minX, x), math.Max(maxX, x)
		floor := 1e-18 // log scale: an exact result sits on the floor
		series[key{prec, false}] = append(series[key{prec, false}], plotter.XY{X: x, Y: math.Max(r.FwdLInf, floor)})
		series[key{prec, true}] = append(series[key{prec, true}], plotter.XY{X: x, Y: math.Max(r.InvLInf, floor)})
	}
	if len(series) == 0 {
		return "<p>no measured cases</p>", nil
	}
	keys := make([]key, 0, len(series))
	for k := range series {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].prec != keys[j].prec {
			return keys[i].prec < keys[j].prec
		}
		return !keys[i].inverse
	})
	for i, k := range keys {
		sc, err := plotter.NewScatter(series[k])
		if err != nil {
			return "", err
		}
		sc.GlyphStyle.Color = plotColor(i)
		sc.GlyphStyle.Shape = draw.CircleGlyph{}
		if k.inverse {
			sc.GlyphStyle.Shape = draw.TriangleGlyph{}
		}
		sc.GlyphStyle.Radius = vg.Points(2.5)
		dir := "forward"
		if k.inverse {
			dir = "inverse"
		}
		p.Add(sc)
		p.Legend.Add(k.prec+" "+dir, sc)
	}
	for name, prec := range precs {
		var tol plotter.XYs
		for x := minX; x <= maxX*1.0001; x *= 1.5 {
			tol = append(tol, plotter.XY{X: x, Y: fftref.Tolerance(int(x), prec, false)})
		}
		if len(tol) < 2 {
			tol = append(tol, plotter.XY{X: maxX * 1.5, Y: fftref.Tolerance(int(maxX*1.5), prec, false)})
		}
		l, err := plotter.NewLine(tol)
		if err != nil {
			return "", err
		}
		l.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
		p.Legend.Add("tolerance, "+name, l)
	}
	w, err := p.WriterTo(6*vg.Inch, 4*vg.Inch, "svg")
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		return "", err
	}
	svg := buf.String()
	if i := bytes.Index(buf.Bytes(), []byte("<svg")); i > 0 { // drop the XML prologue inside HTML
		svg = svg[i:]
	}
	return svg, nil
}

func plotColor(i int) plotColorRGBA {
	palette := []plotColorRGBA{{31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {214, 39, 40}, {148, 103, 189},
		{140, 86, 75}, {227, 119, 194}, {127, 127, 127}}
	return palette[i%len(palette)]
}

// plotColorRGBA is an opaque colour.
type plotColorRGBA struct{ R, G, B uint8 }

func (c plotColorRGBA) RGBA() (r, g, b, a uint32) {
	return uint32(c.R) * 0x101, uint32(c.G) * 0x101, uint32(c.B) * 0x101, 0xffff
}
