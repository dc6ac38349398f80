/* planner.c — picks the engine for each FFTW plan: the GPU (libvkfftgo) for the
 * problems it takes where its planning and executes cost less than FFTW's (costs.c;
 * VKFFTGO_FFTW_CROSSOVER=legacy: a size threshold, threshold.c), the real FFTW for the
 * rest; NULL where neither can, as FFTW returns NULL when it cannot plan. The planner's
 * lock (state.c) serialises planning and destruction (FFTW's planner is not thread-safe
 * either; execution needs no lock here). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "vfw.h"

/* The smallest problem the threshold measurement looks at (16^3): smaller problems go
 * to FFTW without opening the device, unless VKFFTGO_FFTW_MIN_SIZE says otherwise. */
enum { VFW_MEASURE_MIN = 4096 };

static int env_flag(const char *name)
{
	const char *v = getenv(name);
	return v && *v && strcmp(v, "0") != 0;
}

/* ---- statistics (VKFFTGO_FFTW_STATS=1 prints them at exit) ---- */
static struct {
	int64_t plans_gpu, plans_gpu_cached, plans_cpu, plans_null;
	int64_t exec_gpu, exec_cpu, exec_fallback;
	double t_exec_gpu, t_exec_cpu, t_plan;
} stats;
static pthread_mutex_t stats_mu = PTHREAD_MUTEX_INITIALIZER;

/* A thread that held the lock at fork time does not exist in the child to release it. */
static void child_handler(void)
{
	pthread_mutex_init(&stats_mu, NULL);
}

__attribute__((constructor)) static void watch_at_load(void)
{
	(void)pthread_atfork(NULL, NULL, child_handler);
}

void vfw_stat_exec(vfw_plan *p, double seconds)
{
	/* for the history: how often and how fast the plan ran (on its engine: not in a
	 * forked child, which runs GPU plans on FFTW) */
	if (!vfw_fork_replans(p)) {
		__atomic_add_fetch(&p->executes, 1, __ATOMIC_RELAXED);
		int64_t ns = (int64_t)(seconds * 1e9) + 1, best = __atomic_load_n(&p->best_ns, __ATOMIC_RELAXED);
		while ((best == 0 || ns < best) &&
		       !__atomic_compare_exchange_n(&p->best_ns, &best, ns, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			;
	}
	if (vfw_log_enabled() >= 2)
		vfw_log("execute %s on %s: %.3f ms", p->desc, p->engine == VFW_ENGINE_GPU ? "gpu" : "fftw", seconds * 1e3);
	pthread_mutex_lock(&stats_mu);
	if (p->engine == VFW_ENGINE_GPU) {
		stats.exec_gpu++;
		stats.t_exec_gpu += seconds;
	} else {
		stats.exec_cpu++;
		stats.t_exec_cpu += seconds;
	}
	pthread_mutex_unlock(&stats_mu);
}

static void print_stats(void)
{
	fprintf(stderr,
		"vkfftgo-fftw3: stats: plans gpu %" PRId64 " (%" PRId64 " from the plan cache) fftw %" PRId64
		" null %" PRId64 "; planning %.3f s; executes gpu %" PRId64 " %.3f s, fftw %" PRId64
		" %.3f s, gpu failures run on fftw %" PRId64 "\n",
		stats.plans_gpu, stats.plans_gpu_cached, stats.plans_cpu, stats.plans_null, stats.t_plan,
		stats.exec_gpu, stats.t_exec_gpu, stats.exec_cpu, stats.t_exec_cpu, stats.exec_fallback);
}

static void stats_init(void)
{
	static int done;
	if (!done) {
		done = 1;
		if (env_flag("VKFFTGO_FFTW_STATS"))
			atexit(print_stats);
	}
}

/* ---- descriptions ---- */
static const char *kind_name(int kind)
{
	switch (kind) {
	case VFW_C2C: return "c2c";
	case VFW_R2C: return "r2c";
	case VFW_C2R: return "c2r";
	case VFW_R2R: return "r2r";
	case VFW_SPLIT_C2C: return "split c2c";
	case VFW_SPLIT_R2C: return "split r2c";
	case VFW_SPLIT_C2R: return "split c2r";
	}
	return "?";
}

static void describe(const vfw_problem *pb, char *buf, size_t cap)
{
	size_t k = 0;
#define PUT(...) do { int w_ = snprintf(buf + k, k < cap ? cap - k : 0, __VA_ARGS__); if (w_ > 0) k += (size_t)w_; } while (0)
	PUT("%s %s", pb->prec == VFW_SINGLE ? "f32" : "f64", kind_name(pb->kind));
	if (pb->kind == VFW_C2C)
		PUT(pb->sign == FFTW_FORWARD ? " forward" : " backward");
	PUT(" ");
	if (pb->rank == 0)
		PUT("rank-0");
	for (int i = 0; i < pb->rank && k < cap; i++)
		PUT("%s%td", i ? "x" : "", pb->dims[i].n);
	if (pb->hrank == VFW_RNK_MINFTY) {
		PUT(" howmany -inf");
	} else {
		int64_t h = 1;
		for (int i = 0; i < pb->hrank; i++)
			h *= (int64_t)pb->hdims[i].n;
		if (h != 1)
			PUT(" howmany %" PRId64, h);
	}
	int inplace = pb->kind >= VFW_SPLIT_C2C ? (pb->ri == pb->ro || pb->in == pb->ro || pb->ri == pb->out)
						 : pb->in == pb->out;
	PUT(", %s", inplace ? "in-place" : "out-of-place");
#undef PUT
	if (k >= cap && cap > 0)
		buf[cap - 1] = 0;
}

int vfw_plan_print(const vfw_plan *p, char *buf, size_t cap)
{
	return snprintf(buf, cap, "(vkfftgo-gpu %s on %s)", p->desc, vfw_gpu_device_name());
}

vfw_plan *vfw_plan_check(const void *p0, int prec, const char *api)
{
	const vfw_plan *p = (const vfw_plan *)p0;
	if (!p) {
		fprintf(stderr, "vkfftgo-fftw3: %s called with a NULL plan; nothing done\n", api);
		return NULL;
	}
	if (p->magic != VFW_PLAN_MAGIC) {
		fprintf(stderr, "vkfftgo-fftw3: %s called with something that is not a live plan; nothing done\n", api);
		return NULL;
	}
	if (p->prec != prec) {
		fprintf(stderr, "vkfftgo-fftw3: %s called with a %s-precision plan; nothing done\n", api,
			p->prec == VFW_SINGLE ? "single" : "double");
		return NULL;
	}
	return (vfw_plan *)p;
}

/* GPU flop estimate with FFTW's conventions (5 N log2 N per complex transform, half for
 * real ones), split into adds and multiplies as a radix-2 FFT would. */
static void estimate_flops(vfw_plan *p, const vfw_problem *pb)
{
	double n = 1, howmany = 1;
	for (int i = 0; i < pb->rank; i++)
		n *= (double)pb->dims[i].n;
	for (int i = 0; pb->hrank != VFW_RNK_MINFTY && i < pb->hrank; i++)
		howmany *= (double)pb->hdims[i].n;
	double lg = 0;
	for (double m = n; m > 1; m /= 2)
		lg += 1;
	double total = 5 * n * lg * howmany * (pb->kind == VFW_C2C ? 1 : 0.5);
	p->add = total * 0.6;
	p->mul = total * 0.4;
	p->fma = 0;
}

static int env_min_size(int64_t *out)
{
	const char *v = getenv("VKFFTGO_FFTW_MIN_SIZE");
	if (!v || !*v)
		return 0;
	char *end;
	long long x = strtoll(v, &end, 10);
	if (*end || x < 0) {
		static int warned;
		if (!warned) {
			warned = 1;
			fprintf(stderr, "vkfftgo-fftw3: VKFFTGO_FFTW_MIN_SIZE=%s is not a non-negative integer; ignored\n", v);
		}
		return 0;
	}
	*out = x;
	return 1;
}

static int keep_problem(vfw_plan *p, const vfw_problem *pb)
{
	int hr = pb->hrank == VFW_RNK_MINFTY ? 0 : pb->hrank;
	p->rank = pb->rank;
	p->hrank = pb->hrank;
	/* one block: the dims, the howmany dims, and the r2r kinds after them */
	p->dims = (vfw_dim *)malloc(sizeof(vfw_dim) * (size_t)(pb->rank + hr + 1) + sizeof(int) * (size_t)pb->rank);
	if (!p->dims)
		return 0;
	memcpy(p->dims, pb->dims, sizeof(vfw_dim) * (size_t)pb->rank);
	p->hdims = p->dims + pb->rank;
	if (hr)
		memcpy(p->hdims, pb->hdims, sizeof(vfw_dim) * (size_t)hr);
	if (pb->kind == VFW_R2R && pb->r2r_kinds) {
		p->r2r_kinds = (int *)(p->hdims + hr + 1);
		memcpy(p->r2r_kinds, pb->r2r_kinds, sizeof(int) * (size_t)pb->rank);
	}
	return 1;
}

/* VKFFTGO_FFTW_CROSSOVER: "cost" (the default: costs.c) or "legacy" (threshold.c). */
static int legacy_rule(void)
{
	const char *v = getenv("VKFFTGO_FFTW_CROSSOVER");
	if (!v || !*v || !strcmp(v, "cost"))
		return 0;
	if (!strcmp(v, "legacy"))
		return 1;
	static int warned;
	if (!warned++)
		fprintf(stderr, "vkfftgo-fftw3: VKFFTGO_FFTW_CROSSOVER=%s is neither cost nor legacy; cost used\n", v);
	return 0;
}

/* The engine for a problem both engines take: sets *want_gpu to 0 and says why in
 * why, or says why the GPU in gpu_why; costs filled (*have_costs) under the cost rule. */
static void choose(const vfw_problem *pb, const vfw_cpu_ops *ops, int nthreads, const vfw_gpu_shape *sh,
		   int *want_gpu, char *why, char *gpu_why, size_t cap, vfw_costs *costs, int *have_costs)
{
	int64_t thr;
	const int64_t elements = sh->elements;
	if (env_min_size(&thr)) {
		if (elements < thr) {
			*want_gpu = 0;
			snprintf(why, cap, "%" PRId64 " elements < %" PRId64 " (VKFFTGO_FFTW_MIN_SIZE)", elements, thr);
		} else {
			snprintf(gpu_why, cap, "%" PRId64 " elements >= %" PRId64 " (VKFFTGO_FFTW_MIN_SIZE)", elements, thr);
		}
	} else if (elements < VFW_MEASURE_MIN) {
		*want_gpu = 0;
		snprintf(why, cap, "%" PRId64 " elements: small problems stay on the CPU (< %d)", elements, VFW_MEASURE_MIN);
	} else if (!vfw_gpu_ready(pb->prec, why, cap)) {
		*want_gpu = 0;
	} else if (legacy_rule()) {
		char src[320];
		thr = vfw_threshold(ops, nthreads, src, sizeof src);
		if (elements < thr) {
			*want_gpu = 0;
			snprintf(why, cap, "%" PRId64 " elements < threshold %" PRId64 " (VKFFTGO_FFTW_CROSSOVER=legacy: %s)",
				 elements, thr, src);
		} else {
			snprintf(gpu_why, cap, "%" PRId64 " elements >= threshold %" PRId64 " (VKFFTGO_FFTW_CROSSOVER=legacy: %s)",
				 elements, thr, src);
		}
	} else if (!vfw_costs_estimate(pb, ops, nthreads, sh, costs, why, cap)) {
		*want_gpu = 0;
	} else {
		*have_costs = 1;
		if (vfw_costs_gpu_wins(costs)) {
			vfw_costs_describe(costs, gpu_why, cap);
		} else {
			*want_gpu = 0;
			vfw_costs_describe(costs, why, cap);
		}
	}
}

vfw_plan *vfw_plan_make(const vfw_problem *pb, const vfw_cpu_ops *ops)
{
	double t0 = vfw_now();
	vfw_plan *p = (vfw_plan *)calloc(1, sizeof *p);
	if (!p)
		return NULL;
	if (!keep_problem(p, pb)) {
		free(p);
		return NULL;
	}
	p->prec = pb->prec, p->kind = pb->kind, p->sign = pb->sign, p->flags = pb->flags;
	p->in = pb->in, p->out = pb->out, p->ri = pb->ri, p->ii = pb->ii, p->ro = pb->ro, p->io = pb->io;
	p->key = vfw_problem_key(pb);
	describe(pb, p->desc, sizeof p->desc);
	char flags[160];
	vfw_flags_text(pb->flags, flags, sizeof flags);

	vfw_planner_lock();
	stats_init();
	const int forked = vfw_forked();
	/* a forked child lacks the worker threads FFTW keeps once it ran with several */
	int nthreads = forked && __atomic_load_n(&vfw_real_threads_used, __ATOMIC_RELAXED) ? 1 : vfw_get_nthreads_locked(pb->prec);
	char why[1400] = "", gpu_why[1400] = "";
	vfw_gpu_shape shape;
	int want_gpu = vfw_gpu_takes(pb, &shape, why, sizeof why);
	int have_cpu = ops->available();
	int source = VFW_GPU_UNKNOWN, have_costs = 0;
	vfw_costs costs;

	if (forked) {
		vfw_fork_note();
		if (want_gpu) {
			want_gpu = 0;
			snprintf(why, sizeof why, "a child forked without exec: the GPU is the parent's");
		}
	}

	if (want_gpu && have_cpu)
		choose(pb, ops, nthreads, &shape, &want_gpu, why, gpu_why, sizeof why, &costs, &have_costs);
	else if (want_gpu)
		snprintf(gpu_why, sizeof gpu_why, "%" PRId64 " elements; no real FFTW to compare with", shape.elements);
	if (want_gpu && !vfw_gpu_ready(pb->prec, why, sizeof why))
		want_gpu = 0;
	if (want_gpu) {
		char how[256] = "";
		double build = 0;
		p->gpu = vfw_gpu_plan(pb, &source, &build, how, sizeof how);
		if (p->gpu) {
			p->engine = VFW_ENGINE_GPU;
			estimate_flops(p, pb);
			if (source != VFW_GPU_LEASED)
				vfw_learn_build(source, build);
			vfw_log("%s %s -> gpu: %s; flags %s; %s%s; planned in %.3f ms", pb->api, p->desc, gpu_why, flags, how,
				source == VFW_GPU_LEASED ? " (plan cache hit)"
				: source == VFW_GPU_DISK ? " (kernels from the disk cache)"
				: source == VFW_GPU_COMPILE ? " (kernels compiled)" : "",
				(vfw_now() - t0) * 1e3);
		} else {
			snprintf(why, sizeof why, "the GPU plan failed: %s", how);
		}
	}
	if (!p->engine && have_cpu) {
		double planning = 0;
		if (have_costs && costs.estimate_is_callers) { /* FFTW_ESTIMATE: made while choosing */
			p->real = costs.estimate_plan;
			costs.estimate_plan = NULL;
		} else if (have_costs && costs.wisdom_plan) { /* the caller's flags, from wisdom */
			p->real = costs.wisdom_plan;
			costs.wisdom_plan = NULL;
		} else {
			double tp = vfw_now();
			p->real = ops->plan(pb, nthreads);
			planning = vfw_now() - tp;
			if (p->real && have_costs && costs.needs_planning && costs.plan_model > 0)
				vfw_learn_plan(costs.rigor, planning / costs.plan_model);
			if (p->real && vfw_rigor(pb->flags) != VFW_ESTIMATE && !(pb->flags & FFTW_WISDOM_ONLY))
				vfw_history_measured(p->key);
		}
		if (p->real) {
			p->engine = VFW_ENGINE_CPU;
			p->nthreads = nthreads;
			vfw_log("%s %s -> fftw (%d thread%s): %s; flags %s; planned in %.3f ms", pb->api, p->desc, nthreads,
				nthreads == 1 ? "" : "s", why, flags, (vfw_now() - t0) * 1e3);
		} else {
			vfw_log("%s %s -> NULL: FFTW %s returned NULL (%s); flags %s", pb->api, p->desc, ops->version(), why,
				flags);
		}
	} else if (!p->engine) {
		vfw_log("%s %s -> NULL: %s, and there is no real FFTW (lib%s.so.3) to fall back on; flags %s", pb->api,
			p->desc, why, pb->prec == VFW_SINGLE ? "fftw3f" : "fftw3", flags);
	}
	if (have_costs)
		vfw_costs_release(&costs, ops);
	if (p->engine == VFW_ENGINE_GPU) {
		stats.plans_gpu++;
		stats.plans_gpu_cached += source == VFW_GPU_LEASED;
	} else if (p->engine == VFW_ENGINE_CPU) {
		stats.plans_cpu++;
	} else {
		stats.plans_null++;
	}
	vfw_planner_unlock();
	pthread_mutex_lock(&stats_mu);
	stats.t_plan += vfw_now() - t0;
	pthread_mutex_unlock(&stats_mu);

	if (!p->engine) {
		free(p->dims);
		free(p);
		return NULL;
	}
	p->magic = VFW_PLAN_MAGIC;
	return p;
}

void vfw_plan_destroy(vfw_plan *p, const vfw_cpu_ops *ops)
{
	vfw_planner_lock();
	p->magic = 0;
	if (!vfw_forked())
		vfw_history_destroyed(p->key, __atomic_load_n(&p->executes, __ATOMIC_RELAXED), p->engine,
				      (double)__atomic_load_n(&p->best_ns, __ATOMIC_RELAXED) * 1e-9, p->nthreads);
	if (p->gpu)
		vfw_gpu_destroy(p->gpu);
	if (p->real)
		ops->destroy(p->real);
	for (int k = 0; k < 2; k++)
		if (p->fork_real[k])
			ops->destroy(p->fork_real[k]);
	vfw_planner_unlock();
	free(p->dims);
	free(p);
}

void vfw_plan_gpu_failed(vfw_plan *p, const vfw_cpu_ops *ops, void *in, void *out)
{
	static int warned;
	vfw_planner_lock();
	int first = !warned;
	warned = 1;
	void *rp = NULL;
	if (ops->available()) {
		vfw_problem pb = { 0 };
		pb.prec = p->prec, pb.kind = p->kind, pb.sign = p->sign;
		pb.flags = (p->flags & FFTW_UNALIGNED) | FFTW_ESTIMATE | FFTW_DESTROY_INPUT;
		pb.rank = p->rank, pb.dims = p->dims, pb.hrank = p->hrank, pb.hdims = p->hdims;
		pb.in = in, pb.out = out;
		rp = ops->plan(&pb, vfw_get_nthreads_locked(p->prec));
	}
	vfw_planner_unlock();
	pthread_mutex_lock(&stats_mu);
	stats.exec_fallback++;
	pthread_mutex_unlock(&stats_mu);
	if (first)
		fprintf(stderr, "vkfftgo-fftw3: the GPU could not run %s: %s%s\n", p->desc, vfw_gpu_last_error(),
			rp ? "; computed by FFTW instead (further failures are not reported)" : "; the output is NOT computed");
	if (rp) {
		ops->execute_new(rp, p->kind, in, out);
		vfw_planner_lock();
		ops->destroy(rp);
		vfw_planner_unlock();
	}
}

void vfw_cleanup(void)
{
	vfw_planner_lock();
	vfw_gpu_trim();
	vfw_planner_unlock();
}
