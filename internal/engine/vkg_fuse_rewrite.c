/* vkg_fuse_rewrite.c — see vkg_fuse.h. Plain C, no GPU API: tested on VkFFT's real output
 * for both backends (vkfft/testdata/vkfft-src). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkg_fuse.h"

typedef struct sbuf {
	char *p;
	size_t n, cap;
	int oom;
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;
		while (cap < b->n + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

static void sb_str(sbuf *b, const char *s) { sb_add(b, s, strlen(s)); }

static char *refuse(sbuf *b, char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	free(b->p);
	return NULL;
}

static int ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* find_word returns the first occurrence of the identifier w in [s, end), or NULL. */
static const char *find_word(const char *s, const char *end, const char *w)
{
	size_t n = strlen(w);
	const char *p = s;
	while (p + n <= end) {
		const char *q = memchr(p, w[0], (size_t)(end - p));
		if (!q || q + n > end)
			return NULL;
		if (memcmp(q, w, n) == 0 && (q == s || !ident_char(q[-1])) && (q + n == end || !ident_char(q[n])))
			return q;
		p = q + 1;
	}
	return NULL;
}

/* find_token returns the first occurrence of w in [s, end) whose ends, where they are
 * identifier characters, are not joined to more of an identifier ("blockIdx.y" is not
 * found in "blockIdx.yz", "get_group_id(1)" is found before anything); or NULL. */
static const char *find_token(const char *s, const char *end, const char *w)
{
	size_t n = strlen(w);
	const char *p;
	if (n == 0)
		return NULL;
	for (p = s; p + n <= end; p++) {
		if (*p != w[0] || memcmp(p, w, n) != 0)
			continue;
		if (ident_char(w[0]) && p > s && ident_char(p[-1]))
			continue;
		if (ident_char(w[n - 1]) && p + n < end && ident_char(p[n]))
			continue;
		return p;
	}
	return NULL;
}

/* bracket_end returns the ']' closing the '[' at open (balanced), or NULL. */
static const char *bracket_end(const char *open, const char *end)
{
	int depth = 0;
	const char *p;
	for (p = open; p < end; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']' && --depth == 0)
			return p;
		else if (*p == ';' || *p == '{' || *p == '}')
			return NULL;
	}
	return NULL;
}

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

static const char *trim_end(const char *s, const char *end)
{
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	return end;
}

/* rewrite_load: "LHS = inputs[E];" -> "LHS = vkg_load(inputs, (E), VKG_WINDOW);" */
static int rewrite_load(sbuf *b, const char *line, const char *end, const char *at)
{
	const char *eq, *open, *close, *tail;
	/* exactly one "inputs" on the line, right of a plain assignment */
	if (find_word(at + 6, end, "inputs"))
		return -1;
	eq = at;
	while (eq > line && eq[-1] == ' ')
		eq--;
	if (eq == line || eq[-1] != '=' || (eq - 1 > line && strchr("=!<>+-*/%&|^", eq[-2])))
		return -1;
	if (memchr(line, '=', (size_t)(eq - 1 - line)))
		return -1;
	open = at + 6;
	if (open >= end || *open != '[')
		return -1;
	close = bracket_end(open, end);
	if (!close)
		return -1;
	tail = skip_ws(close + 1, end);
	if (tail >= end || *tail != ';' || skip_ws(tail + 1, end) != trim_end(tail + 1, end))
		return -1;
	sb_add(b, line, (size_t)(at - line));
	sb_str(b, "vkg_load(inputs, (");
	sb_add(b, open + 1, (size_t)(close - open - 1));
	sb_str(b, "), VKG_WINDOW);");
	return 0;
}

/* rewrite_store: "outputs[E] = V;" -> "vkg_store(VKG_OUT, (E), V);", or with group
 * accumulation (slot >= 0) "VKG_GSTORE(VKG_OUT, (E), (V), vkg_accS, vkg_binS);" */
static int rewrite_store(sbuf *b, const char *line, const char *end, const char *at, int slot)
{
	const char *open, *close, *val, *semi;
	if (skip_ws(line, end) != at || find_word(at + 7, end, "outputs"))
		return -1;
	open = at + 7;
	if (open >= end || *open != '[')
		return -1;
	close = bracket_end(open, end);
	if (!close)
		return -1;
	val = skip_ws(close + 1, end);
	if (val >= end || *val != '=' || (val + 1 < end && val[1] == '='))
		return -1;
	val = skip_ws(val + 1, end);
	semi = trim_end(val, end);
	if (semi <= val || semi[-1] != ';' || memchr(val, ';', (size_t)(semi - 1 - val)))
		return -1;
	sb_add(b, line, (size_t)(at - line));
	if (slot >= 0) {
		char tail[64];
		sb_str(b, "VKG_GSTORE(VKG_OUT, (");
		sb_add(b, open + 1, (size_t)(close - open - 1));
		sb_str(b, "), (");
		sb_add(b, val, (size_t)(semi - 1 - val));
		snprintf(tail, sizeof tail, "), vkg_acc%d, vkg_bin%d);", slot, slot);
		sb_str(b, tail);
		return 0;
	}
	sb_str(b, "vkg_store(VKG_OUT, (");
	sb_add(b, open + 1, (size_t)(close - open - 1));
	sb_str(b, "), ");
	sb_add(b, val, (size_t)(semi - 1 - val));
	sb_str(b, ");");
	return 0;
}

/* find_decl returns VkFFT's declaration decl in [s, end) as a whole word at its start
 * (not "dvec2 inputs" for "vec2 inputs"), or NULL; *decl_end is set past it and past the
 * array bound that follows it, if any. */
static const char *find_decl(const char *s, const char *end, const char *decl, const char **decl_end)
{
	size_t n = strlen(decl);
	const char *p = s, *q, *e;
	while (p + n <= end && (q = strstr(p, decl)) != NULL && q + n <= end) {
		e = q + n;
		if ((q == s || !ident_char(q[-1])) && (e == end || !ident_char(*e))) {
			if (e < end && *e == '[') {
				const char *close = bracket_end(e, end);
				if (!close)
					return NULL;
				e = close + 1;
			}
			*decl_end = e;
			return q;
		}
		p = q + 1;
	}
	return NULL;
}

/* A replacement of [at, end) by text (at == end: an insertion); a source has at most
 * three: the input's and the output's declaration and the entry prelude. */
typedef struct splice {
	const char *at, *end, *text;
} splice;

/* emit_spliced writes [s, end) with the splices applied (sorted, disjoint, inside it). */
static void emit_spliced(sbuf *b, const char *s, const char *end, splice *sp, int n)
{
	int i, j;
	for (i = 1; i < n; i++) /* insertion sort: three at most */
		for (j = i; j > 0 && sp[j].at < sp[j - 1].at; j--) {
			splice t = sp[j];
			sp[j] = sp[j - 1];
			sp[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		sb_add(b, s, (size_t)(sp[i].at - s));
		sb_str(b, sp[i].text);
		s = sp[i].end;
	}
	sb_add(b, s, (size_t)(end - s));
}

/* ---- group accumulation (VKG_FUSE_GROUP; see vkg_fuse.h) ---- */

/* Where the loop of a group-accumulating kernel goes. */
typedef struct group_plan {
	const char *loop_at;    /* the first line inside the loop */
	const char *close_line; /* the line of the entry point's closing brace */
	int stores, next;       /* store statements; the slot of the next one */
} group_plan;

/* Words that declare shared memory, which must stay at kernel scope (OpenCL C requires
 * __local variables there): CUDA's, OpenCL's and GLSL's. */
static const char *const shared_words[] = {"__shared__", "__local", "shared"};

static int mentions_shared(const char *line, const char *end)
{
	size_t i;
	for (i = 0; i < sizeof shared_words / sizeof shared_words[0]; i++)
		if (find_word(line, end, shared_words[i]))
			return 1;
	return 0;
}

static int blank(const char *line, const char *end)
{
	return skip_ws(line, end) == end || *skip_ws(line, end) == '\n';
}

/* group_substitute copies src with every group_id in the body of the entry point (after
 * the first '{' past its name) read as vkg_by (group_scan refuses a body without one);
 * NULL: no memory. */
static char *group_substitute(const char *src, const char *entry, const char *id)
{
	sbuf b = {0};
	const char *end = src + strlen(src), *sig = find_word(src, end, entry), *p, *q;
	p = sig ? memchr(sig, '{', (size_t)(end - sig)) : NULL;
	if (!p)
		p = end;
	sb_add(&b, src, (size_t)(p - src));
	while ((q = find_token(p, end, id)) != NULL) {
		sb_add(&b, p, (size_t)(q - p));
		sb_str(&b, "vkg_by");
		p = q + strlen(id);
	}
	sb_add(&b, p, (size_t)(end - p));
	if (b.oom || !b.p) {
		free(b.p);
		return NULL;
	}
	return b.p;
}

/* reason writes why the body cannot be looped into why and returns it. */
static const char *reason(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static const char *reason(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return why;
}

/* group_scan checks the body of the entry point (from just after its parameter list) for
 * group accumulation and plans the loop; it returns why not, or NULL. */
static const char *group_scan(const char *pclose, const char *end, const char *entry, const vkg_fuse_text *text,
			      group_plan *g, char *why, size_t whylen)
{
	const char *open = skip_ws(pclose + 1, end), *close = NULL, *p, *line, *nl, *tok;
	int depth = 0;

	memset(g, 0, sizeof *g);
	if (open >= end || *open != '{' || !blank(open + 1, end))
		return reason(why, whylen, "%s's body does not open at the end of its signature line", entry);
	for (p = open; p < end; p++) {
		if (*p == '{')
			depth++;
		else if (*p == '}' && --depth == 0) {
			close = p;
			break;
		}
	}
	if (!close)
		return reason(why, whylen, "%s's body is not closed", entry);
	for (p = close + 1; p < end; p++)
		if (!isspace((unsigned char)*p))
			return reason(why, whylen, "text after %s's body", entry);
	for (line = close; line > open && line[-1] != '\n'; line--)
		;
	if (skip_ws(line, close) != close)
		return reason(why, whylen, "%s's closing brace does not stand on a line of its own", entry);
	g->close_line = line;
	if (find_word(open, close, "return"))
		return "the body returns early (its work-groups could not loop)";
	for (p = open; p < close; p++)
		if (*p == 'w' && strncmp(p, "workGroupShift", 14) == 0)
			return "the dispatch is split (workGroupShift): the batch index is not the work-group's alone";
	for (tok = text->group_forbid; tok && *tok;) {
		size_t n = strcspn(tok, " ");
		if (n > 0) {
			char w[64];
			snprintf(w, sizeof w, "%.*s", (int)(n < sizeof w - 1 ? n : sizeof w - 1), tok);
			if (find_token(open, close, w)) {
				snprintf(why, whylen, "the body reads %s: the batch position is not the work-group's alone", w);
				return why;
			}
		}
		tok += n;
		tok += strspn(tok, " ");
	}
	/* the loop starts after the signature line and the shared-memory declarations */
	for (line = memchr(open, '\n', (size_t)(close - open)) + 1; line < g->close_line; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(close - line));
		if (!blank(line, nl) && !mentions_shared(line, nl))
			break;
	}
	g->loop_at = line;
	if (find_word(open, g->loop_at, "inputs") || find_word(open, g->loop_at, "outputs") ||
	    find_word(open, g->loop_at, "vkg_by"))
		return "global memory or the batch index used among the shared-memory declarations";
	for (line = g->loop_at; line < g->close_line; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(close - line));
		if (mentions_shared(line, nl))
			return "shared memory declared inside the body (it must stay at kernel scope)";
		if (find_word(line, nl, "outputs"))
			g->stores++;
	}
	if (!find_word(g->loop_at, g->close_line, "vkg_by"))
		return "the batch index is not the work-group index along the batch (group_id)";
	return NULL;
}

/* group_open declares the accumulators and opens the loop (at g->loop_at). */
static void group_open(sbuf *b, const group_plan *g)
{
	char decl[64];
	int i;
	sb_str(b, "VKG_GROUP_ENTER\n");
	for (i = 0; i < g->stores; i++) {
		snprintf(decl, sizeof decl, "VKG_GACC(vkg_acc%d, vkg_bin%d);%s", i, i, i + 1 < g->stores ? " " : "\n");
		sb_str(b, decl);
	}
	sb_str(b, "VKG_GROUP_BEGIN\n");
}

/* group_close ends the loop and adds what the accumulators hold (at g->close_line). */
static void group_close(sbuf *b, const group_plan *g)
{
	char flush[64];
	int i;
	sb_str(b, "VKG_GROUP_END\n");
	for (i = 0; i < g->stores; i++) {
		snprintf(flush, sizeof flush, "VKG_GFLUSH(VKG_OUT, vkg_acc%d, vkg_bin%d);%s", i, i, i + 1 < g->stores ? " " : "\n");
		sb_str(b, flush);
	}
	sb_str(b, "VKG_GROUP_LEAVE\n");
}

static char *fuse_rewrite(const char *src, int roles, const vkg_fuse_text *text, char *why, size_t whylen)
{
	sbuf b = {0}, pre = {0};
	const char *entry = text->entry ? text->entry : "VkFFT_main";
	const char *in_v = text->input_vkfft ? text->input_vkfft : "float2* inputs";
	const char *out_v = text->output_vkfft ? text->output_vkfft : "float2* outputs";
	const char *sig, *params, *pclose, *p, *in_decl, *in_end, *second, *out_end, *line, *end = src + strlen(src);
	size_t elen = strlen(entry);
	char roles_define[64];
	splice sp[3];
	int loads = 0, stores = 0, depth, nsp = 0, group = roles & VKG_FUSE_GROUP;
	group_plan g = {0};

	why[0] = 0;
	if (!roles)
		return refuse(&b, why, whylen, "nothing to fuse");
	sig = find_word(src, end, entry);
	if (!sig || find_word(sig + elen, end, entry))
		return refuse(&b, why, whylen, "not one %s kernel", entry);
	params = skip_ws(sig + elen, end);
	if (params >= end || *params != '(')
		return refuse(&b, why, whylen, "%s's parameter list not found", entry);
	for (depth = 0, pclose = params; pclose < end; pclose++) {
		if (*pclose == '(')
			depth++;
		else if (*pclose == ')' && --depth == 0)
			break;
	}
	if (pclose >= end)
		return refuse(&b, why, whylen, "%s's parameter list is not closed", entry);
	/* single precision, complex input and output buffers: declared among the parameters,
	 * or (a dialect without buffer parameters) before the entry point */
	in_decl = find_decl(params, pclose, in_v, &in_end);
	second = find_decl(params, pclose, out_v, &out_end);
	if (!in_decl && !second) {
		in_decl = find_decl(src, sig, in_v, &in_end);
		second = find_decl(src, sig, out_v, &out_end);
	}
	if (!in_decl || !second)
		return refuse(&b, why, whylen, "%s does not take %s and %s (precision or layout)", entry, in_v, out_v);
	if (group) {
		char detail[128];
		const char *no = group_scan(pclose, end, entry, text, &g, detail, sizeof detail);
		if (no)
			return refuse(&b, why, whylen, "group accumulation: %s", no);
	}

	if ((roles & VKG_FUSE_LOAD) && text->input_decl)
		sp[nsp++] = (splice){in_decl, in_end, text->input_decl};
	if ((roles & VKG_FUSE_STORE) && text->output_decl)
		sp[nsp++] = (splice){second, out_end, text->output_decl};
	if (text->entry_prelude) {
		for (line = sig; line > src && line[-1] != '\n'; line--)
			;
		snprintf(roles_define, sizeof roles_define, "#define VKG_FUSE_ROLES %d\n", roles);
		sb_str(&pre, roles_define);
		sb_str(&pre, text->entry_prelude);
		if (pre.oom) {
			free(pre.p);
			return refuse(&b, why, whylen, "out of host memory");
		}
		sp[nsp++] = (splice){line, line, pre.p};
	}
	sb_str(&b, text->prelude);
	/* the declarations and signature, with the new declarations and the entry prelude */
	emit_spliced(&b, src, pclose, sp, nsp);
	free(pre.p);
	sb_str(&b, text->extra_params);
	/* the body, line by line */
	for (p = pclose; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *in = (roles & VKG_FUSE_LOAD) ? find_word(p, le, "inputs") : NULL;
		const char *out = (roles & VKG_FUSE_STORE) ? find_word(p, le, "outputs") : NULL;
		if (p == pclose) { /* the rest of the signature line: no rewriting there */
			in = out = NULL;
		}
		if (group && p == g.loop_at)
			group_open(&b, &g);
		if (group && p == g.close_line)
			group_close(&b, &g);
		if (in && out)
			return refuse(&b, why, whylen, "a line both reads inputs and writes outputs");
		if (in) {
			if (rewrite_load(&b, p, le, in))
				return refuse(&b, why, whylen, "unrecognised use of inputs: %.*s", (int)(le - p > 120 ? 120 : le - p), p);
			loads++;
		} else if (out) {
			if (rewrite_store(&b, p, le, out, group ? g.next++ : -1))
				return refuse(&b, why, whylen, "unrecognised use of outputs: %.*s", (int)(le - p > 120 ? 120 : le - p), p);
			stores++;
		} else {
			sb_add(&b, p, (size_t)(le - p));
		}
		if (nl)
			sb_add(&b, "\n", 1);
		p = nl ? nl + 1 : end;
	}
	if ((roles & VKG_FUSE_LOAD) && loads == 0)
		return refuse(&b, why, whylen, "no read of inputs found to fuse");
	if ((roles & VKG_FUSE_STORE) && stores == 0)
		return refuse(&b, why, whylen, "no write of outputs found to fuse");
	if (b.oom)
		return refuse(&b, why, whylen, "out of host memory");
	return b.p;
}

char *vkg_fuse_rewrite(const char *src, int roles, const vkg_fuse_text *text, char *why, size_t whylen)
{
	char *sub, *out;
	if (!(roles & VKG_FUSE_GROUP))
		return fuse_rewrite(src, roles, text, why, whylen);
	if (!(roles & VKG_FUSE_STORE) || !text->group_id || !*text->group_id) {
		snprintf(why, whylen, "group accumulation: a store mode, and it needs the work-group index's spelling");
		return NULL;
	}
	sub = group_substitute(src, text->entry ? text->entry : "VkFFT_main", text->group_id);
	if (!sub) {
		snprintf(why, whylen, "out of host memory");
		return NULL;
	}
	out = fuse_rewrite(sub, roles, text, why, whylen);
	free(sub);
	return out;
}
