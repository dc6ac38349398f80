package main

// The cases `vkfft check` runs: size classes in the spirit of pyvkfft-test. -quick picks
// a few sizes per class, small enough for PoCL on a CPU in a few minutes; -full sweeps
// each class for a GPU.

import (
	"fmt"
	"strings"

	"github.com/vkfftgo/vkfftgo/internal/fftref"
)

// checkCase is one transform to measure. It travels to the child process as JSON.
type checkCase struct {
	ID      int    `json:"id"`
	Class   string `json:"class"`
	Kind    string `json:"kind"` // c2c, r2c, or an R2R kind (DCT1..DST4)
	Shape   []int  `json:"shape"`
	Axes    []int  `json:"axes,omitempty"`
	Batch   int    `json:"batch"`
	Double  bool   `json:"double"`
	Storage string `json:"storage"` // default, half, float-compute-double
}

func (c checkCase) String() string {
	dims := make([]string, len(c.Shape))
	for i, d := range c.Shape {
		dims[i] = fmt.Sprint(d)
	}
	s := fmt.Sprintf("%s %s", c.Kind, strings.Join(dims, "x"))
	if c.Batch > 1 {
		s += fmt.Sprintf(":%d", c.Batch)
	}
	if c.Axes != nil {
		s += fmt.Sprintf(" axes%v", c.Axes)
	}
	if c.Double {
		s += " double"
	} else {
		s += " single"
	}
	if c.Storage != "default" {
		s += " " + c.Storage
	}
	return s
}

// points is the product of the transformed lengths.
func (c checkCase) points() int {
	sel := make([]bool, len(c.Shape))
	if c.Axes == nil {
		for i := range sel {
			sel[i] = true
		}
	}
	for _, a := range c.Axes {
		if a < 0 {
			a += len(c.Shape)
		}
		sel[a] = true
	}
	n := 1
	for i, d := range c.Shape {
		if sel[i] {
			n *= d
		}
	}
	return n
}

// largePrime reports an FFT length with a prime factor above 13 (Rader or Bluestein),
// for which the tolerance doubles. Real-to-real kinds run FFTs of 2(n−1) (DCT-I) and
// 2(n+1) (DST-I) points.
func (c checkCase) largePrime() bool {
	for _, d := range c.Shape {
		switch c.Kind {
		case "DCT1":
			d = 2 * (d - 1)
		case "DST1":
			d = 2 * (d + 1)
		}
		if d > 1 && fftref.LargestPrimeFactor(d) > 13 {
			return true
		}
	}
	return false
}

// caseSet builds case lists.
type caseSet struct{ cases []checkCase }

func (s *caseSet) add(class, kind string, double bool, storage string, shapes ...[]int) {
	for _, sh := range shapes {
		s.cases = append(s.cases, checkCase{ID: len(s.cases), Class: class, Kind: kind, Shape: sh, Batch: 1,
			Double: double, Storage: storage})
	}
}

// both adds shapes in single and double precision.
func (s *caseSet) both(class, kind string, shapes ...[]int) {
	s.add(class, kind, false, "default", shapes...)
	s.add(class, kind, true, "default", shapes...)
}

func oneD(ns ...int) [][]int {
	out := make([][]int, len(ns))
	for i, n := range ns {
		out[i] = []int{n}
	}
	return out
}

func powers(base, from, to int) []int {
	var out []int
	n := 1
	for i := 0; i <= to; i++ {
		if i >= from {
			out = append(out, n)
		}
		n *= base
	}
	return out
}

var r2rKinds = []string{"DCT1", "DCT2", "DCT3", "DCT4", "DST1", "DST2", "DST3", "DST4"}

// quickCases run under `make test` on PoCL: every class, a few small sizes each, one
// child process for many of them.
func quickCases() []checkCase {
	var s caseSet
	s.add("pow2", "c2c", false, "default", oneD(8, 1024)...)
	s.add("pow2", "c2c", true, "default", oneD(1024)...)
	s.add("pow3", "c2c", false, "default", oneD(729)...)
	s.add("pow5", "c2c", false, "default", oneD(125)...)
	s.add("pow7", "c2c", false, "default", oneD(343)...)
	s.add("pow11", "c2c", false, "default", oneD(121)...)
	s.add("pow13", "c2c", false, "default", oneD(169)...)
	s.add("rader", "c2c", false, "default", oneD(17, 97)...)
	s.add("bluestein", "c2c", false, "default", oneD(47, 1031)...)
	s.add("bluestein", "c2c", true, "default", oneD(83)...)
	s.add("large-1d", "c2c", false, "default", oneD(1<<16)...)
	s.add("2d", "c2c", false, "default", []int{17, 35})
	s.add("3d", "c2c", false, "default", []int{8, 12, 10})
	s.add("3d", "c2c", true, "default", []int{16, 16, 16})
	s.add("r2c-odd", "r2c", false, "default", oneD(243)...)
	s.add("r2c-odd", "r2c", true, "default", []int{6, 35})
	s.add("r2c-even", "r2c", false, "default", []int{32, 64})
	for _, k := range r2rKinds {
		s.add("r2r-"+strings.ToLower(k), k, k == "DCT2" || k == "DST4", "default", oneD(24)...)
	}
	s.add("axes", "c2c", false, "default", []int{16, 48})
	s.cases[len(s.cases)-1].Axes = []int{0}
	s.add("axes", "c2c", true, "default", []int{3, 4, 5, 6})
	s.cases[len(s.cases)-1].Axes = []int{-1, 1}
	s.add("storage-half", "c2c", false, "half", oneD(256)...)
	s.add("storage-half", "DCT2", false, "half", oneD(64)...)
	s.add("storage-fcd", "c2c", false, "float-compute-double", oneD(1031)...)
	s.add("storage-fcd", "r2c", false, "float-compute-double", []int{16, 30})
	return s.cases
}

// raderPrimes p have 13-smooth p−1, so VkFFT's Rader kernels handle them (up to its
// 16384 limit); bluesteinPrimes do not.
var (
	raderPrimes     = []int{17, 29, 31, 37, 41, 43, 53, 61, 71, 97, 113, 131, 193, 257, 281, 463, 617, 641, 769, 1153, 2017, 8191}
	bluesteinPrimes = []int{47, 59, 83, 107, 167, 179, 227, 263, 347, 383, 503, 587, 839, 983, 1187, 2027, 4099, 10007, 65537}
)

// fullCases are the GPU sweep: every class over its range, both precisions, every
// storage mode.
func fullCases() []checkCase {
	var s caseSet
	s.both("pow2", "c2c", oneD(powers(2, 1, 14)...)...)
	s.both("pow3", "c2c", oneD(powers(3, 1, 9)...)...)
	s.both("pow5", "c2c", oneD(powers(5, 1, 6)...)...)
	s.both("pow7", "c2c", oneD(powers(7, 1, 5)...)...)
	s.both("pow11", "c2c", oneD(powers(11, 1, 4)...)...)
	s.both("pow13", "c2c", oneD(powers(13, 1, 4)...)...)
	s.both("rader", "c2c", oneD(raderPrimes...)...)
	s.both("bluestein", "c2c", oneD(bluesteinPrimes...)...)
	s.both("large-1d", "c2c", oneD(1<<16, 1<<18, 1<<20, 1<<22, 177147, 1000000, 1048573)...)
	s.both("2d", "c2c", []int{64, 64}, []int{100, 100}, []int{128, 128}, []int{243, 256}, []int{500, 512},
		[]int{1024, 1024}, []int{2048, 2048}, []int{17, 1031}, []int{4096, 60}, []int{49, 121})
	s.both("3d", "c2c", []int{16, 16, 16}, []int{32, 32, 32}, []int{60, 60, 60}, []int{64, 64, 64},
		[]int{100, 100, 100}, []int{128, 128, 128}, []int{7, 11, 13}, []int{17, 64, 30})
	s.both("r2c-odd", "r2c", oneD(3, 15, 27, 81, 105, 243, 625, 1001, 2187, 4095, 10001, 65537)...)
	s.both("r2c-odd", "r2c", []int{64, 63}, []int{100, 101}, []int{32, 32, 33})
	s.both("r2c-even", "r2c", oneD(16, 256, 4096, 1<<16, 1<<20)...)
	s.both("r2c-even", "r2c", []int{512, 512}, []int{128, 128, 128})
	for _, k := range r2rKinds {
		class := "r2r-" + strings.ToLower(k)
		s.add(class, k, false, "default", oneD(2, 3, 8, 15, 16, 17, 64, 100, 127, 256, 1000, 1024, 4096)...)
		s.add(class, k, false, "default", []int{32, 32}, []int{16, 16, 16})
		s.add(class, k, true, "default", oneD(8, 17, 100, 1024)...)
	}
	s.add("axes", "c2c", false, "default", []int{1024, 4096})
	s.cases[len(s.cases)-1].Axes = []int{0}
	s.add("axes", "c2c", true, "default", []int{64, 64, 64})
	s.cases[len(s.cases)-1].Axes = []int{0, 2}
	s.add("axes", "c2c", false, "default", []int{8, 16, 16, 16})
	s.cases[len(s.cases)-1].Axes = []int{1, 3}
	half := [][]int{{64}, {1024}, {4096}, {1 << 16}, {256, 256}, {1024, 1024}, {64, 64, 64}}
	s.add("storage-half", "c2c", false, "half", half...)
	s.add("storage-half", "r2c", false, "half", oneD(1024, 1<<16)...)
	s.add("storage-half", "DCT2", false, "half", oneD(1024)...)
	s.add("storage-fcd", "c2c", false, "float-compute-double", half...)
	s.add("storage-fcd", "c2c", false, "float-compute-double", oneD(1031, 65537)...)
	s.add("storage-fcd", "r2c", false, "float-compute-double", oneD(1024, 1<<16)...)
	s.add("storage-fcd", "DCT2", false, "float-compute-double", oneD(1024)...)
	// batches make the small sizes carry real work
	for i := range s.cases {
		n := 1
		for _, d := range s.cases[i].Shape {
			n *= d
		}
		if n < 4096 {
			s.cases[i].Batch = max(1, 4096/n)
		}
	}
	return s.cases
}
