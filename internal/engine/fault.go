//go:build cgo && vkfftgo_faults

package engine

/*
#include "vkg_fault.h"
*/
import "C"

// ArmFault makes the next times hits of a C site fail.
func ArmFault(site, times int) { C.vkg_fault_arm(C.int(site), C.int(times)) }

// PendingUploads reports whether an upload from a caller's memory may still be queued.
func PendingUploads() int { return int(C.vkg_fault_pending_uploads()) }
