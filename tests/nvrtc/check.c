/* Compiles CUDA kernel texts with NVRTC, the way the cuda backend does at run time,
 * on a machine without a GPU: NVRTC needs no driver to compile for an architecture.
 *   check LIBNVRTC ARCH FILE.cu...   (ARCH: e.g. sm_90)
 * Prints each failure's log and exits 1 if any file fails; make cuda-kernel-check runs
 * it on the companion kernels and fused rewrites of every sample format. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "nvrtc_dl.h"

int main(int argc, char **argv)
{
	void *lib;
	create_fn create;
	compile_fn compile;
	size_fn log_size;
	get_fn get_log;
	destroy_fn destroy;
	char arch[64];
	const char *opts[1];
	int i, failed = 0;
	if (argc < 4) {
		fprintf(stderr, "usage: %s LIBNVRTC ARCH FILE.cu...\n", argv[0]);
		return 2;
	}
	lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "nvrtc check: %s\n", dlerror());
		return 1;
	}
	create = (create_fn)dlsym(lib, "nvrtcCreateProgram");
	compile = (compile_fn)dlsym(lib, "nvrtcCompileProgram");
	log_size = (size_fn)dlsym(lib, "nvrtcGetProgramLogSize");
	get_log = (get_fn)dlsym(lib, "nvrtcGetProgramLog");
	destroy = (destroy_fn)dlsym(lib, "nvrtcDestroyProgram");
	if (!create || !compile || !log_size || !get_log || !destroy) {
		fprintf(stderr, "nvrtc check: %s lacks the NVRTC entry points\n", argv[1]);
		return 1;
	}
	snprintf(arch, sizeof arch, "--gpu-architecture=%s", argv[2]);
	opts[0] = arch;
	for (i = 3; i < argc; i++) {
		nvrtcProgram prog;
		nvrtcResult r;
		char *src = read_file(argv[i]), *log;
		size_t n = 0;
		if (!src) {
			fprintf(stderr, "nvrtc check: cannot read %s\n", argv[i]);
			failed++;
			continue;
		}
		r = create(&prog, src, argv[i], 0, NULL, NULL);
		free(src);
		if (r != NVRTC_SUCCESS) {
			fprintf(stderr, "nvrtc check: %s: nvrtcCreateProgram returned %d\n", argv[i], (int)r);
			failed++;
			continue;
		}
		if (compile(prog, 1, opts) != NVRTC_SUCCESS) {
			failed++;
			if (log_size(prog, &n) == NVRTC_SUCCESS && (log = malloc(n + 1)) != NULL) {
				log[0] = 0;
				get_log(prog, log);
				fprintf(stderr, "nvrtc check: %s does not compile:\n%s\n", argv[i], log);
				free(log);
			} else {
				fprintf(stderr, "nvrtc check: %s does not compile (no log)\n", argv[i]);
			}
		}
		destroy(&prog);
	}
	dlclose(lib);
	printf("nvrtc check: %d of %d CUDA texts compile for %s\n", argc - 3 - failed, argc - 3, argv[2]);
	return failed ? 1 : 0;
}
