/* api_double.c — FFTW's double-precision functions (fftw_*). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "vfw.h"

#define X(name) fftw_##name
#define R double
#define C fftw_complex
#define PREC VFW_DOUBLE
#define OPS vfw_cpu_double
#define REAL real_double
#include "api.inc"
