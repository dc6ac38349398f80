/* nvrtcprobe — where a cold plan's compile time goes (GPU step nvrtc).
 *
 * Takes the kernel sources a plan's build wrote (VKFFTGO_KERNEL_SOURCES: NAME.cu with
 * NAME.options beside it) and compiles them with the machine's NVRTC:
 *   - each alone, to CUBIN (what a plan does) and to PTX only (NVRTC's front end and
 *     NVVM, without ptxas), and to CUBIN with ptxas at -O1, --Ofast-compile, --minimal;
 *   - all at once on threads of one NVRTC (what a cold plan did), with the page faults,
 *     switches and CPU time of the process (threads that wait on each other switch);
 *   - the longest kernel on every thread at once;
 *   - each in a child process of its own, all at once: children that compiled once
 *     before (a warm pool), and children forked from this warm process (what a cold plan
 *     does under CUDA, vkg_fork_compile.c).
 * Every CUBIN is compared byte for byte with the one compiled alone. Prints one line per
 * measurement, "probe ...". NVRTCPROBE_AT_ONCE_ONLY=1 skips the one-by-one variants;
 * NVRTCPROBE_CUDA=1 first opens a CUDA context with 1 GiB of device memory, as a plan's
 * process has, and times fork() there. Compiles in separate programs at once are the
 * step's (steps/nvrtc.sh), as are other allocators (LD_PRELOAD). A copy of NVRTC per
 * thread, loaded with dlmopen, is not possible where it matters — NVRTC 13 opens the
 * driver's libcuda.so.1 into the copy's link namespace and the process dies there.
 *
 * Build: gcc -O2 nvrtcprobe.c -I$CUDA/include -L$CUDA/lib64 -lnvrtc -lpthread -ldl
 */
#include <dlfcn.h>
#include <nvrtc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
	struct rusage r0, r1;
	double t0 = now_ms();
	int i;
	getrusage(RUSAGE_SELF, &r0);
	if (threads) {
		for (i = 0; i < n; i++)
			pthread_create(&th[i], NULL, run_job, &jobs[i]);
		for (i = 0; i < n; i++)
			pthread_join(th[i], NULL);
	} else
		for (i = 0; i < n; i++)
			run_job(&jobs[i]);
	getrusage(RUSAGE_SELF, &r1);
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
	/* page faults and waits: threads that wait on each other switch voluntarily */
	printf("; %ld minor faults, %ld voluntary and %ld forced switches, %.0f ms of CPU\n",
	       r1.ru_minflt - r0.ru_minflt, r1.ru_nvcsw - r0.ru_nvcsw, r1.ru_nivcsw - r0.ru_nivcsw,
	       (r1.ru_utime.tv_sec - r0.ru_utime.tv_sec + r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) * 1e3 +
		       (r1.ru_utime.tv_usec - r0.ru_utime.tv_usec + r1.ru_stime.tv_usec - r0.ru_stime.tv_usec) / 1e3);
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

/* warm_processes compiles every kernel in a child process of its own, all at once. With
 * warmup each child has compiled its kernel once before (a pool of warm compile
 * processes); without, the children are forked from this process, whose NVRTC is warm,
 * and the time counts from before the forks (a fork per kernel of a cold plan). */
static void warm_processes(kernel *ks, int n, int warmup)
{
	int ready[MAX_KERNELS][2], go[MAX_KERNELS][2], done[MAX_KERNELS][2];
	double each[MAX_KERNELS], t0;
	pid_t pid[MAX_KERNELS];
	int i;
	fflush(stdout);
	t0 = now_ms();
	for (i = 0; i < n; i++) {
		if (pipe(ready[i]) || pipe(go[i]) || pipe(done[i]))
			return;
		pid[i] = fork();
		if (pid[i] == 0) {
			job j;
			char c = 1;
			memset(&j, 0, sizeof j);
			j.nv = &linked;
			j.k = &ks[i];
			if (warmup) {
				run_job(&j); /* NVRTC's start */
				free(j.out);
				if (write(ready[i][1], &c, 1) != 1 || read(go[i][0], &c, 1) != 1)
					_exit(1);
			}
			run_job(&j);
			j.ms = j.failed ? -1 : j.ms;
			_exit(write(done[i][1], &j.ms, sizeof j.ms) == sizeof j.ms ? 0 : 1);
		}
	}
	for (i = 0; i < n && warmup; i++) {
		char c;
		if (read(ready[i][0], &c, 1) != 1)
			return;
	}
	if (warmup)
		t0 = now_ms();
	for (i = 0; i < n && warmup; i++)
		if (write(go[i][1], "g", 1) != 1)
			return;
	for (i = 0; i < n; i++)
		if (read(done[i][0], &each[i], sizeof each[i]) != sizeof each[i])
			each[i] = -1;
	printf("probe %-34s at once  total %8.1f ms, each:", warmup ? "CUBIN, warm processes" : "CUBIN, forked from a warm NVRTC",
	       now_ms() - t0);
	for (i = 0; i < n; i++) {
		printf(" %.0f", each[i]);
		waitpid(pid[i], NULL, 0);
		close(ready[i][0]), close(ready[i][1]), close(go[i][0]), close(go[i][1]);
		close(done[i][0]), close(done[i][1]);
	}
	printf("\n");
}

/* open_cuda gives this process what a plan's process has — a CUDA context and 1 GiB of
 * device memory — and times fork() with them (a child that exits at once). */
static void open_cuda(void)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW);
	int (*init)(unsigned), (*dev)(int *, int), (*retain)(void **, int), (*set)(void *);
	int (*alloc)(unsigned long long *, size_t);
	unsigned long long ptr;
	void *ctx;
	int d, i;
	double t0, worst = 0, sum = 0;
	if (!h) {
		printf("probe no CUDA driver: %s\n", dlerror());
		return;
	}
	init = (int (*)(unsigned))dlsym(h, "cuInit");
	dev = (int (*)(int *, int))dlsym(h, "cuDeviceGet");
	retain = (int (*)(void **, int))dlsym(h, "cuDevicePrimaryCtxRetain");
	set = (int (*)(void *))dlsym(h, "cuCtxSetCurrent");
	alloc = (int (*)(unsigned long long *, size_t))dlsym(h, "cuMemAlloc_v2");
	if (!init || !dev || !retain || !set || !alloc || init(0) || dev(&d, 0) || retain(&ctx, d) || set(ctx) ||
	    alloc(&ptr, (size_t)1 << 30)) {
		printf("probe CUDA context: not opened\n");
		return;
	}
	for (i = 0; i < 10; i++) {
		pid_t p;
		double ms;
		fflush(stdout);
		t0 = now_ms();
		p = fork();
		if (p == 0)
			_exit(0);
		ms = now_ms() - t0; /* the parent's side: fork() returned */
		waitpid(p, NULL, 0);
		sum += ms;
		worst = ms > worst ? ms : worst;
	}
	printf("probe fork() with a CUDA context and 1 GiB: mean %.2f ms, worst %.2f ms\n", sum / 10, worst);
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
	if (getenv("NVRTCPROBE_CUDA"))
		open_cuda();
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
			if (pass == 0 && i == 0)
				printf("probe first compile of the process (NVRTC's start included): %.0f ms\n", jobs[i].ms);
			ks[i].alone_ms = jobs[i].ms;
		}
	}
	for (i = 0; i < n; i++) {
		printf("probe kernel %d: %s, %zu bytes of source, CUBIN %zu bytes, alone %.0f ms\n", i, ks[i].path,
		       strlen(ks[i].source), ks[i].cubin_bytes, ks[i].alone_ms);
		if (ks[i].alone_ms > ks[longest].alone_ms)
			longest = i;
	}
	if (!getenv("NVRTCPROBE_AT_ONCE_ONLY")) {
		static const char *const variants[][2] = {
			{"CUBIN", NULL},
			{"CUBIN, ptxas -O1", "--ptxas-options=-O1"},
			{"CUBIN, -Ofast-compile=min", "--Ofast-compile=min"},
			{"CUBIN, -Ofast-compile=mid", "--Ofast-compile=mid"},
			{"CUBIN, -Ofast-compile=max", "--Ofast-compile=max"},
			{"CUBIN, -minimal", "--minimal"},
			{"CUBIN, -split-compile=0", "--split-compile=0"},
			{"CUBIN, -split-compile=4", "--split-compile=4"},
		};
		for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
			fill(jobs, ks, n, &linked, variants[v][1], 0);
			measure(variants[v][0], jobs, n, 0, 1);
		}
		fill(jobs, ks, n, &linked, NULL, 1);
		measure("PTX only (no ptxas)", jobs, n, 0, 0);
	}
	fill(jobs, ks, n, &linked, NULL, 0);
	measure("CUBIN, one NVRTC", jobs, n, 1, 1);
	for (i = 0; i < n; i++) {
		jobs[i].k = &ks[longest];
		jobs[i].nv = &linked;
	}
	measure("the longest kernel, one NVRTC", jobs, n, 1, 1);
	if (!getenv("NVRTCPROBE_AT_ONCE_ONLY"))
		warm_processes(ks, n, 1);
	warm_processes(ks, n, 0);
	return 0;
}
