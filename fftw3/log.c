/* log.c — the library's log (VKFFTGO_FFTW_LOG) and clock: the bottom layer, used by
 * every other file and using none of them. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vfw.h"

double vfw_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* VKFFTGO_FFTW_LOG: 1 one line per plan (engine, why, planning time), 2 also one line
 * per execute with its time. */
int vfw_log_enabled(void)
{
	static int level = -1;
	if (level < 0) {
		const char *v = getenv("VKFFTGO_FFTW_LOG");
		int l = v && *v ? atoi(v) : 0;
		if (l < 0 || (l == 0 && v && *v && strcmp(v, "0")))
			l = 1;
		level = l;
	}
	return level;
}

void vfw_log(const char *fmt, ...)
{
	if (!vfw_log_enabled())
		return;
	char line[2560];
	va_list ap;
	va_start(ap, fmt);
	int n = snprintf(line, sizeof line, "vkfftgo-fftw3: ");
	n += vsnprintf(line + n, sizeof line - 1 - (size_t)n, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof line - 2)
		n = (int)sizeof line - 2;
	line[n] = '\n';
	line[n + 1] = 0;
	fputs(line, stderr); /* one write per line: lines of threads do not interleave */
}
