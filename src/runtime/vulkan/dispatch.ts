/**
 * One synchronous dispatch. Everything the caller passes is checked first (buffer count and
 * ownership, argument-block size, every buffer field of the block against its buffer,
 * workgroup counts against the device); only then is the command buffer recorded, submitted
 * and waited for. A zero count in any dimension means "nothing to dispatch" (language.md §6).
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
import { beginCommands, submitAndWait } from "./submit.js";

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

export function dispatch(ctx: DeviceContext, kernel: VulkanKernel, options: DispatchOptions): DispatchResult {
  const { buffers, block, empty } = validate(ctx, kernel, options);
  if (empty) return { dispatched: false };
  const timestamps = options.timestamps === true && ctx.queryPool !== 0n;
  const { lib, device } = ctx;
  const { vk } = lib;
  const arena = new NativeArena(lib);
  try {
    if (kernel.descriptorSet !== 0n) {
      // Safe to rewrite: the previous dispatch using this set finished (dispatches are synchronous).
      const writes = buffers.map((b, k) => ({
        sType: STYPE.WRITE_DESCRIPTOR_SET,
        dstSet: kernel.descriptorSet,
        dstBinding: k,
        descriptorCount: 1,
        descriptorType: DESCRIPTOR_TYPE_STORAGE_BUFFER,
        pBufferInfo: arena.struct("VkDescriptorBufferInfo", { buffer: b.handle, offset: 0n, range: BigInt(b.allocatedBytes) }),
      }));
      vk.vkUpdateDescriptorSets(device, writes.length, arena.structs("VkWriteDescriptorSet", writes), 0, null);
    }
    const cb = beginCommands(ctx, arena);
    if (timestamps) {
      vk.vkCmdResetQueryPool(cb, ctx.queryPool, 0, 2);
      vk.vkCmdWriteTimestamp(cb, PIPELINE_STAGE_TOP_OF_PIPE, ctx.queryPool, 0);
    }
    vk.vkCmdBindPipeline(cb, PIPELINE_BIND_POINT_COMPUTE, kernel.pipeline);
    if (kernel.descriptorSet !== 0n) {
      vk.vkCmdBindDescriptorSets(cb, PIPELINE_BIND_POINT_COMPUTE, kernel.pipelineLayout, 0, 1, arena.handles([kernel.descriptorSet]), 0, null);
    }
    if (block.byteLength > 0) vk.vkCmdPushConstants(cb, kernel.pipelineLayout, SHADER_STAGE_COMPUTE, 0, block.byteLength, arena.copy(block));
    const [x, y, z] = options.workgroupCount;
    vk.vkCmdDispatch(cb, x, y, z);
    if (timestamps) vk.vkCmdWriteTimestamp(cb, PIPELINE_STAGE_COMPUTE_SHADER, ctx.queryPool, 1);
    // Make the shader's writes visible to whatever comes next: host reads of mapped memory
    // after the fence, staged copies, and later dispatches (barriers reach later submissions).
    const barrier = arena.struct("VkMemoryBarrier", {
      sType: STYPE.MEMORY_BARRIER,
      srcAccessMask: ACCESS_SHADER_WRITE,
      dstAccessMask: ACCESS_HOST_READ | ACCESS_SHADER_READ | ACCESS_SHADER_WRITE | ACCESS_TRANSFER_READ | ACCESS_TRANSFER_WRITE,
    });
    vk.vkCmdPipelineBarrier(cb, PIPELINE_STAGE_COMPUTE_SHADER, PIPELINE_STAGE_HOST | PIPELINE_STAGE_COMPUTE_SHADER | PIPELINE_STAGE_TRANSFER, 0, 1, barrier, 0, null, 0, null);
    submitAndWait(ctx, arena, `dispatch of kernel '${kernel.entryName}'`);
    if (!timestamps) return { dispatched: true };
    const data = arena.bytes(16);
    check(vk.vkGetQueryPoolResults(device, ctx.queryPool, 0, 2, 16, data, 8n, QUERY_RESULT_64 | QUERY_RESULT_WAIT), "vkGetQueryPoolResults");
    // Timestamps wrap at 2^timestampValidBits.
    const ticks = BigInt.asUintN(ctx.info.timestampValidBits, arena.readU64(data, 1) - arena.readU64(data, 0));
    return { dispatched: true, gpuNs: Number(ticks) * ctx.info.limits.timestampPeriod };
  } finally {
    arena.free();
  }
}
