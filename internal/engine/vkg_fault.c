/* vkg_fault.c — the counters behind vkg_fault.h; empty unless VKG_FAULTS is defined. */
#include "vkg_fault.h"

#ifdef VKG_FAULTS
static int armed[VKG_FAULT_SITES];
static int pending_uploads;

int vkg_fault_hit(int site)
{
	int n = __atomic_load_n(&armed[site], __ATOMIC_ACQUIRE);
	while (n > 0) {
		if (__atomic_compare_exchange_n(&armed[site], &n, n - 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return 1;
	}
	return 0;
}

void vkg_fault_arm(int site, int times) { __atomic_store_n(&armed[site], times, __ATOMIC_RELEASE); }
void vkg_fault_note_upload(int pending) { __atomic_store_n(&pending_uploads, pending, __ATOMIC_RELEASE); }
int vkg_fault_pending_uploads(void) { return __atomic_load_n(&pending_uploads, __ATOMIC_ACQUIRE); }
#else
typedef int vkg_fault_unused; /* ISO C wants something in a translation unit */
#endif
