/* nvrtcprobe — where a cold plan's compile time goes (GPU step nvrtc).
 *
 * Takes the kernel sources a plan's build wrote (VKFFTGO_KERNEL_SOURCES: NAME.cu with
 * NAME.options beside it) and compiles them with the machine's NVRTC:
 *   - each alone, to CUBIN (what a plan does) and to PTX only (NVRTC's front end and
 *     NVVM, without ptxas), and to CUBIN with ptxas at -O1;
 *   - all at once on threads of one NVRTC (what a cold plan does);
 *   - all at once, each thread on a copy of NVRTC of its own, loaded with dlmopen into a
 *     link namespace of its own (its own globals and locks), where NVRTC_PATH names the
 *     library. NVRTC 13 opens the driver's libcuda.so.1 into the copy's namespace, and the
 *     process dies there (an H100 with driver 580): only where no driver is installed do
 *     the copies load (NVRTC 12.4 on a CPU machine), which is why the GPU step compiles
 *     in separate processes instead;
 *   - the longest kernel on every thread at once, one NVRTC against a copy each.
 * Every CUBIN is compared byte for byte with the one compiled alone. Prints one line per
 * measurement, "probe ...". Needs no GPU: NVRTC is a compiler.
 *
 * Build: gcc -O2 nvrtcprobe.c -I$CUDA/include -L$CUDA/lib64 -lnvrtc -lpthread -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <nvrtc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_KERNELS 15 /* glibc has 16 link namespaces */
#define MAX_OPTS 16

typedef struct nvrtc_copy {
	nvrtcResult (*create)(nvrtcProgram *, const char *, const char *, int, const char *const *,
			      const char *const *);
	nvrtcResult (*compile)(nvrtcProgram, int, const char *const *);
	nvrtcResult (*cubin_size)(nvrtcProgram, size_t *);
	nvrtcResult (*cubin)(nvrtcProgram, char *);
	nvrtcResult (*ptx_size)(nvrtcProgram, size_t *);
	nvrtcResult (*ptx)(nvrtcProgram, char *);
	nvrtcResult (*destroy)(nvrtcProgram *);
	/* a namespace's libc sets its ctype tables up for the thread that loaded it only */
	void (*thread_init)(void);
} nvrtc_copy;

typedef struct kernel {
	const char *path;
	char *source, *options;
	const char *opts[MAX_OPTS];
	int nopts;
	char *cubin; /* compiled alone, the reference */
	size_t cubin_bytes;
	double alone_ms;
} kernel;

typedef struct job {
	const nvrtc_copy *nv;
	const kernel *k;
	const char *extra; /* one more option, or NULL */
	int ptx_only;
	double ms;
	char *out;
	size_t out_bytes;
	int failed;
} job;

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;
	char *b;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc(n + 1);
	if (b && fread(b, 1, n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	if (b)
		b[n] = 0;
	fclose(f);
	return b;
}

static const nvrtc_copy linked = {nvrtcCreateProgram, nvrtcCompileProgram, nvrtcGetCUBINSize, nvrtcGetCUBIN,
				  nvrtcGetPTXSize,    nvrtcGetPTX,         nvrtcDestroyProgram, NULL};

static int load_copy(const char *path, nvrtc_copy *c)
{
	void *h = dlmopen(LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL), *libc;
	Lmid_t id;
	if (!h) {
		fprintf(stderr, "dlmopen %s: %s\n", path, dlerror());
		return -1;
	}
	*(void **)&c->create = dlsym(h, "nvrtcCreateProgram");
	*(void **)&c->compile = dlsym(h, "nvrtcCompileProgram");
	*(void **)&c->cubin_size = dlsym(h, "nvrtcGetCUBINSize");
	*(void **)&c->cubin = dlsym(h, "nvrtcGetCUBIN");
	*(void **)&c->ptx_size = dlsym(h, "nvrtcGetPTXSize");
	*(void **)&c->ptx = dlsym(h, "nvrtcGetPTX");
	*(void **)&c->destroy = dlsym(h, "nvrtcDestroyProgram");
	c->thread_init = NULL;
	if (dlinfo(h, RTLD_DI_LMID, &id) == 0 && (libc = dlmopen(id, "libc.so.6", RTLD_NOW | RTLD_NOLOAD)))
		*(void **)&c->thread_init = dlsym(libc, "__ctype_init");
	return c->create && c->compile && c->cubin_size && c->cubin && c->destroy ? 0 : -1;
}

static void *run_job(void *arg)
{
	job *j = arg;
	const nvrtc_copy *nv = j->nv;
	const char *opts[MAX_OPTS + 1];
	nvrtcProgram p;
	int n = j->k->nopts, i;
	double t0 = now_ms();
	for (i = 0; i < n; i++)
		opts[i] = j->k->opts[i];
	if (j->ptx_only) /* a virtual architecture: NVRTC stops at PTX */
		for (i = 0; i < n; i++)
			if (!strncmp(opts[i], "--gpu-architecture=sm_", 22)) {
				static __thread char arch[64];
				snprintf(arch, sizeof arch, "--gpu-architecture=compute_%s", opts[i] + 22);
				opts[i] = arch;
			}
	if (j->extra)
		opts[n++] = j->extra;
	if (nv->thread_init)
		nv->thread_init();
	j->failed = nv->create(&p, j->k->source, "kernel.cu", 0, NULL, NULL) != NVRTC_SUCCESS;
	if (j->failed)
		return NULL;
	j->failed = nv->compile(p, n, opts) != NVRTC_SUCCESS;
	if (j->failed && nv == &linked) {
		size_t len = 0;
		char *log;
		if (nvrtcGetProgramLogSize(p, &len) == NVRTC_SUCCESS && (log = malloc(len + 1))) {
			if (nvrtcGetProgramLog(p, log) == NVRTC_SUCCESS)
				fprintf(stderr, "%s: %.2000s\n", j->k->path, log);
			free(log);
		}
	}
	if (!j->failed) {
		nvrtcResult r = j->ptx_only ? nv->ptx_size(p, &j->out_bytes) : nv->cubin_size(p, &j->out_bytes);
		j->out = r == NVRTC_SUCCESS ? malloc(j->out_bytes) : NULL;
		j->failed = !j->out || (j->ptx_only ? nv->ptx(p, j->out) : nv->cubin(p, j->out)) != NVRTC_SUCCESS;
	}
	nv->destroy(&p);
	j->ms = now_ms() - t0;
	return NULL;
}

/* runs jobs one after another (threads 0) or all at once; prints a line */
static void measure(const char *what, job *jobs, int n, int threads, int compare)
{
	pthread_t th[MAX_KERNELS];
	double t0 = now_ms();
	int i;
	if (threads) {
		for (i = 0; i < n; i++)
			pthread_create(&th[i], NULL, run_job, &jobs[i]);
		for (i = 0; i < n; i++)
			pthread_join(th[i], NULL);
	} else
		for (i = 0; i < n; i++)
			run_job(&jobs[i]);
	printf("probe %-34s %s total %8.1f ms, each:", what, threads ? "at once " : "serially", now_ms() - t0);
	for (i = 0; i < n; i++) {
		const kernel *k = jobs[i].k;
		printf(" %.0f", jobs[i].ms);
		if (jobs[i].failed)
			printf("(failed)");
		else if (compare)
			printf("%s", jobs[i].out_bytes == k->cubin_bytes && !memcmp(jobs[i].out, k->cubin, k->cubin_bytes)
					     ? "="
					     : "(differs)");
		free(jobs[i].out);
		jobs[i].out = NULL;
	}
	printf("\n");
	fflush(stdout);
}

static void fill(job *jobs, kernel *ks, int n, const nvrtc_copy *nv, const nvrtc_copy *copies, const char *extra,
		 int ptx_only)
{
	int i;
	for (i = 0; i < n; i++) {
		memset(&jobs[i], 0, sizeof jobs[i]);
		jobs[i].nv = copies ? &copies[i] : nv;
		jobs[i].k = &ks[i];
		jobs[i].extra = extra;
		jobs[i].ptx_only = ptx_only;
	}
}

int main(int argc, char **argv)
{
	kernel ks[MAX_KERNELS];
	nvrtc_copy copies[MAX_KERNELS];
	job jobs[MAX_KERNELS];
	const char *lib = getenv("NVRTC_PATH");
	int n = argc - 1, i, longest = 0;
	if (n < 1 || n > MAX_KERNELS) {
		fprintf(stderr, "usage: nvrtcprobe KERNEL.cu... (1 to %d; NAME.options beside each)\n", MAX_KERNELS);
		return 2;
	}
	for (i = 0; i < n; i++) {
		char opath[4096], *s;
		kernel *k = &ks[i];
		memset(k, 0, sizeof *k);
		k->path = argv[i + 1];
		snprintf(opath, sizeof opath, "%.*s.options", (int)(strlen(k->path) - 3), k->path);
		k->source = slurp(k->path);
		k->options = slurp(opath);
		if (!k->source || !k->options) {
			fprintf(stderr, "nvrtcprobe: cannot read %s or %s\n", k->path, opath);
			return 2;
		}
		for (s = k->options; *s && k->nopts < MAX_OPTS;) {
			char *nl = strchr(s, '\n');
			k->opts[k->nopts++] = s;
			if (!nl)
				break;
			*nl = 0;
			s = nl + 1;
		}
	}
	/* the reference: each alone, twice (the first pays NVRTC's start) */
	for (int pass = 0; pass < 2; pass++) {
		fill(jobs, ks, n, &linked, NULL, NULL, 0);
		for (i = 0; i < n; i++) {
			run_job(&jobs[i]);
			if (jobs[i].failed) {
				fprintf(stderr, "nvrtcprobe: %s does not compile\n", ks[i].path);
				return 1;
			}
			free(ks[i].cubin);
			ks[i].cubin = jobs[i].out;
			ks[i].cubin_bytes = jobs[i].out_bytes;
			ks[i].alone_ms = jobs[i].ms;
		}
	}
	for (i = 0; i < n; i++) {
		printf("probe kernel %d: %s, %zu bytes of source, CUBIN %zu bytes, alone %.0f ms\n", i, ks[i].path,
		       strlen(ks[i].source), ks[i].cubin_bytes, ks[i].alone_ms);
		if (ks[i].alone_ms > ks[longest].alone_ms)
			longest = i;
	}
	fill(jobs, ks, n, &linked, NULL, NULL, 0);
	measure("CUBIN", jobs, n, 0, 1);
	fill(jobs, ks, n, &linked, NULL, NULL, 1);
	measure("PTX only (no ptxas)", jobs, n, 0, 0);
	fill(jobs, ks, n, &linked, NULL, "--ptxas-options=-O1", 0);
	measure("CUBIN, ptxas -O1", jobs, n, 0, 1);
	fill(jobs, ks, n, &linked, NULL, NULL, 0);
	measure("CUBIN, one NVRTC", jobs, n, 1, 1);
	for (i = 0; i < n; i++) {
		jobs[i].k = &ks[longest];
		jobs[i].nv = &linked;
	}
	measure("the longest kernel, one NVRTC", jobs, n, 1, 1);
	if (!lib || !*lib) {
		printf("probe NVRTC_PATH not set: no copies of NVRTC\n");
		return 0;
	}
	{
		double t0 = now_ms();
		for (i = 0; i < n; i++)
			if (load_copy(lib, &copies[i])) {
				printf("probe %d copies of %s: copy %d did not load\n", n, lib, i);
				return 0;
			}
		printf("probe %d copies of %s loaded in %.1f ms\n", n, lib, now_ms() - t0);
	}
	for (int pass = 0; pass < 2; pass++) {
		fill(jobs, ks, n, NULL, copies, NULL, 0);
		measure("CUBIN, a copy of NVRTC each", jobs, n, 1, 1);
	}
	fill(jobs, ks, n, NULL, copies, NULL, 0);
	for (i = 0; i < n; i++)
		jobs[i].k = &ks[longest];
	measure("the longest kernel, a copy each", jobs, n, 1, 1);
	return 0;
}
