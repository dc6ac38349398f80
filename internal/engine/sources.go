package engine

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"sync"
)

// sources holds the engine's C. Go's build cache hashes only a package's own files:
// embedding the headers makes them part of this package's build, so editing one
// rebuilds every package that includes it (the backends and capi import this package
// for that).
//
//go:embed *.h *.c
var sources embed.FS

// planBuilders are the files whose text decides the kernels a plan gets.
var planBuilders = []string{"vkg_core.c", "vkg_core_fuse.h", "vkg_core_kernels.h", "vkg_core_vulkan.h", "vkg_fuse_rewrite.c"}

// CoreHash identifies the plan-building code compiled in, for the kernel cache's key:
// a change to it may change the kernels VkFFT is asked for, so entries of another build
// are not trusted.
var CoreHash = sync.OnceValue(func() string {
	h := sha256.New()
	for _, name := range planBuilders {
		b, err := sources.ReadFile(name)
		if err != nil {
			panic("engine: " + name + " is not embedded: " + err.Error())
		}
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
})
