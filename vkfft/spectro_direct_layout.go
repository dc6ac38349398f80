package vkfft

import (
	"fmt"
	"math/bits"
	"sync"
)

// The direct kernels' shared-memory layout. A work-group holds ty transforms of n
// values (as pairs of floats, or each part, real and imaginary, in its own array),
// transform y's value k at y·words + k + k/2^shift. A warp's 32 work-items store and load side by side; where two
// of them reach different words of one bank, the access takes one more pass through
// shared memory (a wavefront), and the kernels of up to 4096 points run on their
// instruction issue. Which padding and spacing avoid that depends on how the passes
// stride and on how many transforms share a warp, so directLayout counts it.

// directBanks is the number of shared-memory banks a warp's access is spread over.
const directBanks = 32

// directLayout is the layout of the direct kernels' n points in the passes of radices,
// values as pairs (float2) or as two arrays of floats: the padding (one word per 2^shift)
// and the words between transforms, chosen among the first radix's padding and one per 32
// values (for pairs also one per 16), spaced by up to 31 more words, for the fewest
// wavefronts of a warp's accesses (directWavefronts); the smallest words among equals,
// one per 32 first. Words hold directPad's layout too (the rows of sums). On the H200
// under CUDA (two arrays), against one word per 32 and transforms n + n/32 apart: 16
// points 448 GS/s against 351, 64 598 against 477, 128 557 against 508, 4096 (64·64, one
// per 64) 339 against 308, 256 and 512 2-3 % faster; under Vulkan 16 points 433 against
// 355, 512 2 % slower, the other sizes within 2 %. Where no padding takes Vulkan's three
// passes (2048 and 4096 points) in one wavefront an access, a swizzle (value k's bank
// XORed by a function of k/32) did, and ran 11-14 % slower: its address arithmetic costs
// more than the conflicts it saves.
func directLayout(n int, radices []int, pairs bool) (shift, words int) {
	key := fmt.Sprint(n, radices, pairs)
	if l, ok := directLayouts.Load(key); ok {
		return l.([2]int)[0], l.([2]int)[1]
	}
	t, ty := directGroup(n, radices)
	shift, words = countedLayout(n, radices, t, ty, pairs, false)
	directLayouts.Store(key, [2]int{shift, words})
	return shift, words
}

// countedLayout is directLayout's choice for t work-items a transform and ty transforms
// a work-group; columns where the transforms are the faster index of a work-group's
// work-items (the split column kernel's columns, read side by side).
func countedLayout(n int, radices []int, t, ty int, pairs, columns bool) (shift, words int) {
	shifts := []int{5, bits.TrailingZeros(uint(radices[0]))}
	if pairs {
		shifts = append(shifts, 4)
	}
	best := -1
	for _, s := range shifts {
		for extra := range directBanks {
			w := max(n+n>>5, n+n>>s) + extra
			if f := directWavefronts(n, radices, t, ty, s, w, pairs, columns); best < 0 || f < best {
				best, shift, words = f, s, w
			}
		}
	}
	return shift, words
}

// directLayouts keeps directLayout's answers (a few milliseconds of counting each) by
// size and passes.
var directLayouts sync.Map

// directWavefronts counts the wavefronts of the first warp's shared-memory accesses in
// the passes of radices (directFFT.write's stores and loads), t work-items a transform,
// ty transforms a work-group (the faster index where columns), in the layout of shift and
// words. Pairs (8 bytes a value) go through shared memory half a warp at a time, over 16
// banks of 8 bytes.
func directWavefronts(n int, radices []int, t, ty, shift, words int, pairs, columns bool) int {
	lanes, banks := min(directBanks, t*ty), directBanks
	if pairs {
		banks = directBanks / 2
	}
	total := 0
	access := func(index func(j int) int) {
		for first := 0; first < lanes; first += banks {
			var seen [directBanks][]int
			most := 0
			for lane := first; lane < min(lanes, first+banks); lane++ {
				y, j := lane/t, lane%t
				if columns {
					y, j = lane%ty, lane/ty
				}
				a := y*words + directPadded(index(j), shift)
				b := a % banks
				fresh := true
				for _, x := range seen[b] {
					fresh = fresh && x != a
				}
				if fresh {
					seen[b] = append(seen[b], a)
					most = max(most, len(seen[b]))
				}
			}
			total += most
		}
	}
	ns := 1
	for p, r := range radices {
		for bf := range n / r / t {
			for i := range r {
				if p > 0 { // the pass's loads
					access(func(j int) int { return passLoad(n, r, t, j, bf, i) })
				}
				if p < len(radices)-1 { // its stores
					access(func(j int) int { return passStore(r, t, ns, j, bf, i) })
				}
			}
		}
		ns *= r
	}
	return total
}

// passLoad is the value of its transform that work-item j loads as input i of its
// butterfly bf in a pass of radix r (t work-items a transform of n values);
// directFFT.write's text computes the same.
func passLoad(n, r, t, j, bf, i int) int { return j + bf*t + i*(n/r) }

// passStore is where work-item j stores output i of its butterfly bf in a pass of radix
// r after passes spanning ns (Stockham's order); directFFT.write's text computes the same.
func passStore(r, t, ns, j, bf, i int) int {
	j += bf * t
	return (j/ns)*ns*r + j%ns + i*ns
}

// directPadded is the word of value k padded by one word per 2^shift (directPadBy's
// arithmetic).
func directPadded(k, shift int) int { return k + k>>shift }
