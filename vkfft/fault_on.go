//go:build vkfftgo_faults

package vkfft

import (
	"sync"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// The test side of fault injection (see fault.go): hooks set by tests, run at the sites.
var faultHooks struct {
	mu    sync.Mutex
	pause [numFaultSites]func()
	fail  [numFaultSites]func() error
}

// setFaultPause makes every goroutine reaching site call f first; nil removes it.
func setFaultPause(site faultSite, f func()) {
	faultHooks.mu.Lock()
	faultHooks.pause[site] = f
	faultHooks.mu.Unlock()
}

// setFaultError makes site fail with f's error when f returns one; nil removes it.
func setFaultError(site faultSite, f func() error) {
	faultHooks.mu.Lock()
	faultHooks.fail[site] = f
	faultHooks.mu.Unlock()
}

func faultPoint(site faultSite) {
	faultHooks.mu.Lock()
	f := faultHooks.pause[site]
	faultHooks.mu.Unlock()
	if f != nil {
		f()
	}
}

func faultError(site faultSite) error {
	faultHooks.mu.Lock()
	f := faultHooks.fail[site]
	faultHooks.mu.Unlock()
	if f != nil {
		return f()
	}
	return nil
}

// C sites (the engine's vkg_fault.h)
const (
	cFaultDownload   = engine.FaultDownload
	cFaultCompileLog = engine.FaultCompileLog
)

// armCFault makes the next times hits of a C site fail.
func armCFault(site, times int) { engine.ArmFault(site, times) }

// pendingUploads reports whether an upload from a caller's memory may still be queued.
func pendingUploads() int { return engine.PendingUploads() }
