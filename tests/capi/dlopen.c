/* dlopen.c — libvkfftgo loaded with dlopen after the program started, as Python's ctypes
 * and ITK's ITK_AUTOLOAD_PATH plugins load it: the library's static thread-local storage
 * must fit the C library's spare (it is marked STATIC_TLS), then every call works,
 * also from a second thread. The program does not link libvkfftgo.
 *   dlopen PATH/libvkfftgo.so.0 */
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the types only: the program does not link the library, so it leaves out the
 * prototypes and vkfftgo_config.h's link-time guard (a reference to the library) */
#define VKFFTGO_NO_PROTOTYPES
#define VKFFTGO_BUILDING_LIBRARY
#include <vkfftgo.h>

typedef const char *(*last_error_fn)(void);
typedef int (*version_fn)(void);
typedef vkfftgo_status (*open_fn)(int, vkfftgo_device **);
typedef vkfftgo_status (*close_fn)(vkfftgo_device *);
typedef vkfftgo_status (*create_fn)(vkfftgo_device *, const vkfftgo_plan_desc *, vkfftgo_plan **);
typedef vkfftgo_status (*destroy_fn)(vkfftgo_plan *);
typedef vkfftgo_status (*forward_fn)(vkfftgo_plan *, void *, const void *);

static void *lib;
static struct {
	last_error_fn last_error;
	version_fn version;
	open_fn device_open;
	close_fn device_close;
	create_fn plan_create;
	destroy_fn plan_destroy;
	forward_fn forward;
} api;

/* dlsym's object pointer into a function pointer, as POSIX allows (memcpy, not a cast) */
static void load(void *fp, size_t size, const char *name)
{
	void *p = dlsym(lib, name);
	if (!p) {
		fprintf(stderr, "FAIL: dlsym %s: %s\n", name, dlerror());
		exit(1);
	}
	memcpy(fp, &p, size);
}
#define LOAD(field, name) load(&api.field, sizeof api.field, name)

/* a failing call's message is the calling thread's own */
static void *other_thread(void *arg)
{
	vkfftgo_plan *p = NULL;
	(void)arg;
	if (api.plan_create(NULL, NULL, &p) == VKFFTGO_SUCCESS || !strstr(api.last_error(), "NULL"))
		return (void *)"a second thread's failing call";
	return NULL;
}

int main(int argc, char **argv)
{
	vkfftgo_device *d;
	vkfftgo_plan *p;
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	float complex x[8], y[8];
	pthread_t t;
	void *thread_err = NULL;
	double err = 0;
	if (argc != 2) {
		fprintf(stderr, "usage: dlopen PATH/libvkfftgo.so.0\n");
		return 2;
	}
	lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "FAIL: dlopen: %s\n", dlerror());
		return 1;
	}
	LOAD(last_error, "vkfftgo_last_error");
	LOAD(version, "vkfftgo_version");
	LOAD(device_open, "vkfftgo_device_open");
	LOAD(device_close, "vkfftgo_device_close");
	LOAD(plan_create, "vkfftgo_plan_create");
	LOAD(plan_destroy, "vkfftgo_plan_destroy");
	LOAD(forward, "vkfftgo_forward");
	printf("   dlopen after start-up: libvkfftgo %d\n", api.version());
	if (api.plan_create(NULL, &desc, &p) == VKFFTGO_SUCCESS ||
	    !strstr(api.last_error(), "device")) {
		fprintf(stderr, "FAIL: a NULL device was not refused with a message\n");
		return 1;
	}
	if (api.device_open(0, &d) != VKFFTGO_SUCCESS) {
		fprintf(stderr, "FAIL: device_open: %s\n", api.last_error());
		return 1;
	}
	desc.rank = 1;
	desc.shape[0] = 8;
	if (api.plan_create(d, &desc, &p) != VKFFTGO_SUCCESS) {
		fprintf(stderr, "FAIL: plan_create: %s\n", api.last_error());
		return 1;
	}
	for (int i = 0; i < 8; i++)
		x[i] = (float)i - 3.0f * I * (float)(i % 3);
	if (api.forward(p, y, x) != VKFFTGO_SUCCESS) {
		fprintf(stderr, "FAIL: forward: %s\n", api.last_error());
		return 1;
	}
	for (int k = 0; k < 8; k++) {
		double complex s = 0;
		for (int j = 0; j < 8; j++)
			s += x[j] * cexp(-2 * M_PI * I * j * k / 8.0);
		err = fmax(err, cabs(s - y[k]));
	}
	if (err > 1e-4) {
		fprintf(stderr, "FAIL: forward error %g\n", err);
		return 1;
	}
	pthread_create(&t, NULL, other_thread, NULL);
	pthread_join(t, &thread_err);
	if (thread_err) {
		fprintf(stderr, "FAIL: %s\n", (const char *)thread_err);
		return 1;
	}
	api.plan_destroy(p);
	api.device_close(d);
	printf("   a transform and per-thread messages work (forward error %.1e)\n", err);
	return 0;
}
