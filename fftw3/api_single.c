/* api_single.c — FFTW's single-precision functions (fftwf_*). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "vfw.h"

#define X(name) fftwf_##name
#define R float
#define C fftwf_complex
#define PREC VFW_SINGLE
#define OPS vfw_cpu_single
#define REAL real_single
#include "api.inc"
