/* vfw.h — libvkfftgo_fftw3's internal interface (nothing here is exported).
 *
 * The FFTW entry points (api.inc, compiled once per precision) turn every planner call
 * into a vfw_problem in guru64 terms and hand it to the planner (planner.c), which picks
 * an engine: the GPU through libvkfftgo's public C API (gpu.c, layout.c), or the real
 * FFTW loaded with dlopen (real.c and the precision's vfw_cpu_ops). */
#ifndef VFW_H
#define VFW_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define VFW_HIDDEN __attribute__((visibility("hidden")))
#define VFW_EXPORT __attribute__((visibility("default")))

enum { VFW_SINGLE = 0, VFW_DOUBLE = 1 };

/* Problem kinds, as FFTW's planners name them. */
enum vfw_kind {
	VFW_C2C, VFW_R2C, VFW_C2R, VFW_R2R, VFW_SPLIT_C2C, VFW_SPLIT_R2C, VFW_SPLIT_C2R
};

/* One dimension in guru64 terms: strides in units of the side's element (complex for
 * complex data, real for real data, real for split arrays). Same layout as fftw_iodim64. */
typedef struct vfw_dim {
	ptrdiff_t n, is, os;
} vfw_dim;

/* FFTW's "infinite" rank (RNK_MINFTY), allowed as a howmany rank by the guru planners. */
#define VFW_RNK_MINFTY 0x7fffffff

typedef struct vfw_problem {
	int prec;       /* VFW_SINGLE or VFW_DOUBLE */
	int kind;       /* enum vfw_kind */
	int sign;       /* FFTW_FORWARD (-1) or FFTW_BACKWARD (+1); r2c -1, c2r +1 */
	unsigned flags; /* planner flags as given */
	int rank, hrank;
	const vfw_dim *dims, *hdims;
	void *in, *out;          /* interleaved data; also r2r, split r2c input, split c2r output */
	void *ri, *ii, *ro, *io; /* split arrays */
	const int *r2r_kinds;    /* rank entries, for VFW_R2R */
	const char *api;         /* the entry point, for the log: "fftwf_plan_dft_r2c_3d" */
} vfw_problem;

/* The real FFTW of one precision, implemented in api.inc with exact types. */
typedef struct vfw_cpu_ops {
	int prec;
	/* 1 if libfftw3[f].so.3 could be loaded (loads it on first use). */
	int (*available)(void);
	/* The real FFTW's plan for the problem (its guru64 planner), or NULL. */
	void *(*plan)(const vfw_problem *pb, int nthreads);
	void (*destroy)(void *real_plan);
	/* The real plan's new-array execute for interleaved C2C, R2C, C2R, and R2R. */
	void (*execute_new)(void *real_plan, int kind, void *in, void *out);
	/* Seconds per execute of an out-of-place complex forward transform of the given
	 * row-major shape planned with FFTW_ESTIMATE (best of reps), or a negative value. */
	double (*time_c2c)(int rank, const int *n, int nthreads, int reps);
	const char *(*version)(void);
} vfw_cpu_ops;

VFW_HIDDEN extern const vfw_cpu_ops vfw_cpu_single, vfw_cpu_double;

struct vfw_gpu;

enum { VFW_ENGINE_CPU = 1, VFW_ENGINE_GPU = 2 };

#define VFW_PLAN_MAGIC 0x76667770u /* "vfwp" */

/* What an fftw_plan / fftwf_plan points to. */
typedef struct vfw_plan {
	uint32_t magic;
	int prec, kind, sign, engine;
	int nthreads; /* VFW_ENGINE_CPU: the real plan's threads */
	unsigned flags;
	int rank, hrank;                    /* the problem, kept for the CPU fallback */
	vfw_dim *dims, *hdims;
	int *r2r_kinds;                     /* VFW_R2R: rank entries (in the dims' block) */
	void *in, *out, *ri, *ii, *ro, *io; /* the planner's arrays, for fftw_execute */
	void *real;                         /* VFW_ENGINE_CPU: the real FFTW plan */
	struct vfw_gpu *gpu;                /* VFW_ENGINE_GPU */
	/* In a forked child (fork.c), a GPU plan, or a CPU plan with several threads (FFTW's
	 * worker threads stayed in the parent): the real FFTW plans that run it there, out of
	 * place [0] and in place [1], made on first use; copy_in: the real plan may overwrite
	 * its input where the caller asked FFTW_PRESERVE_INPUT (a multi-dimensional c2r), so
	 * it runs on a copy */
	void *fork_real[2];
	int fork_copy_in[2];
	double add, mul, fma;               /* flop estimate for fftw_flops (GPU plans) */
	char desc[200];                     /* "r2c 256x256x256 howmany 1, out-of-place" */
} vfw_plan;

/* log.c — the bottom layer: the log and the clock. */
VFW_HIDDEN double vfw_now(void);
VFW_HIDDEN void vfw_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
VFW_HIDDEN int vfw_log_enabled(void);

/* state.c — the planner's lock and the thread counts callers asked for. */
VFW_HIDDEN void vfw_planner_lock(void);
VFW_HIDDEN void vfw_planner_unlock(void);
/* 1 if it took the lock (the exit handler must not wait for a planning thread) */
VFW_HIDDEN int vfw_planner_trylock(void);
VFW_HIDDEN void vfw_set_nthreads(int prec, int nthreads);
VFW_HIDDEN int vfw_get_nthreads(int prec);
/* vfw_get_nthreads for a caller that holds the planner's lock */
VFW_HIDDEN int vfw_get_nthreads_locked(int prec);
/* Set by the real planner when it plans with more than one thread: FFTW then keeps
 * worker threads, which a forked child lacks (fork.c plans there with one thread). */
VFW_HIDDEN extern int vfw_real_threads_used;

/* planner.c */
VFW_HIDDEN vfw_plan *vfw_plan_make(const vfw_problem *pb, const vfw_cpu_ops *ops);
VFW_HIDDEN void vfw_plan_destroy(vfw_plan *p, const vfw_cpu_ops *ops);
/* The GPU failed to run p's transform: compute it with the real FFTW (FFTW_ESTIMATE)
 * if there is one, else report it; the result is never silently wrong. */
VFW_HIDDEN void vfw_plan_gpu_failed(vfw_plan *p, const vfw_cpu_ops *ops, void *in, void *out);
/* A live plan of this library and precision, or NULL (FFTW would crash; we say so). */
VFW_HIDDEN vfw_plan *vfw_plan_check(const void *p, int prec, const char *api);
VFW_HIDDEN void vfw_cleanup(void);
VFW_HIDDEN void vfw_stat_exec(const vfw_plan *p, double seconds);
/* Describes the plan for fftw_print_plan ("(vkfftgo-gpu r2c 256x256x256 ...)"). */
VFW_HIDDEN int vfw_plan_print(const vfw_plan *p, char *buf, size_t cap);

/* fork.c — a child forked without exec: GPU plans run on FFTW there. */
/* Whether this process is a child forked without exec from one that had loaded
 * libvkfftgo (vkfftgo_forked): the GPU is not usable here, and every plan runs on FFTW. */
VFW_HIDDEN int vfw_forked(void);
/* Whether p runs on a plan of vfw_fork_execute here: a GPU plan or a CPU plan with
 * several threads (interleaved or r2r), in a forked child. */
VFW_HIDDEN int vfw_fork_replans(const vfw_plan *p);
/* Runs p on the real FFTW with one plan made on first use; 0 on success, else -1 (no
 * real FFTW, or it refused the problem) with a message once on stderr. */
VFW_HIDDEN int vfw_fork_execute(vfw_plan *p, const vfw_cpu_ops *ops, void *in, void *out);
/* Says once per process, in the log, why plans run on FFTW here. */
VFW_HIDDEN void vfw_fork_note(void);

/* layout.c — one side (input or output) of a GPU plan: the caller's strided layout
 * against the dense row-major one libvkfftgo transforms. Axes run outermost first: the
 * howmany (batch) axes, then the transform axes. */
#define VFW_MAXD 16
typedef struct vfw_side {
	int nd;
	ptrdiff_t n[VFW_MAXD];
	ptrdiff_t stride[VFW_MAXD]; /* bytes, as the caller lays the data out */
	ptrdiff_t canon[VFW_MAXD];  /* bytes, dense row-major */
	size_t es, bytes;           /* element size; dense size */
	ptrdiff_t lo, hi;           /* bytes touched, [base+lo, base+hi) */
	int direct;                 /* the caller's layout is the dense one */
} vfw_side;
/* Fills canon, bytes, lo, hi and direct from nd, n, stride and es. */
VFW_HIDDEN void vfw_side_finish(vfw_side *s);
/* dense <- caller's layout, and back. */
VFW_HIDDEN void vfw_gather(void *dense, const void *src, const vfw_side *s);
VFW_HIDDEN void vfw_scatter(void *dst, const void *dense, const vfw_side *s);
/* Whether the bytes the two sides touch at these base pointers overlap. */
VFW_HIDDEN int vfw_sides_overlap(const void *a, const vfw_side *sa, const void *b, const vfw_side *sb);

/* gpu.c — the GPU engine over include/vkfftgo.h. */
/* The calling thread's last GPU failure (for messages). */
VFW_HIDDEN const char *vfw_gpu_last_error(void);
/* 1 when a device is open (opened on first call); else 0 and why. */
VFW_HIDDEN int vfw_gpu_ready(int prec, char *why, size_t cap);
/* Builds the GPU side of a plan, or returns NULL and says why (the layout, VkFFT). */
VFW_HIDDEN struct vfw_gpu *vfw_gpu_plan(const vfw_problem *pb, int *cached, char *why, size_t cap);
VFW_HIDDEN void vfw_gpu_destroy(struct vfw_gpu *g);
/* Runs the transform on arrays laid out as planned; 0 on success. */
VFW_HIDDEN int vfw_gpu_execute(struct vfw_gpu *g, void *in, void *out);
/* Whether the problem's shape is one the GPU takes (rank 1-3 after dropping size-1
 * axes, interleaved C2C/R2C/C2R); if not, why. Also the problem's element count. */
VFW_HIDDEN int vfw_gpu_takes(const vfw_problem *pb, int64_t *elements, char *why, size_t cap);
/* Seconds per host round trip (upload, forward C2C, download) of the shape, best of
 * reps; negative on failure. The plan stays in the plan cache. */
VFW_HIDDEN double vfw_gpu_time_c2c(int prec, int rank, const int *n, int reps);
/* Frees idle cached plans. */
VFW_HIDDEN void vfw_gpu_trim(void);
VFW_HIDDEN const char *vfw_gpu_device_name(void);

/* threshold.c — the problem size (elements) from which the GPU is faster. */
VFW_HIDDEN int64_t vfw_threshold(const vfw_cpu_ops *ops, int nthreads, char *why, size_t cap);

/* real.c — the real FFTW libraries (dlopen; symbols looked up in their handles). */
VFW_HIDDEN void *vfw_real_lib(int prec);
VFW_HIDDEN void *vfw_real_threads_lib(int prec);

/* mem.c */
VFW_HIDDEN void *vfw_malloc(size_t n);
VFW_HIDDEN void vfw_free(void *p);
struct vkfftgo_device;
/* If p lies in an fftw_malloc block of 1 MiB or more, page-locks the block for dev
 * (once); 1 if it is page-locked. */
VFW_HIDDEN int vfw_mem_pin(struct vkfftgo_device *dev, const void *p);

/* cache dir for the threshold file ("" when caching is off) */
VFW_HIDDEN int vfw_cache_path(const char *file, char *buf, size_t cap);

#endif /* VFW_H */
