package main

// The spectrometer command's sample formats and how its synthetic samples reach the
// spectrometer. Neither lists formats: the names come from vkfft.SampleFormat's String
// and the element type from the typed Accumulate methods, so a new format works here
// unchanged.

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// sampleFormats maps each format's flag name to it, and lists the names in the order of
// the formats' values. A name is the format's String up to any " (", with dashes for
// spaces ("complex uint8 (offset binary)" is complex-uint8). The formats' values run
// from 1 up; the first value String does not name ends them.
func sampleFormats() (map[string]vkfft.SampleFormat, []string) {
	byName := map[string]vkfft.SampleFormat{}
	var names []string
	for f := vkfft.SampleFormat(1); ; f++ {
		s := f.String()
		if strings.HasPrefix(s, "SampleFormat(") {
			return byName, names
		}
		s, _, _ = strings.Cut(s, " (")
		s = strings.ReplaceAll(s, " ", "-")
		byName[s] = f
		names = append(names, s)
	}
}

// synth writes one batch of synthetic numbers through put(i, v): v is rounded, in the
// units of the format's integers (int8 units for every format).
type synth func(put func(i int, v float64))

// source is where the samples of the timed calls live.
type source int

const (
	fromPageable source = iota // an ordinary Go slice: staged through the spectrometer's pinned chunks
	fromPinned                 // a HostBuffer: uploaded by the DMA engine straight from it
	fromDevice                 // a device Buffer uploaded once: no bus in the timed calls
)

var sourceNames = map[string]source{"pageable": fromPageable, "pinned": fromPinned, "device": fromDevice}

func (s source) String() string {
	for k, v := range sourceNames {
		if v == s {
			return k
		}
	}
	return fmt.Sprintf("source(%d)", int(s))
}

// feeder makes the calls that accumulate numbers values of gen into sp from src. It
// returns errWrongType when sp's format does not take its element type.
type feeder func(sp *vkfft.Spectrometer, d *vkfft.Device, numbers int, gen synth, src source) (call func() error, release func(), err error)

var errWrongType = errors.New("not the format's element type")

// feeders are the spectrometer's typed entry points, one per Go type of a number, each
// with how a synthetic value becomes one (clipped to the type's range; offset binary for
// uint8, as AccumulateUint8 takes).
var feeders = []feeder{
	feed((*vkfft.Spectrometer).Accumulate, func(v float64) int8 { return int8(clip(v, 127)) }),
	feed((*vkfft.Spectrometer).AccumulateUint8, func(v float64) uint8 { return uint8(clip(v, 127) + 128) }),
	feed((*vkfft.Spectrometer).AccumulateInt16, func(v float64) int16 { return int16(clip(v, 32767)) }),
	feed((*vkfft.Spectrometer).AccumulateFloat16, func(v float64) vkfft.Float16 { return vkfft.Float16From(float32(v)) }),
}

func clip(v, limit float64) float64 { return max(-limit, min(limit, v)) }

// feed is the feeder of element type T: host is sp's Accumulate method for T. Given a
// nil slice, that method names the nil slice when the format takes T, and the type
// otherwise: that is how the format's type is found without a list of formats.
func feed[T vkfft.Element](host func(*vkfft.Spectrometer, []T) error, conv func(float64) T) feeder {
	return func(sp *vkfft.Spectrometer, d *vkfft.Device, numbers int, gen synth, src source) (func() error, func(), error) {
		if err := host(sp, nil); !errors.Is(err, vkfft.ErrNilBuffer) {
			return nil, nil, errWrongType
		}
		if src == fromPinned {
			hb, err := vkfft.NewHostBuffer[T](d, numbers)
			if err != nil {
				return nil, nil, err
			}
			s := hb.Slice()
			gen(func(i int, v float64) { s[i] = conv(v) })
			return func() error { return host(sp, s) }, func() { hb.Close() }, nil
		}
		s := make([]T, numbers)
		gen(func(i int, v float64) { s[i] = conv(v) })
		if src == fromPageable {
			return func() error { return host(sp, s) }, func() {}, nil
		}
		buf, err := vkfft.NewBuffer[T](d, len(s))
		if err != nil {
			return nil, nil, err
		}
		if err := buf.Upload(s); err != nil {
			buf.Close()
			return nil, nil, err
		}
		return func() error { return sp.AccumulateBuffer(buf) }, func() { buf.Close() }, nil
	}
}

// feedSamples makes the accumulate call of sp's format for the samples of gen.
func feedSamples(sp *vkfft.Spectrometer, d *vkfft.Device, gen synth, src source) (func() error, func(), error) {
	numbers := sp.Samples()
	if sp.Config().Input.Complex() {
		numbers *= 2
	}
	for _, f := range feeders {
		call, release, err := f(sp, d, numbers, gen, src)
		if !errors.Is(err, errWrongType) {
			return call, release, err
		}
	}
	return nil, nil, fmt.Errorf("format %v: no Accumulate method of this command takes its samples", sp.Config().Input)
}

// toneSynth synthesises one batch of samples of format f: the tones (complex exponentials,
// or cosines for real formats) in Gaussian noise, rounded.
func toneSynth(f vkfft.SampleFormat, n, batch int, freqs []float64, amp, noise float64) synth {
	comps := 1
	if f.Complex() {
		comps = 2
	}
	return func(put func(i int, v float64)) {
		tone := make([]float64, comps*n)
		for _, fr := range freqs {
			for t := 0; t < n; t++ {
				ph := 2 * math.Pi * fr * float64(t)
				if comps == 2 {
					tone[2*t] += amp * math.Cos(ph)
					tone[2*t+1] += amp * math.Sin(ph)
				} else {
					tone[t] += amp * math.Cos(ph)
				}
			}
		}
		rng := rand.New(rand.NewPCG(1, 2))
		table := make([]float64, 1<<16) // Gaussian noise, read at random offsets
		for i := range table {
			table[i] = rng.NormFloat64() * noise
		}
		for b := 0; b < batch; b++ {
			off := rng.IntN(len(table))
			for i := range comps * n {
				put(b*comps*n+i, math.Round(tone[i]+table[(off+i*7)&(len(table)-1)]))
			}
		}
	}
}
