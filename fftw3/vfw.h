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
	 * row-major shape planned with FFTW_ESTIMATE (best of reps), or a negative value;
	 * *flops (may be NULL) gets its operation count (vfw_cpu_ops.flops). */
	double (*time_c2c)(int rank, const int *n, int nthreads, int reps, double *flops);
	/* A real plan's operation count as FFTW counts it (fftw_flops: add + mul + 2 fma). */
	double (*flops)(void *real_plan);
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
	uint64_t key;                       /* vfw_problem_key, for the history */
	int64_t executes;                   /* executes so far (atomic) */
	int64_t best_ns;                    /* the fastest so far, ns (atomic; 0: none) */
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
VFW_HIDDEN void vfw_stat_exec(vfw_plan *p, double seconds);
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
/* Where a GPU plan comes from: this library's plan cache, libvkfftgo's disk kernel
 * cache (milliseconds), a compile (about a second), or unknown (counted as a compile). */
enum { VFW_GPU_LEASED, VFW_GPU_DISK, VFW_GPU_COMPILE, VFW_GPU_UNKNOWN };
/* Where the problem's GPU plan would come from now (the device is open). */
VFW_HIDDEN int vfw_gpu_source(const vfw_problem *pb);
/* Builds the GPU side of a plan, or returns NULL and says why (the layout, VkFFT);
 * *source says where it came from, *build_s how long a build took (0 for a lease). */
VFW_HIDDEN struct vfw_gpu *vfw_gpu_plan(const vfw_problem *pb, int *source, double *build_s, char *why, size_t cap);
VFW_HIDDEN void vfw_gpu_destroy(struct vfw_gpu *g);
/* Runs the transform on arrays laid out as planned; 0 on success. */
VFW_HIDDEN int vfw_gpu_execute(struct vfw_gpu *g, void *in, void *out);
/* What a GPU plan of a problem moves and computes per execute. */
typedef struct vfw_gpu_shape {
	int64_t elements;           /* points of all transforms (howmany included) */
	int64_t points;             /* points of one transform */
	size_t in_bytes, out_bytes; /* dense bytes up and down */
	int direct;                 /* both sides go straight from and to the caller's arrays */
	int smooth;                 /* every axis has prime factors <= 13 (VkFFT's radices) */
	int real;                   /* r2c or c2r (half the work of c2c) */
} vfw_gpu_shape;
/* Whether the problem's shape is one the GPU takes (rank 1-3 after dropping size-1
 * axes, interleaved C2C/R2C/C2R); if not, why. Also what it moves and computes. */
VFW_HIDDEN int vfw_gpu_takes(const vfw_problem *pb, vfw_gpu_shape *shape, char *why, size_t cap);
/* Seconds per host round trip (upload, forward C2C, download) of the shape, best of
 * reps; negative on failure. The plan stays in the plan cache; *source and *build_s
 * (may be NULL) as for vfw_gpu_plan. */
VFW_HIDDEN double vfw_gpu_time_c2c(int prec, int rank, const int *n, int reps, int *source, double *build_s);
/* Seconds for an upload and a download of bytes of pageable memory to a device
 * buffer, best of reps after a warm-up; negative on failure. */
VFW_HIDDEN double vfw_gpu_time_transfer(size_t bytes, int reps);
/* Frees idle cached plans. */
VFW_HIDDEN void vfw_gpu_trim(void);
VFW_HIDDEN const char *vfw_gpu_device_name(void);

/* history.c — what this process's plans did (under the planner's lock). */
typedef struct vfw_pattern {
	int churn;             /* a create/execute/destroy caller */
	double plans;          /* plans of the problem to expect, this one included */
	double executes;       /* executes to expect of each */
	int measured;          /* FFTW planned it before without wisdom (MEASURE and up) */
	double cpu_exec, gpu_exec; /* fastest execute seen on FFTW (with cpu_threads) and the GPU; 0: none */
	int cpu_threads;
	char text[200];        /* for the log */
} vfw_pattern;
/* The problem's identity (kind, precision, sign, dimensions and strides, in place). */
VFW_HIDDEN uint64_t vfw_problem_key(const vfw_problem *pb);
/* FFTW planned the problem without wisdom (FFTW_MEASURE and up): wisdom has it now. */
VFW_HIDDEN void vfw_history_measured(uint64_t key);
/* A plan of the problem was destroyed after executes executes; best is its fastest
 * (s, 0 if none) on engine, with nthreads for FFTW. */
VFW_HIDDEN void vfw_history_destroyed(uint64_t key, int64_t executes, int engine, double best, int nthreads);
/* The pattern of the problem's earlier plans, or of the process's, or default_executes. */
VFW_HIDDEN void vfw_history_pattern(uint64_t key, double default_executes, vfw_pattern *out);

/* crossover.c — this machine's figures, measured once and cached. */
typedef struct vfw_gpu_consts {
	/* a round trip: latency + bytes / bandwidth + per_work * n log2 n, plus bytes /
	 * copy_bw for the staging copies of layouts that are not dense */
	double latency, bandwidth, per_work, copy_bw;
	char note[400];
} vfw_gpu_consts;
typedef struct vfw_cpu_consts {
	int n;              /* cubes measured: 32^3, 64^3, 128^3 (the first n) */
	double per_flop[3]; /* FFTW_ESTIMATE seconds per FFTW flop at each */
	char note[400];
} vfw_cpu_consts;
/* The GPU's figures for prec (measured now if not cached); 0 if it cannot be timed. */
VFW_HIDDEN int vfw_crossover_gpu(int prec, vfw_gpu_consts *out);
/* FFTW's for the precision and thread count: cached, or measured now if measure;
 * 0 if neither. */
VFW_HIDDEN int vfw_crossover_cpu(const vfw_cpu_ops *ops, int nthreads, int measure, vfw_cpu_consts *out);
/* Seconds per flop for a problem of that many points. */
VFW_HIDDEN double vfw_cpu_per_flop(const vfw_cpu_consts *c, double points);
/* What real plans taught: a GPU plan's build (VFW_GPU_DISK or _COMPILE), and FFTW's
 * planning time against the model's (the ratio, per rigor). */
VFW_HIDDEN void vfw_learn_build(int source, double seconds);
VFW_HIDDEN double vfw_build_cost(int source);
VFW_HIDDEN void vfw_learn_plan(int rigor, double ratio);
VFW_HIDDEN double vfw_plan_factor(int rigor);

/* costs.c — the engine choice. */
enum { VFW_ESTIMATE, VFW_MEASURE, VFW_PATIENT, VFW_EXHAUSTIVE };
/* FFTW's planning rigor from planner flags (FFTW's precedence). */
VFW_HIDDEN int vfw_rigor(unsigned flags);
/* "MEASURE|PRESERVE_INPUT" */
VFW_HIDDEN void vfw_flags_text(unsigned flags, char *buf, size_t cap);
typedef struct vfw_costs {
	double plans, executes;                        /* expected: plans of the problem, executes of each */
	int replans;                                   /* FFTW's planning recurs (its wisdom was forgotten) */
	double cpu_plan, cpu_exec, gpu_plan, gpu_exec; /* s; cpu_plan < 0: FFTW cannot plan it */
	char pattern[200], cpu_plan_src[160], cpu_exec_src[200], gpu_plan_src[160], gpu_exec_src[120];
	int rigor, gpu_source, needs_planning;
	double plan_model; /* FFTW's planning by the model before the learned factor (s) */
	/* real FFTW plans made on the way, for the planner to use or destroy: the problem's
	 * FFTW_ESTIMATE plan (estimate_is_callers: with the caller's own flags), and its
	 * plan from wisdom */
	void *estimate_plan, *wisdom_plan;
	int estimate_is_callers;
} vfw_costs;
/* Fills c for the problem (the device is open); 0 and why if it cannot be compared. */
VFW_HIDDEN int vfw_costs_estimate(const vfw_problem *pb, const vfw_cpu_ops *ops, int nthreads,
				  const vfw_gpu_shape *sh, vfw_costs *c, char *why, size_t cap);
VFW_HIDDEN int vfw_costs_gpu_wins(const vfw_costs *c);
VFW_HIDDEN void vfw_costs_describe(const vfw_costs *c, char *buf, size_t cap);
/* Destroys the real plans c holds. */
VFW_HIDDEN void vfw_costs_release(vfw_costs *c, const vfw_cpu_ops *ops);

/* threshold.c — the legacy rule: the problem size (elements) from which the GPU is faster. */
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

/* cachefile.c — keyed lines in a file of the cache directory. */
/* The file's path in the cache directory (made if need be); 0 when caching is off. */
VFW_HIDDEN int vfw_cache_path(const char *file, char *buf, size_t cap);
/* The value of key's last line in the file; 0 if there is none. */
VFW_HIDDEN int vfw_cache_read(const char *path, const char *key, char *value, size_t cap);
/* Replaces key's line (atomically: a temporary file renamed). */
VFW_HIDDEN void vfw_cache_write(const char *path, const char *key, const char *value);

#endif /* VFW_H */
