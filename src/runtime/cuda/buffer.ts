/**
 * Device memory from cuMemAlloc_v2. Copies are the synchronous driver copies on the legacy
 * default stream; the runtime's streams are created with CU_STREAM_DEFAULT flags, so a copy
 * waits for earlier kernels and later kernels wait for it, without explicit synchronization.
 */
import { LoomError } from "../../core/errors.js";
import { check, enter, makeCurrent, type CudaContext } from "./context.js";

/** A device memory allocation in a CUDA context; sizes and offsets are in bytes. */
export class CudaBuffer {
  /** Device address of the first byte (0n for an empty buffer). */
  readonly address: bigint;
  private readonly end: bigint;
  private destroyed = false;

  /** @internal */
  constructor(
    /** @internal */ readonly ctx: CudaContext,
    readonly byteLength: number,
    private readonly onDestroy: (b: CudaBuffer) => void,
  ) {
    if (!Number.isSafeInteger(byteLength) || byteLength < 0) throw new LoomError("invalid-argument", `createBuffer: byteLength must be a non-negative integer, got ${byteLength}`);
    enter(ctx, "createBuffer");
    if (byteLength === 0) {
      this.address = this.end = 0n;
      return;
    }
    const out = new BigUint64Array(1);
    check(ctx, ctx.lib.cu.cuMemAlloc_v2(out, byteLength), `cuMemAlloc (${byteLength} bytes)`);
    this.address = out[0] ?? 0n;
    this.end = this.address + BigInt(byteLength);
    // New buffers read as zero, like the Vulkan runtime's.
    check(ctx, ctx.lib.cu.cuMemsetD8_v2(this.address, 0, byteLength), "cuMemsetD8");
  }

  get isDestroyed(): boolean {
    return this.destroyed;
  }

  /** @internal */
  requireUsable(what: string): void {
    if (this.destroyed) throw new LoomError("failed-precondition", `${what}: the buffer was destroyed`);
    enter(this.ctx, what);
  }

  private range(offset: number, length: number, what: string): void {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > this.byteLength) {
      throw new LoomError("out-of-range", `${what}: bytes [${offset}, ${offset + length}) are outside the ${this.byteLength}-byte buffer`);
    }
  }

  /** Copies `data` to `offset` (returns when the driver has consumed the host bytes). */
  upload(data: ArrayBufferView, offset = 0): void {
    if (!ArrayBuffer.isView(data)) throw new LoomError("invalid-argument", "upload: data must be a typed array or DataView");
    this.requireUsable("upload");
    this.range(offset, data.byteLength, "upload");
    if (data.byteLength === 0) return;
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    check(this.ctx, this.ctx.lib.cu.cuMemcpyHtoD_v2(this.address + BigInt(offset), bytes, bytes.byteLength), `cuMemcpyHtoD (${bytes.byteLength} bytes)`);
  }

  /** Copies `length` bytes from `offset` into a new Uint8Array (waits for earlier kernels). */
  download(offset = 0, length = this.byteLength - offset): Uint8Array {
    this.requireUsable("download");
    this.range(offset, length, "download");
    const out = new Uint8Array(length);
    if (length > 0) check(this.ctx, this.ctx.lib.cu.cuMemcpyDtoH_v2(out, this.address + BigInt(offset), length), `cuMemcpyDtoH (${length} bytes)`);
    return out;
  }

  /** Sets every byte to `value` (0–255). */
  fill(value: number): void {
    if (!Number.isInteger(value) || value < 0 || value > 255) throw new LoomError("invalid-argument", `fill: value must be a byte, got ${value}`);
    this.requireUsable("fill");
    if (this.byteLength > 0) check(this.ctx, this.ctx.lib.cu.cuMemsetD8_v2(this.address, value, this.byteLength), "cuMemsetD8");
  }

  /** Device-to-device copy of `length` bytes into `target`. */
  copyTo(target: CudaBuffer, length = Math.min(this.byteLength, target.byteLength), sourceOffset = 0, targetOffset = 0): void {
    this.requireUsable("copyTo");
    if (!(target instanceof CudaBuffer) || target.ctx !== this.ctx) throw new LoomError("invalid-argument", "copyTo: target must be a CudaBuffer of the same runtime");
    target.requireUsable("copyTo");
    this.range(sourceOffset, length, "copyTo (source)");
    target.range(targetOffset, length, "copyTo (target)");
    if (length > 0) check(this.ctx, this.ctx.lib.cu.cuMemcpyDtoD_v2(target.address + BigInt(targetOffset), this.address + BigInt(sourceOffset), length), "cuMemcpyDtoD");
  }

  /** Whether [address, address + byteLength) lies inside this buffer. */
  contains(address: bigint, byteLength: bigint): boolean {
    return !this.destroyed && address >= this.address && address + byteLength <= this.end;
  }

  /** Frees the memory (after the device finished with it). Idempotent. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.onDestroy(this);
    if (this.address !== 0n && this.ctx.state !== "destroyed") {
      // On a lost context cuMemFree fails, and the memory goes with the context.
      makeCurrent(this.ctx);
      this.ctx.lib.cu.cuMemFree_v2(this.address);
    }
  }
}
