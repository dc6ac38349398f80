/* cachefile.c — small keyed text files in the cache directory (VKFFTGO_CACHE_DIR, else
 * $XDG_CACHE_HOME/vkfftgo or ~/.cache/vkfftgo; "off" keeps nothing): one line per key,
 * "KEY<TAB>VALUE", rewritten through a temporary file and a rename so that concurrent
 * processes never read half a file. The crossover's measurements live here. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vfw.h"

int vfw_cache_path(const char *file, char *buf, size_t cap)
{
	const char *d = getenv("VKFFTGO_CACHE_DIR");
	char dir[1024];
	if (d && !strcmp(d, "off"))
		return 0;
	if (d && *d) {
		snprintf(dir, sizeof dir, "%s", d);
	} else if ((d = getenv("XDG_CACHE_HOME")) && *d) {
		snprintf(dir, sizeof dir, "%s/vkfftgo", d);
	} else if ((d = getenv("HOME")) && *d) {
		snprintf(dir, sizeof dir, "%s/.cache/vkfftgo", d);
	} else {
		return 0;
	}
	for (char *p = dir + 1; *p; p++) { /* mkdir -p */
		if (*p == '/') {
			*p = 0;
			mkdir(dir, 0755);
			*p = '/';
		}
	}
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		return 0;
	return snprintf(buf, cap, "%s/%s", dir, file) < (int)cap;
}

/* A key on one line: tabs and newlines become spaces. */
static void clean_key(const char *key, char *out, size_t cap)
{
	snprintf(out, cap, "%s", key);
	for (char *p = out; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = ' ';
}

int vfw_cache_read(const char *path, const char *key0, char *value, size_t cap)
{
	char key[600];
	clean_key(key0, key, sizeof key);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char line[1200];
	size_t kl = strlen(key);
	int found = 0;
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, key, kl) && line[kl] == '\t') {
			snprintf(value, cap, "%s", line + kl + 1);
			value[strcspn(value, "\n")] = 0;
			found = 1; /* the last line of a key wins */
		}
	}
	fclose(f);
	return found;
}

void vfw_cache_write(const char *path, const char *key0, const char *value)
{
	char key[600], tmp[1100];
	clean_key(key0, key, sizeof key);
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
	FILE *out = fopen(tmp, "w");
	if (!out)
		return;
	FILE *in = fopen(path, "r");
	size_t kl = strlen(key);
	if (in) {
		char line[1200];
		while (fgets(line, sizeof line, in))
			if (!(!strncmp(line, key, kl) && line[kl] == '\t'))
				fputs(line, out);
		fclose(in);
	}
	fprintf(out, "%s\t%s\n", key, value);
	if (fclose(out) == 0)
		rename(tmp, path);
	else
		unlink(tmp);
}
