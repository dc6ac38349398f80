package vkfft

import (
	"fmt"
	"sync"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// hermKernels holds a device's Hermitian projection kernels (kernels_herm.go), one per
// storage type, built when the first plan that needs one is made and kept until the
// device closes: a module per plan would cost every multi-axis real plan a kernel build.
type hermKernels struct {
	mu   sync.Mutex
	mods [3]engine.Module
	ks   [3]engine.Kernel
}

// hermitianKernel returns the projection kernel for plans of layout l on d (whose lock
// the caller holds shared, h its handle), or nil and why it could not be built: such a
// plan is made all the same, and its inverse fails with that reason. Plans that do not
// need it get nil and "".
func (d *Device) hermitianKernel(h engine.Device, l *layout) (engine.Kernel, string) {
	if !needsHermitian(l) {
		return nil, ""
	}
	e := hermElemOf(l)
	d.herm.mu.Lock()
	defer d.herm.mu.Unlock()
	if k := d.herm.ks[e]; k != nil {
		return k, ""
	}
	ks := kernelsFor(&d.info)
	m, err := ks.module(h, hermitianSource(compiledBackend, e))
	if err != nil {
		return nil, fmt.Sprintf("its %s kernel did not build: %v", e, err)
	}
	k, err := engine.ModuleKernel(m, "vkg_herm")
	if err != nil {
		engine.ModuleDestroy(m)
		return nil, fmt.Sprintf("its %s kernel did not load: %v", e, err)
	}
	d.herm.mods[e], d.herm.ks[e] = m, k
	return k, ""
}

// closeHermitian frees the projection kernels; every plan using them is gone.
func (d *Device) closeHermitian() {
	d.herm.mu.Lock()
	defer d.herm.mu.Unlock()
	for i, m := range d.herm.mods {
		if m != nil {
			engine.ModuleDestroy(m)
		}
		d.herm.mods[i], d.herm.ks[i] = nil, nil
	}
}
