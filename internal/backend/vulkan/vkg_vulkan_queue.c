/* vkg_vulkan_queue.c — the vulkan backend's queues (vkg_vulkan.h): each a command pool, a
 * ring of command buffers that record batches in turn, and a timeline semaphore whose
 * value counts the batches submitted; and on them the copies (through pinned buffers or
 * the queue's staging arena), events and synchronisation. It calls only the buffer and
 * error files below it (vkg_vulkan_int.h): the device file above makes and closes the
 * queues, and the memory file waits for them before a free. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>

#include "vkg_vulkan_int.h"

/* vkQueueSubmit needs the VkQueue externally synchronised: one lock per VkQueue, found by
 * hashing the handle (two queues may share a lock; that only serialises their submits). */
static pthread_mutex_t submit_mu[16] = {
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};

static pthread_mutex_t *submit_lock(VkQueue q)
{
	uintptr_t h = (uintptr_t)q;
	return &submit_mu[(h >> 4 ^ h >> 12) & 15];
}

VkResult vkg_vk_queue_submit(VkQueue queue, uint32_t count, const VkSubmitInfo *submits, VkFence fence)
{
	pthread_mutex_t *mu = submit_lock(queue);
	VkResult r;
	pthread_mutex_lock(mu);
	r = vkQueueSubmit(queue, count, submits, fence);
	pthread_mutex_unlock(mu);
	return r;
}

/* ---- queues ---- */

/* A blocking wait on NVIDIA's Vulkan driver returns some 35 µs after the GPU is done (H200:
 * a 1024-point forward with enqueue and synchronize took 48.7 µs under Vulkan, 11.6 under
 * CUDA, whose synchronisation spins first). So, like CUDA's default scheduling, a wait
 * polls the counter for a short while before it blocks; not on a CPU device, whose
 * worker threads the polling would take cores from. VKFFTGO_VULKAN_SPIN_US overrides
 * the time (0: always block). */
#define VKG_VK_SPIN_NS 200000

uint64_t vkg_vk_spin_ns(int host_memory)
{
	const char *env = getenv("VKFFTGO_VULKAN_SPIN_US");
	char *end;
	unsigned long long us;
	if (env && *env) {
		us = strtoull(env, &end, 10);
		if (*end == '\0' && us <= 1000000)
			return us * 1000u;
	}
	return host_memory ? 0 : VKG_VK_SPIN_NS;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Reports whether sem reached value within the device's spin time of polling. */
static int spin_until(vkg_device *dev, VkSemaphore sem, uint64_t value)
{
	uint64_t v = 0, deadline;
	if (!dev->spin_ns)
		return 0;
	deadline = now_ns() + dev->spin_ns;
	do {
		if (vkGetSemaphoreCounterValue(dev->device, sem, &v) != VK_SUCCESS)
			return 0; /* the blocking wait reports the error */
		if (v >= value)
			return 1;
		sched_yield();
	} while (now_ns() < deadline);
	return 0;
}

int vkg_vk_wait_value(vkg_device *dev, VkSemaphore sem, uint64_t value, vkg_status *st)
{
	VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
	VkResult r;
	if (value == 0)
		return VKG_OK;
	if (spin_until(dev, sem, value))
		return VKG_OK;
	wi.semaphoreCount = 1;
	wi.pSemaphores = &sem;
	wi.pValues = &value;
	r = vkWaitSemaphores(dev->device, &wi, VKG_VK_WAIT_NS);
	return r == VK_SUCCESS ? VKG_OK : vkg_vk_fail(st, r, "vkWaitSemaphores");
}

static uint64_t completed(vkg_vk_queue *q)
{
	uint64_t v = 0;
	vkGetSemaphoreCounterValue(q->dev->device, q->timeline, &v);
	return v;
}

int vkg_vk_queue_new(vkg_device *dev, int vq, vkg_vk_queue **out, vkg_status *st)
{
	VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	VkSemaphoreTypeCreateInfo stci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
	VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &stci};
	VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	vkg_vk_queue *q;
	VkResult r;

	*out = NULL;
	q = calloc(1, sizeof *q);
	if (!q)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	q->dev = dev;
	q->vq = vq;
	q->refs = 1;
	pthread_mutex_init(&q->mu, NULL);
	pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
	pci.queueFamilyIndex = dev->family;
	r = vkCreateCommandPool(dev->device, &pci, NULL, &q->pool);
	if (r != VK_SUCCESS)
		goto fail;
	stci.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
	stci.initialValue = 0;
	r = vkCreateSemaphore(dev->device, &sci, NULL, &q->timeline);
	if (r != VK_SUCCESS)
		goto fail;
	cai.commandPool = q->pool;
	cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
	cai.commandBufferCount = VKG_VK_RING;
	r = vkAllocateCommandBuffers(dev->device, &cai, q->cb);
	if (r != VK_SUCCESS)
		goto fail;
	pthread_mutex_lock(&dev->mu);
	q->next_live = dev->live;
	dev->live = q;
	pthread_mutex_unlock(&dev->mu);
	*out = q;
	return VKG_OK;
fail:
	vkg_vk_queue_release(q);
	return vkg_vk_fail(st, r, "creating a command queue");
}

void vkg_vk_queue_retain(vkg_vk_queue *q) { __atomic_add_fetch(&q->refs, 1, __ATOMIC_RELAXED); }

/* Lets go of the queues the batch of ring slot k waited on (it has run). */
static void release_waited(vkg_vk_queue *q, int k)
{
	int i;
	for (i = 0; i < q->cb_nwait_q[k]; i++)
		vkg_vk_queue_release(q->cb_wait_q[k][i]);
	q->cb_nwait_q[k] = 0;
}

void vkg_vk_queue_release(vkg_vk_queue *q)
{
	vkg_device *dev;
	int k;
	if (!q || __atomic_sub_fetch(&q->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	dev = q->dev;
	if (q->timeline) {
		/* nothing may still run on the arena or the command buffers */
		vkg_vk_wait_value(dev, q->timeline, q->submitted, NULL);
		vkDestroySemaphore(dev->device, q->timeline, NULL);
	}
	for (k = 0; k < VKG_VK_RING; k++)
		release_waited(q, k);
	for (k = 0; k < q->nwaits; k++) /* waits never submitted */
		vkg_vk_queue_release(q->wait_q[k]);
	if (q->arena) {
		vkDestroyBuffer(dev->device, q->arena, NULL);
		vkFreeMemory(dev->device, q->arena_mem, NULL);
	}
	if (q->pool)
		vkDestroyCommandPool(dev->device, q->pool, NULL); /* frees the command buffers */
	pthread_mutex_destroy(&q->mu);
	free(q);
}

/* Forgets the pending waits (the batch that would have carried them failed). */
static void drop_waits(vkg_vk_queue *q)
{
	int i;
	for (i = 0; i < q->nwaits; i++)
		vkg_vk_queue_release(q->wait_q[i]);
	q->nwaits = 0;
}

/* Submits the batch being recorded (q->mu held). */
static int q_flush(vkg_vk_queue *q, vkg_status *st)
{
	VkMemoryBarrier to_host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
	VkTimelineSemaphoreSubmitInfo tsi = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &tsi};
	VkPipelineStageFlags stages[VKG_VK_MAX_WAITS];
	VkCommandBuffer cb = q->cb[q->cur];
	uint64_t ticket = q->submitted + 1;
	VkResult r;
	int i;

	if (!q->recording)
		return VKG_OK;
	/* device writes become visible to the host once the batch's semaphore says it is done */
	to_host.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
	to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
			     NULL, 0, NULL);
	q->recording = 0;
	q->nops = 0;
	r = vkEndCommandBuffer(cb);
	if (r != VK_SUCCESS) {
		drop_waits(q);
		return vkg_vk_fail(st, r, "vkEndCommandBuffer");
	}
	for (i = 0; i < q->nwaits; i++)
		stages[i] = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
	tsi.waitSemaphoreValueCount = (uint32_t)q->nwaits;
	tsi.pWaitSemaphoreValues = q->wait_val;
	tsi.signalSemaphoreValueCount = 1;
	tsi.pSignalSemaphoreValues = &ticket;
	si.waitSemaphoreCount = (uint32_t)q->nwaits;
	si.pWaitSemaphores = q->wait_sem;
	si.pWaitDstStageMask = stages;
	si.commandBufferCount = 1;
	si.pCommandBuffers = &cb;
	si.signalSemaphoreCount = 1;
	si.pSignalSemaphores = &q->timeline;
	r = vkg_vk_queue_submit(q->dev->vq[q->vq], 1, &si, VK_NULL_HANDLE);
	if (r != VK_SUCCESS) {
		drop_waits(q);
		return vkg_vk_fail(st, r, "vkQueueSubmit");
	}
	/* the waited-on queues stay until this ring slot is reused (its batch has run) */
	for (i = 0; i < q->nwaits; i++)
		q->cb_wait_q[q->cur][i] = q->wait_q[i];
	q->cb_nwait_q[q->cur] = q->nwaits;
	q->nwaits = 0;
	q->submitted = ticket;
	q->cb_ticket[q->cur] = ticket;
	q->cur = (q->cur + 1) % VKG_VK_RING;
	return VKG_OK;
}

/* Makes sure a command buffer is recording (q->mu held). */
static int q_begin(vkg_vk_queue *q, vkg_status *st)
{
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	VkResult r;
	int rc;
	if (q->recording)
		return VKG_OK;
	/* the ring's next command buffer may still be on the device */
	if (q->cb_ticket[q->cur] && (rc = vkg_vk_wait_value(q->dev, q->timeline, q->cb_ticket[q->cur], st)) != VKG_OK)
		return rc;
	release_waited(q, q->cur);
	bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
	r = vkBeginCommandBuffer(q->cb[q->cur], &bi);
	if (r != VK_SUCCESS)
		return vkg_vk_fail(st, r, "vkBeginCommandBuffer");
	q->recording = 1;
	q->nops = 0;
	return VKG_OK;
}

/* Submits and waits for everything queued on q (q->mu held); the arena is free after. */
static int q_drain(vkg_vk_queue *q, vkg_status *st)
{
	int rc = q_flush(q, st);
	if (rc == VKG_OK)
		rc = vkg_vk_wait_value(q->dev, q->timeline, q->submitted, st);
	if (rc == VKG_OK)
		q->arena_used = 0;
	return rc;
}

void vkg_vk_cmd_barrier(VkCommandBuffer cb)
{
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
	mb.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
	mb.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb, 0,
			     NULL, 0, NULL);
}

vkg_vk_queue *vkg_vk_queue_of(vkg_device *dev, uint64_t queue)
{
	return queue ? (vkg_vk_queue *)(uintptr_t)queue : dev->own;
}

/* Locks q and returns a recording command buffer with the ordering barrier in place. */
int vkg_vk_op_begin(vkg_vk_queue *q, VkCommandBuffer *cb, vkg_status *st)
{
	int rc;
	pthread_mutex_lock(&q->mu);
	rc = q_begin(q, st);
	if (rc) {
		pthread_mutex_unlock(&q->mu);
		return rc;
	}
	*cb = q->cb[q->cur];
	vkg_vk_cmd_barrier(*cb);
	return VKG_OK;
}

/* Counts the command and submits the batch when it has grown long or, with kick, when
 * the device holds less than two batches of this queue (so it never runs dry, while calls
 * that come faster than it works are gathered into batches); unlocks q. */
int vkg_vk_op_end(vkg_vk_queue *q, uint64_t *ticket, int kick, vkg_status *st)
{
	int rc = VKG_OK;
	q->nops++;
	if (q->nops >= VKG_VK_BATCH_OPS || (kick && completed(q) + 2 > q->submitted))
		rc = q_flush(q, st);
	if (ticket)
		*ticket = q->recording ? q->submitted + 1 : q->submitted;
	pthread_mutex_unlock(&q->mu);
	return rc;
}

int vkg_vk_record_begin(vkg_device *dev, uint64_t queue, VkCommandBuffer *cb, vkg_status *st)
{
	return vkg_vk_op_begin(vkg_vk_queue_of(dev, queue), cb, st);
}

int vkg_vk_record_end(vkg_device *dev, uint64_t queue, uint64_t *ticket, vkg_status *st)
{
	return vkg_vk_op_end(vkg_vk_queue_of(dev, queue), ticket, 0, st);
}

int vkg_vk_queue_kick(vkg_device *dev, uint64_t queue, vkg_status *st)
{
	vkg_vk_queue *q = vkg_vk_queue_of(dev, queue);
	int rc = VKG_OK;
	pthread_mutex_lock(&q->mu);
	if (q->recording && completed(q) + 2 > q->submitted)
		rc = q_flush(q, st);
	pthread_mutex_unlock(&q->mu);
	return rc;
}

void vkg_vk_use_set(vkg_device *dev, vkg_use *use, uint64_t queue, uint64_t ticket)
{
	vkg_vk_queue *q = vkg_vk_queue_of(dev, queue);
	if (use->queue != q) {
		vkg_vk_queue_retain(q);
		vkg_vk_queue_release(use->queue);
		use->queue = q;
	}
	use->ticket = ticket;
}

int vkg_vk_use_wait(vkg_device *dev, vkg_use *use, vkg_status *st)
{
	vkg_vk_queue *q = use->queue;
	int rc = VKG_OK;
	(void)dev;
	if (!q || use->ticket == 0)
		return VKG_OK;
	pthread_mutex_lock(&q->mu);
	if (!q->dead && q->submitted < use->ticket)
		rc = q_flush(q, st);
	pthread_mutex_unlock(&q->mu);
	if (rc == VKG_OK)
		rc = vkg_vk_wait_value(q->dev, q->timeline, use->ticket, st);
	return rc;
}

void vkg_vk_use_clear(vkg_use *use)
{
	vkg_vk_queue_release(use->queue);
	use->queue = NULL;
	use->ticket = 0;
}

int vkg_vk_queue_create(vkg_device *dev, uint64_t *queue, vkg_status *st)
{
	vkg_vk_queue *q;
	int vq, rc;
	/* streams take the family's other queues in turn, so they can run concurrently */
	pthread_mutex_lock(&dev->mu);
	vq = dev->nqueues > 1 ? dev->next_vq : 0;
	if (dev->nqueues > 1)
		dev->next_vq = dev->next_vq + 1 < (int)dev->nqueues ? dev->next_vq + 1 : 1;
	pthread_mutex_unlock(&dev->mu);
	rc = vkg_vk_queue_new(dev, vq, &q, st);
	*queue = rc ? 0 : (uint64_t)(uintptr_t)q;
	return rc;
}

/* Waits for the queue's work; the memory goes once no event or plan refers to it. */
void vkg_vk_queue_close(vkg_vk_queue *q)
{
	vkg_status st;
	vkg_vk_queue **pp;
	int k;
	pthread_mutex_lock(&q->dev->mu);
	for (pp = &q->dev->live; *pp; pp = &(*pp)->next_live)
		if (*pp == q) {
			*pp = q->next_live;
			break;
		}
	pthread_mutex_unlock(&q->dev->mu);
	pthread_mutex_lock(&q->mu);
	q_drain(q, &st);
	q->dead = 1;
	/* its batches have run: the queues they waited on may go (two queues that waited on
	 * each other would otherwise keep each other alive) */
	for (k = 0; k < VKG_VK_RING; k++)
		release_waited(q, k);
	pthread_mutex_unlock(&q->mu);
	vkg_vk_queue_release(q);
}

void vkg_vk_queue_destroy(vkg_device *dev, uint64_t queue)
{
	(void)dev;
	if (queue)
		vkg_vk_queue_close((vkg_vk_queue *)(uintptr_t)queue);
}

int vkg_vk_queue_sync(vkg_device *dev, uint64_t queue, vkg_status *st)
{
	vkg_vk_queue *q = vkg_vk_queue_of(dev, queue);
	uint64_t target;
	int rc;
	pthread_mutex_lock(&q->mu);
	rc = q_flush(q, st);
	target = q->submitted;
	pthread_mutex_unlock(&q->mu);
	if (rc == VKG_OK)
		rc = vkg_vk_wait_value(dev, q->timeline, target, st);
	return rc;
}

int vkg_vk_device_sync(vkg_device *dev, vkg_status *st) { return vkg_vk_queue_sync(dev, 0, st); }

/* Submits and waits for the work of every queue of the device. */
void vkg_vk_sync_all(vkg_device *dev)
{
	vkg_vk_queue **qs, *q;
	vkg_status st;
	size_t n = 0, i;
	pthread_mutex_lock(&dev->mu);
	for (q = dev->live; q; q = q->next_live)
		n++;
	qs = calloc(n ? n : 1, sizeof *qs);
	if (!qs) { /* out of host memory: at least the device's own queue */
		pthread_mutex_unlock(&dev->mu);
		vkg_vk_queue_sync(dev, 0, &st);
		return;
	}
	for (q = dev->live, n = 0; q; q = q->next_live) {
		vkg_vk_queue_retain(q);
		qs[n++] = q;
	}
	pthread_mutex_unlock(&dev->mu);
	for (i = 0; i < n; i++) {
		uint64_t target;
		pthread_mutex_lock(&qs[i]->mu);
		q_flush(qs[i], &st);
		target = qs[i]->submitted;
		pthread_mutex_unlock(&qs[i]->mu);
		vkg_vk_wait_value(dev, qs[i]->timeline, target, &st);
		vkg_vk_queue_release(qs[i]);
	}
	free(qs);
}

uint64_t vkg_vk_queue_native(vkg_device *dev, uint64_t queue)
{
	return (uint64_t)(uintptr_t)dev->vq[vkg_vk_queue_of(dev, queue)->vq];
}

/* ---- staging arena (q->mu held) ---- */

/* Hands out up to bytes of the arena (the amount in *got), submitting and waiting for the
 * queue first when the arena is full, and growing it when it is idle and too small. */
static int arena_take(vkg_vk_queue *q, uint64_t bytes, uint64_t *off, uint64_t *got, vkg_status *st)
{
	uint64_t need = (bytes + 255) & ~(uint64_t)255;
	int rc;
	if (q->arena && q->arena_used + need <= q->arena_cap)
		goto take;
	if ((rc = q_drain(q, st)) != VKG_OK)
		return rc;
	if (need > q->arena_cap && q->arena_cap < VKG_VK_ARENA_MAX) {
		uint64_t cap = VKG_VK_ARENA_MIN;
		/* room for an upload and a download of this size in one batch */
		while (cap < 2 * need && cap < VKG_VK_ARENA_MAX)
			cap <<= 1;
		if (q->arena) {
			vkDestroyBuffer(q->dev->device, q->arena, NULL);
			vkFreeMemory(q->dev->device, q->arena_mem, NULL);
			q->arena = VK_NULL_HANDLE;
			q->arena_cap = 0;
		}
		rc = vkg_vk_buffer_create(q->dev, cap, 1, &q->arena, &q->arena_mem, (void **)&q->arena_ptr, st);
		if (rc) {
			q->arena = VK_NULL_HANDLE;
			return rc;
		}
		q->arena_cap = cap;
	}
take:
	*off = q->arena_used;
	*got = bytes < q->arena_cap - q->arena_used ? bytes : q->arena_cap - q->arena_used;
	q->arena_used += (*got + 255) & ~(uint64_t)255;
	return VKG_OK;
}

static void cmd_copy(VkCommandBuffer cb, VkBuffer src, uint64_t src_off, VkBuffer dst, uint64_t dst_off,
		     uint64_t bytes)
{
	VkBufferCopy region;
	region.srcOffset = src_off;
	region.dstOffset = dst_off;
	region.size = bytes;
	vkCmdCopyBuffer(cb, src, dst, 1, &region);
}

/* ---- copies ---- */

int vkg_vk_mem_write_async(vkg_device *dev, uint64_t queue, vkg_mem dst, uint64_t off, const void *src,
			uint64_t bytes, vkg_status *st)
{
	vkg_vk_queue *q = vkg_vk_queue_of(dev, queue);
	VkBuffer pin;
	uint64_t pin_off, done = 0;
	VkCommandBuffer cb;
	int rc = VKG_OK;

	if (bytes == 0)
		return VKG_OK;
	if (vkg_vk_find_pinned(dev, src, bytes, &pin, &pin_off)) {
		if ((rc = vkg_vk_op_begin(q, &cb, st)) != VKG_OK)
			return rc;
		cmd_copy(cb, pin, pin_off, (VkBuffer)(uintptr_t)dst, off, bytes);
		return vkg_vk_op_end(q, NULL, 1, st);
	}
	/* ordinary memory: copied into the arena now, so src is free when this returns */
	pthread_mutex_lock(&q->mu);
	while (done < bytes) {
		uint64_t a_off, n;
		rc = arena_take(q, bytes - done, &a_off, &n, st);
		if (rc == VKG_OK)
			rc = q_begin(q, st);
		if (rc)
			break;
		memcpy(q->arena_ptr + a_off, (const char *)src + done, n);
		cb = q->cb[q->cur];
		vkg_vk_cmd_barrier(cb);
		cmd_copy(cb, q->arena, a_off, (VkBuffer)(uintptr_t)dst, off + done, n);
		q->nops++;
		done += n;
	}
	pthread_mutex_unlock(&q->mu);
	return rc;
}

int vkg_vk_mem_write(vkg_device *dev, vkg_mem dst, uint64_t off, const void *src, uint64_t bytes, vkg_status *st)
{
	return vkg_vk_mem_write_async(dev, 0, dst, off, src, bytes, st);
}

/* A download into ordinary memory: through the arena, a piece at a time, waiting for each. */
static int read_through_arena(vkg_device *dev, vkg_vk_queue *q, void *dst, vkg_mem src, uint64_t off,
			      uint64_t bytes, vkg_status *st)
{
	uint64_t done = 0;
	int rc = VKG_OK;
	(void)dev;
	pthread_mutex_lock(&q->mu);
	while (done < bytes && rc == VKG_OK) {
		uint64_t a_off, n;
		VkCommandBuffer cb;
		rc = arena_take(q, bytes - done, &a_off, &n, st);
		if (rc == VKG_OK)
			rc = q_begin(q, st);
		if (rc)
			break;
		cb = q->cb[q->cur];
		vkg_vk_cmd_barrier(cb);
		cmd_copy(cb, (VkBuffer)(uintptr_t)src, off + done, q->arena, a_off, n);
		rc = q_flush(q, st);
		if (rc == VKG_OK)
			rc = vkg_vk_wait_value(q->dev, q->timeline, q->submitted, st);
		if (rc == VKG_OK)
			memcpy((char *)dst + done, q->arena_ptr + a_off, n);
		done += n;
	}
	pthread_mutex_unlock(&q->mu);
	return rc;
}

int vkg_vk_mem_read(vkg_device *dev, void *dst, vkg_mem src, uint64_t off, uint64_t bytes, vkg_status *st)
{
	vkg_vk_queue *q = dev->own;
	VkBuffer pin;
	uint64_t pin_off;
	if (bytes == 0)
		return vkg_vk_device_sync(dev, st);
	if (vkg_vk_find_pinned(dev, dst, bytes, &pin, &pin_off)) {
		VkCommandBuffer cb;
		int rc = vkg_vk_op_begin(q, &cb, st);
		if (rc)
			return rc;
		cmd_copy(cb, (VkBuffer)(uintptr_t)src, off, pin, pin_off, bytes);
		q->nops++;
		pthread_mutex_unlock(&q->mu);
		return vkg_vk_queue_sync(dev, 0, st);
	}
	return read_through_arena(dev, q, dst, src, off, bytes, st);
}

/* Into pinned memory the copy is only queued; into ordinary memory it cannot be (the data
 * must pass through the arena), so it completes before returning. */
int vkg_vk_mem_read_async(vkg_device *dev, uint64_t queue, void *dst, vkg_mem src, uint64_t off, uint64_t bytes,
		       vkg_status *st)
{
	vkg_vk_queue *q = vkg_vk_queue_of(dev, queue);
	VkBuffer pin;
	uint64_t pin_off;
	if (bytes == 0)
		return VKG_OK;
	if (vkg_vk_find_pinned(dev, dst, bytes, &pin, &pin_off)) {
		VkCommandBuffer cb;
		int rc = vkg_vk_op_begin(q, &cb, st);
		if (rc)
			return rc;
		cmd_copy(cb, (VkBuffer)(uintptr_t)src, off, pin, pin_off, bytes);
		return vkg_vk_op_end(q, NULL, 1, st);
	}
	return read_through_arena(dev, q, dst, src, off, bytes, st);
}

/* An event is a point on one queue's timeline. */
typedef struct vk_event {
	vkg_vk_queue *q;
	uint64_t value;
} vk_event;

int vkg_vk_event_create(vkg_device *dev, uint64_t *ev, vkg_status *st)
{
	vk_event *e = calloc(1, sizeof *e);
	(void)dev;
	*ev = (uint64_t)(uintptr_t)e;
	return e ? VKG_OK : vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
}

void vkg_vk_event_destroy(vkg_device *dev, uint64_t ev)
{
	vk_event *e = (vk_event *)(uintptr_t)ev;
	(void)dev;
	if (!e)
		return;
	vkg_vk_queue_release(e->q);
	free(e);
}

/* Submits what the queue holds (a marker must not wait for a batch nobody submits) and
 * remembers the value that batch signals. */
int vkg_vk_event_record(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st)
{
	vk_event *e = (vk_event *)(uintptr_t)ev;
	vkg_vk_queue *q = vkg_vk_queue_of(dev, queue);
	uint64_t value;
	int rc;
	pthread_mutex_lock(&q->mu);
	rc = q_flush(q, st);
	value = q->submitted;
	pthread_mutex_unlock(&q->mu);
	if (rc)
		return rc;
	if (e->q != q) {
		vkg_vk_queue_retain(q);
		vkg_vk_queue_release(e->q);
		e->q = q;
	}
	e->value = value;
	return VKG_OK;
}

int vkg_vk_queue_wait_event(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st)
{
	vk_event *e = (vk_event *)(uintptr_t)ev;
	vkg_vk_queue *q = vkg_vk_queue_of(dev, queue);
	int i, rc = VKG_OK;
	if (!e->q || e->value == 0 || e->q == q || e->q->dead)
		return VKG_OK; /* in order already, or done */
	pthread_mutex_lock(&q->mu);
	for (i = 0; i < q->nwaits; i++)
		if (q->wait_sem[i] == e->q->timeline) {
			if (q->wait_val[i] < e->value)
				q->wait_val[i] = e->value;
			break;
		}
	if (i == q->nwaits) {
		if (q->nwaits == VKG_VK_MAX_WAITS)
			rc = q_flush(q, st); /* submits the waits gathered so far */
		if (rc == VKG_OK) {
			/* waits attach to the next submission: anything recorded before the wait
			 * must not be held back by it, but is ordered before later work anyway */
			vkg_vk_queue_retain(e->q);
			q->wait_q[q->nwaits] = e->q;
			q->wait_sem[q->nwaits] = e->q->timeline;
			q->wait_val[q->nwaits] = e->value;
			q->nwaits++;
		}
	}
	pthread_mutex_unlock(&q->mu);
	return rc;
}

int vkg_vk_event_sync(vkg_device *dev, uint64_t ev, vkg_status *st)
{
	vk_event *e = (vk_event *)(uintptr_t)ev;
	if (!e->q || e->value == 0)
		return VKG_OK;
	return vkg_vk_wait_value(dev, e->q->timeline, e->value, st);
}

