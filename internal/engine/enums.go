package engine

// The C core's enumerations (vkg_backend.h, vkg.h, vkg_fault.h), for callers that
// cannot include C; enums_check.go fails to compile if one drifts from its C value.

// Kinds of foreign context DeviceOpenNative wraps (VKG_NATIVE_*).
const (
	NativeOpenCL = 1
	NativeCUDA   = 2
)

// Interop handles of a device (VKG_HANDLE_*).
const (
	HandleContext     = 1
	HandleQueue       = 2
	HandleDevice      = 3
	HandleInstance    = 4
	HandlePhysical    = 5
	HandleQueueFamily = 6
	HandleOrdinal     = 7
)

// Test counters a backend may keep (VKG_STAT_*).
const (
	StatLiveBuffers        = 1
	StatPinnedCopies       = 2
	StatPipelineCacheBytes = 3
	StatShaderCopies       = 4
)

// Fault sites of the C core (vkg_fault.h), armed by tests built with the
// vkfftgo_faults tag (which compiles them in: build.go).
const (
	FaultDownload   = 0
	FaultCompileLog = 1
)

// Storage modes of a plan's data (VKG_STORAGE_*).
const (
	StorageDefault            = 0
	StorageHalf               = 1
	StorageFloatComputeDouble = 2
)
