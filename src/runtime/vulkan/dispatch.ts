/**
 * One synchronous dispatch. Everything the caller passes is checked first (buffer count and
 * ownership, argument-block size, every buffer field of the block against its buffer,
 * workgroup counts against the device); only then is the command buffer recorded (or reused),
 * submitted and waited for. A zero count in any dimension means "nothing to dispatch"
 * (language.md §6).
 */
import { LoomError } from "../../core/errors.js";
import {
  ACCESS_HOST_READ,
  ACCESS_SHADER_READ,
  ACCESS_SHADER_WRITE,
  ACCESS_TRANSFER_READ,
  ACCESS_TRANSFER_WRITE,
  DESCRIPTOR_TYPE_STORAGE_BUFFER,
  PIPELINE_BIND_POINT_COMPUTE,
  PIPELINE_STAGE_COMPUTE_SHADER,
  PIPELINE_STAGE_HOST,
  PIPELINE_STAGE_TRANSFER,
  PIPELINE_STAGE_TOP_OF_PIPE,
  QUERY_RESULT_64,
  QUERY_RESULT_WAIT,
  SHADER_STAGE_COMPUTE,
  STYPE,
} from "./constants.js";
import type { DeviceContext } from "./context.js";
import type { VulkanBuffer } from "./buffer.js";
import type { VulkanKernel } from "./kernel.js";
import { NativeArena } from "./native-arena.js";
import { check } from "./vk-result.js";
import { settle, waitForFence } from "./submit.js";

/** Options of one dispatch: workgroup count, argument block, buffers and timing. */
export interface DispatchOptions {
  /** Workgroups in x, y, z (from the launch-config evaluation). */
  readonly workgroupCount: readonly [number, number, number];
  /** The explicit argument block (see packArguments); required when the layout's size is > 0. */
  readonly argBlock?: Uint8Array;
  /** Buffer k of the kernel's layout, in order. */
  readonly buffers?: readonly VulkanBuffer[];
  /** Measure the dispatch with GPU timestamps (when the queue supports them). */
  readonly timestamps?: boolean;
}

/** What one dispatch did: whether it was submitted and, when requested, its GPU time in ns. */
export interface DispatchResult {
  /** False when a workgroup count was 0 and nothing was submitted. */
  readonly dispatched: boolean;
  /** GPU time between the timestamps around the dispatch, in ns (only when requested and supported). */
  readonly gpuNs?: number;
}

/** Default limit for one dispatch to finish. */
export const DEFAULT_TIMEOUT_MS = 60_000;

export function validate(ctx: DeviceContext, kernel: VulkanKernel, options: DispatchOptions): { buffers: readonly VulkanBuffer[]; block: Uint8Array; empty: boolean } {
  if (options === null || typeof options !== "object") throw new LoomError("invalid-argument", "dispatch: options must be an object");
  kernel.requireUsable("dispatch");
  if (kernel.ctx !== ctx) throw new LoomError("invalid-argument", `dispatch: kernel '${kernel.entryName}' belongs to another runtime`);
  const { layout } = kernel;
  const buffers = options.buffers ?? [];
  if (buffers.length !== layout.bufferOffsets.length) {
    throw new LoomError("invalid-argument", `dispatch: kernel '${kernel.entryName}' takes ${layout.bufferOffsets.length} buffers, got ${buffers.length}`);
  }
  buffers.forEach((b, k) => {
    if (b === null || typeof b !== "object" || typeof b.requireUsable !== "function") {
      throw new LoomError("invalid-argument", `dispatch: buffers[${k}] is not a VulkanBuffer`);
    }
    b.requireUsable(`dispatch: buffers[${k}]`);
    if (b.ctx !== ctx) throw new LoomError("invalid-argument", `dispatch: buffers[${k}] belongs to another runtime`);
    if (layout.addressing === "bindings" && b.allocatedBytes > ctx.info.limits.maxStorageBufferRange) {
      throw new LoomError(
        "out-of-range",
        `dispatch: buffers[${k}] (${b.byteLength} bytes) exceeds the device's storage-buffer range of ${ctx.info.limits.maxStorageBufferRange} bytes`,
      );
    }
  });
  const block = options.argBlock ?? new Uint8Array(0);
  if (!(block instanceof Uint8Array)) throw new LoomError("invalid-argument", "dispatch: argBlock must be a Uint8Array");
  if (block.byteLength !== layout.argBlockSize) {
    throw new LoomError("invalid-argument", `dispatch: argument block is ${block.byteLength} bytes, kernel '${kernel.entryName}' expects ${layout.argBlockSize}`);
  }
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  layout.bufferOffsets.forEach((off, k) => {
    const b = buffers[k]!;
    const address = view.getBigUint64(off, true);
    const declared = view.getBigUint64(off + 8, true);
    const expected = kernel.bufferArgument(b).address;
    if (address !== expected) {
      throw new LoomError(
        "invalid-argument",
        `dispatch: argument block field of buffer ${k} (offset ${off}) holds address 0x${address.toString(16)}, expected 0x${expected.toString(16)} (${layout.addressing} addressing)`,
      );
    }
    if (declared > BigInt(b.byteLength)) {
      throw new LoomError("out-of-range", `dispatch: buffer ${k} is declared as ${declared} bytes in the argument block but holds only ${b.byteLength}`);
    }
  });
  const count = options.workgroupCount;
  if (!Array.isArray(count) || count.length !== 3) throw new LoomError("invalid-argument", "dispatch: workgroupCount must be [x, y, z]");
  const max = ctx.info.limits.maxComputeWorkGroupCount;
  count.forEach((c: unknown, d) => {
    if (typeof c !== "number" || !Number.isSafeInteger(c) || c < 0) {
      throw new LoomError("invalid-argument", `dispatch: workgroupCount[${d}] must be a non-negative integer, got ${String(c)}`);
    }
    if (c > max[d]!) throw new LoomError("out-of-range", `dispatch: workgroupCount[${d}] = ${c} exceeds the device limit ${max[d]}`);
  });
  return { buffers, block, empty: count.some((c) => c === 0) };
}

/** The dispatch path's native structs, encoded once per context and reused by every dispatch. */
interface DispatchScratch {
  readonly arena: NativeArena;
  readonly begin: bigint;
  readonly submit: bigint;
  readonly fences: bigint;
  readonly sets: bigint;
  readonly setSlot: DataView;
  readonly barrier: bigint;
  readonly queryData: bigint;
  readonly push: bigint;
  readonly pushBytes: Uint8Array;
  free(): void;
}

function scratchOf(ctx: DeviceContext): DispatchScratch {
  const existing = ctx.dispatchScratch as DispatchScratch | undefined;
  if (existing) return existing;
  const arena = new NativeArena(ctx.lib);
  const pushSize = Math.max(4, ctx.info.limits.maxPushConstantsSize);
  const push = arena.bytes(pushSize);
  const sets = arena.handles([0n]);
  const scratch: DispatchScratch = {
    arena,
    // Not ONE_TIME_SUBMIT: a repeated dispatch resubmits the same recording.
    begin: arena.struct("VkCommandBufferBeginInfo", { sType: STYPE.COMMAND_BUFFER_BEGIN_INFO, flags: 0 }),
    submit: arena.struct("VkSubmitInfo", { sType: STYPE.SUBMIT_INFO, commandBufferCount: 1, pCommandBuffers: arena.handles([ctx.commandBuffer]) }),
    fences: arena.handles([ctx.fence]),
    sets,
    setSlot: new DataView(ctx.lib.koffi.view(sets, 8)),
    // Make the shader's writes visible to whatever comes next: host reads of mapped memory
    // after the fence, staged copies, and later dispatches (barriers reach later submissions).
    barrier: arena.struct("VkMemoryBarrier", {
      sType: STYPE.MEMORY_BARRIER,
      srcAccessMask: ACCESS_SHADER_WRITE,
      dstAccessMask: ACCESS_HOST_READ | ACCESS_SHADER_READ | ACCESS_SHADER_WRITE | ACCESS_TRANSFER_READ | ACCESS_TRANSFER_WRITE,
    }),
    queryData: arena.bytes(16),
    push,
    pushBytes: arena.view(push, pushSize),
    free: () => arena.free(),
  };
  ctx.dispatchScratch = scratch;
  return scratch;
}

/**
 * Writes `buffers` into the kernel's descriptor set unless they are the ones written last. The
 * caller records afterwards: a write invalidates recordings that bound the set.
 */
export function bindBuffers(ctx: DeviceContext, kernel: VulkanKernel, buffers: readonly VulkanBuffer[], arena: NativeArena): void {
  if (kernel.descriptorSet === 0n) return;
  const last = ctx.boundBuffers.get(kernel);
  if (last && last.length === buffers.length && last.every((b, k) => b === buffers[k])) return;
  const writes = buffers.map((b, k) => ({
    sType: STYPE.WRITE_DESCRIPTOR_SET,
    dstSet: kernel.descriptorSet,
    dstBinding: k,
    descriptorCount: 1,
    descriptorType: DESCRIPTOR_TYPE_STORAGE_BUFFER,
    pBufferInfo: arena.struct("VkDescriptorBufferInfo", { buffer: b.handle, offset: 0n, range: BigInt(b.allocatedBytes) }),
  }));
  if (writes.length) ctx.lib.vk.vkUpdateDescriptorSets(ctx.device, writes.length, arena.structs("VkWriteDescriptorSet", writes), 0, null);
  ctx.boundBuffers.set(kernel, [...buffers]);
}

/** Byte-wise equality of two argument blocks. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether the command buffer already holds exactly this dispatch. */
function isRecorded(ctx: DeviceContext, kernel: VulkanKernel, buffers: readonly VulkanBuffer[], block: Uint8Array, count: readonly number[], timestamps: boolean): boolean {
  const r = ctx.recorded;
  return (
    r !== undefined &&
    r.kernel === kernel &&
    r.timestamps === timestamps &&
    r.count[0] === count[0] &&
    r.count[1] === count[1] &&
    r.count[2] === count[2] &&
    r.buffers.length === buffers.length &&
    r.buffers.every((b, k) => b === buffers[k]) &&
    sameBytes(r.block, block)
  );
}

/**
 * One dispatch, synchronous. The command buffer is recorded only when it does not already hold
 * this exact dispatch (kernel, buffers, argument block, count, timing), and the descriptor set
 * is written only when its buffers change; the structs submitted are encoded once per runtime.
 * A repeated dispatch therefore costs three Vulkan calls: reset fence, submit, wait.
 */
export function dispatch(ctx: DeviceContext, kernel: VulkanKernel, options: DispatchOptions): DispatchResult {
  const { buffers, block, empty } = validate(ctx, kernel, options);
  if (empty) return { dispatched: false };
  const timestamps = options.timestamps === true && ctx.queryPool !== 0n;
  const { lib, device } = ctx;
  const { vk } = lib;
  settle(ctx);
  const s = scratchOf(ctx);
  const count = options.workgroupCount;
  const what = `dispatch of kernel '${kernel.entryName}'`;
  if (!isRecorded(ctx, kernel, buffers, block, count, timestamps)) {
    ctx.recorded = undefined;
    const arena = new NativeArena(lib);
    try {
      bindBuffers(ctx, kernel, buffers, arena);
    } finally {
      arena.free();
    }
    const cb = ctx.commandBuffer;
    check(vk.vkResetCommandBuffer(cb, 0), "vkResetCommandBuffer");
    check(vk.vkBeginCommandBuffer(cb, s.begin), "vkBeginCommandBuffer");
    if (timestamps) {
      vk.vkCmdResetQueryPool(cb, ctx.queryPool, 0, 2);
      vk.vkCmdWriteTimestamp(cb, PIPELINE_STAGE_TOP_OF_PIPE, ctx.queryPool, 0);
    }
    vk.vkCmdBindPipeline(cb, PIPELINE_BIND_POINT_COMPUTE, kernel.pipeline);
    if (kernel.descriptorSet !== 0n) {
      s.setSlot.setBigUint64(0, kernel.descriptorSet, true);
      vk.vkCmdBindDescriptorSets(cb, PIPELINE_BIND_POINT_COMPUTE, kernel.pipelineLayout, 0, 1, s.sets, 0, null);
    }
    if (block.byteLength > 0) {
      s.pushBytes.set(block);
      vk.vkCmdPushConstants(cb, kernel.pipelineLayout, SHADER_STAGE_COMPUTE, 0, block.byteLength, s.push);
    }
    vk.vkCmdDispatch(cb, count[0], count[1], count[2]);
    if (timestamps) vk.vkCmdWriteTimestamp(cb, PIPELINE_STAGE_COMPUTE_SHADER, ctx.queryPool, 1);
    vk.vkCmdPipelineBarrier(cb, PIPELINE_STAGE_COMPUTE_SHADER, PIPELINE_STAGE_HOST | PIPELINE_STAGE_COMPUTE_SHADER | PIPELINE_STAGE_TRANSFER, 0, 1, s.barrier, 0, null, 0, null);
    check(vk.vkEndCommandBuffer(cb), "vkEndCommandBuffer");
    ctx.recorded = { kernel, buffers: [...buffers], block: block.slice(), count: [count[0], count[1], count[2]], timestamps };
  }
  check(vk.vkResetFences(device, 1, s.fences), "vkResetFences");
  check(vk.vkQueueSubmit(ctx.queue, 1, s.submit, ctx.fence), `vkQueueSubmit (${what})`);
  waitForFence(ctx, s.fences, what);
  if (!timestamps) return { dispatched: true };
  check(vk.vkGetQueryPoolResults(device, ctx.queryPool, 0, 2, 16, s.queryData, 8n, QUERY_RESULT_64 | QUERY_RESULT_WAIT), "vkGetQueryPoolResults");
  // Timestamps wrap at 2^timestampValidBits.
  const data = new DataView(lib.koffi.view(s.queryData, 16));
  const ticks = BigInt.asUintN(ctx.info.timestampValidBits, data.getBigUint64(8, true) - data.getBigUint64(0, true));
  return { dispatched: true, gpuNs: Number(ticks) * ctx.info.limits.timestampPeriod };
}
