/* vkg_vulkan_int.h — what the vulkan backend's files share: the device and queue
 * structures, and each file's functions for the others. Not part of the interface to the
 * engine, which is vkg_backend.h through backend.c's table (vkg_vulkan.h).
 *
 * The files are layered: each calls functions of the files below it only, never of one
 * above or of one that calls it (internal/backend/layering_test.go fails on a circle).
 * From the bottom:
 *
 *   vkg_vulkan_fail.c    a failed Vulkan call as a status                     (calls nothing here)
 *   vkg_vulkan_glsl.c    GLSL to SPIR-V with glslang                          (calls nothing here)
 *   vkg_vulkan_buffer.c  VkBuffers with memory; the device's tables of its
 *                        buffers and pinned ranges                            -> fail
 *   vkg_vulkan_queue.c   queues, batches, copies, events, waits               -> buffer, fail
 *   vkg_vulkan_mem.c     allocating and freeing device buffers and pinned
 *                        memory (a free waits for every queue first)          -> queue, buffer
 *   vkg_hostreg_vulkan.c registered host memory                               -> mem, buffer, fail
 *   vkg_vulkan_scale.c   the normalisation shader                             -> queue, glsl, fail
 *   vkg_kern_vulkan.c    companion kernels                                    -> queue, buffer, glsl, fail
 *   vkg_vulkan_copy.c    device-to-device copies (a companion kernel on a
 *                        discrete device, vkCmdCopyBuffer elsewhere)          -> queue, kern
 *   vkg_vulkan.c         instance and devices (opening makes the device's own
 *                        queue; closing frees what the tables, the
 *                        normalisation and the copy still hold)               -> queue, buffer, scale, copy, fail
 *   backend.c            the vkg_backend table over all of them
 *
 * So a lower file never reaches up for something a higher one owns: the queue file finds
 * pinned ranges and makes staging buffers through the buffer file, and what must wait for
 * the queues (freeing memory, closing a device) sits above the queue file. */
#ifndef VKG_VULKAN_INT_H
#define VKG_VULKAN_INT_H

#include <pthread.h>
#include <vulkan/vulkan.h>

#include "vkg_vulkan.h"

#define VKG_VK_MAX_QUEUES 8
#define VKG_VK_RING 8            /* command buffers per queue, taking turns */
#define VKG_VK_BATCH_OPS 64      /* a batch is submitted once it holds this many commands */
#define VKG_VK_MAX_WAITS 8       /* cross-queue waits pending for one submission */
#define VKG_VK_ARENA_MIN (1u << 20)
#define VKG_VK_ARENA_MAX (64u << 20) /* per queue; larger host copies go in pieces */
#define VKG_VK_MEM_BUCKETS 1024
#define VKG_VK_WAIT_NS UINT64_MAX

typedef struct mem_node {
	VkBuffer buffer;
	VkDeviceMemory memory;
	uint64_t bytes; /* the buffer's size (companion kernels bind it whole) */
	struct mem_node *next;
} mem_node;

typedef struct pinned_range {
	char *ptr;
	uint64_t bytes;
	VkBuffer buffer;
	VkDeviceMemory memory;
} pinned_range;

struct vkg_vk_queue {
	vkg_device *dev;
	int vq;   /* index into dev->vq */
	int refs; /* the owner, events and plan uses (atomic) */
	int dead; /* its owner destroyed it: its work is done */
	vkg_vk_queue *next_live; /* the device's list of queues not yet destroyed (dev->mu) */
	pthread_mutex_t mu;
	VkCommandPool pool;
	VkSemaphore timeline;
	uint64_t submitted; /* the last batch submitted signals this value */
	VkCommandBuffer cb[VKG_VK_RING];
	uint64_t cb_ticket[VKG_VK_RING]; /* the batch each last carried (0: none) */
	int cur, recording, nops;
	VkSemaphore wait_sem[VKG_VK_MAX_WAITS];
	uint64_t wait_val[VKG_VK_MAX_WAITS];
	int nwaits;
	/* A batch that waits on another queue's timeline semaphore uses it until the batch has
	 * run: the other queue is kept (a reference) until then, even if its owner closes it. */
	vkg_vk_queue *wait_q[VKG_VK_MAX_WAITS];
	vkg_vk_queue *cb_wait_q[VKG_VK_RING][VKG_VK_MAX_WAITS];
	int cb_nwait_q[VKG_VK_RING];
	/* staging arena for ordinary host memory: regions are handed out in order and
	 * reused once every batch that used them has finished */
	VkBuffer arena;
	VkDeviceMemory arena_mem;
	char *arena_ptr;
	uint64_t arena_cap, arena_used;
};

struct vkg_device {
	VkPhysicalDevice physical;
	VkDevice device;
	uint32_t family, nqueues;
	VkQueue vq[VKG_VK_MAX_QUEUES];
	VkPipelineCache pipeline_cache;
	vkg_device_info info;
	VkPhysicalDeviceMemoryProperties memprops;
	uint64_t storage_range, offset_align;
	int has_budget;
	int float_atomic_add; /* VK_EXT_shader_atomic_float's shaderBufferFloat32AtomicAdd is on */
	int shared_float_atomic_add; /* and its shaderSharedFloat32AtomicAdd */
	uint64_t import_align; /* VK_EXT_external_memory_host: host pointers import (0: cannot) */
	PFN_vkGetMemoryHostPointerPropertiesEXT host_pointer_props;
	vkg_vk_queue *own;
	uint64_t spin_ns; /* how long a wait polls before it blocks (vkg_vk_spin_ns) */

	pthread_mutex_t mu; /* buffer table, pinned ranges, queue list and assignment */
	vkg_vk_queue *live; /* queues not yet destroyed */
	mem_node *mem[VKG_VK_MEM_BUCKETS];
	int64_t live_buffers;
	int64_t pinned_copies; /* copies recorded straight from or to pinned ranges (atomic) */
	pinned_range *pins;
	size_t npins, pins_cap;
	int next_vq;

	/* the normalisation pipelines, built on first use */
	pthread_mutex_t scale_mu;
	PFN_vkCmdPushDescriptorSetKHR push_descriptor;
	VkDescriptorSetLayout scale_dsl;
	VkPipelineLayout scale_layout;
	VkPipeline scale_f, scale_d;
	int scale_built;

	/* the copy kernel (vkg_vulkan_copy.c), built on first use under scale_mu */
	int copy_mode;  /* VKG_VK_COPY_*, from the environment at open */
	int copy_state; /* 0 not built yet, 1 built, -1 failed to build (transfers only) */
	vkg_module *copy_module;
	vkg_kernel *copy_kernel;
	int64_t shader_copies; /* copies that went through the shader (atomic) */
};


/* ---- vkg_vulkan_fail.c ---- */
/* Sets st from a failed Vulkan call (what names it) and returns the status code. */
int vkg_vk_fail(vkg_status *st, VkResult r, const char *what);

/* ---- vkg_vulkan_glsl.c ---- */
/* GLSL compute shader (after preamble, which may be NULL) to SPIR-V 1.3: *words malloc'd,
 * *nwords long; what names the shader in error messages. */
int vkg_vk_glsl_to_spirv(const char *what, const char *preamble, const char *src, uint32_t **words, size_t *nwords,
			 vkg_status *st);

/* ---- vkg_vulkan_buffer.c ---- */
/* A buffer with its own memory: device-local, or host-visible (host) and mapped (*map). */
int vkg_vk_buffer_create(vkg_device *dev, uint64_t bytes, int host, VkBuffer *buf, VkDeviceMemory *mem,
			 void **map, vkg_status *st);
/* The device buffers' table: track takes n (malloc'd, its buffer, memory and bytes set);
 * untrack gives back the node of buf, or NULL when buf is not in the table (a caller's
 * VkBuffer). */
void vkg_vk_buffer_track(vkg_device *dev, mem_node *n);
mem_node *vkg_vk_buffer_untrack(vkg_device *dev, VkBuffer buf);
/* The size of a buffer vkg_vk_mem_alloc made; 0 for any other (a caller's VkBuffer). */
uint64_t vkg_vk_buffer_bytes(vkg_device *dev, VkBuffer buf);
/* The pinned ranges (HostBuffers and registered memory): add copies *r into the table;
 * take removes the range whose VkBuffer is handle into *out (0: none). Neither waits or
 * destroys: removing a range for good is vkg_vk_pin_remove. */
int vkg_vk_pin_add(vkg_device *dev, const pinned_range *r, vkg_status *st);
int vkg_vk_pin_take(vkg_device *dev, uint64_t handle, pinned_range *out);
/* The pinned (host-visible) buffer holding [p, p+bytes), if any, and the offset in it. */
int vkg_vk_find_pinned(vkg_device *dev, const void *p, uint64_t bytes, VkBuffer *buf, uint64_t *off);
/* Destroys every buffer and pinned range still in the tables (closing an idle device). */
void vkg_vk_buffers_destroy_all(vkg_device *dev);

/* ---- vkg_vulkan_queue.c ---- */
int vkg_vk_queue_new(vkg_device *dev, int vq, vkg_vk_queue **out, vkg_status *st);
/* Waits for the queue's work and drops its owner's reference. */
void vkg_vk_queue_close(vkg_vk_queue *q);
void vkg_vk_queue_retain(vkg_vk_queue *q);
void vkg_vk_queue_release(vkg_vk_queue *q);
vkg_vk_queue *vkg_vk_queue_of(vkg_device *dev, uint64_t queue);
int vkg_vk_wait_value(vkg_device *dev, VkSemaphore sem, uint64_t value, vkg_status *st);
/* How long a wait polls before it blocks, for a device that is (host_memory) the CPU or not. */
uint64_t vkg_vk_spin_ns(int host_memory);
/* Submits and waits for the work of every queue of the device. */
void vkg_vk_sync_all(vkg_device *dev);
/* One command into q's batch: begin locks q and returns the recording command buffer with
 * the ordering barrier in place; end counts it, submits the batch if it is long or (kick)
 * if the device holds less than two of q's batches, and unlocks. */
int vkg_vk_op_begin(vkg_vk_queue *q, VkCommandBuffer *cb, vkg_status *st);
int vkg_vk_op_end(vkg_vk_queue *q, uint64_t *ticket, int kick, vkg_status *st);

/* ---- vkg_vulkan_mem.c ---- */
/* Removes a pinned range (vkg_vk_pin_add's), waits for every queue, then destroys the
 * range's buffer and memory. handle is the range's VkBuffer. */
void vkg_vk_pin_remove(vkg_device *dev, uint64_t handle);

/* ---- vkg_vulkan_scale.c ---- */
/* Destroys the normalisation's pipelines (closing an idle device). */
void vkg_vk_scale_free(vkg_device *dev);

/* ---- vkg_vulkan_copy.c ---- */
enum { VKG_VK_COPY_AUTO = 0, VKG_VK_COPY_SHADER = 1, VKG_VK_COPY_TRANSFER = 2 };
/* How device-to-device copies go, from VKFFTGO_VULKAN_COPY (shader, transfer; else auto). */
int vkg_vk_copy_mode(void);
/* Destroys the copy kernel (closing a device, before its own queue closes: destroying
 * waits for the device's queues). */
void vkg_vk_copy_free(vkg_device *dev);

#endif
