/* vkg_fault.h — fault injection in the C layer, compiled only into test builds made with
 * -tags vkfftgo_faults (the engine's build.go defines VKG_FAULTS); elsewhere every macro is a
 * constant and the compiler drops the site. */
#ifndef VKG_FAULT_H
#define VKG_FAULT_H

enum {
	VKG_FAULT_DOWNLOAD = 0,  /* a round trip's download fails to enqueue */
	VKG_FAULT_COMPILE_LOG,   /* plan creation fails after VkFFT printed a long compiler log */
	VKG_FAULT_SITES
};

#ifdef VKG_FAULTS
/* vkg_fault_hit: non-zero when the site is armed (each hit uses one arming). */
int vkg_fault_hit(int site);
void vkg_fault_arm(int site, int times);
/* Uploads from the caller's memory that may still be queued: counted by the round trips,
 * cleared once they waited for the queue. A synchronous call must leave it at 0. */
void vkg_fault_note_upload(int pending);
int vkg_fault_pending_uploads(void);
#define VKG_FAULT(site) vkg_fault_hit(site)
#define VKG_FAULT_NOTE_UPLOAD(pending) vkg_fault_note_upload(pending)
#else
#define VKG_FAULT(site) 0
#define VKG_FAULT_NOTE_UPLOAD(pending) ((void)0)
#endif

#endif
