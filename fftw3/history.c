/* history.c — what this process's plans did, for the engine choice: how a caller uses
 * its plans (kept and executed many times, or created, executed once or twice and
 * destroyed, as ITK's filters do per Update()), how long their executes took on each
 * engine, and whether FFTW measured the problem (so that its wisdom should have it).
 * A problem planned again after plans of it were destroyed takes its pattern and
 * timings from them: a create/execute/destroy caller is expected to plan it as often
 * again as it did so far. A problem never seen takes the pattern of the process's
 * destroyed plans, if they show one. Called under the planner's lock. */
#include <string.h>

#include "vfw.h"

enum { NSEEN = 64, CHURN_EXECUTES = 2 };

typedef struct seen {
	uint64_t key;
	int64_t plans, executes;           /* plans of it destroyed, and their executes */
	double last_destroy;               /* vfw_now() */
	double best[2];                    /* fastest execute on FFTW [0] and the GPU [1], s (0: none) */
	int best_threads;                  /* FFTW's thread count for best[0] */
	int measured;                      /* FFTW planned it without wisdom (MEASURE and up) */
	uint64_t used;                     /* for replacing the least recently used */
} seen;

static seen table[NSEEN];
static uint64_t clock_;
static int64_t all_plans, all_executes;

static uint64_t mix(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) { /* FNV-1a, byte by byte */
		h ^= (v >> (8 * i)) & 0xff;
		h *= 1099511628211ull;
	}
	return h;
}

uint64_t vfw_problem_key(const vfw_problem *pb)
{
	uint64_t h = 1469598103934665603ull;
	h = mix(h, (uint64_t)pb->prec);
	h = mix(h, (uint64_t)pb->kind);
	h = mix(h, (uint64_t)pb->sign);
	h = mix(h, (uint64_t)pb->rank);
	h = mix(h, (uint64_t)pb->hrank);
	h = mix(h, pb->in == pb->out);
	for (int i = 0; i < pb->rank; i++) {
		h = mix(h, (uint64_t)pb->dims[i].n);
		h = mix(h, (uint64_t)pb->dims[i].is);
		h = mix(h, (uint64_t)pb->dims[i].os);
	}
	for (int i = 0; pb->hrank != VFW_RNK_MINFTY && i < pb->hrank; i++) {
		h = mix(h, (uint64_t)pb->hdims[i].n);
		h = mix(h, (uint64_t)pb->hdims[i].is);
		h = mix(h, (uint64_t)pb->hdims[i].os);
	}
	return h;
}

static seen *lookup(uint64_t key)
{
	for (int i = 0; i < NSEEN; i++)
		if (table[i].used && table[i].key == key)
			return &table[i];
	return NULL;
}

static seen *entry(uint64_t key)
{
	seen *s = NULL;
	for (int i = 0; i < NSEEN && !s; i++)
		if (table[i].used && table[i].key == key)
			s = &table[i];
	if (!s) {
		s = &table[0];
		for (int i = 1; i < NSEEN; i++)
			if (table[i].used < s->used)
				s = &table[i];
		memset(s, 0, sizeof *s);
		s->key = key;
	}
	s->used = ++clock_;
	return s;
}

void vfw_history_measured(uint64_t key)
{
	entry(key)->measured = 1;
}

void vfw_history_destroyed(uint64_t key, int64_t executes, int engine, double best, int nthreads)
{
	seen *s = entry(key);
	s->plans++;
	s->executes += executes;
	s->last_destroy = vfw_now();
	int k = engine == VFW_ENGINE_GPU;
	if (best > 0 && (s->best[k] == 0 || best < s->best[k] || (!k && s->best_threads != nthreads))) {
		s->best[k] = best;
		if (!k)
			s->best_threads = nthreads;
	}
	all_plans++;
	all_executes += executes;
}

void vfw_history_pattern(uint64_t key, double default_executes, vfw_pattern *out)
{
	memset(out, 0, sizeof *out);
	out->plans = 1;
	seen *s = lookup(key);
	if (s) {
		out->cpu_exec = s->best[0];
		out->cpu_threads = s->best_threads;
		out->gpu_exec = s->best[1];
		out->measured = s->measured;
		s->used = ++clock_;
	}
	if (s && s->plans) {
		double avg = (double)s->executes / (double)s->plans;
		if (avg <= CHURN_EXECUTES) {
			out->churn = 1;
			out->plans = (double)s->plans;
			out->executes = avg < 1 ? 1 : avg;
			snprintf(out->text, sizeof out->text,
				 "create/execute/destroy: %lld plan%s of it destroyed after %.1f execute%s each, the last "
				 "%.1f s ago; as many to come",
				 (long long)s->plans, s->plans == 1 ? "" : "s", avg, avg == 1 ? "" : "s",
				 vfw_now() - s->last_destroy);
		} else {
			out->executes = avg > default_executes ? avg : default_executes;
			snprintf(out->text, sizeof out->text, "kept: %lld plan%s of it destroyed after %.0f executes each",
				 (long long)s->plans, s->plans == 1 ? "" : "s", avg);
		}
		return;
	}
	double avg = all_plans ? (double)all_executes / (double)all_plans : 0;
	if (all_plans >= 2 && avg <= CHURN_EXECUTES) {
		out->churn = 1;
		out->executes = avg < 1 ? 1 : avg;
		snprintf(out->text, sizeof out->text,
			 "create/execute/destroy, as this process's plans (%lld destroyed after %.1f executes each)",
			 (long long)all_plans, avg);
		return;
	}
	out->executes = default_executes;
	snprintf(out->text, sizeof out->text, "not known yet (VKFFTGO_FFTW_EXECUTES)");
}
