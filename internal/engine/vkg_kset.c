/* vkg_kset.c — a set of a plan's kernels as VkFFT generates them (vkg.h): their texts,
 * and the binaries found or compiled for them. Plain data; the hooks that fill and read
 * it during VkFFT's initialisation are in vkg_core_kernels.h. */
#include <stdlib.h>
#include <string.h>

#include "vkg.h"

vkg_src_kernel *vkg_kernel_set_add(vkg_kernel_set *s, const char *source, const char *options, const char *name)
{
	vkg_src_kernel *k;
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 16;
		vkg_src_kernel *grown = realloc(s->k, (size_t)cap * sizeof *grown);
		if (!grown)
			return NULL;
		s->k = grown;
		s->cap = cap;
	}
	k = &s->k[s->n];
	memset(k, 0, sizeof *k);
	k->source = strdup(source ? source : "");
	k->options = strdup(options ? options : "");
	k->name = strdup(name ? name : "");
	if (!k->source || !k->options || !k->name) {
		free(k->source);
		free(k->options);
		free(k->name);
		return NULL;
	}
	s->n++;
	return k;
}

const vkg_src_kernel *vkg_kernel_set_find(const vkg_kernel_set *s, const char *source, const char *options,
					  const char *name)
{
	int i;
	if (!s)
		return NULL;
	for (i = 0; i < s->n; i++) {
		const vkg_src_kernel *k = &s->k[i];
		if (k->binary && k->binary_bytes && strcmp(k->options, options ? options : "") == 0 &&
		    strcmp(k->name, name ? name : "") == 0 && strcmp(k->source, source) == 0)
			return k;
	}
	return NULL;
}

void vkg_kernel_set_clear(vkg_kernel_set *s)
{
	int i;
	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		free(s->k[i].source);
		free(s->k[i].options);
		free(s->k[i].name);
		free(s->k[i].binary);
	}
	free(s->k);
	s->k = NULL;
	s->n = s->cap = 0;
}
