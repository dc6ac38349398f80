package vkfft

import (
	"os"
	"path/filepath"

	"github.com/vkfftgo/vkfftgo/internal/ccore"
)

// The C API asks, before building a plan, whether its kernels are saved in the disk
// cache: a caller choosing between this library and another (libvkfftgo_fftw3 between
// the GPU and FFTW) weighs milliseconds against a second of compilation.
func init() {
	ccore.KernelsCached = func(dev, cfg, kind any) (bool, error) {
		return dev.(*Device).kernelsCached(cfg.(Config), kind.(ByteKind))
	}
}

// kernelsCached says whether NewBytePlan(d, cfg, k) would now build its application
// from a saved kernel-cache entry instead of compiling it: the tuning the plan would
// use is settled as the plan builder settles it (chooseTuning), without measuring, so a
// plan the tuner would still measure (it compiles candidates) is not cached. Nothing is
// built or counted; an entry that is there but would be rejected on reading still
// counts as cached.
func (d *Device) kernelsCached(cfg Config, k ByteKind) (bool, error) {
	l, err := byteLayout(cfg, k)
	if err != nil {
		return false, opError("kernel cache", err)
	}
	if _, err := d.use("kernel cache"); err != nil {
		return false, err
	}
	defer d.mu.RUnlock()
	ks := kernelsFor(&d.info)
	if !ks.store.on {
		return false, nil
	}
	choice, err := chooseTuning(&d.info, &ks, &l)
	if err != nil {
		return false, opError("kernel cache", err)
	}
	if choice.measure {
		return false, nil // the tuner would measure first
	}
	l.cfg.Tuning = choice.result.Tuning
	params := newPlanParams(l, 0, 0, false)
	// no entry, or one that cannot be read: building the plan would compile
	_, err = os.Stat(filepath.Join(ks.store.dir, kcacheFileName(kernelKey(&ks.id, &params))))
	return err == nil, nil
}
