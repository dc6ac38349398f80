//go:build cgo && vulkan

package vkfft

import (
	"math/rand/v2"
	"testing"

	"github.com/vkfftgo/vkfftgo/internal/engine"

	"github.com/stretchr/testify/require"
)

// vulkanShaderCopies counts the device-to-device copies done by the copy shader.
func vulkanShaderCopies(d *Device) int64 { return engine.DeviceStat(d.h, engine.StatShaderCopies) }

// Device-to-device copies through the compute shader (VKFFTGO_VULKAN_COPY=shader; by
// default only discrete devices use it) copy every byte: lengths that are not multiples
// of the shader's 16 bytes end with a transfer, a copy is ordered before the transform
// queued after it and after the one queued before it, and transfer mode never runs the
// shader.
func TestVulkanShaderCopy(t *testing.T) {
	for _, mode := range []string{"shader", "transfer"} {
		t.Run(mode, func(t *testing.T) {
			t.Setenv("VKFFTGO_VULKAN_COPY", mode)
			d, err := Open(0)
			require.NoError(t, err)
			defer d.Close()
			rng := rand.New(rand.NewPCG(11, 12))
			sizes := []int{1, 15, 16, 17, 4099, 1<<20 + 7}
			if mb := d.props.MaxBinding; mode == "shader" && mb > 0 && mb <= 1<<30 {
				// more than one binding's range: the shader copies it window by window
				sizes = append(sizes, int(mb)+65536+21)
				t.Logf("largest binding %d bytes: a copy of %d bytes takes two windows", mb, sizes[len(sizes)-1])
			}
			for _, n := range sizes {
				src, err := NewBuffer[uint8](d, n)
				require.NoError(t, err)
				dst, err := NewBuffer[uint8](d, n)
				require.NoError(t, err)
				want := make([]uint8, n)
				for i := range want {
					want[i] = uint8(rng.Uint32())
				}
				require.NoError(t, src.Upload(want))
				require.NoError(t, dst.Upload(make([]uint8, n)))
				before := vulkanShaderCopies(d)
				require.NoError(t, dst.CopyFrom(src))
				got := make([]uint8, n)
				require.NoError(t, dst.Download(got))
				require.Equal(t, want, got, "%d bytes", n)
				shader := vulkanShaderCopies(d) - before
				if mode == "shader" && n >= 16 {
					require.Equal(t, int64(1), shader, "%d bytes: copied by the shader", n)
				} else {
					require.Zero(t, shader, "%d bytes: no shader copy", n)
				}
				require.NoError(t, src.Close())
				require.NoError(t, dst.Close())
			}

			// in order with transforms: a forward queued before the copy is what it copies,
			// and the buffer transformed after it was copied before
			const n = 8192
			p, err := NewPlan[complex64](d, Config{Shape: []int{n}})
			require.NoError(t, err)
			defer p.Close()
			x, ref := randomComplex[complex64](rng, n)
			a, err := NewBuffer[complex64](d, n)
			require.NoError(t, err)
			defer a.Close()
			b, err := NewBuffer[complex64](d, n)
			require.NoError(t, err)
			defer b.Close()
			require.NoError(t, a.Upload(x))
			require.NoError(t, p.ForwardBuffer(a, a))
			require.NoError(t, b.CopyFrom(a))
			require.NoError(t, p.InverseBuffer(a, a))
			got := make([]complex64, n)
			require.NoError(t, b.Download(got))
			require.Less(t, relErr(got, refFFT(ref, []int{n}, 1, false)), 1e-5, "the copy holds the forward transform")
			require.NoError(t, a.Download(got))
			require.Less(t, relErr(got, ref), 1e-5, "the inverse ran on the forward transform")
		})
	}
}
