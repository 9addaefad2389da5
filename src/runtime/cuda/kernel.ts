/**
 * A loaded module and its kernels. A CudaKernel is one `.entry` with its kernel-interface
 * record, the function's attributes, and native memory holding the explicit argument block and
 * the one-element kernelParams array that points at it (docs/abi.md: the block is the entry's
 * only parameter), so a launch writes the block in place and calls cuLaunchKernel with no
 * allocation.
 */
import { LoomError } from "../../core/errors.js";
import { writeArguments, type ArgValue, type BufferCheck } from "./args.js";
import { DEFAULT_DYNAMIC_SHARED_LIMIT, FUNCTION_ATTRIBUTE } from "./constants.js";
import { check, enter, makeCurrent, type CudaContext } from "./context.js";
import { checkKernelInterface, type CudaKernelInterface } from "./interface.js";
import type { JitResult } from "./jit.js";

/** sizeof(CUlaunchConfig) in cuda.h 12+: 7 × u32 (grid, block, shared bytes), stream at 32, attrs at 40, numAttrs at 48. */
const LAUNCH_CONFIG_BYTES = 56;

/** The evaluated launch (a LaunchConfig from the launch-config function has these fields). */
export interface LaunchShape {
  readonly workgroupCount: readonly [number, number, number];
  /** Required when the record says "launch-config"; must equal a fixed one otherwise. */
  readonly workgroupSize?: readonly [number, number, number];
  /** Dynamic shared memory; default the record's workgroupStorageBytes. */
  readonly workgroupStorageBytes?: number;
}

export interface LaunchOptions extends LaunchShape {
  /** Values in declaration order, or a packed block; default the values of `kernel.setArguments`. */
  readonly args?: readonly ArgValue[] | Uint8Array;
  /** Default: the runtime's stream. */
  readonly stream?: { readonly handle: bigint };
}

/** Options of creating a {@link CudaKernel}. */
export interface KernelOptions {
  /**
   * Pass `workgroupStorageBytes` as dynamic shared memory (docs/abi.md, PTX row). Default true;
   * false for PTX that declares its workgroup memory statically.
   */
  readonly dynamicSharedMemory?: boolean;
}

/** What cuFuncGetAttribute reports for the compiled function. */
export interface CudaFunctionAttributes {
  readonly maxThreadsPerBlock: number;
  readonly staticSharedBytes: number;
  readonly localBytesPerThread: number;
  readonly registers: number;
  readonly ptxVersion: number;
  readonly binaryVersion: number;
}

/** A PTX or cubin image loaded into a CUDA context; holds the kernels created from it. */
export class CudaModule {
  private readonly kernels = new Set<CudaKernel>();
  private unloaded = false;

  /** @internal */
  constructor(
    /** @internal */ readonly ctx: CudaContext,
    /** @internal */ readonly handle: bigint,
    /** "ptx", "cubin" or "fatbin". */
    readonly kind: string,
    /** The JIT's info log and wall time (empty and 0 for a cubin). */
    readonly jit: JitResult,
    private readonly checkBuffer: BufferCheck,
    private readonly onDestroy: (m: CudaModule) => void,
  ) {}

  /** The kernel `record.entryName` of this module, launched by `record`'s ABI. */
  kernel(record: CudaKernelInterface, options: KernelOptions = {}): CudaKernel {
    if (this.unloaded) throw new LoomError("failed-precondition", "kernel: the module was destroyed");
    const kernel = new CudaKernel(this, checkKernelInterface(record), options, this.checkBuffer, (k) => this.kernels.delete(k));
    this.kernels.add(kernel);
    return kernel;
  }

  get isDestroyed(): boolean {
    return this.unloaded;
  }

  /** Unloads the module; its kernels become unusable. Idempotent. */
  destroy(): void {
    if (this.unloaded) return;
    for (const k of [...this.kernels]) k.destroy();
    this.unloaded = true;
    this.onDestroy(this);
    if (this.ctx.state !== "destroyed") {
      makeCurrent(this.ctx);
      this.ctx.lib.cu.cuModuleUnload(this.handle);
    }
  }
}

/** A launchable kernel of a loaded {@link CudaModule}, with its interface and the driver's function attributes. */
export class CudaKernel {
  readonly record: CudaKernelInterface;
  readonly attributes: CudaFunctionAttributes;
  /** @internal */ readonly ctx: CudaContext;
  /** @internal */ readonly handle: bigint;
  private readonly block: bigint;
  private readonly params: bigint;
  private readonly blockView: DataView;
  private readonly blockBytes: Uint8Array;
  /** A CUlaunchConfig (no attributes) that each launch through cuLaunchKernelEx rewrites in place. */
  private readonly config: bigint;
  private readonly configView: DataView;
  private readonly dynamicShared: boolean;
  private dynamicLimit: number;
  private bound = false;
  private destroyed = false;

  /** @internal */
  constructor(
    readonly module: CudaModule,
    record: CudaKernelInterface,
    options: KernelOptions,
    private readonly checkBuffer: BufferCheck,
    private readonly onDestroy: (k: CudaKernel) => void,
  ) {
    const ctx = (this.ctx = module.ctx);
    this.record = record;
    const what = `kernel '${record.entryName}'`;
    enter(ctx, what);
    const maxParams = ctx.info.limits.maxParameterBytes;
    if (record.argumentBlockBytes > maxParams) {
      throw new LoomError("out-of-range", `${what}: a ${record.argumentBlockBytes}-byte argument block exceeds the device's ${maxParams}-byte parameter limit`);
    }
    const { cu, koffi } = ctx.lib;
    const out = new BigUint64Array(1);
    check(ctx, cu.cuModuleGetFunction(out, module.handle, record.entryName), `cuModuleGetFunction('${record.entryName}')`, `the module has no kernel (.entry) named '${record.entryName}'`);
    this.handle = out[0] ?? 0n;
    const cell = new Int32Array(1);
    const attr = (a: number, name: string): number => {
      check(ctx, cu.cuFuncGetAttribute(cell, a, this.handle), `cuFuncGetAttribute(${name}) of '${record.entryName}'`);
      return cell[0] ?? 0;
    };
    this.attributes = {
      maxThreadsPerBlock: attr(FUNCTION_ATTRIBUTE.MAX_THREADS_PER_BLOCK, "MAX_THREADS_PER_BLOCK"),
      staticSharedBytes: attr(FUNCTION_ATTRIBUTE.SHARED_SIZE_BYTES, "SHARED_SIZE_BYTES"),
      localBytesPerThread: attr(FUNCTION_ATTRIBUTE.LOCAL_SIZE_BYTES, "LOCAL_SIZE_BYTES"),
      registers: attr(FUNCTION_ATTRIBUTE.NUM_REGS, "NUM_REGS"),
      ptxVersion: attr(FUNCTION_ATTRIBUTE.PTX_VERSION, "PTX_VERSION"),
      binaryVersion: attr(FUNCTION_ATTRIBUTE.BINARY_VERSION, "BINARY_VERSION"),
    };
    this.dynamicLimit = cu.cuFuncGetAttribute(cell, FUNCTION_ATTRIBUTE.MAX_DYNAMIC_SHARED_SIZE_BYTES, this.handle) === 0 ? (cell[0] ?? 0) : DEFAULT_DYNAMIC_SHARED_LIMIT;
    this.dynamicShared = options.dynamicSharedMemory ?? true;
    const size = Math.max(8, record.argumentBlockBytes);
    this.block = koffi.alloc("uint8_t", size) as bigint;
    this.params = koffi.alloc("uint8_t", 8) as bigint;
    this.blockBytes = new Uint8Array(koffi.view(this.block, size));
    this.blockBytes.fill(0);
    this.blockView = new DataView(this.blockBytes.buffer, this.blockBytes.byteOffset, this.blockBytes.byteLength);
    new DataView(koffi.view(this.params, 8)).setBigUint64(0, this.block, true);
    this.config = koffi.alloc("uint8_t", LAUNCH_CONFIG_BYTES) as bigint;
    this.configView = new DataView(koffi.view(this.config, LAUNCH_CONFIG_BYTES));
    for (let i = 0; i < LAUNCH_CONFIG_BYTES; i += 8) this.configView.setFloat64(i, 0);
  }

  get entryName(): string {
    return this.record.entryName;
  }

  get isDestroyed(): boolean {
    return this.destroyed;
  }

  /** @internal */
  requireUsable(what: string): void {
    if (this.destroyed || this.module.isDestroyed) throw new LoomError("failed-precondition", `${what}: kernel '${this.record.entryName}' was destroyed`);
    enter(this.ctx, what);
  }

  /** Packs `values` into the kernel's block; launches without `args` use them. */
  setArguments(values: readonly ArgValue[] | Uint8Array): void {
    this.requireUsable("setArguments");
    this.writeBlock(values);
    this.bound = true;
  }

  private writeBlock(args: readonly ArgValue[] | Uint8Array): void {
    const record = this.record;
    if (args instanceof Uint8Array) {
      if (args.byteLength !== record.argumentBlockBytes) {
        throw new LoomError("invalid-argument", `kernel '${record.entryName}': argument block is ${args.byteLength} bytes, the record says ${record.argumentBlockBytes}`);
      }
      const view = new DataView(args.buffer, args.byteOffset, args.byteLength);
      for (const slot of record.arguments) {
        if (slot.type === "buffer") this.checkBuffer(view.getBigUint64(slot.offset, true), view.getBigUint64(slot.offset + 8, true), () => `kernel '${record.entryName}' argument '${slot.name}'`);
      }
      this.blockBytes.set(args);
      return;
    }
    writeArguments(record, args, this.blockView, this.checkBuffer);
  }

  /**
   * Checks the launch against the record and the device, writes the block and enqueues the
   * kernel on the stream. Returns false (enqueues nothing) when a workgroup count is 0.
   * @internal
   */
  enqueue(options: LaunchOptions, defaultStream: bigint): boolean {
    const record = this.record;
    // Messages are built only on failure (no closure either): this runs on every launch.
    if (options === null || typeof options !== "object") throw new LoomError("invalid-argument", `${this.launchLabel()}: options must be an object`);
    this.requireUsable("launch");
    const limits = this.ctx.info.limits;
    const count = options.workgroupCount;
    if (!Array.isArray(count) || count.length !== 3) throw new LoomError("invalid-argument", `${this.launchLabel()}: workgroupCount must be [x, y, z]`);
    const [cx, cy, cz] = count;
    let empty = false;
    for (let d = 0; d < 3; d++) {
      const c = count[d] as number;
      if (!Number.isSafeInteger(c) || c < 0) throw new LoomError("invalid-argument", `${this.launchLabel()}: workgroupCount[${d}] must be a non-negative integer, got ${String(c)}`);
      if (c > (limits.maxGridDim[d] as number)) throw new LoomError("out-of-range", `${this.launchLabel()}: workgroupCount[${d}] = ${c} exceeds the device's grid limit ${limits.maxGridDim[d]}`);
      if (c === 0) empty = true;
    }
    const size = options.workgroupSize ?? (record.workgroupSize === "launch-config" ? undefined : record.workgroupSize);
    if (size === undefined) throw new LoomError("invalid-argument", `${this.launchLabel()}: the record's workgroup size comes from the launch configuration; pass workgroupSize`);
    if (!Array.isArray(size) || size.length !== 3) throw new LoomError("invalid-argument", `${this.launchLabel()}: workgroupSize must be [x, y, z]`);
    const [bx, by, bz] = size;
    const fixed = record.workgroupSize;
    if (fixed !== "launch-config" && (bx !== fixed[0] || by !== fixed[1] || bz !== fixed[2])) {
      throw new LoomError("invalid-argument", `${this.launchLabel()}: workgroupSize [${size.join(", ")}] differs from the kernel's [${fixed.join(", ")}]`);
    }
    for (let d = 0; d < 3; d++) {
      const s = size[d] as number;
      if (!Number.isSafeInteger(s) || s < 1) throw new LoomError("invalid-argument", `${this.launchLabel()}: workgroupSize[${d}] must be a positive integer, got ${String(s)}`);
      if (s > (limits.maxBlockDim[d] as number)) throw new LoomError("out-of-range", `${this.launchLabel()}: workgroupSize[${d}] = ${s} exceeds the device's block limit ${limits.maxBlockDim[d]}`);
    }
    const threads = bx * by * bz;
    const maxThreads = Math.min(limits.maxThreadsPerBlock, this.attributes.maxThreadsPerBlock);
    if (threads > maxThreads) {
      throw new LoomError("out-of-range", `${this.launchLabel()}: ${threads} threads per workgroup exceed ${maxThreads} (device and compiled-function limit, ${this.attributes.registers} registers per thread)`);
    }
    const shared = this.dynamicShared ? (options.workgroupStorageBytes ?? record.workgroupStorageBytes) : 0;
    if (!Number.isSafeInteger(shared) || shared < 0) throw new LoomError("invalid-argument", `${this.launchLabel()}: workgroupStorageBytes must be a non-negative integer, got ${String(shared)}`);
    const sharedMax = Math.max(limits.maxSharedMemoryPerBlockOptin, limits.maxSharedMemoryPerBlock) - this.attributes.staticSharedBytes;
    if (shared > sharedMax) {
      throw new LoomError("out-of-range", `${this.launchLabel()}: ${shared} bytes of workgroup storage exceed the ${sharedMax} bytes of shared memory a block may use next to its ${this.attributes.staticSharedBytes} static bytes`);
    }
    if (options.args !== undefined) this.writeBlock(options.args);
    else if (record.argumentBlockBytes > 0 && !this.bound) throw new LoomError("invalid-argument", `${this.launchLabel()}: no arguments (pass args, or call setArguments first)`);
    if (empty) return false;
    const { cu } = this.ctx.lib;
    if (shared > this.dynamicLimit) {
      check(this.ctx, cu.cuFuncSetAttribute(this.handle, FUNCTION_ATTRIBUTE.MAX_DYNAMIC_SHARED_SIZE_BYTES, shared), `cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES = ${shared}) of '${record.entryName}'`);
      this.dynamicLimit = shared;
    }
    const stream = options.stream?.handle ?? defaultStream;
    const params = record.argumentBlockBytes > 0 ? this.params : 0n;
    const ex = cu.cuLaunchKernelEx;
    let code: number;
    if (ex !== undefined) {
      const c = this.configView;
      c.setUint32(0, cx as number, true);
      c.setUint32(4, cy as number, true);
      c.setUint32(8, cz as number, true);
      c.setUint32(12, bx as number, true);
      c.setUint32(16, by as number, true);
      c.setUint32(20, bz as number, true);
      c.setUint32(24, shared, true);
      c.setBigUint64(32, stream, true);
      code = ex(this.config, this.handle, params, 0n);
    } else code = cu.cuLaunchKernel(this.handle, cx, cy, cz, bx, by, bz, shared, stream, params, 0n);
    if (code !== 0) check(this.ctx, code, `${ex !== undefined ? "cuLaunchKernelEx" : "cuLaunchKernel"}('${record.entryName}', grid [${count.join(", ")}], block [${size.join(", ")}], ${shared} B shared)`);
    return true;
  }

  private launchLabel(): string {
    return `launch of '${this.record.entryName}'`;
  }

  /** Frees the argument memory; the function goes with its module. Idempotent. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.onDestroy(this);
    this.ctx.lib.koffi.free(this.block);
    this.ctx.lib.koffi.free(this.params);
    this.ctx.lib.koffi.free(this.config);
  }
}
