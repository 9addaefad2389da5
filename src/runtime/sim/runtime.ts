/**
 * The `sim` device: an AMDGPU ISA simulator behind the same shape as the other runtimes —
 * allocate / upload / launch / download — so that the harness can run suite kernels on it.
 * It executes the HSACO's machine code (never loom's IR): see docs/runtime-sim.md.
 */
import { describesExecutable, type ExecutableInterface, type KernelInterface } from "../../abi/index.js";
import { LoomError } from "../../core/errors.js";
import { packFromInterface, packFromMetadata, type ArgValue, type BufferArgument } from "./args.js";
import { loadCodeObject, type CodeObject, type SimKernel } from "./code-object.js";
import { DEFAULT_INSTRUCTION_BUDGET, Dispatcher, type DispatchShape, type DispatchStats } from "./dispatch.js";
import { FlatMemory, type MemoryRegion } from "./memory.js";
import { KernelProgram } from "./program.js";

export interface SimRuntimeOptions {
  /** Wave instructions one launch may execute before it fails (default 200 million). */
  readonly instructionBudget?: number;
}

export interface SimLaunchOptions {
  /** Work-items per workgroup; default: the kernel's .reqd_workgroup_size, or the record's static size. */
  readonly workgroupSize?: readonly [number, number, number];
  readonly dynamicLdsBytes?: number;
  readonly instructionBudget?: number;
}

/** A buffer in the simulator's global memory. */
export class SimBuffer implements BufferArgument {
  constructor(
    /** @internal */ readonly region: MemoryRegion,
    readonly runtime: SimRuntime,
  ) {}
  get address(): number {
    return this.region.address;
  }
  get byteLength(): number {
    return this.region.byteLength;
  }
}

/** One kernel of a loaded code object. */
export class SimKernelHandle {
  /** @internal */ readonly program: KernelProgram;
  constructor(
    readonly module: SimModule,
    readonly metadata: SimKernel,
    /** loom's kernel-interface record when the code object came with one. */
    readonly record: KernelInterface | undefined,
  ) {
    this.program = new KernelProgram(module.code, metadata);
  }
  get name(): string {
    return this.metadata.name;
  }
}

/** A loaded code object. */
export class SimModule {
  readonly kernels: readonly SimKernelHandle[];
  constructor(
    readonly code: CodeObject,
    record: ExecutableInterface | undefined,
  ) {
    this.kernels = code.kernels.map((k) => new SimKernelHandle(this, k, record?.kernels.find((r) => r.entryName === k.name)));
  }
  get processor(): string {
    return this.code.processor;
  }
  /** The kernel named `name`; `LoomError("not-found")` listing the kernels the code object has. */
  kernel(name: string): SimKernelHandle {
    const k = this.kernels.find((x) => x.name === name);
    if (!k) throw new LoomError("not-found", `no kernel '${name}' in the code object (it has ${this.kernels.map((x) => x.name).join(", ") || "none"})`);
    return k;
  }
}

export class SimRuntime {
  /** The device name `loom run --device` uses. */
  static readonly device = "sim";
  private readonly memory = new FlatMemory();
  private readonly budget: number;
  /** Totals over every launch: wave instructions and milliseconds in the execution loop. */
  readonly totals = { launches: 0, instructions: 0, milliseconds: 0 };

  constructor(options: SimRuntimeOptions = {}) {
    this.budget = options.instructionBudget ?? DEFAULT_INSTRUCTION_BUDGET;
    if (!Number.isSafeInteger(this.budget) || this.budget < 1) throw new LoomError("invalid-argument", `instructionBudget must be a positive integer, got ${this.budget}`);
  }

  /** Loads an HSACO from memory; `record` (loom's kernel-interface record) must describe these bytes. */
  loadCodeObject(bytes: Uint8Array, record?: ExecutableInterface): SimModule {
    if (record && !describesExecutable(record, bytes)) {
      throw new LoomError("invalid-argument", `the kernel-interface record '${record.identifier}' describes other bytes (length ${record.executable.byteLength}, CRC-32 ${record.executable.crc32}) than this ${bytes.byteLength}-byte code object`);
    }
    return new SimModule(loadCodeObject(bytes), record);
  }

  /**
   * A zero-filled buffer of `byteLength` bytes in simulated device memory (`label` names it in
   * fault messages); `invalid-argument` for a bad size, `resource-exhausted` above the per-buffer
   * limit.
   */
  allocate(byteLength: number, label = "buffer"): SimBuffer {
    return new SimBuffer(this.memory.allocate(byteLength, label), this);
  }

  /** Releases a buffer of this runtime; accesses to its addresses fault afterwards. */
  free(buffer: SimBuffer): void {
    this.own(buffer);
    this.memory.free(buffer.region);
  }

  /** Copies bytes of `data` into the buffer at `byteOffset`. */
  upload(buffer: SimBuffer, data: ArrayBufferView, byteOffset = 0): void {
    this.own(buffer);
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (!Number.isSafeInteger(byteOffset) || byteOffset < 0 || byteOffset + bytes.length > buffer.byteLength) {
      throw new LoomError("out-of-range", `upload of ${bytes.length} bytes at offset ${byteOffset} does not fit the ${buffer.byteLength}-byte buffer '${buffer.region.label}'`);
    }
    buffer.region.bytes.set(bytes, byteOffset);
  }

  /** A copy of the buffer's bytes [byteOffset, byteOffset + byteLength). */
  download(buffer: SimBuffer, byteOffset = 0, byteLength = buffer.byteLength - byteOffset): Uint8Array {
    this.own(buffer);
    if (!Number.isSafeInteger(byteOffset) || !Number.isSafeInteger(byteLength) || byteOffset < 0 || byteLength < 0 || byteOffset + byteLength > buffer.byteLength) {
      throw new LoomError("out-of-range", `download of ${byteLength} bytes at offset ${byteOffset} does not fit the ${buffer.byteLength}-byte buffer '${buffer.region.label}'`);
    }
    return buffer.region.bytes.slice(byteOffset, byteOffset + byteLength);
  }

  /**
   * Runs `kernel` over `workgroups` (a zero count runs nothing). `args` are the kernel's
   * arguments in declaration order (packed from the kernel-interface record when the module
   * has one, else from the metadata), or the explicit kernarg bytes themselves.
   */
  launch(kernel: SimKernelHandle, workgroups: readonly [number, number, number], args: readonly ArgValue[] | Uint8Array, options: SimLaunchOptions = {}): DispatchStats {
    if (!(kernel instanceof SimKernelHandle)) throw new LoomError("invalid-argument", "launch needs a kernel from SimRuntime.loadCodeObject");
    for (const a of Array.isArray(args) ? args : []) if (a instanceof SimBuffer) this.own(a);
    const explicit = args instanceof Uint8Array ? args : kernel.record ? packFromInterface(kernel.record, args) : packFromMetadata(kernel.metadata, args);
    const workgroupSize = options.workgroupSize ?? kernel.metadata.requiredWorkgroupSize ?? (Array.isArray(kernel.record?.workgroupSize) ? (kernel.record.workgroupSize as readonly [number, number, number]) : undefined);
    if (!workgroupSize) throw new LoomError("invalid-argument", `kernel '${kernel.name}' has no fixed workgroup size: pass options.workgroupSize`);
    const shape: DispatchShape = { workgroups, workgroupSize, ...(options.dynamicLdsBytes !== undefined ? { dynamicLdsBytes: options.dynamicLdsBytes } : {}) };
    const stats = new Dispatcher(kernel.module.code, kernel.program, this.memory).run(explicit, shape, options.instructionBudget ?? this.budget);
    this.totals.launches++;
    this.totals.instructions += stats.instructions;
    this.totals.milliseconds += stats.milliseconds;
    return stats;
  }

  private own(buffer: SimBuffer): void {
    if (!(buffer instanceof SimBuffer) || buffer.runtime !== this) throw new LoomError("invalid-argument", "the buffer belongs to another runtime (or is not a SimBuffer)");
  }
}
