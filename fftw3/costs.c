/* costs.c — what a plan would cost on each engine, and which costs less.
 *
 * A plan costs its planning once plus each execute: FFTW's planning under the
 * caller's flags (FFTW_ESTIMATE: nothing; FFTW_MEASURE, _PATIENT, _EXHAUSTIVE: about
 * 0.15 s, 1 s and 15 s plus a multiple of an execute, as learned on this machine —
 * unless FFTW's wisdom has the problem, which the real FFTW answers by planning it with
 * FFTW_WISDOM_ONLY; FFTW_WISDOM_ONLY without such wisdom: FFTW cannot), the GPU's
 * building (nothing from this library's plan cache, milliseconds from libvkfftgo's disk
 * kernel cache, about a second to compile), and executes as many as the caller's
 * pattern says (history.c): a kept plan or one not seen yet VKFFTGO_FFTW_EXECUTES (100);
 * a create/execute/destroy caller as many plans again as it made so far, each with the
 * executes it had. Planning is paid once per process on either engine — the next plan
 * of the problem comes from FFTW's wisdom or from the GPU plan cache — except when
 * FFTW's wisdom is forgotten between plans: then FFTW plans every time. An execute is
 * what earlier plans of the problem took, if they ran; else for FFTW the operation
 * count of the problem's FFTW_ESTIMATE plan (fftw_flops) times the measured seconds
 * per flop (crossover.c), and for the GPU the round trip's latency, transfers, staging
 * copies and compute. The GPU takes the plan if its total is smaller.
 * VKFFTGO_FFTW_COSTS replaces any of these figures (for tests and for users who know
 * better); the log line says where each came from.
 *
 * Runs under the planner's lock, after the device was opened. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "vfw.h"

/* ---- flags ---- */

int vfw_rigor(unsigned flags)
{
	/* FFTW's precedence (api/apiplan.c): ESTIMATE, then EXHAUSTIVE, then PATIENT */
	if (flags & FFTW_ESTIMATE)
		return VFW_ESTIMATE;
	if (flags & FFTW_EXHAUSTIVE)
		return VFW_EXHAUSTIVE;
	if (flags & FFTW_PATIENT)
		return VFW_PATIENT;
	return VFW_MEASURE;
}

static const char *const rigor_name[] = { "FFTW_ESTIMATE", "FFTW_MEASURE", "FFTW_PATIENT", "FFTW_EXHAUSTIVE" };

void vfw_flags_text(unsigned flags, char *buf, size_t cap)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ FFTW_ESTIMATE, "ESTIMATE" }, { FFTW_PATIENT, "PATIENT" }, { FFTW_EXHAUSTIVE, "EXHAUSTIVE" },
		{ FFTW_WISDOM_ONLY, "WISDOM_ONLY" }, { FFTW_DESTROY_INPUT, "DESTROY_INPUT" },
		{ FFTW_PRESERVE_INPUT, "PRESERVE_INPUT" }, { FFTW_UNALIGNED, "UNALIGNED" },
		{ FFTW_CONSERVE_MEMORY, "CONSERVE_MEMORY" },
	};
	size_t k = 0;
	unsigned rest = flags;
	buf[0] = 0;
	if (!(flags & (FFTW_ESTIMATE | FFTW_PATIENT | FFTW_EXHAUSTIVE)))
		k += (size_t)snprintf(buf, cap, "MEASURE");
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (flags & names[i].bit) {
			rest &= ~names[i].bit;
			if (k < cap)
				k += (size_t)snprintf(buf + k, cap - k, "%s%s", k ? "|" : "", names[i].name);
		}
	}
	if (rest && k < cap)
		snprintf(buf + k, cap - k, "%s%#x", k ? "|" : "", rest);
}

/* ---- VKFFTGO_FFTW_COSTS: "key=value ..." with values in s, ms or us ---- */

enum { O_CPU_EXEC, O_GPU_EXEC, O_ESTIMATE, O_MEASURE, O_PATIENT, O_EXHAUSTIVE, O_WISDOM, O_GPU_LEASED,
       O_GPU_DISK, O_GPU_COMPILE, O_N };
static const char *const override_name[O_N] = { "cpu_exec", "gpu_exec", "estimate", "measure", "patient",
						 "exhaustive", "wisdom", "gpu_cached", "gpu_warm", "gpu_cold" };

/* Reads the overrides (negative: not given); read at every plan, so that a program
 * (a test) may change them between plans. */
static void read_overrides(double o[O_N])
{
	static char warned[256];
	for (int i = 0; i < O_N; i++)
		o[i] = -1;
	const char *v = getenv("VKFFTGO_FFTW_COSTS");
	if (!v || !*v)
		return;
	char buf[512];
	snprintf(buf, sizeof buf, "%s", v);
	char *save = NULL;
	for (char *tok = strtok_r(buf, " ,;", &save); tok; tok = strtok_r(NULL, " ,;", &save)) {
		char *eq = strchr(tok, '='), *end = NULL;
		int i = 0;
		if (eq) {
			*eq = 0;
			while (i < O_N && strcmp(tok, override_name[i]))
				i++;
		}
		double x = eq ? strtod(eq + 1, &end) : -1;
		double unit = 1;
		if (end && !strcmp(end, "ms"))
			unit = 1e-3, end += 2;
		else if (end && !strcmp(end, "us"))
			unit = 1e-6, end += 2;
		else if (end && !strcmp(end, "s"))
			end += 1;
		if (!eq || i == O_N || !end || end == eq + 1 || *end || x < 0) {
			if (strcmp(warned, v)) {
				snprintf(warned, sizeof warned, "%s", v);
				fprintf(stderr,
					"vkfftgo-fftw3: VKFFTGO_FFTW_COSTS: \"%s%s%s\" is not KEY=SECONDS (s, ms or us) "
					"with KEY one of cpu_exec gpu_exec estimate measure patient exhaustive wisdom "
					"gpu_cached gpu_warm gpu_cold; ignored\n",
					tok, eq ? "=" : "", eq ? eq + 1 : "");
			}
			continue;
		}
		o[i] = x * unit;
	}
}

/* ---- the model ---- */

/* FFTW's planning time without wisdom, before the learned factor: a floor (the
 * planner's timing of each candidate takes a minimum time) plus a multiple of an
 * execute, as measured with FFTW 3.3.10 on 1-3-D problems of 4096 to 2^21 points. */
static double plan_model(int rigor, double exec)
{
	switch (rigor) {
	case VFW_MEASURE: return 0.15 + 50 * exec;
	case VFW_PATIENT: return 1.0 + 1000 * exec;
	case VFW_EXHAUSTIVE: return 15.0 + 20000 * exec;
	}
	return 0;
}

/* A measured plan runs a little faster than FFTW_ESTIMATE's choice. */
static double rigor_speed(int rigor)
{
	return rigor == VFW_ESTIMATE ? 1 : rigor == VFW_MEASURE ? 0.85 : 0.8;
}

static double gpu_exec_model(const vfw_gpu_consts *g, const vfw_gpu_shape *sh)
{
	double moved = (double)(sh->in_bytes + sh->out_bytes);
	double pts = (double)(sh->points > 1 ? sh->points : 2);
	double work = (double)sh->elements * log2(pts) * (sh->real ? 0.5 : 1) * (sh->smooth ? 1 : 4);
	return g->latency + moved / g->bandwidth + (sh->direct ? 0 : moved / g->copy_bw) + g->per_work * work;
}

static double cpu_total(const vfw_costs *c)
{
	if (c->cpu_plan < 0)
		return INFINITY;
	return c->cpu_plan * (c->replans ? c->plans : 1) + c->plans * c->executes * c->cpu_exec;
}

static double gpu_total(const vfw_costs *c)
{
	return c->gpu_plan + c->plans * c->executes * c->gpu_exec;
}

int vfw_costs_gpu_wins(const vfw_costs *c)
{
	return gpu_total(c) < cpu_total(c);
}

static void fmt_time(double s, char *buf, size_t cap)
{
	if (isinf(s))
		snprintf(buf, cap, "impossible");
	else if (s == 0)
		snprintf(buf, cap, "0");
	else if (s >= 1)
		snprintf(buf, cap, "%.2f s", s);
	else if (s >= 1e-3)
		snprintf(buf, cap, "%.2f ms", s * 1e3);
	else
		snprintf(buf, cap, "%.1f us", s * 1e6);
}

void vfw_costs_describe(const vfw_costs *c, char *buf, size_t cap)
{
	char cp[32], ce[32], ct[32], gp[32], ge[32], gt[32], n[64], again[64] = "";
	fmt_time(c->cpu_plan < 0 ? INFINITY : c->cpu_plan, cp, sizeof cp);
	fmt_time(c->cpu_exec, ce, sizeof ce);
	fmt_time(cpu_total(c), ct, sizeof ct);
	fmt_time(c->gpu_plan, gp, sizeof gp);
	fmt_time(c->gpu_exec, ge, sizeof ge);
	fmt_time(gpu_total(c), gt, sizeof gt);
	if (c->plans > 1)
		snprintf(n, sizeof n, "%g plans x %g", c->plans, c->executes);
	else
		snprintf(n, sizeof n, "%g", c->executes);
	if (c->replans)
		snprintf(again, sizeof again, "%s%g plans (FFTW measured it before: its wisdom was forgotten)",
			 c->plans > 1 ? " x " : " x ", c->plans);
	snprintf(buf, cap, "pattern %s; FFTW: plan %s (%s)%s + %s x %s (%s) = %s; GPU: plan %s (%s) + %s x %s (%s) = %s",
		 c->pattern, cp, c->cpu_plan_src, again, n, ce, c->cpu_exec_src, ct, gp, c->gpu_plan_src, n, ge,
		 c->gpu_exec_src, gt);
}

static double default_executes(void)
{
	const char *v = getenv("VKFFTGO_FFTW_EXECUTES");
	char *end;
	double x = v && *v ? strtod(v, &end) : 0;
	if (v && *v && (*end || !(x >= 1))) {
		static int warned;
		if (!warned++)
			fprintf(stderr, "vkfftgo-fftw3: VKFFTGO_FFTW_EXECUTES=%s is not a number >= 1; 100 used\n", v);
		x = 0;
	}
	return x >= 1 ? x : 100;
}

/* The real FFTW's plan of pb with other flags, with nthreads. */
static void *real_plan(const vfw_problem *pb, const vfw_cpu_ops *ops, unsigned flags, int nthreads)
{
	vfw_problem q = *pb;
	q.flags = flags;
	return ops->plan(&q, nthreads);
}

/* FFTW's execute from the measured seconds per flop, for nthreads; 0 if that thread
 * count is not measured and measure is 0. */
static double cpu_exec_model(const vfw_cpu_ops *ops, int nthreads, int measure, double flops, double points,
			     int rigor)
{
	vfw_cpu_consts k;
	if (!vfw_crossover_cpu(ops, nthreads, measure, &k))
		return 0;
	return flops * vfw_cpu_per_flop(&k, points) * rigor_speed(rigor);
}

/* FFTW's seconds per flop at pb's own size, from one FFTW_ESTIMATE execute of a complex
 * transform of its shape (a real problem's rate is taken as its complex twin's), for a
 * problem well past the largest measured cube: there the cubes' rate says little (at
 * 256^3 on 16 threads FFTW ran at 0.15 ns/flop where 128^3 had 0.065: the data no longer
 * fit the caches). One execute per shape, precision and
 * thread count is kept for the process; 0 when the shape is not measured (batched,
 * rank 4 and up, arrays past 512 MiB, or FFTW failed). */
static double per_flop_at_size(const vfw_problem *pb, const vfw_cpu_ops *ops, int nthreads, double points)
{
	enum { KEPT = 8 };
	static struct {
		int prec, nthreads, n[3], rank;
		double per_flop;
	} kept[KEPT];
	static int next;
	const double cubes_max = 128.0 * 128 * 128;
	size_t elem = ops->prec == VFW_SINGLE ? 8 : 16;
	ptrdiff_t howmany = 1;
	for (int i = 0; pb->hrank != VFW_RNK_MINFTY && i < pb->hrank; i++)
		howmany *= pb->hdims[i].n;
	if (points < 4 * cubes_max || howmany != 1 || pb->rank < 1 || pb->rank > 3 ||
	    2 * points * (double)elem > (double)(512u << 20))
		return 0;
	int n[3] = { 1, 1, 1 };
	for (int i = 0; i < pb->rank; i++)
		n[i] = (int)pb->dims[i].n;
	for (int i = 0; i < KEPT; i++)
		if (kept[i].rank == pb->rank && kept[i].prec == ops->prec && kept[i].nthreads == nthreads &&
		    !memcmp(kept[i].n, n, sizeof n))
			return kept[i].per_flop;
	double flops = 0, t0 = vfw_now(), t = ops->time_c2c(pb->rank, n, nthreads, 1, &flops);
	double pf = t > 0 && flops > 0 ? t / flops : 0;
	vfw_log("crossover: FFTW at its own size, %d thread%s: a %d-D complex %dx%dx%d execute %.3f ms (%.3g ns/flop), "
		"measured in %.2f s",
		nthreads, nthreads == 1 ? "" : "s", pb->rank, n[0], n[1], n[2], t * 1e3, pf * 1e9, vfw_now() - t0);
	int k = next++ % KEPT;
	kept[k].rank = pb->rank, kept[k].prec = ops->prec, kept[k].nthreads = nthreads, kept[k].per_flop = pf;
	memcpy(kept[k].n, n, sizeof n);
	return pf;
}

void vfw_costs_release(vfw_costs *c, const vfw_cpu_ops *ops)
{
	if (c->estimate_plan)
		ops->destroy(c->estimate_plan);
	if (c->wisdom_plan)
		ops->destroy(c->wisdom_plan);
	c->estimate_plan = c->wisdom_plan = NULL;
}

/* FFTW's planning without wisdom under MEASURE and above, from the execute's time. */
static void plan_cost(vfw_costs *c, const double *o)
{
	if (!c->needs_planning)
		return;
	int oi = c->rigor == VFW_MEASURE ? O_MEASURE : c->rigor == VFW_PATIENT ? O_PATIENT : O_EXHAUSTIVE;
	c->plan_model = plan_model(c->rigor, c->cpu_exec / rigor_speed(c->rigor));
	if (o[oi] >= 0) {
		c->cpu_plan = o[oi];
		snprintf(c->cpu_plan_src, sizeof c->cpu_plan_src, "%s, no wisdom, VKFFTGO_FFTW_COSTS", rigor_name[c->rigor]);
	} else {
		double f = vfw_plan_factor(c->rigor);
		c->cpu_plan = c->plan_model * f;
		snprintf(c->cpu_plan_src, sizeof c->cpu_plan_src, "%s, no wisdom: model x %.2f as learned", rigor_name[c->rigor], f);
	}
}

/* The GPU's side: where its plan would come from, and an execute. */
static int gpu_side(const vfw_problem *pb, const vfw_gpu_shape *sh, const vfw_pattern *pat, const double *o,
		    vfw_costs *c, char *why, size_t cap)
{
	if (o[O_GPU_EXEC] >= 0) {
		c->gpu_exec = o[O_GPU_EXEC];
		snprintf(c->gpu_exec_src, sizeof c->gpu_exec_src, "VKFFTGO_FFTW_COSTS");
	} else if (pat->gpu_exec > 0) {
		c->gpu_exec = pat->gpu_exec;
		snprintf(c->gpu_exec_src, sizeof c->gpu_exec_src, "observed");
	} else {
		vfw_gpu_consts g; /* measured now if need be: it teaches the build cost too */
		if (!vfw_crossover_gpu(pb->prec, &g)) {
			snprintf(why, cap, "the GPU could not be timed (the log's crossover line says why)");
			return 0;
		}
		c->gpu_exec = gpu_exec_model(&g, sh);
		snprintf(c->gpu_exec_src, sizeof c->gpu_exec_src, "model: %.2f MB moved%s%s",
			 (double)(sh->in_bytes + sh->out_bytes) / 1e6, sh->direct ? "" : ", staged",
			 sh->smooth ? "" : ", Bluestein");
	}
	static const char *const src_text[] = { "in the plan cache", "kernels in the disk cache", "a compile",
						"a compile: this libvkfftgo cannot tell what its disk cache holds" };
	static const int src_override[] = { O_GPU_LEASED, O_GPU_DISK, O_GPU_COMPILE, O_GPU_COMPILE };
	c->gpu_source = vfw_gpu_source(pb);
	if (o[src_override[c->gpu_source]] >= 0) {
		c->gpu_plan = o[src_override[c->gpu_source]];
		snprintf(c->gpu_plan_src, sizeof c->gpu_plan_src, "%s, VKFFTGO_FFTW_COSTS", src_text[c->gpu_source]);
	} else {
		c->gpu_plan = vfw_build_cost(c->gpu_source);
		snprintf(c->gpu_plan_src, sizeof c->gpu_plan_src, "%s%s", src_text[c->gpu_source],
			 c->gpu_source == VFW_GPU_LEASED ? "" : ", as learned");
	}
	return 1;
}

/* FFTW's operation count for the problem from its FFTW_ESTIMATE plan (made already, or
 * made here: FFTW_ESTIMATE never touches the arrays); 0 if FFTW cannot plan it. */
static double count_flops(const vfw_problem *pb, const vfw_cpu_ops *ops, int nthreads, vfw_costs *c)
{
	unsigned keep = pb->flags & ~(FFTW_PATIENT | FFTW_EXHAUSTIVE | FFTW_WISDOM_ONLY);
	void *counting = c->estimate_plan;
	if (!counting && (keep & FFTW_PRESERVE_INPUT)) /* a multi-dimensional c2r: count one that may not */
		counting = real_plan(pb, ops, (keep & ~FFTW_PRESERVE_INPUT) | FFTW_DESTROY_INPUT | FFTW_ESTIMATE, nthreads);
	else if (!counting)
		counting = c->estimate_plan = real_plan(pb, ops, keep | FFTW_ESTIMATE, nthreads);
	double flops = counting ? ops->flops(counting) : 0;
	if (counting && counting != c->estimate_plan)
		ops->destroy(counting);
	return flops;
}

int vfw_costs_estimate(const vfw_problem *pb, const vfw_cpu_ops *ops, int nthreads, const vfw_gpu_shape *sh,
		       vfw_costs *c, char *why, size_t cap)
{
	double o[O_N];
	read_overrides(o);
	memset(c, 0, sizeof *c);
	c->rigor = vfw_rigor(pb->flags);
	const int wisdom_only = (pb->flags & FFTW_WISDOM_ONLY) != 0;

	/* the caller's pattern, and what earlier plans of the problem took */
	vfw_pattern pat;
	vfw_history_pattern(vfw_problem_key(pb), default_executes(), &pat);
	c->plans = pat.plans;
	c->executes = pat.executes;
	snprintf(c->pattern, sizeof c->pattern, "%s", pat.text);

	if (!gpu_side(pb, sh, &pat, o, c, why, cap))
		return 0;

	/* FFTW's planning: from wisdom (the real FFTW plans it with FFTW_WISDOM_ONLY, which
	 * never measures), or FFTW_ESTIMATE's plan, which is the caller's own then */
	unsigned keep = pb->flags & ~(FFTW_PATIENT | FFTW_EXHAUSTIVE | FFTW_WISDOM_ONLY);
	if (wisdom_only || c->rigor != VFW_ESTIMATE) {
		c->wisdom_plan = real_plan(pb, ops, pb->flags | FFTW_WISDOM_ONLY, nthreads);
	} else {
		c->estimate_plan = real_plan(pb, ops, keep | FFTW_ESTIMATE, nthreads);
		c->estimate_is_callers = c->estimate_plan != NULL;
	}
	if (c->wisdom_plan) {
		c->cpu_plan = o[O_WISDOM] >= 0 ? o[O_WISDOM] : 0;
		snprintf(c->cpu_plan_src, sizeof c->cpu_plan_src, "%s, wisdom has it%s", rigor_name[c->rigor],
			 o[O_WISDOM] >= 0 ? ", VKFFTGO_FFTW_COSTS" : "");
	} else if (wisdom_only) {
		c->cpu_plan = -1;
		snprintf(c->cpu_plan_src, sizeof c->cpu_plan_src, "FFTW_WISDOM_ONLY and no wisdom for it");
	} else if (c->rigor == VFW_ESTIMATE && c->estimate_plan) {
		c->cpu_plan = o[O_ESTIMATE] >= 0 ? o[O_ESTIMATE] : 0;
		snprintf(c->cpu_plan_src, sizeof c->cpu_plan_src, "FFTW_ESTIMATE%s",
			 o[O_ESTIMATE] >= 0 ? ", VKFFTGO_FFTW_COSTS" : ": made already");
	} else if (c->rigor == VFW_ESTIMATE) {
		c->cpu_plan = -1;
		snprintf(c->cpu_plan_src, sizeof c->cpu_plan_src, "FFTW returned NULL");
	} else {
		c->needs_planning = 1; /* from an execute's time, below */
		c->replans = pat.measured; /* measured before, yet wisdom lacks it */
	}

	/* an execute */
	const double points = (double)(sh->points > 1 ? sh->points : 1);
	double flops = 0;
	int cpu_known = 1;
	if (o[O_CPU_EXEC] >= 0) {
		c->cpu_exec = o[O_CPU_EXEC];
		snprintf(c->cpu_exec_src, sizeof c->cpu_exec_src, "VKFFTGO_FFTW_COSTS");
	} else if (pat.cpu_exec > 0 && pat.cpu_threads == nthreads) {
		c->cpu_exec = pat.cpu_exec;
		snprintf(c->cpu_exec_src, sizeof c->cpu_exec_src, "observed, %d thread%s", nthreads, nthreads == 1 ? "" : "s");
	} else if ((flops = count_flops(pb, ops, nthreads, c)) > 0) {
		c->cpu_exec = cpu_exec_model(ops, nthreads, nthreads == 1, flops, points, c->rigor);
		cpu_known = c->cpu_exec > 0;
		snprintf(c->cpu_exec_src, sizeof c->cpu_exec_src, "model: %.3g Mflop, %d thread%s", flops / 1e6, nthreads,
			 nthreads == 1 ? "" : "s");
	} else {
		c->cpu_exec = INFINITY;
		c->cpu_plan = -1;
		c->needs_planning = 0;
		snprintf(c->cpu_exec_src, sizeof c->cpu_exec_src, "FFTW cannot plan it");
	}

	/* several threads not measured yet: FFTW with n threads runs 1 to n times faster
	 * than with one; measured only if the choice differs across that range */
	if (!cpu_known) {
		double t1 = cpu_exec_model(ops, 1, 1, flops, points, c->rigor);
		if (!(t1 > 0)) {
			snprintf(why, cap, "FFTW could not be timed");
			vfw_costs_release(c, ops);
			return 0;
		}
		vfw_costs lo = *c, hi = *c;
		lo.cpu_exec = t1 / nthreads;
		hi.cpu_exec = t1;
		plan_cost(&lo, o), plan_cost(&hi, o);
		if (vfw_costs_gpu_wins(&lo) == vfw_costs_gpu_wins(&hi)) {
			c->cpu_exec = t1 / nthreads;
			snprintf(c->cpu_exec_src, sizeof c->cpu_exec_src,
				 "model: %.3g Mflop, 1 thread's speed x %d; %d threads not measured: the same choice at 1 thread's",
				 flops / 1e6, nthreads, nthreads);
		} else {
			c->cpu_exec = cpu_exec_model(ops, nthreads, 1, flops, points, c->rigor);
			if (!(c->cpu_exec > 0)) {
				snprintf(why, cap, "FFTW could not be timed with %d threads", nthreads);
				vfw_costs_release(c, ops);
				return 0;
			}
		}
	}
	/* past the measured cubes the model's rate is FFTW's at this size, for either branch */
	double pf = flops > 0 ? per_flop_at_size(pb, ops, nthreads, points) : 0;
	if (pf > 0) {
		c->cpu_exec = flops * pf * rigor_speed(c->rigor);
		snprintf(c->cpu_exec_src, sizeof c->cpu_exec_src, "model: %.3g Mflop at its own size's rate, %d thread%s",
			 flops / 1e6, nthreads, nthreads == 1 ? "" : "s");
	}
	plan_cost(c, o);
	return 1;
}
