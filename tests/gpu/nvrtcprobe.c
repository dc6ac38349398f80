/* nvrtcprobe — where a cold plan's compile time goes (GPU step nvrtc).
 *
 * Takes the kernel sources a plan's build wrote (VKFFTGO_KERNEL_SOURCES: NAME.cu with
 * NAME.options beside it) and compiles them with the machine's NVRTC:
 *   - each alone, to CUBIN (what a plan does) and to PTX only (NVRTC's front end and
 *     NVVM, without ptxas), and to CUBIN with ptxas at -O1;
 *   - all at once on threads of one NVRTC (what a cold plan does);
 *   - the longest kernel on every thread at once.
 * Every CUBIN is compared byte for byte with the one compiled alone. Prints one line per
 * measurement, "probe ...". Needs no GPU: NVRTC is a compiler. Compiles in separate
 * processes at once are the step's (steps/nvrtc.sh): a copy of NVRTC per thread, loaded
 * with dlmopen, is not possible where it matters — NVRTC 13 opens the driver's
 * libcuda.so.1 into the copy's link namespace and the process dies there.
 *
 * Build: gcc -O2 nvrtcprobe.c -I$CUDA/include -L$CUDA/lib64 -lnvrtc -lpthread
 */
#include <nvrtc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_KERNELS 16
#define MAX_OPTS 16

typedef struct nvrtc_fns {
	nvrtcResult (*create)(nvrtcProgram *, const char *, const char *, int, const char *const *,
			      const char *const *);
	nvrtcResult (*compile)(nvrtcProgram, int, const char *const *);
	nvrtcResult (*cubin_size)(nvrtcProgram, size_t *);
	nvrtcResult (*cubin)(nvrtcProgram, char *);
	nvrtcResult (*ptx_size)(nvrtcProgram, size_t *);
	nvrtcResult (*ptx)(nvrtcProgram, char *);
	nvrtcResult (*destroy)(nvrtcProgram *);
} nvrtc_fns;

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
	const nvrtc_fns *nv;
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

static const nvrtc_fns linked = {nvrtcCreateProgram, nvrtcCompileProgram, nvrtcGetCUBINSize, nvrtcGetCUBIN,
				  nvrtcGetPTXSize,    nvrtcGetPTX,         nvrtcDestroyProgram};

static void *run_job(void *arg)
{
	job *j = arg;
	const nvrtc_fns *nv = j->nv;
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

static void fill(job *jobs, kernel *ks, int n, const nvrtc_fns *nv, const char *extra, int ptx_only)
{
	int i;
	for (i = 0; i < n; i++) {
		memset(&jobs[i], 0, sizeof jobs[i]);
		jobs[i].nv = nv;
		jobs[i].k = &ks[i];
		jobs[i].extra = extra;
		jobs[i].ptx_only = ptx_only;
	}
}

int main(int argc, char **argv)
{
	kernel ks[MAX_KERNELS];
	job jobs[MAX_KERNELS];
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
		fill(jobs, ks, n, &linked, NULL, 0);
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
	fill(jobs, ks, n, &linked, NULL, 0);
	measure("CUBIN", jobs, n, 0, 1);
	fill(jobs, ks, n, &linked, NULL, 1);
	measure("PTX only (no ptxas)", jobs, n, 0, 0);
	fill(jobs, ks, n, &linked, "--ptxas-options=-O1", 0);
	measure("CUBIN, ptxas -O1", jobs, n, 0, 1);
	fill(jobs, ks, n, &linked, NULL, 0);
	measure("CUBIN, one NVRTC", jobs, n, 1, 1);
	for (i = 0; i < n; i++) {
		jobs[i].k = &ks[longest];
		jobs[i].nv = &linked;
	}
	measure("the longest kernel, one NVRTC", jobs, n, 1, 1);
	return 0;
}
