package vkfft

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// envKernelSources names a folder that receives every kernel of the plans built from then
// on, as its compiler gets it: NAME.cu (CUDA) or NAME.cl (OpenCL) and NAME.options, NAME
// the kernel's entry in the kernel cache, so a kernel that several plans share is one
// file. For reading what VkFFT generated, or for timing its compiler apart from the rest of
// a plan's build (the GPU step nvrtc). Only where kernels compile one by one (CUDA,
// OpenCL), and only for plans not found whole in the kernel cache.
const envKernelSources = "VKFFTGO_KERNEL_SOURCES"

// kernelSourcesWarned keeps a folder that cannot be written from being reported at every
// kernel.
var kernelSourcesWarned sync.Once

// writeKernelSource puts k (its cache file name name) into the VKFFTGO_KERNEL_SOURCES
// folder when one is set. A diagnostic aid never fails a plan: a folder that cannot be
// written is reported once, on standard error.
func writeKernelSource(k *engine.SourceKernel, name string) {
	dir := os.Getenv(envKernelSources)
	if dir == "" {
		return
	}
	ext := ".cl"
	if compiledBackend == CUDA {
		ext = ".cu"
	}
	name = strings.TrimSuffix(name, kcacheExt)
	err := os.MkdirAll(dir, 0o755)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name+ext), []byte(k.Source), 0o644)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name+".options"), []byte(k.Options), 0o644)
	}
	if err != nil {
		kernelSourcesWarned.Do(func() {
			fmt.Fprintf(os.Stderr, "vkfftgo: %s: kernel sources not written: %v\n", envKernelSources, err)
		})
	}
}
