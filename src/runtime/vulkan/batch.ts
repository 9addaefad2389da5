/**
 * Batched, asynchronous submission: many dispatches recorded into the runtime's one command
 * buffer, each followed by the compute→compute barrier a dependent dispatch needs, submitted
 * once. The call returns a `VulkanBatch` at once; `wait()` or `done()` collects it. Until then
 * the command buffer and fence are the batch's: any other use of the device (a dispatch, a
 * transfer, a buffer or kernel destroyed) first waits for it, so nothing it touches is freed
 * or overwritten while it runs.
 *
 * Under the "bindings" ABI each kernel has one descriptor set, written once per batch: every
 * dispatch of one kernel in a batch must therefore use the same buffers (a LoomError says so
 * otherwise). Device-address kernels have no descriptor sets and take any buffers.
 */
import { LoomError } from "../../core/errors.js";
import {
  ACCESS_HOST_READ,
  ACCESS_SHADER_READ,
  ACCESS_SHADER_WRITE,
  ACCESS_TRANSFER_READ,
  ACCESS_TRANSFER_WRITE,
  PIPELINE_BIND_POINT_COMPUTE,
  PIPELINE_STAGE_COMPUTE_SHADER,
  PIPELINE_STAGE_HOST,
  PIPELINE_STAGE_TOP_OF_PIPE,
  PIPELINE_STAGE_TRANSFER,
  QUERY_RESULT_64,
  QUERY_RESULT_WAIT,
  SHADER_STAGE_COMPUTE,
  STYPE,
} from "./constants.js";
import { requireLive, type DeviceContext } from "./context.js";
import type { VulkanBuffer } from "./buffer.js";
import { bindBuffers, sameBytes, validate, type DispatchOptions } from "./dispatch.js";
import type { VulkanKernel } from "./kernel.js";
import { NativeArena } from "./native-arena.js";
import { beginCommands, submitCommands, waitForSubmission } from "./submit.js";
import { check } from "./vk-result.js";

/** One dispatch of a batch: a kernel and its DispatchOptions (without timestamps). */
export interface BatchItem extends Omit<DispatchOptions, "timestamps"> {
  readonly kernel: VulkanKernel;
}

/** Options of submitting a batch of dispatches in one command buffer. */
export interface BatchOptions {
  /** GPU time of the whole batch, from a timestamp before the first dispatch to one after the last. */
  readonly timestamps?: boolean;
}

/** What a batch submission did: dispatches recorded and, when requested, GPU time in ns. */
export interface BatchResult {
  /** Dispatches recorded (items with a zero workgroup count are skipped). */
  readonly dispatched: number;
  readonly gpuNs?: number;
}

const VK_SUCCESS = 0;
const VK_NOT_READY = 1;

/** A submitted batch. Collect it with `wait()` (blocking) or `done()` (a Promise); either returns the same result. */
export class VulkanBatch {
  #result: BatchResult | undefined;
  #failure: unknown;

  /** @internal */
  constructor(
    private readonly ctx: DeviceContext,
    private arena: NativeArena | undefined,
    private readonly dispatched: number,
    private readonly timestamps: boolean,
    private readonly what: string,
  ) {
    if (arena) ctx.pending = { settle: () => void this.collect() };
  }

  /** Whether the GPU has finished (never blocks). */
  get isComplete(): boolean {
    if (this.arena === undefined) return true;
    const status = this.ctx.state === "live" ? this.ctx.lib.vk.vkGetFenceStatus(this.ctx.device, this.ctx.fence) : VK_SUCCESS;
    return status !== VK_NOT_READY;
  }

  /** Blocks until the batch finished; a device loss or timeout throws (and marks the runtime unusable). */
  wait(): BatchResult {
    return this.collect();
  }

  /** Resolves once the batch finished, polling the fence between event-loop turns. */
  async done(): Promise<BatchResult> {
    while (!this.isComplete) await new Promise<void>((resolve) => setImmediate(resolve));
    return this.collect();
  }

  private collect(): BatchResult {
    if (this.#result) return this.#result;
    if (this.#failure !== undefined) throw this.#failure;
    const arena = this.arena;
    if (!arena) return (this.#result = { dispatched: this.dispatched });
    this.arena = undefined;
    if (this.ctx.pending) this.ctx.pending = undefined;
    try {
      waitForSubmission(this.ctx, arena, this.what);
      let gpuNs: number | undefined;
      if (this.timestamps) {
        const { vk } = this.ctx.lib;
        const data = arena.bytes(16);
        check(vk.vkGetQueryPoolResults(this.ctx.device, this.ctx.queryPool, 0, 2, 16, data, 8n, QUERY_RESULT_64 | QUERY_RESULT_WAIT), "vkGetQueryPoolResults");
        const ticks = BigInt.asUintN(this.ctx.info.timestampValidBits, arena.readU64(data, 1) - arena.readU64(data, 0));
        gpuNs = Number(ticks) * this.ctx.info.limits.timestampPeriod;
      }
      return (this.#result = { dispatched: this.dispatched, ...(gpuNs !== undefined ? { gpuNs } : {}) });
    } catch (e) {
      this.#failure = e;
      throw e;
    } finally {
      arena.free();
    }
  }
}

/** Validates every item, records them with barriers between, submits once and returns at once. */
export function submitBatch(ctx: DeviceContext, items: readonly BatchItem[], options: BatchOptions = {}): VulkanBatch {
  requireLive(ctx, "submitBatch");
  if (!Array.isArray(items)) throw new LoomError("invalid-argument", "submitBatch: items must be an array of { kernel, workgroupCount, argBlock?, buffers? }");
  if (options === null || typeof options !== "object") throw new LoomError("invalid-argument", "submitBatch: options must be an object");
  // Everything is checked before anything is recorded.
  const checked = items.map((item, i) => {
    if (item === null || typeof item !== "object" || item.kernel === null || typeof item.kernel !== "object") {
      throw new LoomError("invalid-argument", `submitBatch: items[${i}] must be { kernel, workgroupCount, argBlock?, buffers? }`);
    }
    try {
      return { kernel: item.kernel, count: item.workgroupCount, ...validate(ctx, item.kernel, item) };
    } catch (e) {
      if (e instanceof LoomError) throw new LoomError(e.status, `submitBatch: items[${i}]: ${e.message.replace(/^dispatch: /, "")}`);
      throw e;
    }
  });
  const sets = new Map<VulkanKernel, readonly VulkanBuffer[]>();
  checked.forEach(({ kernel, buffers }, i) => {
    if (kernel.descriptorSet === 0n) return;
    const earlier = sets.get(kernel);
    if (!earlier) return void sets.set(kernel, buffers);
    if (earlier.some((b, k) => b !== buffers[k])) {
      throw new LoomError(
        "invalid-argument",
        `submitBatch: items[${i}] dispatches kernel '${kernel.entryName}' with other buffers than an earlier item; a batch binds each kernel's buffers once (use another batch, or the device-address ABI)`,
      );
    }
  });
  const live = checked.filter((c) => !c.empty);
  const timestamps = options.timestamps === true && ctx.queryPool !== 0n;
  const arena = new NativeArena(ctx.lib);
  try {
    const { vk } = ctx.lib;
    const cb = beginCommands(ctx, arena);
    for (const [kernel, buffers] of sets) bindBuffers(ctx, kernel, buffers, arena);
    // Every argument block in one native allocation.
    const blockBytes = live.reduce((n, { block }) => n + ((block.byteLength + 3) & ~3), 0);
    const blocks = arena.bytes(blockBytes);
    const blockView = arena.view(blocks, blockBytes);
    if (timestamps) {
      vk.vkCmdResetQueryPool(cb, ctx.queryPool, 0, 2);
      vk.vkCmdWriteTimestamp(cb, PIPELINE_STAGE_TOP_OF_PIPE, ctx.queryPool, 0);
    }
    const between = arena.struct("VkMemoryBarrier", { sType: STYPE.MEMORY_BARRIER, srcAccessMask: ACCESS_SHADER_WRITE, dstAccessMask: ACCESS_SHADER_READ | ACCESS_SHADER_WRITE });
    const setHandles = new Map<VulkanKernel, ReturnType<NativeArena["handles"]>>();
    let bound: VulkanKernel | undefined;
    let blockAt = 0;
    // Push constants persist across dispatches (and barriers) of one command buffer: an item
    // whose block equals the one its kernel pushed just before pushes nothing.
    let pushed: Uint8Array | undefined;
    live.forEach(({ kernel, block, count }, i) => {
      if (kernel !== bound) pushed = undefined;
      if (kernel !== bound) {
        vk.vkCmdBindPipeline(cb, PIPELINE_BIND_POINT_COMPUTE, kernel.pipeline);
        if (kernel.descriptorSet !== 0n) {
          let handle = setHandles.get(kernel);
          if (handle === undefined) setHandles.set(kernel, (handle = arena.handles([kernel.descriptorSet])));
          vk.vkCmdBindDescriptorSets(cb, PIPELINE_BIND_POINT_COMPUTE, kernel.pipelineLayout, 0, 1, handle, 0, null);
        }
        bound = kernel;
      }
      if (block.byteLength > 0 && !(pushed !== undefined && (pushed === block || sameBytes(pushed, block)))) {
        pushed = block;
        blockView.set(block, blockAt);
        vk.vkCmdPushConstants(cb, kernel.pipelineLayout, SHADER_STAGE_COMPUTE, 0, block.byteLength, blocks + BigInt(blockAt));
        blockAt += (block.byteLength + 3) & ~3;
      }
      vk.vkCmdDispatch(cb, count[0], count[1], count[2]);
      if (i < live.length - 1) vk.vkCmdPipelineBarrier(cb, PIPELINE_STAGE_COMPUTE_SHADER, PIPELINE_STAGE_COMPUTE_SHADER, 0, 1, between, 0, null, 0, null);
    });
    if (timestamps) vk.vkCmdWriteTimestamp(cb, PIPELINE_STAGE_COMPUTE_SHADER, ctx.queryPool, 1);
    const last = arena.struct("VkMemoryBarrier", {
      sType: STYPE.MEMORY_BARRIER,
      srcAccessMask: ACCESS_SHADER_WRITE,
      dstAccessMask: ACCESS_HOST_READ | ACCESS_SHADER_READ | ACCESS_SHADER_WRITE | ACCESS_TRANSFER_READ | ACCESS_TRANSFER_WRITE,
    });
    vk.vkCmdPipelineBarrier(cb, PIPELINE_STAGE_COMPUTE_SHADER, PIPELINE_STAGE_HOST | PIPELINE_STAGE_COMPUTE_SHADER | PIPELINE_STAGE_TRANSFER, 0, 1, last, 0, null, 0, null);
    const what = `batch of ${live.length} dispatch(es)`;
    submitCommands(ctx, arena, what);
    return new VulkanBatch(ctx, arena, live.length, timestamps, what);
  } catch (e) {
    arena.free();
    throw e;
  }
}
