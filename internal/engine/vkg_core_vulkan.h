/* vkg_core_vulkan.h — the Vulkan part of vkg_core.c's translation unit: it is included
 * by vkg_core.c only (after struct vkg_plan, for VKFFT_BACKEND 0) and is no header of its
 * own. It speaks VkFFT and Vulkan, and reaches the backend only through the contract's
 * command-recording entries (vkg_backend.h).
 *
 * VkFFT records a transform into a command buffer. A plan records each direction once,
 * into a secondary command buffer of its own (simultaneous use), and every later call
 * only appends that buffer to the queue's batch (vkCmdExecuteCommands): no re-recording
 * and no descriptor update per call. A recording stays valid while the plan runs on the
 * same buffers with the same scale; a call with other buffers re-records the direction.
 *
 * VkFFT binds buffers through descriptor sets that it rewrites when a launch names other
 * buffers — and it decides that by comparing the *pointers* to the buffer handles, not the
 * handles. So each buffer has two slots, and a new handle goes into the slot not in use.
 * Rewriting a descriptor set that a submitted command buffer still uses is not allowed:
 * before re-recording, the plan waits for its last submitted use.
 *
 * VkFFT 1.3.4 writes some descriptor sets at creation before all of its own buffers exist
 * (single-precision Bluestein sizes such as 509, 1031, 2039 bind VK_NULL_HANDLE for the
 * chirp buffers and compute zeros): the first recording always makes it rewrite them.
 */

static void scale_target(vkg_plan *plan, int inverse, vkg_mem *out, uint64_t *n); /* vkg_core.c */

static int vk_fail(vkg_status *st, VkResult r, const char *what)
{
	int code = r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY ? VKG_ERR_OUT_OF_MEMORY
											     : VKG_ERR_BACKEND;
	return vkg_fail(st, code, (int)r, "Vulkan %s failed (%d)", what, (int)r);
}

typedef struct vkg_vk_plan {
	VkCommandPool pool; /* VkFFT's during creation, then the secondary buffers' */
	VkFence fence;      /* VkFFT waits on it for its table uploads */
	VkBuffer buf_slot[2], real_slot[2];
	int buf_cur, real_cur;
	int fresh; /* no recording yet: force VkFFT to rewrite its descriptor sets */
	int uses_input; /* VkFFT reads an inputBuffer (R2C's real data, or a layout's input) */
	VkCommandBuffer sec[2]; /* [0] forward, [1] inverse */
	int sec_valid[2];
	VkBuffer sec_buf[2], sec_real[2];
	double sec_scale[2];
	VkBuffer in_slot[2], out_slot[2]; /* stage runs' separate input and output (vk_run_stages) */
	int in_cur, out_cur;
	VkDevice device;
	vkg_use last; /* where and when the plan last ran */
	uint64_t recordings; /* how often a direction was recorded (tests: once per direction) */
} vkg_vk_plan;

/* Fills the Vulkan part of VkFFT's configuration and makes the plan's pool and fence. */
static int vk_plan_setup(vkg_plan *plan, VkFFTConfiguration *c, vkg_status *st)
{
	vkg_vk_plan *vk = calloc(1, sizeof *vk);
	uint64_t pool, fence;
	int rc;
	if (!vk)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	rc = vkg_be->plan_pool(plan->dev, &pool, &fence, st);
	if (rc) {
		free(vk);
		return rc;
	}
	vk->pool = (VkCommandPool)pool;
	vk->fence = (VkFence)fence;
	plan->vk = vk;
	c->physicalDevice = (VkPhysicalDevice *)plan->native.physical;
	c->device = (VkDevice *)plan->native.device;
	vk->device = *c->device;
	c->queue = (VkQueue *)plan->native.queue; /* its submissions go through vkg_queue_submit_locked */
	c->commandPool = &vk->pool;
	c->fence = &vk->fence;
	c->pipelineCache = (VkPipelineCache *)plan->native.pipeline_cache;
	c->isCompilerInitialized = 1; /* glslang is initialised once per process by the backend */
	vk->buf_slot[0] = plan->buffer;
	vk->fresh = 1;
	c->buffer = &vk->buf_slot[0];
	/* the core has set inputBuffer (to the plan's real buffer) where VkFFT reads one */
	if (c->inputBuffer) {
		vk->real_slot[0] = *c->inputBuffer;
		c->inputBuffer = &vk->real_slot[0];
		vk->uses_input = 1;
	}
	return VKG_OK;
}

/* Waits until nothing the plan recorded can still run (before deleteVkFFT). */
static void vk_plan_quiesce(vkg_plan *plan)
{
	vkg_status st;
	if (!plan->vk)
		return;
	vkg_be->use_wait(plan->dev, &plan->vk->last, &st);
	vkg_be->use_clear(&plan->vk->last);
}

/* Frees the pool (and with it the recorded command buffers) and the fence. */
static void vk_plan_free(vkg_plan *plan)
{
	if (!plan->vk)
		return;
	vkg_be->plan_pool_free(plan->dev, (uint64_t)plan->vk->pool, (uint64_t)plan->vk->fence);
	free(plan->vk);
	plan->vk = NULL;
}

/* Records the Hermitian projection of complex buffer b (vkg_herm.h) into cb, each launch
 * viewing its two windows of b, then a barrier before the C2R that reads b. On Vulkan
 * the kernel's indices are 32-bit: the outer stride and the window offsets enter modulo
 * 2^32, which the kernel's unsigned arithmetic undoes (every index it forms lies inside
 * its window). */
static int vk_record_herm(vkg_plan *plan, VkCommandBuffer cb, VkBuffer b, vkg_status *st)
{
	const vkg_herm *h = &plan->herm;
	vkg_arg args[VKG_HERM_NARGS];
	uint64_t vals[VKG_HERM_NSCALARS], mem = (uint64_t)(uintptr_t)b;
	int i, j, rc;

	if ((rc = vkg_herm_check(h, st)) != VKG_OK)
		return rc;
	args[0].ptr = args[1].ptr = &mem;
	args[0].size = args[1].size = sizeof mem;
	for (j = 0; j < VKG_HERM_NSCALARS; j++) {
		args[2 + j].ptr = &vals[j];
		args[2 + j].size = 8;
	}
	for (i = 0; i < h->nlaunches; i++) {
		const vkg_herm_launch *l = &h->launches[i];
		vkg_window win[2] = {{l->a_off, l->a_bytes}, {l->b_off, l->b_bytes}};
		uint64_t groups[2] = {l->groups, 1};
		for (j = 0; j < VKG_HERM_NSCALARS; j++)
			vals[j] = l->arg[j];
		vals[VKG_HERM_SOUT] &= 0xffffffffu;
		vals[VKG_HERM_AOFF] &= 0xffffffffu;
		vals[VKG_HERM_BOFF] &= 0xffffffffu;
		rc = vkg_be->kernel_record(plan->dev, cb, h->k, groups, VKG_HERM_LOCAL, VKG_HERM_NARGS, args, win, st);
		if (rc)
			return rc;
	}
	vkg_be->cmd_barrier(cb);
	return VKG_OK;
}

/* slot_for returns the slot VkFFT must be pointed at for handle b. */
static VkBuffer *slot_for(VkBuffer slots[2], int *cur, VkBuffer b)
{
	if (slots[*cur] != b) {
		*cur ^= 1;
		slots[*cur] = b;
	}
	return &slots[*cur];
}

/* Records direction d on buffers b (complex) and r (real, R2C) into the plan's secondary
 * command buffer, with the output scaling after it. */
static int vk_record(vkg_plan *plan, int d, VkBuffer b, VkBuffer r, double scale, vkg_status *st)
{
	vkg_vk_plan *vk = plan->vk;
	VkFFTLaunchParams lp = VKFFT_ZERO_INIT;
	VkCommandBufferInheritanceInfo inh = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	VkFFTResult fr;
	VkResult res;
	int rc;

	vk->sec_valid[d] = 0;
	/* the old recording, or a stage run, and the descriptor sets they bind may still be in
	 * flight */
	if ((rc = vkg_be->use_wait(plan->dev, &vk->last, st)) != VKG_OK)
		return rc;
	if (vk->sec[d]) {
		res = vkResetCommandBuffer(vk->sec[d], 0);
		if (res != VK_SUCCESS)
			return vk_fail(st, res, "vkResetCommandBuffer");
	} else {
		VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
		ai.commandPool = vk->pool;
		ai.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
		ai.commandBufferCount = 1;
		res = vkAllocateCommandBuffers(vk->device, &ai, &vk->sec[d]);
		if (res != VK_SUCCESS) {
			vk->sec[d] = VK_NULL_HANDLE;
			return vk_fail(st, res, "vkAllocateCommandBuffers");
		}
	}
	bi.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;
	bi.pInheritanceInfo = &inh;
	res = vkBeginCommandBuffer(vk->sec[d], &bi);
	if (res != VK_SUCCESS)
		return vk_fail(st, res, "vkBeginCommandBuffer");
	lp.commandBuffer = &vk->sec[d];
	if (d == 1 && plan->herm.needed && (rc = vk_record_herm(plan, vk->sec[d], b, st)) != VKG_OK) {
		vkEndCommandBuffer(vk->sec[d]);
		return rc;
	}
	if (vk->fresh) {
		/* another pointer to the same handle: VkFFT rewrites every descriptor set */
		vk->buf_cur ^= 1;
		vk->buf_slot[vk->buf_cur] = b;
		vk->fresh = 0;
	}
	lp.buffer = slot_for(vk->buf_slot, &vk->buf_cur, b);
	if (vk->uses_input)
		lp.inputBuffer = slot_for(vk->real_slot, &vk->real_cur, r);
	vkg_log_reset();
	fr = VkFFTAppend(plan->app, d ? 1 : -1, &lp);
	if (fr != VKFFT_SUCCESS) {
		vkEndCommandBuffer(vk->sec[d]);
		return vkg_vkfft_fail(st, fr, d ? "inverse FFT failed" : "forward FFT failed");
	}
	if (scale != 1.0) {
		vkg_mem out;
		uint64_t n;
		/* the core's choice of output and length, on the buffers of this recording */
		plan->launch_buffer = b;
		plan->launch_real = r;
		scale_target(plan, d, &out, &n);
		vkg_be->cmd_barrier(vk->sec[d]);
		rc = vkg_be->cmd_scale(plan->dev, vk->sec[d], out, n, plan->params.double_precision, scale, st);
		if (rc) {
			vkEndCommandBuffer(vk->sec[d]);
			return rc;
		}
	}
	res = vkEndCommandBuffer(vk->sec[d]);
	if (res != VK_SUCCESS)
		return vk_fail(st, res, "vkEndCommandBuffer");
	vk->sec_valid[d] = 1;
	vk->recordings++;
	vk->sec_buf[d] = b;
	vk->sec_real[d] = r;
	vk->sec_scale[d] = scale;
	return VKG_OK;
}

/* Appends the plan's recorded transform to queue's batch, recording it first if needed. */
static int vk_run_on(vkg_plan *plan, int inverse, vkg_mem buffer, vkg_mem real_buffer, uint64_t queue,
		     double scale, vkg_status *st)
{
	vkg_vk_plan *vk = plan->vk;
	VkBuffer b = buffer ? (VkBuffer)(uintptr_t)buffer : plan->buffer;
	VkBuffer r = VK_NULL_HANDLE;
	void *cb;
	uint64_t ticket;
	int d = inverse ? 1 : 0, rc;

	if (vk->uses_input)
		r = real_buffer ? (VkBuffer)(uintptr_t)real_buffer : plan->real;
	if (!vk->sec_valid[d] || vk->sec_buf[d] != b || vk->sec_real[d] != r || vk->sec_scale[d] != scale) {
		if ((rc = vk_record(plan, d, b, r, scale, st)) != VKG_OK)
			return rc;
	}
	if ((rc = vkg_be->record_begin(plan->dev, queue, &cb, st)) != VKG_OK)
		return rc;
	vkCmdExecuteCommands((VkCommandBuffer)cb, 1, &vk->sec[d]);
	rc = vkg_be->record_end(plan->dev, queue, &ticket, st);
	vkg_be->use_set(plan->dev, &vk->last, queue, ticket);
	return rc;
}

/* The buffers and offsets of one stage run (vkg_plan_run_io); 0: not used. */
typedef struct vk_stage_run {
	VkBuffer buffer, input, output;
	uint64_t buffer_off, input_off, output_off;
} vk_stage_run;

/* Records a stage run (convolution, separate input/output) straight into queue's batch:
 * its buffers and offsets vary per call, so it is not kept as a recording. VkFFT rewrites
 * its descriptor sets when a launch passes another pointer to a handle: another handle
 * goes into the other slot, after the plan's submitted work (which may use the sets) has
 * finished. */
static int vk_run_stages(vkg_plan *plan, int inverse, uint64_t queue, const vk_stage_run *run, vkg_status *st)
{
	vkg_vk_plan *vk = plan->vk;
	VkFFTLaunchParams lp = VKFFT_ZERO_INIT;
	VkCommandBuffer cb;
	void *cmd;
	VkFFTResult fr;
	uint64_t ticket;
	int rc, rebind;

	rebind = vk->fresh || vk->buf_slot[vk->buf_cur] != run->buffer ||
		 (run->input && vk->in_slot[vk->in_cur] != run->input) ||
		 (run->output && vk->out_slot[vk->out_cur] != run->output);
	if (rebind) {
		if ((rc = vkg_be->use_wait(plan->dev, &vk->last, st)) != VKG_OK)
			return rc;
		/* the recorded directions bind the sets about to change */
		vk->sec_valid[0] = vk->sec_valid[1] = 0;
	}
	if (vk->fresh) {
		vk->buf_cur ^= 1;
		vk->buf_slot[vk->buf_cur] = run->buffer;
		vk->fresh = 0;
	}
	lp.buffer = slot_for(vk->buf_slot, &vk->buf_cur, run->buffer);
	if (run->input)
		lp.inputBuffer = slot_for(vk->in_slot, &vk->in_cur, run->input);
	if (run->output)
		lp.outputBuffer = slot_for(vk->out_slot, &vk->out_cur, run->output);
	lp.bufferOffset = run->buffer_off;
	lp.inputBufferOffset = run->input_off;
	lp.outputBufferOffset = run->output_off;
	if ((rc = vkg_be->record_begin(plan->dev, queue, &cmd, st)) != VKG_OK)
		return rc;
	cb = (VkCommandBuffer)cmd;
	lp.commandBuffer = &cb;
	vkg_log_reset();
	if (plan->stage.cfg.fuse_load)
		vkg_fused_input = run->input;
	fr = VkFFTAppend(plan->app, inverse ? 1 : -1, &lp);
	vkg_fused_input = VK_NULL_HANDLE;
	rc = vkg_be->record_end(plan->dev, queue, &ticket, st);
	vkg_be->use_set(plan->dev, &vk->last, queue, ticket);
	if (fr != VKFFT_SUCCESS)
		return vkg_vkfft_fail(st, fr, plan->stage.cfg.conv == VKG_CONV_APPLY ? "convolution failed"
					    : inverse ? "inverse FFT failed" : "forward FFT failed");
	return rc;
}

uint64_t vkg_plan_recordings(vkg_plan *plan) { return plan->vk ? plan->vk->recordings : 0; }
