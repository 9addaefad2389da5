/**
 * `WebGpuRuntime`: the WebGPU handoff's one door. It works on any WebGPU implementation — a
 * browser's `navigator.gpu`, or Node's `webgpu` package (Dawn) — through the structural types of
 * gpu.ts, and owns the device, buffers and kernels made through it. Everything is async, as
 * WebGPU is; dispatches run one at a time in call order.
 */
import { BUFFER_ADDRESS_FIELD, BUFFER_LENGTH_FIELD, type ExecutableInterface } from "../../abi/index.js";
import { LoomError } from "../../core/errors.js";
import { packArguments, type ArgValue } from "./args.js";
import { WebGpuBuffer, type BufferOptions } from "./buffer.js";
import { WebGpuError, scoped } from "./errors.js";
import { BUFFER_USAGE, MAP_READ, featureNames, limitOf, type GpuAdapterLike, type GpuBufferLike, type GpuDeviceLike, type GpuEntry, type GpuQuerySetLike } from "./gpu.js";
import { WebGpuKernel, buildKernel } from "./kernel.js";

/** Features a compute kernel may use; the device gets each one the adapter has. */
export const COMPUTE_FEATURES = ["shader-f16", "subgroups", "subgroup-size-control", "timestamp-query"] as const;

/** The limits a kernel's profile is made from; the device gets the adapter's value of each. */
export const COMPUTE_LIMITS = [
  "maxComputeInvocationsPerWorkgroup",
  "maxComputeWorkgroupSizeX",
  "maxComputeWorkgroupSizeY",
  "maxComputeWorkgroupSizeZ",
  "maxComputeWorkgroupsPerDimension",
  "maxComputeWorkgroupStorageSize",
  "maxStorageBufferBindingSize",
  "maxStorageBuffersPerShaderStage",
  "maxUniformBufferBindingSize",
  "maxBufferSize",
  "maxBindingsPerBindGroup",
  "minStorageBufferOffsetAlignment",
  "minUniformBufferOffsetAlignment",
  "minSubgroupSize",
  "maxSubgroupSize",
] as const;

export interface WebGpuRuntimeOptions {
  /** `navigator.gpu`, or what Node's `webgpu` `create([...])` returned (kept alive with the runtime). Default: `navigator.gpu`. */
  readonly gpu?: GpuEntry;
  /** An adapter to open instead of requesting one. */
  readonly adapter?: GpuAdapterLike;
  /** A device the caller opened (its features and limits are used as they are; `destroy()` destroys it). */
  readonly device?: GpuDeviceLike;
  readonly powerPreference?: "low-power" | "high-performance";
}

/** The adapter's facts as plain, adapter-shaped data: what a WGSL profile is made from. */
export interface WebGpuProfileFacts {
  /** Sorted feature names the device was opened with. */
  readonly features: readonly string[];
  /** `COMPUTE_LIMITS` the device has, by WebGPU name. */
  readonly limits: Readonly<Record<string, number>>;
  readonly adapter: { readonly vendor: string; readonly architecture: string; readonly device: string; readonly description: string };
}

export interface DispatchOptions {
  /** The evaluated launch's workgroup count; any zero dispatches nothing. */
  readonly workgroupCount: readonly [number, number, number] | readonly number[];
  /** The packed §7 block (`argumentBlockBytes` long) … */
  readonly argBlock?: Uint8Array;
  /** … or the argument values, packed here at the record's offsets (buffers as `kernel.bufferArgument(b)`). */
  readonly args?: readonly ArgValue[];
  /** Buffer argument k's buffer, for each binding k. */
  readonly buffers?: readonly WebGpuBuffer[];
  /** Time the pass with timestamp queries (when the device has `timestamp-query`). */
  readonly timestamps?: boolean;
  /**
   * Dispatch the same work this many times in one compute pass (default 1), as one submission:
   * sustained load without a host round trip between dispatches (benchmark warm-up, repeated
   * kernels). The timestamps then span all of them.
   */
  readonly repeat?: number;
}

export interface DispatchResult {
  readonly dispatched: boolean;
  /** GPU time of the compute pass, when timed. */
  readonly gpuNs?: number;
}

interface Timer {
  readonly querySet: GpuQuerySetLike;
  readonly resolve: GpuBufferLike;
  readonly readback: GpuBufferLike;
}

export class WebGpuRuntime {
  readonly #buffers = new Set<WebGpuBuffer>();
  readonly #kernels = new Set<WebGpuKernel>();
  #timer: Timer | undefined;
  #lost: string | undefined;
  #destroyed = false;
  /** Dispatches run one after another (they share the timer's readback buffer). */
  #tail: Promise<unknown> = Promise.resolve();

  private constructor(
    /** Kept so the implementation's entry object lives as long as the device (Node's `webgpu` needs it). */
    readonly gpu: GpuEntry | undefined,
    readonly adapter: GpuAdapterLike | undefined,
    readonly device: GpuDeviceLike,
  ) {
    void device.lost.then((info) => {
      this.#lost = info.message || info.reason || "device lost";
    });
  }

  /** Opens a device with every compute feature and the adapter's compute limits. */
  static async create(options: WebGpuRuntimeOptions = {}): Promise<WebGpuRuntime> {
    if (options === null || typeof options !== "object") throw new LoomError("invalid-argument", "WebGpuRuntime.create: options must be an object");
    if (options.device) return new WebGpuRuntime(options.gpu, options.adapter, options.device);
    const gpu = options.gpu ?? (globalThis as { navigator?: { gpu?: GpuEntry } }).navigator?.gpu;
    let adapter = options.adapter;
    if (!adapter) {
      if (!gpu) throw new LoomError("failed-precondition", "WebGpuRuntime.create: no WebGPU here (navigator.gpu is undefined); in Node pass { gpu: create([]) } from the 'webgpu' package");
      adapter = (await gpu.requestAdapter(options.powerPreference ? { powerPreference: options.powerPreference } : {})) ?? undefined;
      if (!adapter) throw new LoomError("failed-precondition", "WebGpuRuntime.create: requestAdapter() found no adapter (in Chromium pass --enable-unsafe-webgpu; in Node point VK_ICD_FILENAMES at a Vulkan driver such as SwiftShader)");
    }
    const requiredFeatures = COMPUTE_FEATURES.filter((f) => adapter.features.has(f));
    const requiredLimits: Record<string, number> = {};
    for (const name of COMPUTE_LIMITS) {
      const v = limitOf(adapter.limits, name);
      // min* limits are "better" when smaller; the adapter's value is what the device can do.
      if (v !== undefined && name !== "minSubgroupSize" && name !== "maxSubgroupSize") requiredLimits[name] = v;
    }
    let device: GpuDeviceLike;
    try {
      device = await adapter.requestDevice({ requiredFeatures: [...requiredFeatures], requiredLimits, label: "loom" });
    } catch (e) {
      throw new WebGpuError("validation", (e as Error)?.message ?? String(e), "WebGpuRuntime.create: requestDevice");
    }
    return new WebGpuRuntime(gpu, adapter, device);
  }

  /** Whether dispatches can be timed. */
  get timestampsAvailable(): boolean {
    return this.device.features.has("timestamp-query");
  }

  /** The device's features and compute limits, and the adapter's identity, as plain data. */
  profileFacts(): WebGpuProfileFacts {
    const limits: Record<string, number> = {};
    for (const name of COMPUTE_LIMITS) {
      const v = limitOf(this.device.limits, name) ?? (this.adapter ? limitOf(this.adapter.limits, name) : undefined);
      if (v !== undefined) limits[name] = v;
    }
    const info = this.adapter?.info;
    return {
      features: featureNames(this.device.features),
      limits,
      adapter: { vendor: info?.vendor ?? "", architecture: info?.architecture ?? "", device: info?.device ?? "", description: info?.description ?? "" },
    };
  }

  /** @internal Throws when the runtime was destroyed or its device lost. */
  requireLive(what: string): void {
    if (this.#destroyed) throw new LoomError("failed-precondition", `${what}: the runtime was destroyed`);
    if (this.#lost !== undefined) throw new WebGpuError("device-lost", this.#lost, what);
  }

  /** A zero-filled storage buffer of `byteLength` bytes. */
  createBuffer(byteLength: number, options: BufferOptions = {}): WebGpuBuffer {
    this.requireLive("createBuffer");
    const max = limitOf(this.device.limits, "maxBufferSize") ?? 268435456;
    if (!Number.isSafeInteger(byteLength) || byteLength < 0) throw new LoomError("invalid-argument", `createBuffer: byteLength must be a non-negative integer, got ${byteLength}`);
    if (byteLength > max) throw new LoomError("out-of-range", `createBuffer: ${byteLength} bytes exceed the device's maxBufferSize (${max})`);
    const buffer = new WebGpuBuffer(this, byteLength, options);
    this.#buffers.add(buffer);
    return buffer;
  }

  /**
   * A pipeline for the record's kernel `entry` (or its only kernel) of this WGSL module (text or
   * UTF-8 bytes). Checks the record belongs to these bytes and the device has what it needs; Tint's
   * errors come back as a WebGpuError ("compilation") with line and column.
   */
  async createKernel(wgsl: string | Uint8Array, record: ExecutableInterface, entry?: string): Promise<WebGpuKernel> {
    this.requireLive("createKernel");
    if (typeof wgsl !== "string" && !(wgsl instanceof Uint8Array)) throw new LoomError("invalid-argument", "createKernel: the module must be WGSL text or its UTF-8 bytes");
    const bytes = typeof wgsl === "string" ? new TextEncoder().encode(wgsl) : wgsl;
    const kernel = await buildKernel(this, bytes, record, entry);
    this.#kernels.add(kernel);
    return kernel;
  }

  /** Binds, uploads the argument block, dispatches and waits until the GPU is done. */
  dispatch(kernel: WebGpuKernel, options: DispatchOptions): Promise<DispatchResult> {
    const run = this.#tail.then(
      () => this.#dispatch(kernel, options),
      () => this.#dispatch(kernel, options),
    );
    this.#tail = run.catch(() => undefined);
    return run;
  }

  async #dispatch(kernel: WebGpuKernel, options: DispatchOptions): Promise<DispatchResult> {
    this.requireLive("dispatch");
    if (!(kernel instanceof WebGpuKernel) || kernel.host !== this) throw new LoomError("invalid-argument", "dispatch: the kernel was not made by this runtime");
    kernel.requireLive("dispatch");
    if (options === null || typeof options !== "object") throw new LoomError("invalid-argument", "dispatch: options must be an object");
    const record = kernel.record;
    const count = checkCount(options.workgroupCount, limitOf(this.device.limits, "maxComputeWorkgroupsPerDimension") ?? 65535);
    const buffers = options.buffers ?? [];
    if (!Array.isArray(buffers) || buffers.length !== kernel.layout.buffers.length) {
      throw new LoomError("invalid-argument", `dispatch: '${record.entryName}' binds ${kernel.layout.buffers.length} buffer(s), got ${Array.isArray(buffers) ? buffers.length : typeof buffers}`);
    }
    buffers.forEach((b, k) => {
      if (!(b instanceof WebGpuBuffer) || b.host !== this) throw new LoomError("invalid-argument", `dispatch: buffers[${k}] is not a buffer of this runtime`);
      b.requireLive(`dispatch: buffers[${k}]`);
    });
    if (options.argBlock !== undefined && options.args !== undefined) throw new LoomError("invalid-argument", "dispatch: pass argBlock or args, not both");
    const block = options.args !== undefined ? packArguments(record.arguments, options.args, record.argumentBlockBytes) : (options.argBlock ?? new Uint8Array(0));
    if (!(block instanceof Uint8Array) || block.byteLength !== record.argumentBlockBytes) {
      throw new LoomError("invalid-argument", `dispatch: the argument block of '${record.entryName}' is ${record.argumentBlockBytes} bytes, got ${block instanceof Uint8Array ? block.byteLength : typeof block}`);
    }
    checkBufferFields(kernel, block, buffers);
    checkIndexDomain(kernel, block, buffers);
    const repeat = options.repeat ?? 1;
    if (!Number.isSafeInteger(repeat) || repeat < 1) throw new LoomError("invalid-argument", `dispatch: repeat must be a positive integer, got ${String(repeat)}`);
    if (count.some((c) => c === 0)) return { dispatched: false };
    const timed = options.timestamps === true && this.timestampsAvailable;
    const what = `dispatch '${record.entryName}'`;
    const device = this.device;
    const timer = timed ? this.#timerObjects() : undefined;
    await scoped(device, what, () => {
      const blockBinding = kernel.layout.argumentBlock;
      if (blockBinding && kernel.blockBuffer) {
        const padded = new Uint8Array(kernel.blockBuffer.size);
        padded.set(block);
        device.queue.writeBuffer(kernel.blockBuffer, 0, padded, 0, padded.length);
      }
      const entries = kernel.layout.buffers.map((b, k) => ({ binding: b.binding, resource: { buffer: buffers[k]!.gpuBuffer } }));
      if (blockBinding && kernel.blockBuffer) entries.push({ binding: blockBinding.binding, resource: { buffer: kernel.blockBuffer } });
      const bindGroup = device.createBindGroup({ layout: kernel.bindGroupLayout, entries });
      const encoder = device.createCommandEncoder({ label: what });
      const pass = encoder.beginComputePass(timer ? { timestampWrites: { querySet: timer.querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } } : {});
      pass.setPipeline(kernel.pipeline);
      pass.setBindGroup(0, bindGroup);
      for (let i = 0; i < repeat; i++) pass.dispatchWorkgroups(count[0], count[1], count[2]);
      pass.end();
      if (timer) {
        encoder.resolveQuerySet(timer.querySet, 0, 2, timer.resolve, 0);
        encoder.copyBufferToBuffer(timer.resolve, 0, timer.readback, 0, 16);
      }
      device.queue.submit([encoder.finish()]);
    });
    if (!timer) {
      await device.queue.onSubmittedWorkDone();
      this.requireLive(what);
      return { dispatched: true };
    }
    const gpuNs = await scoped(device, `${what} (timestamps)`, async () => {
      await timer.readback.mapAsync(MAP_READ, 0, 16);
      const [begin, end] = new BigUint64Array(timer.readback.getMappedRange(0, 16).slice(0));
      timer.readback.unmap();
      return begin !== undefined && end !== undefined && end >= begin ? Number(end - begin) : undefined;
    });
    this.requireLive(what);
    return gpuNs === undefined ? { dispatched: true } : { dispatched: true, gpuNs };
  }

  #timerObjects(): Timer {
    return (this.#timer ??= {
      querySet: this.device.createQuerySet({ type: "timestamp", count: 2 }),
      resolve: this.device.createBuffer({ size: 16, usage: BUFFER_USAGE.QUERY_RESOLVE | BUFFER_USAGE.COPY_SRC, label: "loom timestamps" }),
      readback: this.device.createBuffer({ size: 16, usage: BUFFER_USAGE.MAP_READ | BUFFER_USAGE.COPY_DST, label: "loom timestamp readback" }),
    });
  }

  /** Destroys every buffer and kernel made here, then the device. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    for (const k of this.#kernels) k.destroy();
    for (const b of this.#buffers) b.destroy();
    if (this.#timer) {
      this.#timer.querySet.destroy();
      this.#timer.resolve.destroy();
      this.#timer.readback.destroy();
    }
    this.device.destroy();
  }
}

function checkCount(count: unknown, max: number): [number, number, number] {
  if (!Array.isArray(count) || count.length !== 3 || !count.every((c) => Number.isSafeInteger(c) && c >= 0)) {
    throw new LoomError("invalid-argument", `dispatch: workgroupCount must be three non-negative integers, got ${JSON.stringify(count)}`);
  }
  const [x, y, z] = count as [number, number, number];
  if (x > max || y > max || z > max) throw new LoomError("out-of-range", `dispatch: workgroup count ${x}x${y}x${z} exceeds maxComputeWorkgroupsPerDimension (${max})`);
  return [x, y, z];
}

/**
 * WGSL kernels compute in 32 bits (docs/abi.md, WGSL "Limits of the WebGPU ABI"): refuse, rather
 * than let the kernel truncate, index values outside [-2^31, 2^31) and offsets or buffer lengths
 * of 2^32 or more.
 */
function checkIndexDomain(kernel: WebGpuKernel, block: Uint8Array, buffers: readonly WebGpuBuffer[]): void {
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  for (const arg of kernel.record.arguments) {
    if (arg.type === "index") {
      const v = view.getBigInt64(arg.offset, true);
      if (v < -(1n << 31n) || v >= 1n << 31n) throw new LoomError("out-of-range", `dispatch: index argument '${arg.name}' = ${v} is outside the 32-bit index domain of WGSL kernels [-2^31, 2^31)`);
    } else if (arg.type === "offset") {
      const v = view.getBigUint64(arg.offset, true);
      if (v >= 1n << 32n) throw new LoomError("out-of-range", `dispatch: offset argument '${arg.name}' = ${v} is outside the 32-bit domain of WGSL kernels`);
    }
  }
  buffers.forEach((b, k) => {
    if (b.byteLength >= 2 ** 32) throw new LoomError("out-of-range", `dispatch: buffers[${k}] holds ${b.byteLength} bytes; WGSL kernels address fewer than 2^32`);
  });
}

/** Each buffer field: address 0 (bindings) and a length the bound buffer holds. */
function checkBufferFields(kernel: WebGpuKernel, block: Uint8Array, buffers: readonly WebGpuBuffer[]): void {
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  kernel.layout.buffers.forEach((b, k) => {
    const arg = kernel.record.arguments[b.argument]!;
    const address = view.getBigUint64(arg.offset + BUFFER_ADDRESS_FIELD, true);
    const length = view.getBigUint64(arg.offset + BUFFER_LENGTH_FIELD, true);
    if (address !== 0n) throw new LoomError("invalid-argument", `dispatch: argument '${arg.name}' holds address ${address}; WebGPU buffers are bindings, so it must be 0 (use kernel.bufferArgument)`);
    const buffer = buffers[k]!;
    if (length > BigInt(buffer.byteLength)) throw new LoomError("out-of-range", `dispatch: argument '${arg.name}' declares ${length} bytes but buffers[${k}] holds ${buffer.byteLength}`);
  });
}
