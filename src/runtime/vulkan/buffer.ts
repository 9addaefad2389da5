/**
 * Device buffers: one VkBuffer per allocation. By default in device-only memory (memory.ts says
 * why), where upload and download are staged copies (staging.ts); in host-visible, host-
 * coherent memory (asked for, or the device's only kind) the memory is mapped for the buffer's
 * whole life and upload/download are plain copies. Every range is checked before memory is touched.
 */
import { LoomError } from "../../core/errors.js";
import { BUFFER_USAGE_STORAGE_BUFFER, BUFFER_USAGE_TRANSFER_DST, BUFFER_USAGE_TRANSFER_SRC } from "./constants.js";
import { requireLive, type DeviceContext } from "./context.js";
import { allocateBuffer, freeBuffer, type RawBuffer } from "./memory.js";
import { deviceZeroFill, stagedDownload, stagedUpload } from "./staging.js";
import { settle } from "./submit.js";

/** Where a buffer's memory lives: "device" (default) or "host-visible" (mapped, ReBAR on dGPUs). */
export type BufferMemory = "device" | "host-visible";

/** Options of creating a {@link VulkanBuffer}: which memory it lives in. */
export interface BufferOptions {
  /** Default "device". */
  readonly memory?: BufferMemory;
}

/** A Vulkan storage buffer with its memory; sizes and offsets are in bytes. */
export class VulkanBuffer {
  /** Bytes the caller asked for; the VkBuffer may be slightly larger (never 0, multiple of 4). */
  readonly byteLength: number;
  /**
   * The buffer's device address (VK_KHR_buffer_device_address) when the device supports it,
   * else 0n. Kernels in "bindings" addressing take 0 in the argument block instead.
   */
  readonly deviceAddress: bigint;
  /** The memory asked for. */
  readonly memory: BufferMemory;
  /**
   * How upload/download reach the memory: "mapped" (plain host copies) or "staged" (copies
   * through the runtime's staging buffer). "device" buffers are "mapped" only on devices
   * whose every device-local type is host-visible (CPU and unified-memory devices).
   */
  readonly access: "mapped" | "staged";
  /** @internal */ readonly handle: bigint;
  /** @internal */ readonly allocatedBytes: number;
  private readonly raw: RawBuffer;
  private destroyed = false;

  /** @internal Use VulkanRuntime.createBuffer. */
  constructor(
    /** @internal */ readonly ctx: DeviceContext,
    byteLength: number,
    options: BufferOptions,
    private readonly onDestroy: (b: VulkanBuffer) => void,
  ) {
    requireLive(ctx, "createBuffer");
    if (!Number.isSafeInteger(byteLength) || byteLength < 0) {
      throw new LoomError("invalid-argument", `createBuffer: byteLength must be a non-negative integer, got ${byteLength}`);
    }
    if (options === null || typeof options !== "object") throw new LoomError("invalid-argument", "createBuffer: options must be an object");
    const memory = options.memory ?? "device";
    if (memory !== "device" && memory !== "host-visible") {
      throw new LoomError("invalid-argument", `createBuffer: options.memory must be "device" or "host-visible", got ${String(memory)}`);
    }
    // Vulkan forbids empty buffers and storage ranges are counted in 4-byte words.
    const allocatedBytes = Math.max(4, Math.ceil(byteLength / 4) * 4);
    const usage = BUFFER_USAGE_STORAGE_BUFFER | BUFFER_USAGE_TRANSFER_SRC | BUFFER_USAGE_TRANSFER_DST;
    const raw = allocateBuffer(ctx, allocatedBytes, usage, memory, "createBuffer");
    try {
      // New buffers read as zeros, deterministically.
      if (raw.mapped) raw.mapped.fill(0);
      else deviceZeroFill(ctx, raw.handle);
    } catch (e) {
      if (ctx.state === "live") freeBuffer(ctx, raw);
      throw e;
    }
    this.byteLength = byteLength;
    this.allocatedBytes = allocatedBytes;
    this.memory = memory;
    this.access = raw.mapped ? "mapped" : "staged";
    this.deviceAddress = raw.deviceAddress;
    this.handle = raw.handle;
    this.raw = raw;
  }

  get isDestroyed(): boolean {
    return this.destroyed;
  }

  /** @internal Throws unless the buffer and its runtime are usable. */
  requireUsable(what: string): void {
    if (this.destroyed) throw new LoomError("failed-precondition", `${what}: the buffer was destroyed`);
    requireLive(this.ctx, what);
  }

  /** Copies `data` into the buffer at `byteOffset`. */
  upload(data: ArrayBufferView, byteOffset = 0): void {
    settle(this.ctx);
    this.requireUsable("upload");
    if (!ArrayBuffer.isView(data)) throw new LoomError("invalid-argument", "upload: data must be a typed array or DataView");
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    this.checkRange("upload", byteOffset, bytes.byteLength);
    if (this.raw.mapped) this.raw.mapped.set(bytes, byteOffset);
    else stagedUpload(this.ctx, this.handle, byteOffset, bytes);
  }

  /** Copies `byteLength` bytes starting at `byteOffset` out of the buffer (default: to the end). */
  download(byteOffset = 0, byteLength = this.byteLength - byteOffset): Uint8Array {
    settle(this.ctx);
    this.requireUsable("download");
    this.checkRange("download", byteOffset, byteLength);
    if (this.raw.mapped) return this.raw.mapped.slice(byteOffset, byteOffset + byteLength);
    return stagedDownload(this.ctx, this.handle, byteOffset, byteLength);
  }

  private checkRange(what: string, offset: number, length: number): void {
    if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(length) || length < 0) {
      throw new LoomError("invalid-argument", `${what}: offset and length must be non-negative integers, got ${offset} and ${length}`);
    }
    if (offset + length > this.byteLength) {
      throw new LoomError("out-of-range", `${what}: bytes [${offset}, ${offset + length}) exceed the buffer's ${this.byteLength} bytes`);
    }
  }

  /** Frees the buffer (no-op when already destroyed). It must not be in use by a dispatch. */
  destroy(): void {
    if (this.destroyed) return;
    if (this.ctx.state === "live") settle(this.ctx);
    this.destroyed = true;
    this.onDestroy(this);
    if (this.ctx.state !== "live") return; // destroyed with the runtime, or leaked with a lost device
    freeBuffer(this.ctx, this.raw);
  }
}
