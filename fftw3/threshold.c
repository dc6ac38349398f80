/* threshold.c — the legacy rule (VKFFTGO_FFTW_CROSSOVER=legacy): from which problem
 * size the GPU beats FFTW on this machine, planning and the caller's pattern not
 * counted (crossover.c and choice.c are the default rule).
 *
 * A GPU transform of host arrays pays for two transfers and a launch; FFTW pays nothing
 * of that, so small problems are faster on the CPU. The crossover is measured once per
 * (backend, device, FFTW build, precision, FFTW threads): complex 3-D cubes 16^3 to 256^3
 * timed as a host round trip through libvkfftgo against an FFTW_ESTIMATE plan with the
 * caller's thread count, starting at 64^3 and moving towards the crossover. The result
 * is kept in the cache directory (VKFFTGO_CACHE_DIR, else $XDG_CACHE_HOME/vkfftgo or
 * ~/.cache/vkfftgo; "off" measures in every process) in fftw3-threshold.txt, one line
 * per key. VKFFTGO_FFTW_MIN_SIZE overrides it (planner.c); VKFFTGO_FFTW_MEASURE_MAX
 * caps the cube edge measured (default 256), for slow devices. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <vkfftgo.h>

#include "vfw.h"

static int read_cached(const char *path, const char *key, int64_t *thr)
{
	char v[600], *end;
	if (!vfw_cache_read(path, key, v, sizeof v))
		return 0;
	long long x = strtoll(v, &end, 10);
	if (end == v || x < 0)
		return 0;
	*thr = x;
	return 1;
}

static void write_cached(const char *path, const char *key, int64_t thr, const char *note)
{
	char v[600];
	snprintf(v, sizeof v, "%" PRId64 "\t%s", thr, note);
	vfw_cache_write(path, key, v);
}

static const int cube[] = { 16, 32, 64, 128, 256 };
enum { NCUBES = 5, REPS = 3 };

typedef struct {
	int ncubes; /* cubes measured at most: VKFFTGO_FFTW_MEASURE_MAX caps the edge */
	const vfw_cpu_ops *ops;
	int nthreads, known[NCUBES], wins[NCUBES];
	double gpu[NCUBES], cpu[NCUBES];
} probe;

static int gpu_wins(probe *m, int i)
{
	if (!m->known[i]) {
		int n[3] = { cube[i], cube[i], cube[i] };
		m->gpu[i] = vfw_gpu_time_c2c(m->ops->prec, 3, n, REPS, NULL, NULL);
		m->cpu[i] = m->ops->time_c2c(3, n, m->nthreads, REPS, NULL);
		m->known[i] = 1;
		m->wins[i] = m->gpu[i] > 0 && m->cpu[i] > 0 && m->gpu[i] < m->cpu[i];
		vfw_log("threshold: %d^3 c2c: GPU host round trip %.3f ms, FFTW %.3f ms (%d thread%s)", cube[i],
			m->gpu[i] * 1e3, m->cpu[i] * 1e3, m->nthreads, m->nthreads == 1 ? "" : "s");
	}
	return m->wins[i];
}

int64_t vfw_threshold(const vfw_cpu_ops *ops, int nthreads, char *why, size_t cap)
{
	static struct {
		int valid, nthreads;
		int64_t thr;
		char why[300];
	} memo[2];
	int prec = ops->prec;
	if (memo[prec].valid && memo[prec].nthreads == nthreads) {
		snprintf(why, cap, "%s", memo[prec].why);
		return memo[prec].thr;
	}
	char key[512], path[1100];
	const char *edge = getenv("VKFFTGO_FFTW_MEASURE_MAX");
	snprintf(key, sizeof key, "v1 backend=%s device=%s fftw=%s precision=%s nthreads=%d max=%s", vkfftgo_backend_name(),
		 vfw_gpu_device_name(), ops->version(), prec == VFW_SINGLE ? "single" : "double", nthreads,
		 edge && *edge ? edge : "256");
	int have_path = vfw_cache_path("fftw3-threshold.txt", path, sizeof path);
	int64_t thr;
	if (have_path && read_cached(path, key, &thr)) {
		snprintf(memo[prec].why, sizeof memo[prec].why, "measured earlier, cached in %s", path);
	} else {
		probe m = { NCUBES, ops, nthreads, { 0 }, { 0 }, { 0 }, { 0 } };
		while (edge && *edge && m.ncubes > 1 && cube[m.ncubes - 1] > atoi(edge))
			m.ncubes--;
		int i = m.ncubes > 2 ? 2 : m.ncubes - 1;
		if (gpu_wins(&m, i)) {
			while (i > 0 && gpu_wins(&m, i - 1))
				i--;
			thr = (int64_t)cube[i] * cube[i] * cube[i];
		} else {
			while (i < m.ncubes - 1 && !gpu_wins(&m, i + 1))
				i++;
			if (i < m.ncubes - 1) {
				i++;
				thr = (int64_t)cube[i] * cube[i] * cube[i];
			} else {
				thr = INT64_MAX; /* slower than FFTW at every size measured: a CPU OpenCL device */
				i = m.ncubes - 1;
			}
		}
		char note[200];
		snprintf(note, sizeof note, "%d^3: GPU round trip %.3f ms, FFTW %.3f ms", cube[i], m.gpu[i] * 1e3,
			 m.cpu[i] * 1e3);
		if (have_path)
			write_cached(path, key, thr, note);
		snprintf(memo[prec].why, sizeof memo[prec].why, "measured now: %s%s%s", note,
			 have_path ? "; cached in " : "", have_path ? path : "");
	}
	memo[prec].valid = 1;
	memo[prec].nthreads = nthreads;
	memo[prec].thr = thr;
	snprintf(why, cap, "%s", memo[prec].why);
	return thr;
}
