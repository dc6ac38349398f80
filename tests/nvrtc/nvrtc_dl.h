/* nvrtc_dl.h — what the NVRTC test programs share: the types of the NVRTC functions they
 * look up in a dlopen'd libnvrtc, and reading a kernel text. */
#ifndef NVRTC_DL_H
#define NVRTC_DL_H

#include <stdio.h>
#include <stdlib.h>

#include <nvrtc.h>

typedef nvrtcResult (*create_fn)(nvrtcProgram *, const char *, const char *, int, const char *const *,
				 const char *const *);
typedef nvrtcResult (*compile_fn)(nvrtcProgram, int, const char *const *);
typedef nvrtcResult (*size_fn)(nvrtcProgram, size_t *); /* a log's or a CUBIN's size */
typedef nvrtcResult (*get_fn)(nvrtcProgram, char *);    /* the log or the CUBIN */
typedef nvrtcResult (*destroy_fn)(nvrtcProgram *);

/* read_file returns the file's bytes, NUL-terminated and malloc'd, or NULL. */
static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) != NULL) {
		if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		} else {
			buf[n] = 0;
		}
	}
	fclose(f);
	return buf;
}

#endif
