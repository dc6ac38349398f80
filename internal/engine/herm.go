//go:build cgo

package engine

/*
#include "vkg.h"
#include "vkg_herm.h"
*/
import "C"

// SetHermWindowLimit caps the window of the C2R projection's launches for plans made
// from now on (0: the backend's limit), so that tests reach the windowed launches that
// Vulkan needs for spectra larger than one storage-buffer binding.
func SetHermWindowLimit(bytes uint64) { C.vkg_herm_set_window_limit(C.uint64_t(bytes)) }

// PlanHermitianLaunches is how many launches the plan's projection takes before each
// inverse (0: none).
func PlanHermitianLaunches(p Plan) int { return int(C.vkg_plan_hermitian_launches(cplan(p))) }
