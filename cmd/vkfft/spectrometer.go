package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

func init() {
	commands["spectrometer"] = command{"integrate power spectra of synthetic tones in noise (GS/s; -svg plots it)", runSpectrometer}
}

func runSpectrometer(args []string) error {
	fs := flag.NewFlagSet("spectrometer", flag.ContinueOnError)
	n := fs.Int("n", 65536, "FFT length")
	batch := fs.Int("batch", 4096, "FFTs per call")
	calls := fs.Int("calls", 20, "calls to time")
	formats, names := sampleFormats()
	format := fs.String("format", "complex-int8", "sample format: "+strings.Join(names, ", "))
	fusion := fs.String("fusion", "auto", "auto, companion, load, power, atomic or direct")
	chunk := fs.Int("chunk", 0, "FFTs per device chunk (0: automatic)")
	groupSum := fs.String("group-sum", "auto", "where the atomic path sums |X|² per work-group: auto, off, registers or shared")
	groupK := fs.Int("group-transforms", 0, "transforms per work-group of the group sum (0: automatic)")
	tune := fs.String("tune", "", "an automatic group sum: off, cached (stored or the default), measure (when none is stored) or refresh (default $VKFFTGO_TUNE)")
	window := fs.String("window", "hann", "hann or none")
	tones := fs.String("tones", "-0.31,0.05,0.2", "tone frequencies, as fractions of the sample rate")
	amp := fs.Float64("amp", 8, "tone amplitude, in units of the format's integers (8-bit formats clip at ±127)")
	noise := fs.Float64("noise", 20, "noise standard deviation (as -amp)")
	input := fs.String("input", "pageable", "where the samples are: pageable (Go memory, staged), pinned (a HostBuffer, DMA straight from it) or device (uploaded once)")
	resident := fs.Bool("resident", false, "the same as -input device")
	dev := fs.Int("device", 0, "device index")
	svg := fs.String("svg", "", "write the power spectrum (dB, fftshift order) to this SVG file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	src, ok := sourceNames[*input]
	if !ok {
		return fmt.Errorf("input %q: want pageable, pinned or device", *input)
	}
	if *resident {
		src = fromDevice
	}
	f, ok := formats[*format]
	if !ok {
		return fmt.Errorf("format %q: want one of %s", *format, strings.Join(names, ", "))
	}
	fu, err := vkfft.ParseFusion(*fusion)
	if err != nil {
		return err
	}
	gs, err := vkfft.ParseGroupSum(*groupSum)
	if err != nil {
		return err
	}
	tuneMode := vkfft.TuneDefault
	if *tune != "" {
		if tuneMode, err = vkfft.ParseTuneMode(*tune); err != nil {
			return err
		}
	}
	var freqs []float64
	for _, s := range strings.Split(*tones, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v <= -0.5 || v >= 0.5 {
			return fmt.Errorf("tone %q: want a fraction of the sample rate in (-0.5, 0.5)", s)
		}
		freqs = append(freqs, v)
	}
	cfg := vkfft.SpectrometerConfig{N: *n, Batch: *batch, Input: f, Fusion: fu, Chunk: *chunk, FFTShift: f.Complex(),
		GroupSum: gs, GroupTransforms: *groupK, Tune: tuneMode}
	if *window == "hann" {
		cfg.Window = make([]float32, *n)
		for i := range cfg.Window {
			cfg.Window[i] = float32(0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(*n)))
		}
	} else if *window != "none" {
		return fmt.Errorf("window %q: want hann or none", *window)
	}

	d, err := vkfft.Open(*dev)
	if err != nil {
		return err
	}
	defer d.Close()
	t0 := time.Now()
	sp, err := vkfft.NewSpectrometer(d, cfg)
	if err != nil {
		return err
	}
	defer sp.Close()
	fmt.Printf("%s: N=%d batch=%d %v, fusion %v, chunk %d FFTs, built in %.0f ms, device working set %.1f MiB\n",
		d.Info().Name, *n, *batch, f, sp.Fusion(), sp.Chunk(), float64(time.Since(t0).Microseconds())/1e3,
		float64(sp.WorkingSet())/(1<<20))
	if g := sp.Group(); sp.Fusion() == vkfft.FusionAtomic {
		fmt.Printf("group sum: %v (%v)", g, g.Source)
		if g.Refused != "" {
			fmt.Printf("; the one asked for was refused: %s", g.Refused)
		}
		fmt.Println()
	}

	call, release, err := feedSamples(sp, d, toneSynth(f, *n, *batch, freqs, *amp, *noise), src)
	if err != nil {
		return err
	}
	defer release()
	where := map[source]string{fromPageable: "pageable host samples through pinned chunks",
		fromPinned: "pinned host samples, uploaded straight from them", fromDevice: "device-resident samples"}[src]
	var dma float64 // the host-to-device rate the bus allows, for host samples
	if src != fromDevice {
		if dma, err = measureUploadRate(d, sp.SampleBytes(), 300*time.Millisecond); err != nil {
			return err
		}
		fmt.Printf("host-to-device DMA from pinned memory (%.1f MiB copies): %.2f GB/s\n", float64(sp.SampleBytes())/(1<<20), dma/1e9)
	}
	if err := call(); err != nil { // warm-up
		return err
	}
	if err := sp.Reset(); err != nil {
		return err
	}
	perCall := float64(*n) * float64(*batch)
	start := time.Now()
	for i := 1; i <= *calls; i++ {
		if err := call(); err != nil {
			return err
		}
		if err := d.Sync(); err != nil {
			return err
		}
		el := time.Since(start).Seconds()
		fmt.Fprintf(os.Stderr, "\rcall %d/%d  %.3f ms/call  %.1f GS/s ", i, *calls, el/float64(i)*1e3, perCall*float64(i)/el/1e9)
	}
	el := time.Since(start).Seconds()
	fmt.Fprintln(os.Stderr)
	fmt.Printf("%d calls of %d samples (%s): %.3f ms/call, %.1f GS/s\n", *calls, *n**batch, where,
		el/float64(*calls)*1e3, perCall*float64(*calls)/el/1e9)
	if dma > 0 {
		rate := float64(sp.SampleBytes()) * float64(*calls) / el
		fmt.Printf("samples moved at %.2f GB/s: %.1f %% of the DMA rate\n", rate/1e9, 100*rate/dma)
	}

	psd := make([]float32, sp.Bins())
	if err := sp.Read(psd); err != nil {
		return err
	}
	report(psd, f.Complex(), freqs)
	if *svg != "" {
		if err := plotSpectrum(*svg, psd, f.Complex(), cfg); err != nil {
			return err
		}
		fmt.Println("spectrum written to", *svg)
	}
	return nil
}

// report prints the strongest bins and where the tones are expected.
func report(psd []float32, complexInput bool, freqs []float64) {
	n := len(psd)
	if !complexInput {
		n = 2 * (len(psd) - 1)
	}
	var mean float64
	for _, v := range psd {
		mean += float64(v)
	}
	mean /= float64(len(psd))
	for _, fr := range freqs {
		k := int(math.Round(fr * float64(n)))
		if complexInput {
			k += n / 2 // fftshift order
		} else if k < 0 {
			k = -k
		}
		if k >= 0 && k < len(psd) {
			fmt.Printf("tone at %+.4f fs: bin %d, %.1f dB above the mean\n", fr, k, 10*math.Log10(float64(psd[k])/mean))
		}
	}
}

// plotSpectrum draws the spectrum in dB against frequency (fractions of the sample
// rate), peak-preserving decimated to at most 4096 points.
func plotSpectrum(path string, psd []float32, complexInput bool, cfg vkfft.SpectrometerConfig) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Integrated power spectrum: N=%d, %d FFTs per call, %v", cfg.N, cfg.Batch, cfg.Input)
	p.X.Label.Text = "frequency / sample rate"
	p.Y.Label.Text = "power (dB)"
	step := max(1, len(psd)/4096)
	pts := make(plotter.XYs, 0, len(psd)/step+1)
	for i := 0; i < len(psd); i += step {
		m := psd[i]
		for j := i; j < min(i+step, len(psd)); j++ {
			m = max(m, psd[j])
		}
		f := float64(i) / float64(cfg.N)
		if complexInput {
			f -= 0.5
		}
		pts = append(pts, plotter.XY{X: f, Y: 10 * math.Log10(float64(m)+1e-30)})
	}
	line, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	p.Add(line, plotter.NewGrid())
	return p.Save(10*vg.Inch, 5*vg.Inch, path)
}
