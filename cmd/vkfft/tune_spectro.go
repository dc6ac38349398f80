package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// tuneSpectrometers is vkfft tune -spectrometer: for each NxBATCH, the group sum of the
// spectrometer's fused atomic store measured and stored (TuneSpectrometer), or the one
// stored already unless refresh; one table of every candidate's rate per size.
func tuneSpectrometers(device int, sizes, format string, refresh, quiet bool) error {
	formats, names := sampleFormats()
	f, ok := formats[format]
	if !ok {
		return fmt.Errorf("format %q: want one of %s", format, strings.Join(names, ", "))
	}
	type size struct{ n, batch int }
	var list []size
	for _, s := range strings.Split(sizes, ",") {
		var z size
		if _, err := fmt.Sscanf(strings.TrimSpace(s), "%dx%d", &z.n, &z.batch); err != nil || z.n < 2 || z.batch < 1 {
			return fmt.Errorf("spectrometer size %q: want NxBATCH, e.g. 4096x65536", s)
		}
		list = append(list, z)
	}
	dev, err := vkfft.Open(device)
	if err != nil {
		return err
	}
	defer dev.Close()
	info := dev.Info()
	fmt.Printf("device %s (%s, %s), VkFFT %s; spectrometers of %v, device-resident samples\n", info.Name, info.Backend,
		info.Driver, vkfft.VersionString(), f)
	if !quiet {
		vkfft.SetTuneProgress(func(s string) { fmt.Fprintln(os.Stderr, s) })
		defer vkfft.SetTuneProgress(nil)
	}
	failed := 0
	for _, z := range list {
		cfg := vkfft.SpectrometerConfig{N: z.n, Batch: z.batch, Input: f, Tune: vkfft.TuneMeasure, Fusion: vkfft.FusionAtomic}
		var g vkfft.GroupTuning
		if refresh {
			g, err = vkfft.TuneSpectrometer(dev, cfg)
		} else {
			var sp *vkfft.Spectrometer
			if sp, err = vkfft.NewSpectrometer(dev, cfg); err == nil {
				g = sp.Group()
				if sp.Fusion() != vkfft.FusionAtomic {
					err = fmt.Errorf("it takes the %v path: no group sum to tune", sp.Fusion())
				}
				sp.Close()
			}
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "vkfft: tune spectrometer %dx%d: %v\n", z.n, z.batch, err)
			failed++
			continue
		}
		printGroupTuning(z.n, z.batch, g)
	}
	if failed > 0 {
		return fmt.Errorf("%d spectrometer size(s) failed", failed)
	}
	return nil
}

// printGroupTuning prints the choice and every candidate's rate (samples per second of
// the calls the tuning timed).
func printGroupTuning(n, batch int, g vkfft.GroupTuning) {
	fmt.Printf("spectrometer %dx%d: group sum %v (%v", n, batch, g, g.Source)
	if g.Elapsed > 0 {
		fmt.Printf(", measured in %.1f s", g.Elapsed.Seconds())
	}
	fmt.Println(")")
	if g.Refused != "" {
		fmt.Printf("  refused by the rewriter: %s\n", g.Refused)
	}
	for _, c := range g.Candidates {
		gs := float64(n) * float64(g.Batch) / c.Ms / 1e6
		name := fmt.Sprintf("%v x%d", c.Sum, c.Transforms)
		if c.Sum == vkfft.GroupSumOff {
			name = "off"
		}
		fmt.Printf("  %-14s %9.3f ms per %d transforms  %8.1f GS/s\n", name, c.Ms, g.Batch, gs)
	}
}
