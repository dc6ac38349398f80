/* The C half of the C API's error reporting: the calling thread's last error message
 * (set from Go through vkgcapi_set_error and from C through vkgcapi_fail), status names,
 * the library's identity (version, backend) and whether this is a forked child — the
 * functions that answer in a forked child too, since none of them enters Go.
 * vkfftgo_last_error is plain C so reading the message never enters the Go runtime. An
 * exported Go function runs on the calling C thread, so vkgcapi_set_error, called from
 * within it, fills that thread's buffer. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vkfftgo.h"
#include "version.h"
#include "capi.h"
#include "vkg.h"

#define STR_(x) #x
#define STR(x) STR_(x)

void vkgcapi_set_error(const char *msg, size_t n)
{
	char *last_error = vkgcapi_thread_state()->last_error;
	if (n >= VKGCAPI_ERROR_LEN)
		n = VKGCAPI_ERROR_LEN - 1;
	memcpy(last_error, msg, n);
	last_error[n] = 0;
}

vkfftgo_status vkgcapi_fail(vkfftgo_status code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(vkgcapi_thread_state()->last_error, VKGCAPI_ERROR_LEN, fmt, ap);
	va_end(ap);
	return code;
}

const char *vkfftgo_last_error(void) { return vkgcapi_thread_state()->last_error; }

vkfftgo_status vkgcapi_forked(const char *fn)
{
	vkg_status st = { 0 };
	vkg_fail_forked(&st);
	return vkgcapi_fail(VKFFTGO_ERROR_FORKED, "%s: %s; nothing was done", fn, st.msg);
}

int vkfftgo_forked(void) { return vkg_forked(); }

const char *vkfftgo_version_string(void)
{
	return STR(VKFFTGO_LIB_VERSION_MAJOR) "." STR(VKFFTGO_LIB_VERSION_MINOR) "." STR(
		VKFFTGO_LIB_VERSION_PATCH);
}

int vkfftgo_version(void)
{
	return VKFFTGO_LIB_VERSION_MAJOR * 10000 + VKFFTGO_LIB_VERSION_MINOR * 100 +
	       VKFFTGO_LIB_VERSION_PATCH;
}

vkfftgo_status vkfftgo_check_version(int major, int minor, int patch)
{
	if (major < 0 || minor < 0 || minor > 99 || patch < 0 || patch > 99)
		return vkgcapi_fail(VKFFTGO_ERROR_INVALID_ARGUMENT,
				    "vkfftgo_check_version: %d.%d.%d is not a version (MAJOR.MINOR.PATCH, "
				    "minor and patch 0..99)",
				    major, minor, patch);
	if (major != VKFFTGO_LIB_VERSION_MAJOR || minor * 100 + patch > vkfftgo_version() % 10000)
		return vkgcapi_fail(VKFFTGO_ERROR_VERSION,
				    "vkfftgo_check_version: the program was compiled against vkfftgo.h %d.%d.%d, "
				    "but the library loaded is %s: it needs major version %d and at least that "
				    "minor.patch",
				    major, minor, patch, vkfftgo_version_string(), major);
	return VKFFTGO_SUCCESS;
}

const char *vkfftgo_status_string(vkfftgo_status status)
{
	switch (status) {
	case VKFFTGO_SUCCESS: return "VKFFTGO_SUCCESS";
	case VKFFTGO_ERROR_INVALID_ARGUMENT: return "VKFFTGO_ERROR_INVALID_ARGUMENT";
	case VKFFTGO_ERROR_NULL_POINTER: return "VKFFTGO_ERROR_NULL_POINTER";
	case VKFFTGO_ERROR_INVALID_HANDLE: return "VKFFTGO_ERROR_INVALID_HANDLE";
	case VKFFTGO_ERROR_INVALID_SHAPE: return "VKFFTGO_ERROR_INVALID_SHAPE";
	case VKFFTGO_ERROR_INVALID_BATCH: return "VKFFTGO_ERROR_INVALID_BATCH";
	case VKFFTGO_ERROR_WRONG_SIZE: return "VKFFTGO_ERROR_WRONG_SIZE";
	case VKFFTGO_ERROR_CLOSED: return "VKFFTGO_ERROR_CLOSED";
	case VKFFTGO_ERROR_TOO_LARGE: return "VKFFTGO_ERROR_TOO_LARGE";
	case VKFFTGO_ERROR_OUT_OF_MEMORY: return "VKFFTGO_ERROR_OUT_OF_MEMORY";
	case VKFFTGO_ERROR_UNSUPPORTED: return "VKFFTGO_ERROR_UNSUPPORTED";
	case VKFFTGO_ERROR_WRONG_DEVICE: return "VKFFTGO_ERROR_WRONG_DEVICE";
	case VKFFTGO_ERROR_NO_DEVICE: return "VKFFTGO_ERROR_NO_DEVICE";
	case VKFFTGO_ERROR_NO_BACKEND: return "VKFFTGO_ERROR_NO_BACKEND";
	case VKFFTGO_ERROR_VERSION: return "VKFFTGO_ERROR_VERSION";
	case VKFFTGO_ERROR_BACKEND: return "VKFFTGO_ERROR_BACKEND";
	case VKFFTGO_ERROR_VKFFT: return "VKFFTGO_ERROR_VKFFT";
	case VKFFTGO_ERROR_INTERNAL: return "VKFFTGO_ERROR_INTERNAL";
	case VKFFTGO_ERROR_FORKED: return "VKFFTGO_ERROR_FORKED";
	}
	return "VKFFTGO_ERROR_UNKNOWN";
}

/* the library's backend is fixed when it is built; the engine's registration happens in Go's
 * initialisation, which a C caller of this function need not have waited for */
int vkfftgo_backend(void) { return VKFFTGO_BACKEND; }
