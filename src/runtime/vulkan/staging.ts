/**
 * Staged transfers for buffers in device-only memory. The runtime keeps one host-visible
 * staging buffer (mapped once, grown on demand up to `stagingBytes`, the chunk size); each
 * chunk is a host copy into it plus a `vkCmdCopyBuffer` on the compute queue, bracketed by
 * barriers and waited for with the runtime's fence. Synchronous like dispatches.
 */
import {
  ACCESS_HOST_READ,
  ACCESS_SHADER_READ,
  ACCESS_SHADER_WRITE,
  ACCESS_TRANSFER_READ,
  ACCESS_TRANSFER_WRITE,
  BUFFER_USAGE_TRANSFER_DST,
  BUFFER_USAGE_TRANSFER_SRC,
  PIPELINE_STAGE_COMPUTE_SHADER,
  PIPELINE_STAGE_HOST,
  PIPELINE_STAGE_TRANSFER,
  STYPE,
  WHOLE_SIZE,
} from "./constants.js";
import type { DeviceContext } from "./context.js";
import { allocateBuffer, freeBuffer, type RawBuffer } from "./memory.js";
import { NativeArena } from "./native-arena.js";
import { beginCommands, submitAndWait } from "./submit.js";

/** Default staging size (and so chunk size): large enough that per-chunk submits are noise. */
export const DEFAULT_STAGING_BYTES = 64 << 20;

/** The host side of staged transfers. */
export class StagingBuffer {
  private constructor(
    readonly raw: RawBuffer,
    readonly capacity: number,
  ) {}

  /** @internal */
  get bytes(): Uint8Array {
    return this.raw.mapped!;
  }

  static create(ctx: DeviceContext, capacity: number): StagingBuffer {
    return new StagingBuffer(allocateBuffer(ctx, capacity, BUFFER_USAGE_TRANSFER_SRC | BUFFER_USAGE_TRANSFER_DST, "staging", "staging buffer"), capacity);
  }

  destroy(ctx: DeviceContext): void {
    freeBuffer(ctx, this.raw);
  }
}

/**
 * The runtime's staging buffer, at least min(total, stagingBytes) bytes: grown by doubling
 * (capped at stagingBytes) so a series of growing transfers reallocates rarely.
 */
function stagingFor(ctx: DeviceContext, total: number): StagingBuffer {
  const need = Math.min(total, ctx.stagingBytes);
  const current = ctx.staging;
  if (current && current.capacity >= need) return current;
  const capacity = Math.min(ctx.stagingBytes, Math.max(need, 2 * (current?.capacity ?? 0), 4096));
  if (current) {
    ctx.staging = undefined;
    current.destroy(ctx); // idle: every submission was waited for
  }
  ctx.staging = StagingBuffer.create(ctx, capacity);
  return ctx.staging;
}

/**
 * Records `body` between the barriers every transfer needs, submits and waits. Before: earlier
 * shader and transfer writes → this copy. After: this copy's writes → later shaders, copies
 * and host reads (a barrier's second scope includes later submissions on the queue).
 */
function transfer(ctx: DeviceContext, what: string, body: (cb: bigint, arena: NativeArena) => void): void {
  const arena = new NativeArena(ctx.lib);
  try {
    const { vk } = ctx.lib;
    const cb = beginCommands(ctx, arena);
    const before = arena.struct("VkMemoryBarrier", {
      sType: STYPE.MEMORY_BARRIER,
      srcAccessMask: ACCESS_SHADER_WRITE | ACCESS_TRANSFER_WRITE,
      dstAccessMask: ACCESS_TRANSFER_READ | ACCESS_TRANSFER_WRITE,
    });
    vk.vkCmdPipelineBarrier(cb, PIPELINE_STAGE_COMPUTE_SHADER | PIPELINE_STAGE_TRANSFER, PIPELINE_STAGE_TRANSFER, 0, 1, before, 0, null, 0, null);
    body(cb, arena);
    const after = arena.struct("VkMemoryBarrier", {
      sType: STYPE.MEMORY_BARRIER,
      srcAccessMask: ACCESS_TRANSFER_WRITE,
      dstAccessMask: ACCESS_SHADER_READ | ACCESS_SHADER_WRITE | ACCESS_TRANSFER_READ | ACCESS_TRANSFER_WRITE | ACCESS_HOST_READ,
    });
    vk.vkCmdPipelineBarrier(cb, PIPELINE_STAGE_TRANSFER, PIPELINE_STAGE_COMPUTE_SHADER | PIPELINE_STAGE_TRANSFER | PIPELINE_STAGE_HOST, 0, 1, after, 0, null, 0, null);
    submitAndWait(ctx, arena, what);
  } finally {
    arena.free();
  }
}

function copy(ctx: DeviceContext, cb: bigint, arena: NativeArena, src: bigint, srcOffset: number, dst: bigint, dstOffset: number, size: number): void {
  const region = arena.struct("VkBufferCopy", { srcOffset: BigInt(srcOffset), dstOffset: BigInt(dstOffset), size: BigInt(size) });
  ctx.lib.vk.vkCmdCopyBuffer(cb, src, dst, 1, region);
}

/** Writes `data` into `dst` at `dstOffset`, one staging-sized chunk per submission. */
export function stagedUpload(ctx: DeviceContext, dst: bigint, dstOffset: number, data: Uint8Array): void {
  if (data.byteLength === 0) return;
  const staging = stagingFor(ctx, data.byteLength);
  for (let done = 0; done < data.byteLength; done += staging.capacity) {
    const n = Math.min(staging.capacity, data.byteLength - done);
    // Host-coherent memory: writes before vkQueueSubmit are visible to the copy.
    staging.bytes.set(data.subarray(done, done + n), 0);
    transfer(ctx, `upload of ${n} bytes`, (cb, arena) => copy(ctx, cb, arena, staging.raw.handle, 0, dst, dstOffset + done, n));
  }
}

/** Reads `length` bytes of `src` from `srcOffset`, one staging-sized chunk per submission. */
export function stagedDownload(ctx: DeviceContext, src: bigint, srcOffset: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  if (length === 0) return out;
  const staging = stagingFor(ctx, length);
  for (let done = 0; done < length; done += staging.capacity) {
    const n = Math.min(staging.capacity, length - done);
    transfer(ctx, `download of ${n} bytes`, (cb, arena) => copy(ctx, cb, arena, src, srcOffset + done, staging.raw.handle, 0, n));
    out.set(staging.bytes.subarray(0, n), done);
  }
  return out;
}

/** Zero-fills a whole buffer on the device (its size is a multiple of 4). */
export function deviceZeroFill(ctx: DeviceContext, dst: bigint): void {
  transfer(ctx, "zero-fill of a new buffer", (cb) => ctx.lib.vk.vkCmdFillBuffer(cb, dst, 0n, WHOLE_SIZE, 0));
}
