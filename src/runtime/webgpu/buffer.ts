/**
 * A storage buffer on the runtime's device. WebGPU moves whole 4-byte words, so the allocation
 * is the byte length rounded up to 4 (at least 4: a binding may not be empty); the kernel sees
 * the exact byte length through the argument block. Downloads go through a mapped copy.
 */
import { LoomError } from "../../core/errors.js";
import { BUFFER_USAGE, MAP_READ, type GpuBufferLike, type GpuDeviceLike } from "./gpu.js";
import { scoped } from "./errors.js";

/** Options of `WebGpuRuntime.createBuffer`. */
export interface BufferOptions {
  /** Shown in WebGPU's error messages. */
  readonly label?: string;
}

/** What a buffer needs from the runtime that made it. */
export interface BufferHost {
  readonly device: GpuDeviceLike;
  requireLive(what: string): void;
}

const alignUp4 = (n: number): number => Math.ceil(n / 4) * 4;

/**
 * A storage buffer on the runtime's device, `byteLength` bytes (allocated rounded up to whole
 * words). Made by `WebGpuRuntime.createBuffer`; calls after `destroy` (or after the runtime is
 * destroyed) fail with `failed-precondition`.
 */
export class WebGpuBuffer {
  /** @internal */ readonly gpuBuffer: GpuBufferLike;
  #destroyed = false;

  /** @internal */
  constructor(
    /** @internal */ readonly host: BufferHost,
    readonly byteLength: number,
    options: BufferOptions,
  ) {
    this.gpuBuffer = host.device.createBuffer({
      size: Math.max(4, alignUp4(byteLength)),
      usage: BUFFER_USAGE.STORAGE | BUFFER_USAGE.COPY_SRC | BUFFER_USAGE.COPY_DST,
      ...(options.label !== undefined ? { label: options.label } : {}),
    });
  }

  /** Bytes on the device: the byte length rounded up to whole words. */
  get allocatedBytes(): number {
    return this.gpuBuffer.size;
  }

  get destroyed(): boolean {
    return this.#destroyed;
  }

  /** @internal */
  requireLive(what: string): void {
    if (this.#destroyed) throw new LoomError("failed-precondition", `${what}: the buffer was destroyed`);
    this.host.requireLive(what);
  }

  /**
   * Writes `data` at byte `offset` (queued: later dispatches see it). WebGPU writes whole words,
   * so offset and length must be multiples of 4, except that a write may end at the buffer's end.
   */
  upload(data: ArrayBufferView, offset = 0): void {
    this.requireLive("upload");
    if (!ArrayBuffer.isView(data)) throw new LoomError("invalid-argument", "upload: data must be a typed array or DataView");
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (!Number.isSafeInteger(offset) || offset < 0 || offset + bytes.length > this.byteLength) {
      throw new LoomError("out-of-range", `upload: ${bytes.length} bytes at offset ${offset} do not fit the ${this.byteLength}-byte buffer`);
    }
    const endsAtEnd = offset + bytes.length === this.byteLength;
    if (offset % 4 !== 0 || (bytes.length % 4 !== 0 && !endsAtEnd)) {
      throw new LoomError("invalid-argument", `upload: WebGPU writes whole 4-byte words; offset ${offset} and length ${bytes.length} must be multiples of 4 unless the write ends at the buffer's end`);
    }
    if (bytes.length === 0) return;
    const padded = bytes.length % 4 === 0 ? bytes : padTo4(bytes);
    this.host.device.queue.writeBuffer(this.gpuBuffer, offset, padded, 0, padded.length);
  }

  /** Reads `length` bytes from `offset` after all queued work (default: the whole buffer). */
  async download(offset = 0, length = this.byteLength - offset): Promise<Uint8Array> {
    this.requireLive("download");
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > this.byteLength) {
      throw new LoomError("out-of-range", `download: ${length} bytes at offset ${offset} are outside the ${this.byteLength}-byte buffer`);
    }
    if (length === 0) return new Uint8Array(0);
    const start = offset - (offset % 4);
    const size = alignUp4(offset + length) - start;
    const device = this.host.device;
    return scoped(device, "download", async () => {
      const staging = device.createBuffer({ size, usage: BUFFER_USAGE.MAP_READ | BUFFER_USAGE.COPY_DST, label: "loom readback" });
      try {
        const encoder = device.createCommandEncoder();
        encoder.copyBufferToBuffer(this.gpuBuffer, start, staging, 0, size);
        device.queue.submit([encoder.finish()]);
        await staging.mapAsync(MAP_READ, 0, size);
        const out = new Uint8Array(staging.getMappedRange(0, size)).slice(offset - start, offset - start + length);
        staging.unmap();
        return out;
      } finally {
        staging.destroy();
      }
    });
  }

  /** Frees the device memory; later calls fail, a second `destroy` does nothing. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.gpuBuffer.destroy();
  }
}

function padTo4(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(alignUp4(bytes.length));
  out.set(bytes);
  return out;
}
