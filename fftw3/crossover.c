/* crossover.c — what the engine choice (costs.c) needs to know about this machine,
 * measured once and kept in fftw3-crossover.txt in the cache directory (cachefile.c):
 *
 *  - the GPU, per backend, device and precision: a host round trip of a complex 64^3
 *    transform, an upload + download of 16 MiB and of 4 KiB, and a host memcpy, giving
 *    the fixed cost of a round trip, the transfer bandwidth (at least what the round trip
 *    implies, whose copies are staged and overlapped), the device's compute per
 *    unit of work (n log2 n) and the speed of the staging copies of strided layouts;
 *  - FFTW, per CPU, FFTW build, precision and thread count: FFTW_ESTIMATE executes of
 *    complex 32^3, 64^3 and 128^3 cubes, as seconds per FFTW flop (fftw_flops), so that
 *    any problem's time follows from its own plan's operation count;
 *  - what real plans taught: how long a GPU plan takes to build from the disk kernel
 *    cache and to compile, and how FFTW's planning time under FFTW_MEASURE, _PATIENT
 *    and _EXHAUSTIVE compares with the model's (updated as plans are made).
 *
 * The GPU's measurement is one plan's build (a compile, or milliseconds from the disk
 * kernel cache) and milliseconds of transfers; FFTW's stops adding cubes after
 * VFW_BUDGET seconds (VKFFTGO_FFTW_MEASURE_MAX caps the edge). Each is logged with what
 * it measured. A thread count is measured only when it can change a choice (costs.c). */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vkfftgo.h>

#include "vfw.h"

#define VFW_BUDGET 1.0 /* s of FFTW timing at most (the 128^3 cube is dropped past it) */
static const char file[] = "fftw3-crossover.txt";

static int max_edge(void)
{
	const char *e = getenv("VKFFTGO_FFTW_MEASURE_MAX");
	int v = e && *e ? atoi(e) : 128;
	return v < 16 ? 16 : v;
}

static const char *host_name(void)
{
	static char host[200];
	if (!*host) {
		char model[128] = "unknown cpu";
		FILE *f = fopen("/proc/cpuinfo", "r");
		if (f) {
			char line[256];
			while (fgets(line, sizeof line, f)) {
				char *c = strchr(line, ':');
				if (!strncmp(line, "model name", 10) && c) {
					snprintf(model, sizeof model, "%s", c + 2);
					model[strcspn(model, "\n")] = 0;
					break;
				}
			}
			fclose(f);
		}
		cpu_set_t set;
		int usable = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
		snprintf(host, sizeof host, "%s cpus=%ld/%d", model, sysconf(_SC_NPROCESSORS_ONLN), usable);
	}
	return host;
}

static const char *prec_name(int prec)
{
	return prec == VFW_SINGLE ? "single" : "double";
}

/* ---- the GPU ---- */

static double memcpy_bandwidth(size_t bytes)
{
	char *a = (char *)malloc(bytes), *b = (char *)malloc(bytes);
	double best = -1;
	if (a && b) {
		memset(a, 1, bytes);
		memset(b, 2, bytes);
		for (int r = 0; r < 3; r++) {
			double t0 = vfw_now();
			memcpy(b, a, bytes);
			double t = vfw_now() - t0;
			if (best < 0 || t < best)
				best = t;
		}
	}
	free(a);
	free(b);
	return best > 0 ? (double)bytes / best : 0;
}

static void gpu_key(int prec, char *key, size_t cap)
{
	snprintf(key, cap, "v3 gpu backend=%s device=%s precision=%s max=%d", vkfftgo_backend_name(),
		 vfw_gpu_device_name(), prec_name(prec), max_edge());
}

static int gpu_parse(const char *v, vfw_gpu_consts *g)
{
	return sscanf(v, "latency=%lf bandwidth=%lf per_work=%lf copy_bw=%lf", &g->latency, &g->bandwidth,
		      &g->per_work, &g->copy_bw) == 4 &&
	       g->bandwidth > 0 && g->copy_bw > 0 && g->latency >= 0 && g->per_work >= 0;
}

static int gpu_measure(int prec, vfw_gpu_consts *g, char *why, size_t cap)
{
	/* the transfers first: milliseconds, and they need no compile */
	size_t big = 16u << 20;
	double small = vfw_gpu_time_transfer(4096, 3), tbig = vfw_gpu_time_transfer(big, 2);
	if (small <= 0 || tbig <= 0) {
		snprintf(why, cap, "a transfer to the device failed: %s", vkfftgo_last_error());
		return 0;
	}
	g->latency = small;
	g->bandwidth = 2.0 * (double)big / fmax(tbig - small, 1e-6);
	g->copy_bw = memcpy_bandwidth(big);
	/* one round trip of a plan, whose build (usually a compile) dominates the time */
	int e = max_edge() < 64 ? max_edge() : 64, n[3] = { e, e, e }, source = VFW_GPU_UNKNOWN;
	double build = 0;
	double rt = vfw_gpu_time_c2c(prec, 3, n, 3, &source, &build);
	if (rt <= 0) {
		snprintf(why, cap, "a %d^3 round trip failed: %s", e, vfw_gpu_last_error());
		return 0;
	}
	if (source != VFW_GPU_LEASED)
		vfw_learn_build(source, build);
	size_t cube = (size_t)e * e * e * (prec == VFW_SINGLE ? 8 : 16);
	double points = (double)e * e * e;
	/* a plan's round trip goes through the staged, overlapped copies, which can beat a
	 * buffer's plain upload and download (on the H200, 16 GB/s against 8.5): the round
	 * trip, compute included, bounds the rate the executes get from below */
	double staged = 2.0 * (double)cube / fmax(rt - small, 1e-6);
	if (staged > g->bandwidth)
		g->bandwidth = staged;
	double moved = small + 2.0 * (double)cube / g->bandwidth;
	g->per_work = fmax(0, rt - moved) / (points * log2(points));
	if (g->copy_bw <= 0) {
		snprintf(why, cap, "out of host memory");
		return 0;
	}
	snprintf(g->note, sizeof g->note,
		 "%d^3 c2c round trip %.3f ms (its plan %s in %.0f ms), 16 MiB up+down %.3f ms, 4 KiB %.3f ms: "
		 "latency %.3f ms, %.2f GB/s, device compute %.3g ns per n log2 n, host copies %.1f GB/s",
		 e, rt * 1e3, source == VFW_GPU_COMPILE ? "compiled" : source == VFW_GPU_DISK ? "loaded from the kernel cache" : "built",
		 build * 1e3, tbig * 1e3, small * 1e3, g->latency * 1e3, g->bandwidth / 1e9, g->per_work * 1e9,
		 g->copy_bw / 1e9);
	return 1;
}

int vfw_crossover_gpu(int prec, vfw_gpu_consts *out)
{
	static struct {
		int state; /* 0 not known, 1 known, -1 failed */
		vfw_gpu_consts g;
	} memo[2];
	if (memo[prec].state) {
		*out = memo[prec].g;
		return memo[prec].state > 0;
	}
	char key[600], path[1100], v[600];
	gpu_key(prec, key, sizeof key);
	int have_path = vfw_cache_path(file, path, sizeof path);
	vfw_gpu_consts g = { 0 };
	if (have_path && vfw_cache_read(path, key, v, sizeof v) && gpu_parse(v, &g)) {
		char *note = strchr(v, '\t');
		snprintf(g.note, sizeof g.note, "measured earlier (%s), cached in %s", note ? note + 1 : "", path);
		memo[prec].state = 1;
	} else {
		double t0 = vfw_now();
		char why[300] = "";
		if (gpu_measure(prec, &g, why, sizeof why)) {
			vfw_log("crossover: the GPU (%s precision) measured in %.2f s: %s", prec_name(prec), vfw_now() - t0,
				g.note);
			if (have_path) {
				snprintf(v, sizeof v, "latency=%.6g bandwidth=%.6g per_work=%.6g copy_bw=%.6g\t%s", g.latency,
					 g.bandwidth, g.per_work, g.copy_bw, g.note);
				vfw_cache_write(path, key, v);
			}
			memo[prec].state = 1;
		} else {
			vfw_log("crossover: could not time the GPU (%s precision): %s; its plans stay on FFTW", prec_name(prec), why);
			memo[prec].state = -1;
		}
	}
	memo[prec].g = g;
	*out = g;
	return memo[prec].state > 0;
}

/* ---- FFTW ---- */

static void cpu_key(const vfw_cpu_ops *ops, int nthreads, char *key, size_t cap)
{
	snprintf(key, cap, "v2 cpu host=%s fftw=%s precision=%s threads=%d max=%d", host_name(), ops->version(),
		 prec_name(ops->prec), nthreads, max_edge());
}

static int cpu_parse(const char *v, vfw_cpu_consts *c)
{
	c->n = sscanf(v, "per_flop=%lf,%lf,%lf", &c->per_flop[0], &c->per_flop[1], &c->per_flop[2]);
	for (int i = 0; i < c->n; i++)
		if (!(c->per_flop[i] > 0))
			return 0;
	return c->n > 0;
}

static int cpu_measure(const vfw_cpu_ops *ops, int nthreads, double deadline, vfw_cpu_consts *c)
{
	size_t k = 0;
	c->n = 0;
	k += (size_t)snprintf(c->note, sizeof c->note, "FFTW_ESTIMATE c2c, %d thread%s:", nthreads, nthreads == 1 ? "" : "s");
	for (int e = 32; e <= 128 && e <= max_edge() && (c->n == 0 || vfw_now() < deadline); e *= 2) {
		int n[3] = { e, e, e };
		double flops = 0, t = ops->time_c2c(3, n, nthreads, 3, &flops);
		if (t <= 0 || flops <= 0)
			break;
		c->per_flop[c->n++] = t / flops;
		if (k < sizeof c->note)
			k += (size_t)snprintf(c->note + k, sizeof c->note - k, " %d^3 %.3f ms (%.3g ns/flop)", e, t * 1e3,
					      t / flops * 1e9);
	}
	return c->n > 0;
}

enum { NCPU = 8 };

int vfw_crossover_cpu(const vfw_cpu_ops *ops, int nthreads, int measure, vfw_cpu_consts *out)
{
	static struct {
		int prec, nthreads, state;
		vfw_cpu_consts c;
	} memo[NCPU];
	static int next;
	for (int i = 0; i < NCPU; i++) {
		if (memo[i].state && memo[i].prec == ops->prec && memo[i].nthreads == nthreads) {
			*out = memo[i].c;
			return memo[i].state > 0;
		}
	}
	char key[600], path[1100], v[600];
	cpu_key(ops, nthreads, key, sizeof key);
	int have_path = vfw_cache_path(file, path, sizeof path), state;
	vfw_cpu_consts c = { 0 };
	if (have_path && vfw_cache_read(path, key, v, sizeof v) && cpu_parse(v, &c)) {
		char *note = strchr(v, '\t');
		snprintf(c.note, sizeof c.note, "measured earlier (%s), cached", note ? note + 1 : "");
		state = 1;
	} else if (!measure) {
		return 0;
	} else {
		double t0 = vfw_now();
		state = cpu_measure(ops, nthreads, t0 + VFW_BUDGET, &c) ? 1 : -1;
		vfw_log("crossover: FFTW %s (%s precision) measured in %.2f s: %s", ops->version(), prec_name(ops->prec),
			vfw_now() - t0, c.note);
		if (state > 0 && have_path) {
			snprintf(v, sizeof v, "per_flop=%.6g,%.6g,%.6g\t%s", c.per_flop[0], c.n > 1 ? c.per_flop[1] : c.per_flop[0],
				 c.n > 2 ? c.per_flop[2] : c.per_flop[c.n > 1 ? 1 : 0], c.note);
			vfw_cache_write(path, key, v);
		}
	}
	int i = next++ % NCPU;
	memo[i].prec = ops->prec, memo[i].nthreads = nthreads, memo[i].state = state, memo[i].c = c;
	*out = c;
	return state > 0;
}

double vfw_cpu_per_flop(const vfw_cpu_consts *c, double points)
{
	/* the measured cubes: 32^3, 64^3, 128^3; in between by log2 of the size */
	double x = (log2(points > 1 ? points : 1) - 15) / 3; /* 0 at 32^3, 1 at 64^3, 2 at 128^3 */
	if (x <= 0 || c->n == 1)
		return c->per_flop[0];
	if (x >= c->n - 1)
		return c->per_flop[c->n - 1];
	int i = (int)x;
	double f = x - i;
	return c->per_flop[i] * (1 - f) + c->per_flop[i + 1] * f;
}

/* ---- learned from real plans ---- */

static struct {
	int loaded;
	double v[5], saved[5]; /* build from disk, compile, and FFTW planning per rigor (MEASURE..EXHAUSTIVE) */
	int n[5];
} learned;
static const char *const learned_name[5] = { "warm", "cold", "measure", "patient", "exhaustive" };
/* a plan from the kernel cache costs milliseconds, a compile about a second; FFTW's
 * planning is the model's (ratio 1) until a plan says otherwise */
static const double learned_default[5] = { 0.03, 1.0, 1, 1, 1 };

static void learned_key(char *key, size_t cap)
{
	snprintf(key, cap, "v2 learned backend=%s device=%s host=%s", vkfftgo_backend_name(), vfw_gpu_device_name(),
		 host_name());
}

static void learned_load(void)
{
	if (learned.loaded)
		return;
	learned.loaded = 1;
	memcpy(learned.v, learned_default, sizeof learned.v);
	char key[600], path[1100], v[600];
	learned_key(key, sizeof key);
	if (!vfw_cache_path(file, path, sizeof path) || !vfw_cache_read(path, key, v, sizeof v))
		return;
	double x[5];
	if (sscanf(v, "warm=%lf cold=%lf measure=%lf patient=%lf exhaustive=%lf", &x[0], &x[1], &x[2], &x[3], &x[4]) == 5)
		for (int i = 0; i < 5; i++)
			if (x[i] > 0)
				learned.v[i] = x[i];
	memcpy(learned.saved, learned.v, sizeof learned.v);
}

static void learn(int i, double x)
{
	learned_load();
	if (!(x > 0))
		return;
	/* the first observation replaces the default; later ones move it a quarter of the way */
	learned.v[i] = learned.n[i]++ ? 0.75 * learned.v[i] + 0.25 * x : x;
	if (fabs(learned.v[i] - learned.saved[i]) <= 0.25 * learned.saved[i])
		return;
	char key[600], path[1100], v[600];
	learned_key(key, sizeof key);
	if (!vfw_cache_path(file, path, sizeof path))
		return;
	size_t k = 0;
	for (int j = 0; j < 5; j++)
		k += (size_t)snprintf(v + k, sizeof v - k, "%s%s=%.4g", j ? " " : "", learned_name[j], learned.v[j]);
	vfw_cache_write(path, key, v);
	memcpy(learned.saved, learned.v, sizeof learned.v);
}

void vfw_learn_build(int source, double seconds)
{
	if (source == VFW_GPU_DISK)
		learn(0, seconds);
	else if (source == VFW_GPU_COMPILE)
		learn(1, seconds);
}

double vfw_build_cost(int source)
{
	learned_load();
	switch (source) {
	case VFW_GPU_LEASED: return 2e-5;
	case VFW_GPU_DISK: return learned.v[0];
	default: return learned.v[1];
	}
}

void vfw_learn_plan(int rigor, double ratio)
{
	if (rigor >= VFW_MEASURE && rigor <= VFW_EXHAUSTIVE)
		learn(2 + rigor - VFW_MEASURE, ratio);
}

double vfw_plan_factor(int rigor)
{
	learned_load();
	return rigor >= VFW_MEASURE && rigor <= VFW_EXHAUSTIVE ? learned.v[2 + rigor - VFW_MEASURE] : 1;
}
