package main

// vkfft storage: speed and accuracy of Config.Storage's modes against the default, per
// shape — device-resident forward+inverse time, and the forward error against the
// float64 reference (internal/fftref) on the first batches.

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/vkfftgo/vkfftgo/internal/fftref"
	"github.com/vkfftgo/vkfftgo/vkfft"
)

func init() {
	commands["storage"] = command{"speed and accuracy of the storage modes (fp16, float data with double arithmetic) against the default", runStorage}
}

// storageModes are the rows of each shape, the default first (the ratios' base).
var storageModes = []struct {
	name    string
	storage vkfft.Storage
	double  bool // a complex128 plan, for comparison
}{
	{"default (fp32)", vkfft.StorageDefault, false},
	{"half (fp16 data, fp32 math)", vkfft.StorageHalf, false},
	{"float data, fp64 math", vkfft.StorageFloatComputeDouble, false},
	{"double (complex128)", vkfft.StorageDefault, true},
}

func runStorage(args []string) error {
	fs := flag.NewFlagSet("storage", flag.ContinueOnError)
	device := fs.Int("device", 0, "device ordinal (see vkfft info)")
	shapes := fs.String("shapes", "4096:64,128x128,32x32x32", "comma-separated NxNxN[:batch] (GPU: 4096:16384,4096x4096,256x256x256)")
	minTime := fs.Duration("time", 300*time.Millisecond, "minimum measuring time per shape and mode")
	refPoints := fs.Int("ref-points", 1<<22, "check the forward result of at most this many points (whole batches) against the reference")
	if err := fs.Parse(args); err != nil {
		return err
	}
	specs, err := parseSpecs(*shapes)
	if err != nil {
		return err
	}
	dev, err := vkfft.Open(*device)
	if err != nil {
		return err
	}
	defer dev.Close()
	info := dev.Info()
	fmt.Printf("device %s (%s, %s)\n", info.Name, info.Backend, info.Driver)
	fmt.Printf("%-16s %-28s %12s %9s %10s %10s %9s\n", "shape", "storage", "fwd+inv", "×default", "LInf err", "L2 err", "bytes")
	for _, s := range specs {
		var base time.Duration
		refs := map[bool][]complex128{} // the reference per input: fp16-rounded or not
		for i, m := range storageModes {
			r, err := storageOne(dev, s, m.storage, m.double, *minTime, *refPoints, refs)
			name := s.String()
			if i > 0 {
				name = ""
			}
			if err != nil {
				fmt.Printf("%-16s %-28s %v\n", name, m.name, err)
				continue
			}
			if i == 0 {
				base = r.t
			}
			ratio := "-"
			if base > 0 {
				ratio = fmt.Sprintf("%.2f", float64(r.t)/float64(base))
			}
			fmt.Printf("%-16s %-28s %12s %9s %10.2e %10.2e %9s\n", name, m.name, fmtDur(r.t), ratio, r.linf, r.l2,
				fmtBytes(r.bytes))
		}
	}
	return nil
}

type storageResult struct {
	t        time.Duration // per forward+inverse, device-resident, in place
	linf, l2 float64
	bytes    int64
}

func fmtBytes(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1fG", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.0fM", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%dK", b>>10)
}

// storageOne times one mode on a shape and measures its forward error.
func storageOne(dev *vkfft.Device, s benchSpec, st vkfft.Storage, double bool, minTime time.Duration, refPoints int,
	refs map[bool][]complex128) (storageResult, error) {
	cfg := vkfft.Config{Shape: s.shape, Batch: s.batch, Storage: st}
	n := 1
	for _, d := range s.shape {
		n *= d
	}
	total := n * s.batch
	refBatches := max(1, min(s.batch, refPoints/n))
	g := rand.New(rand.NewPCG(1, 2))
	x := make([]complex64, total)
	for i := range x {
		v := complex(float32(g.Float64()-0.5), float32(g.Float64()-0.5))
		if st == vkfft.StorageHalf { // the reference sees what fp16 holds
			v = complex(vkfft.Float16From(real(v)).Float32(), vkfft.Float16From(imag(v)).Float32())
		}
		x[i] = v
	}
	half := st == vkfft.StorageHalf
	want := refs[half]
	if want == nil {
		ref := make([]complex128, refBatches*n)
		for i := range ref {
			ref[i] = complex128(x[i])
		}
		want = fftref.FFTN(ref, s.shape, nil, refBatches, false)
		refs[half] = want
	}
	var r storageResult
	got := make([]complex128, len(want))
	switch {
	case double:
		p, err := vkfft.NewPlan[complex128](dev, cfg)
		if err != nil {
			return r, err
		}
		defer p.Close()
		xd := make([]complex128, total)
		for i, v := range x {
			xd[i] = complex128(v)
		}
		b, err := vkfft.NewBuffer[complex128](dev, total)
		if err != nil {
			return r, err
		}
		defer b.Close()
		if err := b.Upload(xd); err != nil {
			return r, err
		}
		if err := p.ForwardBuffer(b, b); err != nil {
			return r, err
		}
		if err := b.Download(xd); err != nil {
			return r, err
		}
		copy(got, xd)
		r.bytes = int64(total) * 16
		r.t, _, err = timeLoop(minTime, func() error {
			if err := p.ForwardBuffer(b, b); err != nil {
				return err
			}
			return p.InverseBuffer(b, b)
		}, dev.Sync)
		if err != nil {
			return r, err
		}
	case st == vkfft.StorageHalf:
		p, err := vkfft.NewPlan[complex64](dev, cfg)
		if err != nil {
			return r, err
		}
		defer p.Close()
		h := make([]vkfft.Float16, 2*total)
		for i, v := range x {
			h[2*i], h[2*i+1] = vkfft.Float16From(real(v)), vkfft.Float16From(imag(v))
		}
		b, err := vkfft.NewBuffer[vkfft.Float16](dev, 2*total)
		if err != nil {
			return r, err
		}
		defer b.Close()
		if err := b.Upload(h); err != nil {
			return r, err
		}
		if err := p.ForwardHalfBuffer(b, b); err != nil {
			return r, err
		}
		if err := b.Download(h); err != nil {
			return r, err
		}
		for i := range got {
			got[i] = complex(float64(h[2*i].Float32()), float64(h[2*i+1].Float32()))
		}
		r.bytes = int64(total) * 4
		r.t, _, err = timeLoop(minTime, func() error {
			if err := p.ForwardHalfBuffer(b, b); err != nil {
				return err
			}
			return p.InverseHalfBuffer(b, b)
		}, dev.Sync)
		if err != nil {
			return r, err
		}
	default:
		p, err := vkfft.NewPlan[complex64](dev, cfg)
		if err != nil {
			return r, err
		}
		defer p.Close()
		b, err := vkfft.NewBuffer[complex64](dev, total)
		if err != nil {
			return r, err
		}
		defer b.Close()
		y := append([]complex64(nil), x...)
		if err := b.Upload(y); err != nil {
			return r, err
		}
		if err := p.ForwardBuffer(b, b); err != nil {
			return r, err
		}
		if err := b.Download(y); err != nil {
			return r, err
		}
		for i := range got {
			got[i] = complex128(y[i])
		}
		r.bytes = int64(total) * 8
		r.t, _, err = timeLoop(minTime, func() error {
			if err := p.ForwardBuffer(b, b); err != nil {
				return err
			}
			return p.InverseBuffer(b, b)
		}, dev.Sync)
		if err != nil {
			return r, err
		}
	}
	r.linf, r.l2 = fftref.LInf(got, want), fftref.L2(got, want)
	return r, nil
}
