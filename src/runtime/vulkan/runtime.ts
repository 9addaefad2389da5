/**
 * `VulkanRuntime`: the handoff's one door. It owns a device context and every buffer and
 * kernel made through it; `destroy()` releases them all. Calls are synchronous (a dispatch
 * returns after its fence signalled), so a runtime belongs to one thread.
 */
import { submitBatch, type BatchItem, type BatchOptions, type VulkanBatch } from "./batch.js";
import { LoomError } from "../../core/errors.js";
import { VulkanBuffer, type BufferOptions } from "./buffer.js";
import { createDeviceContext, destroyDeviceContext, listPhysicalDevices, requireLive, type DeviceContext } from "./context.js";
import { profileFactsOf, type VulkanDeviceInfo, type VulkanProfileFacts } from "./device-info.js";
import { DEFAULT_TIMEOUT_MS, dispatch, type DispatchOptions, type DispatchResult } from "./dispatch.js";
import { NativeArena } from "./native-arena.js";
import type { ExecutableInterface } from "../../abi/index.js";
import { VulkanKernel } from "./kernel.js";
import { check } from "./vk-result.js";
import { DEFAULT_STAGING_BYTES } from "./staging.js";

/** Set to "1" to force staged transfers, like `forceStaging: true`. */
export const FORCE_STAGING_ENV_VAR = "LOOM_VULKAN_FORCE_STAGING";

export interface VulkanRuntimeOptions {
  /**
   * Device index or case-insensitive name substring. Default: the LOOM_VULKAN_DEVICE
   * environment variable, else the most capable device (discrete > integrated > virtual > CPU).
   */
  readonly device?: number | string;
  /** Instance layers to enable, e.g. ["VK_LAYER_KHRONOS_validation"] (VK_INSTANCE_LAYERS works too). */
  readonly layers?: readonly string[];
  /** How long one dispatch may run before the runtime gives up on the device (default 60 s). */
  readonly timeoutMs?: number;
  /** Pipeline-cache contents saved earlier with `pipelineCacheData()`; the driver ignores stale data. */
  readonly pipelineCache?: Uint8Array;
  /**
   * Treat "device" buffers as device-only even when their memory is host-visible: upload and
   * download then always go through the staging buffer. Default: $LOOM_VULKAN_FORCE_STAGING = "1".
   * Meant for testing the staged path on devices with one memory kind (lavapipe).
   */
  readonly forceStaging?: boolean;
  /** Size of the staging buffer, i.e. the chunk size of staged transfers (default 64 MiB). */
  readonly stagingBytes?: number;
}

export class VulkanRuntime {
  private readonly buffers = new Set<VulkanBuffer>();
  private readonly kernels = new Set<VulkanKernel>();

  private constructor(private readonly ctx: DeviceContext) {}

  /** Opens the selected device. Throws LoomError (see ffi.ts and select.ts for the statuses). */
  static create(options: VulkanRuntimeOptions = {}): VulkanRuntime {
    if (options === null || typeof options !== "object") throw new LoomError("invalid-argument", "VulkanRuntime.create: options must be an object");
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
      throw new LoomError("invalid-argument", `VulkanRuntime.create: timeoutMs must be a positive integer, got ${timeoutMs}`);
    }
    if (options.pipelineCache !== undefined && !(options.pipelineCache instanceof Uint8Array)) {
      throw new LoomError("invalid-argument", "VulkanRuntime.create: pipelineCache must be a Uint8Array");
    }
    if (options.forceStaging !== undefined && typeof options.forceStaging !== "boolean") {
      throw new LoomError("invalid-argument", "VulkanRuntime.create: forceStaging must be a boolean");
    }
    const stagingBytes = options.stagingBytes ?? DEFAULT_STAGING_BYTES;
    if (!Number.isSafeInteger(stagingBytes) || stagingBytes <= 0) {
      throw new LoomError("invalid-argument", `VulkanRuntime.create: stagingBytes must be a positive integer, got ${stagingBytes}`);
    }
    const forceStaging = options.forceStaging ?? process.env[FORCE_STAGING_ENV_VAR] === "1";
    return new VulkanRuntime(createDeviceContext({ ...options, timeoutMs, forceStaging, stagingBytes }));
  }

  /** Every physical device the loader sees, described (creates and drops a temporary instance). */
  static listDevices(): VulkanDeviceInfo[] {
    return listPhysicalDevices();
  }

  /** Identity, limits and features of the device this runtime uses. */
  deviceInfo(): VulkanDeviceInfo {
    return this.ctx.info;
  }

  /** Plain facts for a SPIR-V profile (`profileFromDevice` in the SPIR-V target builds on this). */
  profileFacts(): VulkanProfileFacts {
    return profileFactsOf(this.ctx.info);
  }

  /**
   * A zero-filled buffer of `byteLength` bytes (0 allowed), in device-only memory unless
   * `options.memory` is "host-visible" (see VulkanBuffer.access).
   */
  createBuffer(byteLength: number, options: BufferOptions = {}): VulkanBuffer {
    const buffer = new VulkanBuffer(this.ctx, byteLength, options, (b) => this.buffers.delete(b));
    this.buffers.add(buffer);
    return buffer;
  }

  /**
   * Loads one entry point of a SPIR-V module as a compute pipeline, laid out as the module's
   * kernel-interface record says (the `interface` artifact emitModule returns next to the
   * SPIR-V, parsed with parseExecutableInterface). `entryName` may be left out when the module
   * holds one kernel. A record for other bytes, a missing record or an unknown entry is a
   * LoomError; driver failures surface as VulkanError naming the VkResult.
   */
  createKernel(spirv: Uint8Array, record: ExecutableInterface, entryName?: string): VulkanKernel {
    const kernel = new VulkanKernel(this.ctx, spirv, record, entryName, (k) => this.kernels.delete(k));
    this.kernels.add(kernel);
    return kernel;
  }

  /** Runs one dispatch to completion; all misuse is rejected before anything is submitted. */
  dispatch(kernel: VulkanKernel, options: DispatchOptions): DispatchResult {
    requireLive(this.ctx, "dispatch");
    return dispatch(this.ctx, kernel, options);
  }

  /**
   * Records `items` into one command buffer (a compute barrier between consecutive dispatches),
   * submits it once and returns at once; `wait()` / `done()` on the result collect it. See
   * batch.ts for what may be batched.
   */
  submitBatch(items: readonly BatchItem[], options: BatchOptions = {}): VulkanBatch {
    requireLive(this.ctx, "submitBatch");
    return submitBatch(this.ctx, items, options);
  }

  /** The pipeline cache's contents, to pass as `pipelineCache` to a later runtime. */
  pipelineCacheData(): Uint8Array {
    requireLive(this.ctx, "pipelineCacheData");
    const { lib, device, pipelineCache } = this.ctx;
    const arena = new NativeArena(lib);
    try {
      const size = arena.bytes(8);
      check(lib.vk.vkGetPipelineCacheData(device, pipelineCache, size, null), "vkGetPipelineCacheData");
      const n = Number(arena.readU64(size));
      const data = arena.bytes(n);
      check(lib.vk.vkGetPipelineCacheData(device, pipelineCache, size, data), "vkGetPipelineCacheData");
      return arena.view(data, Number(arena.readU64(size))).slice();
    } finally {
      arena.free();
    }
  }

  get isDestroyed(): boolean {
    return this.ctx.state === "destroyed";
  }

  /** Waits for the device, then frees every kernel, buffer and the device itself. Idempotent. */
  destroy(): void {
    if (this.ctx.state === "destroyed") return;
    if (this.ctx.state === "live") {
      try {
        this.ctx.pending?.settle();
      } catch {
        // A failed batch marked the device lost; destroying proceeds.
      }
      if (this.ctx.state === "live") this.ctx.lib.vk.vkDeviceWaitIdle(this.ctx.device);
    }
    for (const k of [...this.kernels]) k.destroy();
    for (const b of [...this.buffers]) b.destroy();
    destroyDeviceContext(this.ctx);
  }
}
