/* error.c — the calling thread's last error message (like errno: a success leaves it). */
#include <stdarg.h>
#include <stdio.h>

#include "vfm.h"

static _Thread_local char last_error[VFM_MSG];

VFM_API const char *vkfftgo_mpi_last_error(void) { return last_error; }

const char *vfm_message(void) { return last_error; }

vkfftgo_status vfm_fail(vkfftgo_status status, const char *fmt, ...)
{
	char buf[VFM_MSG]; /* fmt's arguments may be last_error itself */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	snprintf(last_error, sizeof last_error, "%s", buf);
	return status;
}

vkfftgo_status vfm_mpi_fail(const char *call, int code)
{
	char text[MPI_MAX_ERROR_STRING];
	int len = 0;
	if (MPI_Error_string(code, text, &len) != MPI_SUCCESS)
		snprintf(text, sizeof text, "MPI error %d", code);
	return vfm_fail(VKFFTGO_ERROR_BACKEND, "%s failed: %s", call, text);
}
