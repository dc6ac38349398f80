/* fork.c — libvkfftgo_fftw3 in a child forked without exec (Python's multiprocessing
 * 'fork' start method, a server's pre-forked workers). The child has only the thread
 * that forked: libvkfftgo's device and plans, and its Go runtime, are the parent's and
 * cannot be used there (vkfftgo.h, INSIDE YOUR PROCESS), so the child computes every
 * plan with the real FFTW — new plans are planned there (planner.c), and GPU plans the
 * parent made run on an FFTW_ESTIMATE plan of the same problem, made on first use. So
 * do the parent's CPU plans with several threads: FFTW keeps worker threads once it ran
 * with several, and waits for them, but they stayed in the parent (plain FFTW hangs
 * there); the child plans with one thread. Split-array plans are left as they are.
 *
 * Whether this is such a child is libvkfftgo's to say (vkfftgo_forked, plain C). What is
 * ours are this library's locks: a thread that held one at fork time is gone, so the
 * child makes them new (each file that has one registers a pthread_atfork child handler
 * at load: state.c, planner.c, real.c, mem.c). */
#include <stdlib.h>
#include <string.h>

#include <vkfftgo.h>

#include "abi.h"
#include "vfw.h"

static int noted; /* the child's log line was written */

static void child_handler(void)
{
	noted = 0; /* each child says it once, a child's child too */
}

__attribute__((constructor)) static void watch_at_load(void)
{
	/* fails only without memory for the entry: the locks then stay as fork left them */
	(void)pthread_atfork(NULL, NULL, child_handler);
}

int vfw_forked(void)
{
	return vkfftgo_forked();
}

int vfw_fork_replans(const vfw_plan *p)
{
	return (p->engine == VFW_ENGINE_GPU || (p->nthreads > 1 && p->kind <= VFW_R2R)) && vfw_forked();
}

void vfw_fork_note(void)
{
	if (__atomic_load_n(&noted, __ATOMIC_RELAXED) || __atomic_exchange_n(&noted, 1, __ATOMIC_RELAXED))
		return;
	int one = __atomic_load_n(&vfw_real_threads_used, __ATOMIC_RELAXED);
	vfw_log("this process was forked (without exec) from one that had loaded libvkfftgo: the GPU is the "
		"parent's and cannot be used here, so every plan, the parent's GPU plans too, runs on FFTW%s",
		one ? " with one thread (FFTW's worker threads stayed in the parent)" : "");
}

/* The input's extent in elements from its base pointer, [lo, hi]: the caller's layout,
 * for a copy of the input. */
static void input_extent(const vfw_plan *p, ptrdiff_t *lo, ptrdiff_t *hi)
{
	*lo = *hi = 0;
	for (int i = 0; i < p->rank; i++) {
		ptrdiff_t n = p->kind == VFW_C2R && i == p->rank - 1 ? p->dims[i].n / 2 + 1 : p->dims[i].n;
		ptrdiff_t d = (n - 1) * p->dims[i].is;
		*(d < 0 ? lo : hi) += d;
	}
	for (int i = 0; p->hrank != VFW_RNK_MINFTY && i < p->hrank; i++) {
		ptrdiff_t d = (p->hdims[i].n - 1) * p->hdims[i].is;
		*(d < 0 ? lo : hi) += d;
	}
}

/* The real FFTW's plan of p's problem with the caller's flags but FFTW_ESTIMATE (the
 * arrays are the caller's: nothing may be written to them while planning) and
 * FFTW_UNALIGNED (the new-array calls bring any alignment). Called under the planner's
 * lock. */
static void *plan_real(vfw_plan *p, const vfw_cpu_ops *ops, void *in, void *out, int *copy_in)
{
	vfw_problem pb = { 0 };
	unsigned keep = p->flags & ~(FFTW_PATIENT | FFTW_EXHAUSTIVE | FFTW_WISDOM_ONLY);
	int nthreads = vfw_get_nthreads_locked(p->prec);
	if (__atomic_load_n(&vfw_real_threads_used, __ATOMIC_RELAXED))
		nthreads = 1; /* FFTW's worker threads stayed in the parent */
	pb.prec = p->prec, pb.kind = p->kind, pb.sign = p->sign;
	pb.flags = keep | FFTW_ESTIMATE | FFTW_UNALIGNED;
	pb.rank = p->rank, pb.dims = p->dims, pb.hrank = p->hrank, pb.hdims = p->hdims;
	pb.in = in, pb.out = out, pb.r2r_kinds = p->r2r_kinds;
	*copy_in = 0;
	void *rp = ops->available() ? ops->plan(&pb, nthreads) : NULL;
	if (!rp && (keep & FFTW_PRESERVE_INPUT) && ops->available()) {
		/* FFTW refuses to preserve a multi-dimensional c2r input; the GPU plan did: a
		 * plan that may overwrite its input, run on a copy */
		pb.flags = (pb.flags & ~FFTW_PRESERVE_INPUT) | FFTW_DESTROY_INPUT;
		rp = ops->plan(&pb, nthreads);
		*copy_in = rp != NULL;
	}
	if (rp)
		vfw_log("%s, planned %s before the fork -> fftw (%d thread%s)%s", p->desc,
			p->engine == VFW_ENGINE_GPU ? "for the GPU" : "with several threads", nthreads,
			nthreads == 1 ? "" : "s", *copy_in ? ", run on a copy of its input (FFTW_PRESERVE_INPUT)" : "");
	return rp;
}

int vfw_fork_execute(vfw_plan *p, const vfw_cpu_ops *ops, void *in, void *out)
{
	const int k = in == out; /* FFTW's new-array calls keep a plan in or out of place */
	void *rp = __atomic_load_n(&p->fork_real[k], __ATOMIC_ACQUIRE);
	vfw_fork_note();
	if (!rp) {
		vfw_planner_lock();
		rp = p->fork_real[k];
		if (!rp) {
			rp = plan_real(p, ops, in, out, &p->fork_copy_in[k]);
			__atomic_store_n(&p->fork_real[k], rp, __ATOMIC_RELEASE);
		}
		vfw_planner_unlock();
	}
	if (!rp) {
		static int warned;
		if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
			fprintf(stderr,
				"vkfftgo-fftw3: %s in a process forked from one that had loaded libvkfftgo: the "
				"GPU is the parent's, and %s; the output is NOT computed (further failures are "
				"not reported)\n",
				p->desc,
				ops->available() ? "FFTW could not plan it" : "there is no real FFTW to run it");
		return -1;
	}
	if (!p->fork_copy_in[k]) {
		ops->execute_new(rp, p->kind, in, out);
		return 0;
	}
	const size_t es = (p->kind == VFW_C2R || p->kind == VFW_C2C ? 2 : 1) *
			  (p->prec == VFW_SINGLE ? sizeof(float) : sizeof(double));
	ptrdiff_t lo, hi;
	input_extent(p, &lo, &hi);
	size_t bytes = (size_t)(hi - lo + 1) * es;
	char *copy = (char *)malloc(bytes);
	if (!copy) {
		fprintf(stderr,
			"vkfftgo-fftw3: %s: out of host memory for a copy of its input; the output is NOT computed\n",
			p->desc);
		return -1;
	}
	memcpy(copy, (const char *)in + lo * (ptrdiff_t)es, bytes);
	ops->execute_new(rp, p->kind, copy - lo * (ptrdiff_t)es, out);
	free(copy);
	return 0;
}
