/* parity.c — the C API's parity functions (issue 15), each with good and bad arguments:
 * the run-time version check, ...
 *   cc parity.c $(pkg-config --cflags --libs vkfftgo) -lm */
#include <math.h>

#include "check.h"

static void test_version(void)
{
	CHECK(VKFFTGO_CHECK_VERSION());
	if (vkfftgo_version() != VKFFTGO_VERSION) {
		fprintf(stderr, "vkfftgo_version() %d, header %d\n", vkfftgo_version(), VKFFTGO_VERSION);
		exit(1);
	}
	/* an older minor/patch is served; a newer one or another major is not */
	if (VKFFTGO_VERSION_MINOR > 0)
		CHECK(vkfftgo_check_version(VKFFTGO_VERSION_MAJOR, VKFFTGO_VERSION_MINOR - 1, 99));
	CHECK(vkfftgo_check_version(VKFFTGO_VERSION_MAJOR, VKFFTGO_VERSION_MINOR, 0));
	EXPECT_FAIL(vkfftgo_check_version(VKFFTGO_VERSION_MAJOR, VKFFTGO_VERSION_MINOR + 1, 0),
		    VKFFTGO_ERROR_VERSION, "compiled against vkfftgo.h|" VKFFTGO_VERSION_STRING);
	EXPECT_FAIL(vkfftgo_check_version(VKFFTGO_VERSION_MAJOR, VKFFTGO_VERSION_MINOR, VKFFTGO_VERSION_PATCH + 1),
		    VKFFTGO_ERROR_VERSION, "needs major version");
	EXPECT_FAIL(vkfftgo_check_version(VKFFTGO_VERSION_MAJOR + 1, 0, 0), VKFFTGO_ERROR_VERSION,
		    "needs major version");
	EXPECT_FAIL(vkfftgo_check_version(-1, 0, 0), VKFFTGO_ERROR_INVALID_ARGUMENT, "is not a version");
	EXPECT_FAIL(vkfftgo_check_version(0, 100, 0), VKFFTGO_ERROR_INVALID_ARGUMENT, "is not a version");
	printf("version: %s, VKFFTGO_CHECK_VERSION() passes, newer/other major refused\n", vkfftgo_version_string());
}

int main(void)
{
	test_version();
	printf("parity: all passed\n");
	return 0;
}
