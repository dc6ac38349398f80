/* vkg_cuda_load.c — opens the CUDA driver and NVRTC at run time and fills the table of
 * vkg_cuda_api.h. */
#define _GNU_SOURCE
#include <cuda.h>
#include <nvrtc.h>

#include "vkg_backend.h"
#include "vkg_cuda_api.h" /* the loader itself calls through the table by hand */

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *vkg_cuda_toolkit_root(void);
vkg_cuda_api vkg_cuda_fns = {.toolkit_root = vkg_cuda_toolkit_root};

/* the name dlsym looks for: the header's versioned one (cuMemAlloc_v2) */
#define VKG_STR(x) #x
#define VKG_XSTR(x) VKG_STR(x)

typedef struct dl_sym {
	const char *name;
	void **slot;
} dl_sym;

#define VKG_DL_ENTRY(f) {VKG_XSTR(f), (void **)&vkg_cuda_fns.dl_##f},
static const dl_sym driver_syms[] = {VKG_CUDA_DRIVER_FUNCS(VKG_DL_ENTRY)};
static const dl_sym nvrtc_syms[] = {VKG_NVRTC_FUNCS(VKG_DL_ENTRY)};

typedef struct dl_lib {
	pthread_once_t once;
	int rc;
	char err[1024];
	char path[1024];
} dl_lib;

static dl_lib driver = {PTHREAD_ONCE_INIT, 0, "", ""};
static dl_lib nvrtc = {PTHREAD_ONCE_INIT, 0, "", ""};

static void clear(const dl_sym *syms, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		*syms[i].slot = NULL;
}

/* resolve fills every slot from handle; on a missing symbol it clears them all. */
static int resolve(void *handle, const dl_sym *syms, size_t n, const char *lib, char *err, size_t errlen)
{
	size_t i;
	for (i = 0; i < n; i++) {
		*syms[i].slot = dlsym(handle, syms[i].name);
		if (!*syms[i].slot) {
			snprintf(err, errlen, "%s has no %s (too old?)", lib, syms[i].name);
			clear(syms, n);
			return -1;
		}
	}
	return 0;
}

/* where: the file a resolved symbol came from */
static void where(void *sym, char *out, size_t len)
{
	Dl_info info;
	if (dladdr(sym, &info) && info.dli_fname)
		snprintf(out, len, "%s", info.dli_fname);
}

static void load_driver(void)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(driver.err, sizeof driver.err,
			 "the CUDA driver library libcuda.so.1 could not be opened (is the NVIDIA driver installed?): %s",
			 dlerror());
		driver.rc = -1;
		return;
	}
	driver.rc = resolve(h, driver_syms, sizeof driver_syms / sizeof driver_syms[0], "libcuda.so.1", driver.err,
			    sizeof driver.err);
	if (driver.rc) {
		dlclose(h);
		return;
	}
	where((void *)vkg_cuda_fns.dl_cuInit, driver.path, sizeof driver.path);
}

/* try_nvrtc opens one candidate and keeps it if it resolves and is 11.2 or newer. */
static int try_nvrtc(const char *name, char *why, size_t whylen)
{
	int major = 0, minor = 0;
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	const size_t n = sizeof nvrtc_syms / sizeof nvrtc_syms[0];
	if (!h) {
		snprintf(why, whylen, "%s", dlerror());
		return -1;
	}
	if (resolve(h, nvrtc_syms, n, name, why, whylen)) {
		dlclose(h);
		return -1;
	}
	if (vkg_cuda_fns.dl_nvrtcVersion(&major, &minor) != NVRTC_SUCCESS || major < 11 || (major == 11 && minor < 2)) {
		snprintf(why, whylen, "%s is NVRTC %d.%d; 11.2 or newer is needed", name, major, minor);
		clear(nvrtc_syms, n);
		dlclose(h);
		return -1;
	}
	where((void *)vkg_cuda_fns.dl_nvrtcVersion, nvrtc.path, sizeof nvrtc.path);
	return 0;
}

static void load_nvrtc(void)
{
	static const char *const sonames[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"};
	const char *dirs[3];
	const char *env = getenv("VKFFTGO_NVRTC");
	char name[1100], why[512], tried[200] = "";
	size_t i, d, nd = 0;

	if (env && *env) {
		if (try_nvrtc(env, why, sizeof why) == 0)
			return;
		snprintf(nvrtc.err, sizeof nvrtc.err, "VKFFTGO_NVRTC=%s could not be used: %s", env, why);
		nvrtc.rc = -1;
		return;
	}
	dirs[nd++] = ""; /* the library path: LD_LIBRARY_PATH, ld.so.cache */
	if (getenv("CUDA_HOME") && *getenv("CUDA_HOME"))
		dirs[nd++] = getenv("CUDA_HOME");
	dirs[nd++] = "/usr/local/cuda";
	for (i = 0; i < sizeof sonames / sizeof sonames[0]; i++)
		for (d = 0; d < nd; d++) {
			if (*dirs[d])
				snprintf(name, sizeof name, "%s/lib64/%s", dirs[d], sonames[i]);
			else
				snprintf(name, sizeof name, "%s", sonames[i]);
			if (try_nvrtc(name, why, sizeof why) == 0)
				return;
			if (!*dirs[d] && strlen(tried) + strlen(sonames[i]) + 3 < sizeof tried)
				strcat(strcat(tried, *tried ? ", " : ""), sonames[i]);
		}
	snprintf(nvrtc.err, sizeof nvrtc.err,
		 "no NVRTC (CUDA's run-time compiler, which builds VkFFT's kernels) was found: tried %s on the "
		 "library path, in $CUDA_HOME/lib64 and in /usr/local/cuda/lib64; install CUDA's NVRTC (e.g. "
		 "the libnvrtc12 package) or name the library with VKFFTGO_NVRTC",
		 tried);
	nvrtc.rc = -1;
}

static int report(const dl_lib *lib, char *err, size_t errlen)
{
	if (lib->rc && err && errlen)
		snprintf(err, errlen, "%s", lib->err);
	return lib->rc;
}

int vkg_cuda_load_driver(char *err, size_t errlen)
{
	pthread_once(&driver.once, load_driver);
	return report(&driver, err, errlen);
}

int vkg_cuda_load_nvrtc(char *err, size_t errlen)
{
	pthread_once(&nvrtc.once, load_nvrtc);
	return report(&nvrtc, err, errlen);
}

const char *vkg_cuda_driver_path(void) { return driver.path; }
const char *vkg_cuda_nvrtc_path(void) { return nvrtc.path; }

/* VkFFT's fp16 kernels (StorageHalf) include <CUDA_TOOLKIT_ROOT_DIR/include/cuda_fp16.h>;
 * vkg_core.c makes that macro this call. The first directory with that header, of
 * $CUDA_HOME, $CUDA_PATH, the toolkit the loaded NVRTC belongs to (its lib folder's
 * parent: /usr/local/cuda-13.0/targets/x86_64-linux for the H200's) and /usr/local/cuda.
 * Without one, such a kernel fails to compile with NVRTC naming the missing file. */
static char toolkit_root[4096];
static pthread_once_t toolkit_once = PTHREAD_ONCE_INIT;

static int has_fp16_header(const char *root)
{
	char path[4200];
	if (!root || !*root || strlen(root) >= sizeof toolkit_root)
		return 0;
	snprintf(path, sizeof path, "%s/include/cuda_fp16.h", root);
	return access(path, R_OK) == 0;
}

static void find_toolkit_root(void)
{
	char lib[4096], *slash;
	const char *env[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH")};
	for (size_t i = 0; i < sizeof env / sizeof env[0]; i++)
		if (has_fp16_header(env[i])) {
			snprintf(toolkit_root, sizeof toolkit_root, "%s", env[i]);
			return;
		}
	if (nvrtc.path[0] && realpath(nvrtc.path, lib)) {
		for (int up = 0; up < 2 && (slash = strrchr(lib, '/')) != NULL; up++)
			*slash = '\0'; /* .../lib/libnvrtc.so.13 -> ... */
		if (has_fp16_header(lib)) {
			snprintf(toolkit_root, sizeof toolkit_root, "%s", lib);
			return;
		}
	}
	snprintf(toolkit_root, sizeof toolkit_root, "%s", "/usr/local/cuda");
}

const char *vkg_cuda_toolkit_root(void)
{
	pthread_once(&toolkit_once, find_toolkit_root);
	return toolkit_root;
}
