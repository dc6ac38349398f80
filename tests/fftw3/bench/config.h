/* config.h for FFTW's libbench2 and tests/bench.c built against libvkfftgo_fftw3
 * (tests/fftw3/verify.sh): what glibc on Debian provides, and FFTW's threads API. */
#define HAVE_THREADS 1
#define HAVE_DRAND48 1
#define HAVE_DECL_DRAND48 1
#define HAVE_DECL_SRAND48 1
#define HAVE_POSIX_MEMALIGN 1
#define HAVE_DECL_POSIX_MEMALIGN 1
#define HAVE_MEMALIGN 1
#define HAVE_DECL_MEMALIGN 1
#define HAVE_MALLOC_H 1
#define HAVE_GETTIMEOFDAY 1
#define HAVE_SYS_TIME_H 1
#define HAVE_UNISTD_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STDDEF_H 1
#define HAVE_ALLOCA_H 1
#define HAVE_ISNAN 1
#define HAVE_SNPRINTF 1
#define HAVE_COSL 1
