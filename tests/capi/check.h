/* check.h — tiny helpers shared by the C and C++ consumer tests (C99 and C++11). */
#ifndef VKFFTGO_TEST_CHECK_H
#define VKFFTGO_TEST_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vkfftgo.h>

/* Abort the test with the library's message unless the call succeeded. */
#define CHECK(call)                                                                          \
	do {                                                                                 \
		vkfftgo_status st_ = (call);                                                 \
		if (st_ != VKFFTGO_SUCCESS) {                                                \
			fprintf(stderr, "%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #call,  \
				vkfftgo_status_string(st_), vkfftgo_last_error());           \
			exit(1);                                                             \
		}                                                                            \
	} while (0)

/* Expect a failure with status want and a message containing each of the words. */
#define EXPECT_FAIL(call, want, words)                                                       \
	do {                                                                                 \
		vkfftgo_status st_ = (call);                                                 \
		const char *msg_ = vkfftgo_last_error();                                     \
		if (st_ != (want)) {                                                         \
			fprintf(stderr, "%s:%d: %s returned %s, want %s (%s)\n", __FILE__,   \
				__LINE__, #call, vkfftgo_status_string(st_),                 \
				vkfftgo_status_string(want), msg_);                          \
			exit(1);                                                             \
		}                                                                            \
		if (!test_contains_all(msg_, words)) {                                       \
			fprintf(stderr, "%s:%d: %s: message \"%s\" lacks \"%s\"\n", __FILE__,  \
				__LINE__, #call, msg_, words);                               \
			exit(1);                                                             \
		}                                                                            \
	} while (0)

/* words is a '|'-separated list; every one must occur in msg. */
static inline int test_contains_all(const char *msg, const char *words)
{
	char buf[256];
	const char *w = words;
	while (*w) {
		size_t n = strcspn(w, "|");
		if (n >= sizeof buf)
			return 0;
		memcpy(buf, w, n);
		buf[n] = 0;
		if (!strstr(msg, buf))
			return 0;
		w += n + (w[n] == '|');
	}
	return 1;
}

/* Deterministic test data in [-1, 1). */
static inline double test_value(size_t i)
{
	unsigned long x = (unsigned long)i * 2654435761ul + 12345ul;
	x ^= x >> 13;
	return (double)(x % 20000ul) / 10000.0 - 1.0;
}

/* Resident set size in bytes, from /proc/self/statm. */
static inline long test_rss_bytes(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident * 4096;
}
#endif
