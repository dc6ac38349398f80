package vkfft

// Fault injection for tests. The sites below are points in the Go code where a test
// built with -tags vkfftgo_faults can pause a goroutine or make a call fail
// (fault_on.go); in every other build faultPoint and faultError are empty functions
// that the compiler removes (fault_off.go). C sites are in vkg_fault.h.
type faultSite int

const (
	// faultPipelineLocked: a Pipeline call that holds its plans' and streams' locks.
	faultPipelineLocked faultSite = iota
	// faultAsyncLocking: an asynchronous call that holds the first of its two host
	// buffers' locks and is about to take the second.
	faultAsyncLocking
	// faultStagedRun: a host round trip that holds a stager, about to run.
	faultStagedRun
	// faultHostAlloc: NewHostBuffer about to allocate pinned memory.
	faultHostAlloc
	// faultPoolShard: a pool call's shard about to run its part on its device.
	faultPoolShard
	numFaultSites
)
