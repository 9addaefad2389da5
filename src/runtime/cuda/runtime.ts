/**
 * `CudaRuntime`: the CUDA handoff's one door. It retains the selected device's primary context
 * and owns every buffer, module, kernel, stream, event and graph made through it; `destroy()`
 * releases them all. Launches are asynchronous (enqueued on a stream) and `dispatch` is the
 * synchronous form; a runtime belongs to one thread, like the Vulkan one.
 */
import { createHash } from "node:crypto";
import { LoomError } from "../../core/errors.js";
import type { BufferCheck } from "./args.js";
import { CudaBuffer } from "./buffer.js";
import { check, enter, leave, makeCurrent, type CudaContext } from "./context.js";
import { cuResultName, cudaError, losesContext } from "./cu-result.js";
import { DEVICE_ENV_VAR, profileFactsOf, readDeviceInfo, selectCudaDevice, type CudaDeviceInfo, type CudaProfileFacts } from "./device.js";
import { loadCuda, type CudaLibrary } from "./ffi.js";
import type { CudaKernelInterface } from "./interface.js";
import { imageBytes, linkPtxToCubin, loadModuleImage, type CubinResult, type JitOptions } from "./jit.js";
import { CudaKernel, CudaModule, type KernelOptions, type LaunchOptions } from "./kernel.js";
import { CudaEvent, CudaGraph, CudaStream, type Owned } from "./stream.js";

/**
 * Where `createKernelCached` keeps the driver's JIT output: bytes under a string key. Either
 * call may return a Promise. An `ArtifactCache` (or any key-value store) can back it through a
 * small adapter (docs/runtime-cuda.md).
 */
export interface CubinCache {
  /** The cubin cached under `key`, or `undefined` on a miss (may be async). */
  get(key: string): Uint8Array | undefined | Promise<Uint8Array | undefined>;
  /** Stores the cubin `bytes` under `key` (may be async; the result is ignored). */
  put(key: string, bytes: Uint8Array): unknown;
}

/** A kernel from `createKernelCached`: `hit` says whether the cubin came from the cache. */
export interface CachedKernel {
  readonly kernel: CudaKernel;
  readonly key: string;
  readonly hit: boolean;
}

export interface CudaRuntimeOptions {
  /** Device ordinal or case-insensitive name substring. Default: $LOOM_CUDA_DEVICE, else device 0. */
  readonly device?: number | string;
}

export interface DispatchResult {
  /** False when a workgroup count was 0 and nothing was launched. */
  readonly launched: boolean;
  /** Device time between events around the kernel, in ms (with `timing: true`). */
  readonly gpuMs?: number;
}

/** Fails with a CudaError; used where no context exists yet. */
const throwing = (code: number, what: string): void => {
  if (code !== 0) throw cudaError(code, what);
};

export class CudaRuntime {
  private readonly buffers = new Set<CudaBuffer>();
  private readonly modules = new Set<CudaModule>();
  private readonly owned = new Set<Owned>();
  private timing: [CudaEvent, CudaEvent] | undefined;
  private captureStream: CudaStream | undefined;
  /** The runtime's stream: launches, events and graphs use it unless given another. */
  readonly stream: CudaStream;

  private constructor(private readonly ctx: CudaContext) {
    const forget = (o: Owned) => this.owned.delete(o);
    // Made through the constructor's context; ctx.stream then points at it.
    ctx.stream = 0n;
    this.stream = new CudaStream(ctx, forget);
    ctx.stream = this.stream.handle;
  }

  /**
   * Loads the driver, selects the device and retains its primary context. Throws LoomError:
   * "failed-precondition" naming libcuda.so.1 when the driver is missing, a CudaError (with the
   * CUresult name) when the driver refuses, "not-found" for a selector that matches no device.
   */
  static create(options: CudaRuntimeOptions = {}): CudaRuntime {
    if (options === null || typeof options !== "object") throw new LoomError("invalid-argument", "CudaRuntime.create: options must be an object");
    const lib = loadCuda(throwing);
    const devices = listDevicesOf(lib);
    const fromOption = options.device !== undefined;
    const index = selectCudaDevice(devices, fromOption ? options.device : process.env[DEVICE_ENV_VAR], fromOption ? "options.device" : DEVICE_ENV_VAR);
    const info = devices.find((d) => d.index === index) as CudaDeviceInfo;
    const out = new BigUint64Array(1);
    const retained = lib.cu.cuDevicePrimaryCtxRetain(out, index);
    // A kernel fault is sticky for the whole process: on the H200 (driver 580) a new primary
    // context, even after cuDevicePrimaryCtxReset, still reports it. Say so instead of a bare code.
    if (losesContext(retained)) {
      throw new LoomError("failed-precondition", `cuDevicePrimaryCtxRetain(${index}) failed: ${cuResultName(retained)}: an earlier kernel fault left this process's CUDA state unusable (CUDA keeps such errors for the process); run device work that may fault in a child process`);
    }
    throwing(retained, `cuDevicePrimaryCtxRetain(${index})`);
    const ctx: CudaContext = { lib, device: index, handle: out[0] ?? 0n, info, stream: 0n, state: "live" };
    try {
      return new CudaRuntime(ctx);
    } catch (e) {
      lib.cu.cuDevicePrimaryCtxRelease_v2(index);
      throw e;
    }
  }

  /** Every device the driver reports, described (no context is created). */
  static listDevices(): CudaDeviceInfo[] {
    return listDevicesOf(loadCuda(throwing));
  }

  /** Identity and limits of the device this runtime uses. */
  deviceInfo(): CudaDeviceInfo {
    return this.ctx.info;
  }

  /** Plain facts for a PTX profile (processor, warp size, limits). */
  profileFacts(): CudaProfileFacts {
    return profileFactsOf(this.ctx.info);
  }

  /** Identifies what the driver's JIT output depends on, for a cubin cache key: device processor and driver version. */
  jitIdentity(): string {
    return `${this.ctx.info.processor}/cuda-driver-${this.ctx.lib.driverVersion}`;
  }

  /** Free and total device memory in bytes (cuMemGetInfo). */
  memoryInfo(): { readonly freeBytes: number; readonly totalBytes: number } {
    enter(this.ctx, "memoryInfo");
    const free = new BigUint64Array(1);
    const total = new BigUint64Array(1);
    check(this.ctx, this.ctx.lib.cu.cuMemGetInfo_v2(free, total), "cuMemGetInfo");
    return { freeBytes: Number(free[0] ?? 0n), totalBytes: Number(total[0] ?? 0n) };
  }

  /** A zero-filled device buffer of `byteLength` bytes (0 allowed: address 0). */
  createBuffer(byteLength: number): CudaBuffer {
    const buffer = new CudaBuffer(this.ctx, byteLength, (b) => this.buffers.delete(b));
    this.buffers.add(buffer);
    return buffer;
  }

  /**
   * Loads PTX (text or bytes; the driver JIT-compiles it for this device), a cubin or a fatbin.
   * A JIT failure is a CudaError (CUDA_ERROR_INVALID_PTX, …) whose message ends with the JIT's
   * error log; the info log is `module.jit.infoLog`.
   */
  loadModule(image: Uint8Array | string, options: JitOptions = {}): CudaModule {
    const { module, jit, kind } = loadModuleImage(this.ctx, image, options, "loadModule");
    const m = new CudaModule(this.ctx, module, kind, jit, this.bufferCheck, (x) => this.modules.delete(x));
    this.modules.add(m);
    return m;
  }

  /** Loads `image` and looks up `record.entryName` in it (the Vulkan runtime's createKernel). */
  createKernel(image: Uint8Array | string, record: CudaKernelInterface, options: KernelOptions & JitOptions = {}): CudaKernel {
    const module = this.loadModule(image, options);
    try {
      return module.kernel(record, options);
    } catch (e) {
      module.destroy();
      throw e;
    }
  }

  /**
   * JIT-compiles PTX for this device with cuLinkCreate/cuLinkAddData/cuLinkComplete and returns
   * the cubin, to cache (keyed by the PTX and `jitIdentity()`) and load later with `loadModule`.
   */
  compileToCubin(ptx: Uint8Array | string, options: JitOptions & { readonly name?: string } = {}): CubinResult {
    return linkPtxToCubin(this.ctx, ptx, options, options.name ?? "loom.ptx", "compileToCubin");
  }

  /**
   * The cache key of the cubin the driver's JIT makes of `ptx` with `options` on this device:
   * a SHA-256 of the PTX bytes, the options that change the machine code, and `jitIdentity()`.
   */
  cubinCacheKey(ptx: Uint8Array | string, options: JitOptions = {}): string {
    const { bytes, kind } = imageBytes(ptx);
    if (kind !== "ptx") throw new LoomError("invalid-argument", `cubinCacheKey: expected PTX text, got a ${kind} image`);
    const codegen = JSON.stringify([options.optimizationLevel ?? null, options.maxRegisters ?? null, options.lineInfo === true]);
    return `cubin-${createHash("sha256").update(bytes).update("\0").update(codegen).update("\0").update(this.jitIdentity()).digest("hex")}`;
  }

  /**
   * `createKernel` for PTX through a cubin cache: the driver's JIT (cuLink*) runs only when
   * `cache` has no cubin under `cubinCacheKey(ptx, options)`, and its cubin is put there. A
   * cached cubin the driver refuses (a stale or damaged entry) is rebuilt and replaced.
   */
  async createKernelCached(ptx: Uint8Array | string, record: CudaKernelInterface, cache: CubinCache, options: KernelOptions & JitOptions = {}): Promise<CachedKernel> {
    if (cache === null || typeof cache !== "object" || typeof cache.get !== "function" || typeof cache.put !== "function") {
      throw new LoomError("invalid-argument", "createKernelCached: cache must have get(key) and put(key, bytes)");
    }
    const key = this.cubinCacheKey(ptx, options);
    const cached = await cache.get(key);
    if (cached instanceof Uint8Array && cached.byteLength > 0) {
      try {
        return { kernel: this.createKernel(cached, record, options), key, hit: true };
      } catch {
        // Rebuilt below; an error that is not the entry's fault comes back from the rebuilt cubin.
      }
    }
    const { cubin } = this.compileToCubin(ptx, options);
    await cache.put(key, cubin);
    return { kernel: this.createKernel(cubin, record, options), key, hit: false };
  }

  /** Enqueues one launch (asynchronous). Returns false when a workgroup count is 0. */
  launch(kernel: CudaKernel, options: LaunchOptions): boolean {
    this.owns(kernel, "launch");
    return kernel.enqueue(options, this.ctx.stream);
  }

  /** Launches and waits; with `timing`, measures the kernel with events on the stream. */
  dispatch(kernel: CudaKernel, options: LaunchOptions & { readonly timing?: boolean }): DispatchResult {
    this.owns(kernel, "dispatch");
    const stream = options.stream instanceof CudaStream ? options.stream : this.stream;
    if (options.timing !== true) {
      const launched = kernel.enqueue(options, this.ctx.stream);
      stream.synchronize();
      return { launched };
    }
    const [start, end] = (this.timing ??= [this.createEvent(), this.createEvent()]);
    start.record(stream);
    const launched = kernel.enqueue(options, this.ctx.stream);
    end.record(stream);
    const gpuMs = end.elapsedMsSince(start);
    return launched ? { launched, gpuMs } : { launched };
  }

  /** Creates a non-default stream on this runtime's context. */
  createStream(): CudaStream {
    const s = new CudaStream(this.ctx, (o) => this.owned.delete(o));
    this.owned.add(s);
    return s;
  }

  /** Creates an event for timing and ordering work on this runtime's context. */
  createEvent(): CudaEvent {
    const e = new CudaEvent(this.ctx, (o) => this.owned.delete(o));
    this.owned.add(e);
    return e;
  }

  /**
   * Records what `record` enqueues (launches on the stream it is given, `graph.launch`es) into an
   * instantiated CUDA graph. Copies through buffers are synchronous and cannot be captured.
   */
  captureGraph(record: (stream: CudaStream) => void): CudaGraph {
    if (typeof record !== "function") throw new LoomError("invalid-argument", "captureGraph: record must be a function");
    const capture = (this.captureStream ??= this.makeCaptureStream());
    const g = new CudaGraph(this.ctx, (o) => this.owned.delete(o), capture, record);
    this.owned.add(g);
    return g;
  }

  /** Waits for all work of the context (cuCtxSynchronize); a kernel fault surfaces here. */
  synchronize(): void {
    enter(this.ctx, "synchronize");
    check(this.ctx, this.ctx.lib.cu.cuCtxSynchronize(), "cuCtxSynchronize");
  }

  /** True after a kernel fault or another error that loses the context (see docs/runtime-cuda.md). */
  get isLost(): boolean {
    return this.ctx.state === "lost";
  }

  get isDestroyed(): boolean {
    return this.ctx.state === "destroyed";
  }

  /** Waits for the device (unless the context is lost), frees everything, releases the primary context. Idempotent. */
  destroy(): void {
    const ctx = this.ctx;
    if (ctx.state === "destroyed") return;
    makeCurrent(ctx);
    if (ctx.state === "live") ctx.lib.cu.cuCtxSynchronize();
    for (const o of [...this.owned]) o.destroy();
    for (const m of [...this.modules]) m.destroy();
    for (const b of [...this.buffers]) b.destroy();
    this.timing = undefined;
    this.captureStream = undefined;
    this.stream.destroy();
    leave(ctx);
    ctx.state = "destroyed";
    ctx.lib.cu.cuDevicePrimaryCtxRelease_v2(ctx.device);
  }

  private makeCaptureStream(): CudaStream {
    const s = new CudaStream(this.ctx, (o) => this.owned.delete(o), true);
    this.owned.add(s);
    return s;
  }

  private owns(kernel: CudaKernel, what: string): void {
    if (!(kernel instanceof CudaKernel) || kernel.ctx !== this.ctx) throw new LoomError("invalid-argument", `${what}: kernel must be a CudaKernel of this runtime`);
  }

  /** Buffer fields must name memory of a live buffer of this runtime (or be null: address 0, length 0). */
  private readonly bufferCheck: BufferCheck = (address, byteLength, what, value) => {
    // A live buffer object of this runtime names its own memory (the per-launch common case: no BigInt arithmetic).
    if (value instanceof CudaBuffer && this.buffers.has(value)) return;
    const length = typeof byteLength === "bigint" ? byteLength : BigInt(byteLength);
    if (address === 0n && length === 0n) return;
    for (const b of this.buffers) if (b.contains(address, length)) return;
    throw new LoomError(
      "out-of-range",
      `${what()}: [0x${address.toString(16)}, +${length}) is not inside a live buffer of this runtime (a kernel reading it would fault)`,
    );
  };
}

function listDevicesOf(lib: CudaLibrary): CudaDeviceInfo[] {
  const count = new Int32Array(1);
  throwing(lib.cu.cuDeviceGetCount(count), "cuDeviceGetCount");
  return Array.from({ length: count[0] ?? 0 }, (_, i) => readDeviceInfo(lib, i, throwing));
}

