/* mem.c — fftw_malloc and friends.
 *
 * Blocks are 64-byte aligned (FFTW's SIMD alignment and a cache line) and freed with
 * free(), so fftw_free also frees what the real FFTW allocated with malloc
 * (fftw_export_wisdom_to_string's string).
 *
 * Blocks of 1 MiB and more are remembered, and the first GPU transform that reads or
 * writes one page-locks the whole block for the device (vkfftgo_host_register): later
 * transforms on it copy at pinned speed, without staging. The registration is undone
 * by fftw_free. vkfftgo_host_register is looked up at run time, so a libvkfftgo without
 * it still works (the memory is then staged like any other). VKFFTGO_FFTW_PIN=0 turns
 * this off. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <vkfftgo.h>

#include "vfw.h"

enum { VFW_PIN_MIN = 1 << 20 };

typedef vkfftgo_status (*register_fn)(vkfftgo_device *, void *, size_t);
typedef vkfftgo_status (*unregister_fn)(vkfftgo_device *, void *);

typedef struct block {
	char *p;
	size_t n;
	vkfftgo_device *pinned; /* the device it is registered with, or NULL */
	int failed;             /* registration failed once: do not retry per call */
} block;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static block *blocks;
static size_t nblocks, capblocks;
static int pin_state; /* 0 unknown, 1 available, -1 off or unavailable */
static register_fn reg;
static unregister_fn unreg;

static int pin_available(void)
{
	if (pin_state == 0) {
		const char *v = getenv("VKFFTGO_FFTW_PIN");
		void *h = dlopen("libvkfftgo.so.0", RTLD_NOW | RTLD_NOLOAD);
		if (h) {
			*(void **)&reg = dlsym(h, "vkfftgo_host_register");
			*(void **)&unreg = dlsym(h, "vkfftgo_host_unregister");
			dlclose(h);
		}
		if (v && !strcmp(v, "0")) {
			pin_state = -1;
			vfw_log("fftw_malloc memory is not page-locked (VKFFTGO_FFTW_PIN=0)");
		} else if (!reg || !unreg) {
			pin_state = -1;
			vfw_log("fftw_malloc memory is not page-locked: this libvkfftgo has no vkfftgo_host_register");
		} else {
			pin_state = 1;
		}
	}
	return pin_state > 0;
}

void *vfw_malloc(size_t n)
{
	void *p = NULL;
	if (posix_memalign(&p, 64, n ? n : 1) != 0)
		return NULL;
	if (n >= VFW_PIN_MIN) {
		pthread_mutex_lock(&mu);
		if (nblocks == capblocks) {
			size_t c = capblocks ? 2 * capblocks : 16;
			block *b = (block *)realloc(blocks, c * sizeof *b);
			if (b) {
				blocks = b;
				capblocks = c;
			}
		}
		if (nblocks < capblocks)
			blocks[nblocks++] = (block){ (char *)p, n, NULL, 0 };
		pthread_mutex_unlock(&mu);
	}
	return p;
}

void vfw_free(void *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&mu);
	for (size_t i = 0; i < nblocks; i++) {
		if (blocks[i].p == (char *)p) {
			if (blocks[i].pinned && !vfw_forked()) /* a forked child's device is the parent's */
				unreg(blocks[i].pinned, p);
			blocks[i] = blocks[--nblocks];
			break;
		}
	}
	pthread_mutex_unlock(&mu);
	free(p);
}

/* A thread that held the lock at fork time does not exist in the child to release it. */
static void child_handler(void)
{
	pthread_mutex_init(&mu, NULL);
}

__attribute__((constructor)) static void watch_at_load(void)
{
	(void)pthread_atfork(NULL, NULL, child_handler);
}

int vfw_mem_pin(vkfftgo_device *dev, const void *p)
{
	int pinned = 0;
	if (!p || !__atomic_load_n(&nblocks, __ATOMIC_RELAXED))
		return 0;
	pthread_mutex_lock(&mu);
	for (size_t i = 0; i < nblocks; i++) {
		block *b = &blocks[i];
		if ((const char *)p < b->p || (const char *)p >= b->p + b->n)
			continue;
		if (!b->pinned && !b->failed && pin_available()) {
			vkfftgo_status st = reg(dev, b->p, b->n);
			if (st == VKFFTGO_SUCCESS) {
				b->pinned = dev;
				vfw_log("page-locked an fftw_malloc block of %zu bytes for the GPU", b->n);
			} else {
				b->failed = 1;
				vfw_log("could not page-lock an fftw_malloc block of %zu bytes: %s", b->n, vkfftgo_last_error());
			}
		}
		pinned = b->pinned != NULL;
		break;
	}
	pthread_mutex_unlock(&mu);
	return pinned;
}
