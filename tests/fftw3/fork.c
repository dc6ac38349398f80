/* fork.c — libvkfftgo_fftw3 in a child forked without exec. The parent plans c2c, r2c and
 * c2r problems on the GPU (tests/fftw3/run.sh sets VKFFTGO_FFTW_MIN_SIZE=0) and runs
 * them; the child runs the same plans (fftw_execute and the new-array calls), plans a
 * new problem and runs it, destroys the inherited plans, calls fftwf_cleanup and exits
 * through its exit handlers. Every child result must equal the real FFTW's (loaded here
 * with dlopen, as a reference) and an FFTW_PRESERVE_INPUT c2r must leave its input as
 * it was. Then children are forked while another thread builds and frees GPU plans (the
 * planner's lock held; not under AddressSanitizer, see main), and must still plan; and
 * one after FFTW ran with two threads in the parent, whose worker threads the child lacks.
 * The parent waits for each child with a deadline (a hung child fails the test) and goes
 * on using its GPU plans afterwards.
 *   cc fork.c -lvkfftgo_fftw3 -ldl -lm -pthread   (FFTW's own fftw3.h) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <fftw3.h>

enum { CHILD_SECONDS = 60 };
enum { C3 = 32 * 32 * 32, R0 = 64, R1 = 48, RH = R1 / 2 + 1, N1 = 4096 };

/* The real FFTW, looked up in its own handle: the reference. Its guru64 planners only:
 * the simpler ones call FFTW's other entry points through the global scope, where this
 * library's come first. */
static struct {
	fftwf_plan (*dft)(int, const fftwf_iodim64 *, int, const fftwf_iodim64 *, fftwf_complex *, fftwf_complex *,
			  int, unsigned);
	fftwf_plan (*r2c)(int, const fftwf_iodim64 *, int, const fftwf_iodim64 *, float *, fftwf_complex *, unsigned);
	fftwf_plan (*c2r)(int, const fftwf_iodim64 *, int, const fftwf_iodim64 *, fftwf_complex *, float *, unsigned);
	fftwf_plan (*r2r)(int, const fftwf_iodim64 *, int, const fftwf_iodim64 *, float *, float *,
			  const fftwf_r2r_kind *, unsigned);
	void (*execute)(const fftwf_plan);
	void (*destroy)(fftwf_plan);
} ref;

/* Row-major dims of n: in strides of the input's elements, out of the output's (the
 * last axis of the complex side of r2c/c2r has n/2+1). */
static void dims_of(int rank, const int *n, int half_in, int half_out, fftwf_iodim64 *d)
{
	ptrdiff_t is = 1, os = 1;
	for (int i = rank - 1; i >= 0; i--) {
		d[i].n = n[i];
		d[i].is = is, d[i].os = os;
		is *= i == rank - 1 && half_in ? n[i] / 2 + 1 : n[i];
		os *= i == rank - 1 && half_out ? n[i] / 2 + 1 : n[i];
	}
}

/* One reference transform, planned FFTW_ESTIMATE, run and destroyed. */
static void ref_c2c(int rank, const int *n, fftwf_complex *in, fftwf_complex *out, int sign)
{
	fftwf_iodim64 d[3];
	dims_of(rank, n, 0, 0, d);
	fftwf_plan q = ref.dft(rank, d, 0, NULL, in, out, sign, FFTW_ESTIMATE);
	ref.execute(q), ref.destroy(q);
}

static void ref_r2c(int rank, const int *n, float *in, fftwf_complex *out)
{
	fftwf_iodim64 d[3];
	dims_of(rank, n, 0, 1, d);
	fftwf_plan q = ref.r2c(rank, d, 0, NULL, in, out, FFTW_ESTIMATE);
	ref.execute(q), ref.destroy(q);
}

static void ref_c2r(int rank, const int *n, fftwf_complex *in, float *out)
{
	fftwf_iodim64 d[3];
	dims_of(rank, n, 1, 0, d);
	fftwf_plan q = ref.c2r(rank, d, 0, NULL, in, out, FFTW_ESTIMATE);
	ref.execute(q), ref.destroy(q);
}

static void ref_r2r(int rank, const int *n, float *in, float *out, const fftwf_r2r_kind *kinds)
{
	fftwf_iodim64 d[3];
	dims_of(rank, n, 0, 0, d);
	fftwf_plan q = ref.r2r(rank, d, 0, NULL, in, out, kinds, FFTW_ESTIMATE);
	ref.execute(q), ref.destroy(q);
}

static const int n3[3] = { 32, 32, 32 }, n16[3] = { 16, 16, 16 }, n2[2] = { 64, 48 }, n1[1] = { 4096 };

static fftwf_plan p3, pr, pc, p1; /* 3-D c2c, 2-D r2c, 2-D c2r (preserve input), 1-D in place */
static fftwf_complex *a3, *b3, *ra, *rb, *one;
static float *ri, *ro;

static int in_child;

#ifdef __SANITIZE_ADDRESS__
/* LeakSanitizer asks this before its check at exit (sanitizer/lsan_interface.h): a forked
 * child's heap holds what only the parent's other threads pointed to. */
int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
	return in_child;
}
#endif

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "FAIL: %s\n", what);
	exit(1);
}

static void load_reference(void)
{
	void *h = dlopen("libfftw3f.so.3", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		die("libfftw3f.so.3 (the reference) not loadable");
	*(void **)&ref.dft = dlsym(h, "fftwf_plan_guru64_dft");
	*(void **)&ref.r2c = dlsym(h, "fftwf_plan_guru64_dft_r2c");
	*(void **)&ref.c2r = dlsym(h, "fftwf_plan_guru64_dft_c2r");
	*(void **)&ref.r2r = dlsym(h, "fftwf_plan_guru64_r2r");
	*(void **)&ref.execute = dlsym(h, "fftwf_execute");
	*(void **)&ref.destroy = dlsym(h, "fftwf_destroy_plan");
	if (!ref.dft || !ref.r2c || !ref.c2r || !ref.r2r || !ref.execute || !ref.destroy)
		die("the reference FFTW lacks functions");
}

static void fill(float *x, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (float)(((i * 2654435761u + seed * 40503u) >> 7) % 2000u) / 1000.0f - 1.0f;
}

/* got against want, n floats: max |got - want| / max |want| below tol */
static void expect_close(const float *got, const float *want, size_t n, double tol, const char *what)
{
	double err = 0, top = 0;
	for (size_t i = 0; i < n; i++) {
		err = fmax(err, fabs((double)got[i] - want[i]));
		top = fmax(top, fabs((double)want[i]));
	}
	if (!(err <= tol * top)) {
		fprintf(stderr, "FAIL: %s: max error %g of %g (tolerance %g)\n", what, err, top, tol);
		exit(1);
	}
}

/* The four problems on the reference FFTW, from the inputs as they are now. */
static void reference(fftwf_complex *w3, fftwf_complex *wr, float *wc, fftwf_complex *w1)
{
	fftwf_complex *cin = fftwf_alloc_complex(R0 * RH);
	float *rin = fftwf_alloc_real(R0 * R1);
	fftwf_complex *in1 = fftwf_alloc_complex(N1);
	memcpy(in1, one, sizeof *one * N1);
	ref_c2c(3, n3, a3, w3, FFTW_FORWARD);
	memcpy(rin, ri, sizeof *ri * R0 * R1);
	ref_r2c(2, n2, rin, wr);
	memcpy(cin, ra, sizeof *ra * R0 * RH); /* FFTW's c2r may overwrite its input: a copy */
	ref_c2r(2, n2, cin, wc);
	ref_c2c(1, n1, in1, w1, FFTW_BACKWARD);
	fftwf_free(cin), fftwf_free(rin), fftwf_free(in1);
}

/* Runs the four plans and compares them with the reference; tol: GPU or FFTW. */
static void run_and_check(double tol, const char *who)
{
	fftwf_complex *w3 = fftwf_alloc_complex(C3), *wr = fftwf_alloc_complex(R0 * RH), *w1 = fftwf_alloc_complex(N1);
	float *wc = fftwf_alloc_real(R0 * R1);
	fftwf_complex *keep = fftwf_alloc_complex(R0 * RH);
	char what[128];
	reference(w3, wr, wc, w1);
	memcpy(keep, ra, sizeof *ra * R0 * RH);
	fftwf_execute(p3);
	fftwf_execute(pr);
	fftwf_execute(pc);
	fftwf_execute(p1);
	snprintf(what, sizeof what, "%s: 3-D c2c", who);
	expect_close((float *)b3, (float *)w3, 2 * C3, tol, what);
	snprintf(what, sizeof what, "%s: 2-D r2c", who);
	expect_close((float *)rb, (float *)wr, 2 * R0 * RH, tol, what);
	snprintf(what, sizeof what, "%s: 2-D c2r", who);
	expect_close(ro, wc, R0 * R1, tol, what);
	snprintf(what, sizeof what, "%s: 1-D c2c in place", who);
	expect_close((float *)one, (float *)w1, 2 * N1, tol, what);
	if (memcmp(keep, ra, sizeof *ra * R0 * RH) != 0) {
		fprintf(stderr, "FAIL: %s: the FFTW_PRESERVE_INPUT c2r changed its input\n", who);
		exit(1);
	}
	fftwf_free(w3), fftwf_free(wr), fftwf_free(w1), fftwf_free(wc), fftwf_free(keep);
}

static void fill_inputs(unsigned seed)
{
	fill((float *)a3, 2 * C3, seed);
	fill(ri, R0 * R1, seed + 1);
	{ /* a c2r input must be a real array's spectrum: implementations differ on the rest */
		float *x = fftwf_alloc_real(R0 * R1);
		fill(x, R0 * R1, seed + 2);
		ref_r2c(2, n2, x, ra);
		fftwf_free(x);
	}
	fill((float *)one, 2 * N1, seed + 3);
}

static void wait_child(pid_t pid, const char *what)
{
	double deadline = now() + CHILD_SECONDS;
	int status = 0;
	for (;;) {
		pid_t got = waitpid(pid, &status, WNOHANG);
		if (got == pid)
			break;
		if (got < 0 && errno != EINTR)
			die("waitpid");
		if (now() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			fprintf(stderr, "FAIL: %s: the child did not finish within %d s\n", what, CHILD_SECONDS);
			exit(1);
		}
		usleep(2000);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "FAIL: %s: the child failed (status 0x%x)\n", what, status);
		exit(1);
	}
}

static pid_t fork_or_die(void)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	in_child = pid == 0;
	return pid;
}

/* In the child: the inherited plans, the new-array calls, a new plan, destroy, cleanup. */
static void child(void)
{
	fftwf_complex *x = fftwf_alloc_complex(C3), *y = fftwf_alloc_complex(C3), *w = fftwf_alloc_complex(C3);
	fftwf_plan q;
	char *desc;
	fill_inputs(7);
	run_and_check(1e-5, "child, inherited GPU plans");
	/* new arrays, of another alignment than the planner's */
	memcpy(x, a3, sizeof *x * C3);
	fftwf_execute_dft(p3, x, y);
	ref_c2c(3, n3, a3, w, FFTW_FORWARD);
	expect_close((float *)y, (float *)w, 2 * C3, 1e-5, "child, fftwf_execute_dft on new arrays");
	/* a new plan of a size the GPU would take: planned and run on FFTW */
	q = fftwf_plan_dft_3d(16, 16, 16, x, y, FFTW_BACKWARD, FFTW_MEASURE);
	if (!q)
		die("child: fftwf_plan_dft_3d returned NULL");
	desc = fftwf_sprint_plan(q);
	if (!desc || strstr(desc, "vkfftgo-gpu"))
		die("child: the new plan is not an FFTW plan");
	free(desc);
	fill((float *)x, 2 * 16 * 16 * 16, 11);
	fftwf_execute(q);
	ref_c2c(3, n16, x, w, FFTW_BACKWARD);
	expect_close((float *)y, (float *)w, 2 * 16 * 16 * 16, 1e-5, "child, a new plan");
	fftwf_destroy_plan(q);
	/* the inherited plans go, without touching the parent's device */
	fftwf_destroy_plan(p3), fftwf_destroy_plan(pr), fftwf_destroy_plan(pc), fftwf_destroy_plan(p1);
	fftwf_free(x), fftwf_free(y), fftwf_free(w);
	fftwf_cleanup();
}

/* ---- a thread planning GPU plans while the process forks ----
 * main sets VKFFTGO_FFTW_PLAN_CACHE=0, so each plan here builds a libvkfftgo plan (from
 * the kernel cache) and its destroy frees it, both under the planner's lock: forks often
 * find the lock held by this thread, which the child does not have. */
static volatile int stop;
static int rounds;

static void *busy(void *arg)
{
	fftwf_complex *x = fftwf_alloc_complex(48 * 40), *y = fftwf_alloc_complex(48 * 40);
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		fftwf_plan q = fftwf_plan_dft_2d(48, 40, x, y, FFTW_FORWARD, FFTW_ESTIMATE);
		fftwf_destroy_plan(q);
		__atomic_add_fetch(&rounds, 1, __ATOMIC_RELAXED);
	}
	fftwf_free(x), fftwf_free(y);
	return NULL;
}

static void fork_while_busy(void)
{
	enum { FORKS = 5 };
	pthread_t th;
#ifdef __SANITIZE_ADDRESS__
	/* GCC 12's AddressSanitizer does not hold its allocator's locks across fork (LLVM's
	 * does from release 18 on): a child forked while the other thread refills its
	 * allocation cache waits forever on the sanitizer's own lock, in its first malloc
	 * (seen here inside FFTW's planner). The build without the sanitizer runs this. */
	/* (no "Sanitizer" in the line: run.sh takes that word for a report) */
	printf("fork: forks while another thread plans are left to the build without ASan "
	       "(this compiler's ASan allocator is not fork-safe)\n");
	return;
#endif
	stop = 0;
	if (pthread_create(&th, NULL, busy, NULL))
		die("pthread_create");
	while (__atomic_load_n(&rounds, __ATOMIC_RELAXED) < 1) /* its first plan compiles */
		usleep(1000);
	for (int i = 0; i < FORKS; i++) {
		usleep(3000 + 1700 * i);
		pid_t pid = fork_or_die();
		if (pid == 0) {
			fftwf_complex *x = fftwf_alloc_complex(C3), *y = fftwf_alloc_complex(C3), *w = fftwf_alloc_complex(C3);
			fill((float *)x, 2 * C3, 5);
			fftwf_plan q = fftwf_plan_dft_3d(32, 32, 32, x, y, FFTW_FORWARD, FFTW_ESTIMATE);
			if (!q)
				die("child of a busy parent: NULL plan");
			fftwf_execute(q);
			ref_c2c(3, n3, x, w, FFTW_FORWARD);
			expect_close((float *)y, (float *)w, 2 * C3, 1e-5, "child of a busy parent");
			_exit(0); /* the thread's plans are the parent's: nothing to clean up */
		}
		wait_child(pid, "fork while another thread plans");
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	printf("fork: %d children forked while another thread built and freed GPU plans under the planner's "
	       "lock planned and ran on FFTW\n", FORKS);
}

/* ---- FFTW's worker threads: started in the parent, absent in the child ----
 * A plan with two threads runs in the parent, so FFTW keeps worker threads there (plain
 * FFTW then hangs in a forked child that runs a threaded plan, or calls
 * fftwf_cleanup_threads). The child runs the inherited threaded plan and a new one,
 * both with one thread, and cleans up the threads. */
static void fork_after_threads(void)
{
	static const fftwf_r2r_kind kinds[3] = { FFTW_REDFT10, FFTW_RODFT10, FFTW_REDFT01 };
	float *x = fftwf_alloc_real(C3), *y = fftwf_alloc_real(C3), *w = fftwf_alloc_real(C3);
	fftwf_complex *cx = fftwf_alloc_complex(C3), *cy = fftwf_alloc_complex(C3), *cw = fftwf_alloc_complex(C3);
	if (!fftwf_init_threads())
		die("fftwf_init_threads");
	fftwf_plan_with_nthreads(2);
	fftwf_plan q = fftwf_plan_r2r_3d(32, 32, 32, x, y, kinds[0], kinds[1], kinds[2], FFTW_ESTIMATE);
	if (!q)
		die("a threaded r2r plan is NULL");
	fill(x, C3, 21);
	fftwf_execute(q); /* FFTW's workers start */
	pid_t pid = fork_or_die();
	if (pid == 0) {
		fill(x, C3, 22);
		fftwf_execute(q);
		ref_r2r(3, n3, x, w, kinds);
		expect_close(y, w, C3, 1e-5, "child: the parent's threaded r2r plan");
		fftwf_plan c = fftwf_plan_dft_3d(32, 32, 32, cx, cy, FFTW_FORWARD, FFTW_ESTIMATE);
		fill((float *)cx, 2 * C3, 23);
		fftwf_execute(c);
		ref_c2c(3, n3, cx, cw, FFTW_FORWARD);
		expect_close((float *)cy, (float *)cw, 2 * C3, 1e-5, "child: a new plan with nthreads 2 asked");
		fftwf_destroy_plan(c), fftwf_destroy_plan(q);
		fftwf_cleanup_threads();
		exit(0);
	}
	wait_child(pid, "fork after FFTW ran with threads");
	fftwf_destroy_plan(q);
	fftwf_plan_with_nthreads(1);
	fftwf_free(x), fftwf_free(y), fftwf_free(w), fftwf_free(cx), fftwf_free(cy), fftwf_free(cw);
	printf("fork: after FFTW ran with 2 threads in the parent, the child ran its threaded plan and a new one "
	       "with one thread and cleaned up the threads\n");
}

int main(void)
{
	double t0;
	pid_t pid;
	setenv("VKFFTGO_FFTW_PLAN_CACHE", "0", 1); /* before any thread: see busy() */
	load_reference();
	a3 = fftwf_alloc_complex(C3), b3 = fftwf_alloc_complex(C3);
	ri = fftwf_alloc_real(R0 * R1), rb = fftwf_alloc_complex(R0 * RH);
	ra = fftwf_alloc_complex(R0 * RH), ro = fftwf_alloc_real(R0 * R1);
	one = fftwf_alloc_complex(N1);
	p3 = fftwf_plan_dft_3d(32, 32, 32, a3, b3, FFTW_FORWARD, FFTW_MEASURE);
	pr = fftwf_plan_dft_r2c_2d(R0, R1, ri, rb, FFTW_ESTIMATE);
	pc = fftwf_plan_dft_c2r_2d(R0, R1, ra, ro, FFTW_ESTIMATE | FFTW_PRESERVE_INPUT);
	p1 = fftwf_plan_dft_1d(N1, one, one, FFTW_BACKWARD, FFTW_ESTIMATE);
	if (!p3 || !pr || !pc || !p1)
		die("a parent plan is NULL");
	for (fftwf_plan *q = &p3; q; q = q == &p3 ? &pr : q == &pr ? &pc : q == &pc ? &p1 : NULL) {
		char *d = fftwf_sprint_plan(*q);
		if (!d || !strstr(d, "vkfftgo-gpu"))
			die("a parent plan is not on the GPU (VKFFTGO_FFTW_MIN_SIZE=0?)");
		free(d);
	}
	fill_inputs(3);
	run_and_check(3e-5, "parent, GPU");

	t0 = now();
	pid = fork_or_die();
	if (pid == 0) {
		child();
		exit(0); /* the library's exit handler runs in the child too */
	}
	wait_child(pid, "fork with GPU plans");
	printf("fork: the child ran 4 inherited GPU plans, new-array calls and a new plan on FFTW (results equal "
	       "the real FFTW's), destroyed them and exited: %.0f ms\n",
	       (now() - t0) * 1e3);

	fork_while_busy();

	fork_after_threads();

	fill_inputs(9);
	run_and_check(3e-5, "parent after the forks, GPU");
	fftwf_destroy_plan(p3), fftwf_destroy_plan(pr), fftwf_destroy_plan(pc), fftwf_destroy_plan(p1);
	fftwf_free(a3), fftwf_free(b3), fftwf_free(ri), fftwf_free(rb), fftwf_free(ra), fftwf_free(ro), fftwf_free(one);
	fftwf_cleanup();
	printf("fork: the parent's GPU plans work as before: OK\n");
	return 0;
}
