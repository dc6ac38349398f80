package vkfft

import (
	"fmt"
	"math"
	"strings"
)

// cval is a complex value of generated code: the names (or expressions) of its real and
// imaginary parts, both float.
type cval struct{ re, im string }

// dftGen writes straight-line complex arithmetic in the subset of C that CUDA C, OpenCL C
// and GLSL share: scalar floats only, one new pair of temporaries per operation, so that
// every value is assigned once and the compiler keeps them all in registers.
type dftGen struct {
	sb     strings.Builder
	indent string
	prefix string // of the temporaries' names, unique per generated block
	n      int
}

// def declares a new value from the expressions re and im.
func (g *dftGen) def(re, im string) cval {
	g.n++
	v := cval{fmt.Sprintf("%sr%d", g.prefix, g.n), fmt.Sprintf("%si%d", g.prefix, g.n)}
	fmt.Fprintf(&g.sb, "%sfloat %s = %s, %s = %s;\n", g.indent, v.re, re, v.im, im)
	return v
}

func (g *dftGen) add(a, b cval) cval { return g.def(a.re+" + "+b.re, a.im+" + "+b.im) }
func (g *dftGen) sub(a, b cval) cval { return g.def(a.re+" - "+b.re, a.im+" - "+b.im) }
func (g *dftGen) mul(a, b cval) cval {
	return g.def(a.re+" * "+b.re+" - "+a.im+" * "+b.im, a.re+" * "+b.im+" + "+a.im+" * "+b.re)
}

// twiddle returns a times exp(-2πi e/r), the forward transform's root: the quarter turns
// exactly, the rest with literals of float precision.
func (g *dftGen) twiddle(a cval, e, r int) cval {
	e %= r
	switch {
	case e == 0:
		return a
	case 4*e == r: // -i
		return cval{a.im, "(-" + a.re + ")"}
	case 2*e == r:
		return cval{"(-" + a.re + ")", "(-" + a.im + ")"}
	case 4*e == 3*r: // +i
		return cval{"(-" + a.im + ")", a.re}
	}
	angle := -2 * math.Pi * float64(e) / float64(r)
	return g.mul(a, cval{floatLit(math.Cos(angle)), floatLit(math.Sin(angle))})
}

// dft returns the forward DFT of x (X[k] = Σ x[j]·exp(-2πi jk/len(x))) in natural order;
// len(x) is a power of two. Cooley-Tukey over len(x) = p·q: DFTs of length p over the
// inputs q apart, twiddles, DFTs of length q, with p = 2 up to 8 points and 8 beyond
// 16 (16 = 4·4), which keeps the trivial twiddles of radix 4 and 8 butterflies exact.
func (g *dftGen) dft(x []cval) []cval {
	r := len(x)
	if r == 1 {
		return x
	}
	if r == 2 {
		return []cval{g.add(x[0], x[1]), g.sub(x[0], x[1])}
	}
	p := 2
	switch {
	case r == 16:
		p = 4
	case r > 16:
		p = 8
	}
	q := r / p
	u := make([][]cval, q) // u[b][k1]: length-p DFT of x[q·a + b], twiddled
	for b := 0; b < q; b++ {
		col := make([]cval, p)
		for a := 0; a < p; a++ {
			col[a] = x[q*a+b]
		}
		u[b] = g.dft(col)
		for k1 := range u[b] {
			u[b][k1] = g.twiddle(u[b][k1], b*k1, r)
		}
	}
	out := make([]cval, r)
	for k1 := 0; k1 < p; k1++ {
		row := make([]cval, q)
		for b := 0; b < q; b++ {
			row[b] = u[b][k1]
		}
		for k2, v := range g.dft(row) {
			out[k1+p*k2] = v
		}
	}
	return out
}
