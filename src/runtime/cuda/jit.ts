/**
 * The driver's PTX JIT: cuModuleLoadDataEx with info and error log buffers, and cuLinkCreate /
 * cuLinkAddData / cuLinkComplete to get the cubin the JIT made (so callers can cache it and
 * load it later with cuModuleLoadData). Logs come back as text; a failed JIT is a CudaError
 * whose message ends with the error log and whose `jitLog` holds it.
 */
import { LoomError } from "../../core/errors.js";
import { JIT_INPUT_PTX, JIT_OPTION } from "./constants.js";
import { check, enter, type CudaContext } from "./context.js";

/** Options of the driver's PTX JIT compile (log sizes, optimization level, register cap). */
export interface JitOptions {
  /** Bytes of each log buffer (default 64 KiB). */
  readonly logBytes?: number;
  /** CU_JIT_OPTIMIZATION_LEVEL 0–4 (driver default 4). */
  readonly optimizationLevel?: number;
  /** CU_JIT_MAX_REGISTERS. */
  readonly maxRegisters?: number;
  /** CU_JIT_GENERATE_LINE_INFO. */
  readonly lineInfo?: boolean;
  /** CU_JIT_LOG_VERBOSE: the info log lists registers and spills per kernel. */
  readonly verbose?: boolean;
}

/** What the driver's PTX JIT reported: its info log and compile time in milliseconds. */
export interface JitResult {
  /** Informational output (with `verbose`: registers, spills). */
  readonly infoLog: string;
  /** CU_JIT_WALL_TIME: milliseconds the driver spent compiling and linking. */
  readonly wallMs: number;
}

const DEFAULT_LOG_BYTES = 64 * 1024;

/** The option arrays of one JIT call: ids, one 8-byte value slot per id, and where each log lives. */
export interface JitOptionArrays {
  readonly ids: Uint32Array;
  /** Values by slot (little-endian u64 each); the driver writes sizes and the wall time back. */
  readonly values: BigUint64Array;
  readonly slot: { readonly info: number; readonly infoSize: number; readonly error: number; readonly errorSize: number; readonly wall: number };
}

/** Lays out the options (pure: the log buffer addresses are given). */
export function jitOptionArrays(options: JitOptions, infoLog: bigint, errorLog: bigint, logBytes: number): JitOptionArrays {
  const pairs: [number, bigint][] = [
    [JIT_OPTION.WALL_TIME, 0n],
    [JIT_OPTION.INFO_LOG_BUFFER, infoLog],
    [JIT_OPTION.INFO_LOG_BUFFER_SIZE_BYTES, BigInt(logBytes)],
    [JIT_OPTION.ERROR_LOG_BUFFER, errorLog],
    [JIT_OPTION.ERROR_LOG_BUFFER_SIZE_BYTES, BigInt(logBytes)],
  ];
  if (options.optimizationLevel !== undefined) pairs.push([JIT_OPTION.OPTIMIZATION_LEVEL, BigInt(options.optimizationLevel)]);
  if (options.maxRegisters !== undefined) pairs.push([JIT_OPTION.MAX_REGISTERS, BigInt(options.maxRegisters)]);
  if (options.lineInfo) pairs.push([JIT_OPTION.GENERATE_LINE_INFO, 1n]);
  if (options.verbose) pairs.push([JIT_OPTION.LOG_VERBOSE, 1n]);
  return {
    ids: Uint32Array.from(pairs, ([id]) => id),
    values: BigUint64Array.from(pairs, ([, v]) => v),
    slot: { wall: 0, info: 1, infoSize: 2, error: 3, errorSize: 4 },
  };
}

/** The wall time the driver wrote into its slot: a float in the slot's low 4 bytes. */
export function wallTimeOf(values: BigUint64Array, slot: number): number {
  return new DataView(values.buffer, values.byteOffset + 8 * slot, 4).getFloat32(0, true);
}

function checkJitOptions(options: JitOptions): number {
  const logBytes = options.logBytes ?? DEFAULT_LOG_BYTES;
  if (!Number.isSafeInteger(logBytes) || logBytes < 1 || logBytes > 1 << 26) throw new RangeError(`logBytes must be 1..2^26, got ${logBytes}`);
  const level = options.optimizationLevel;
  if (level !== undefined && !(Number.isInteger(level) && level >= 0 && level <= 4)) throw new RangeError(`optimizationLevel must be 0..4, got ${level}`);
  const regs = options.maxRegisters;
  if (regs !== undefined && !(Number.isInteger(regs) && regs > 0 && regs <= 255)) throw new RangeError(`maxRegisters must be 1..255, got ${regs}`);
  return logBytes;
}

/** The image as the driver wants it: PTX text NUL-terminated; cubin and fatbin bytes as they are. */
export function imageBytes(image: Uint8Array | string): { bytes: Uint8Array; kind: "ptx" | "cubin" | "fatbin" } {
  if (typeof image === "string") return { bytes: new TextEncoder().encode(`${image}\0`), kind: "ptx" };
  if (image.byteLength >= 4 && image[0] === 0x7f && image[1] === 0x45 && image[2] === 0x4c && image[3] === 0x46) return { bytes: image, kind: "cubin" };
  if (image.byteLength >= 4 && new DataView(image.buffer, image.byteOffset, 4).getUint32(0, true) === 0xba55ed50) return { bytes: image, kind: "fatbin" };
  if (image.byteLength > 0 && image[image.byteLength - 1] === 0) return { bytes: image, kind: "ptx" };
  const bytes = new Uint8Array(image.byteLength + 1);
  bytes.set(image);
  return { bytes, kind: "ptx" };
}

/**
 * Native log buffers and option arrays, freed by `free()`. The option arrays are native too: the
 * linker keeps pointers to them from cuLinkCreate until cuLinkComplete writes the logs, and
 * small typed arrays live on the JavaScript heap, where the garbage collector may move them.
 */
class JitScratch {
  readonly info: bigint;
  readonly error: bigint;
  readonly arrays: JitOptionArrays;
  /** Native copies of `arrays.ids` / `arrays.values` (the values view is read back after the call). */
  readonly idsPtr: bigint;
  readonly valuesPtr: bigint;
  private readonly values: BigUint64Array;
  constructor(
    private readonly ctx: CudaContext,
    options: JitOptions,
    readonly logBytes: number,
  ) {
    const { koffi } = ctx.lib;
    const alloc = (n: number): bigint => {
      const ptr = koffi.alloc("uint8_t", n) as bigint;
      new Uint8Array(koffi.view(ptr, n)).fill(0);
      return ptr;
    };
    this.info = alloc(logBytes);
    this.error = alloc(logBytes);
    this.arrays = jitOptionArrays(options, this.info, this.error, logBytes);
    const n = this.arrays.ids.length;
    this.idsPtr = alloc(4 * n);
    this.valuesPtr = alloc(8 * n);
    new Uint32Array(koffi.view(this.idsPtr, 4 * n)).set(this.arrays.ids);
    this.values = new BigUint64Array(koffi.view(this.valuesPtr, 8 * n));
    this.values.set(this.arrays.values);
  }
  get count(): number {
    return this.arrays.ids.length;
  }
  private text(ptr: bigint, sizeSlot: number): string {
    const written = Number(this.values[sizeSlot] ?? 0n);
    const bytes = new Uint8Array(this.ctx.lib.koffi.view(ptr, this.logBytes));
    const nul = bytes.indexOf(0);
    const n = Math.min(this.logBytes, nul < 0 ? this.logBytes : nul, written > 0 ? written : this.logBytes);
    return new TextDecoder().decode(bytes.subarray(0, n)).trimEnd();
  }
  infoLog(): string {
    return this.text(this.info, this.arrays.slot.infoSize);
  }
  errorLog(): string {
    return this.text(this.error, this.arrays.slot.errorSize);
  }
  wallMs(): number {
    return wallTimeOf(this.values, this.arrays.slot.wall);
  }
  free(): void {
    for (const ptr of [this.info, this.error, this.idsPtr, this.valuesPtr]) this.ctx.lib.koffi.free(ptr);
  }
}

function scratchFor(ctx: CudaContext, options: JitOptions, what: string): JitScratch {
  let logBytes: number;
  try {
    logBytes = checkJitOptions(options);
  } catch (e) {
    throw new LoomError("invalid-argument", `${what}: ${(e as Error).message}`);
  }
  return new JitScratch(ctx, options, logBytes);
}

/** Loads PTX, a cubin or a fatbin as a module; returns the CUmodule and the JIT's info log. */
export function loadModuleImage(ctx: CudaContext, image: Uint8Array | string, options: JitOptions, what: string): { module: bigint; jit: JitResult; kind: string } {
  enter(ctx, what);
  const { bytes, kind } = imageBytes(image);
  const scratch = scratchFor(ctx, options, what);
  try {
    const out = new BigUint64Array(1);
    const code = ctx.lib.cu.cuModuleLoadDataEx(out, bytes, scratch.count, scratch.idsPtr, scratch.valuesPtr);
    if (code !== 0) {
      const log = scratch.errorLog();
      check(ctx, code, `${what} (cuModuleLoadDataEx of ${kind}, ${bytes.byteLength} bytes)`, log ? `\n${log}` : "", log);
    }
    return { module: out[0] ?? 0n, jit: { infoLog: scratch.infoLog(), wallMs: scratch.wallMs() }, kind };
  } finally {
    scratch.free();
  }
}

/** The result of JIT-linking PTX into a cubin, with the driver's logs. */
export interface CubinResult extends JitResult {
  /** The linked cubin (an ELF image for the context's device). */
  readonly cubin: Uint8Array;
}

/** JIT-compiles PTX for the context's device through the linker and returns a copy of the cubin. */
export function linkPtxToCubin(ctx: CudaContext, ptx: Uint8Array | string, options: JitOptions, name: string, what: string): CubinResult {
  enter(ctx, what);
  const { bytes, kind } = imageBytes(ptx);
  if (kind !== "ptx") throw new LoomError("invalid-argument", `${what}: expected PTX text, got a ${kind} image`);
  const scratch = scratchFor(ctx, options, what);
  const { cu, koffi } = ctx.lib;
  const state = new BigUint64Array(1);
  try {
    check(ctx, cu.cuLinkCreate_v2(scratch.count, scratch.idsPtr, scratch.valuesPtr, state), `${what} (cuLinkCreate)`);
    const fail = (code: number, call: string) => {
      if (code === 0) return;
      const log = scratch.errorLog();
      check(ctx, code, `${what} (${call})`, log ? `\n${log}` : "", log);
    };
    fail(cu.cuLinkAddData_v2(state[0] ?? 0n, JIT_INPUT_PTX, bytes, bytes.byteLength, name, 0, null, null), "cuLinkAddData");
    const cubinPtr = new BigUint64Array(1);
    const size = new BigUint64Array(1);
    fail(cu.cuLinkComplete(state[0] ?? 0n, cubinPtr, size), "cuLinkComplete");
    const n = Number(size[0] ?? 0n);
    // The cubin belongs to the link state: copy it out before cuLinkDestroy frees it.
    const cubin = n === 0 ? new Uint8Array(0) : new Uint8Array(koffi.view(cubinPtr[0] ?? 0n, n)).slice();
    return { cubin, infoLog: scratch.infoLog(), wallMs: scratch.wallMs() };
  } finally {
    if ((state[0] ?? 0n) !== 0n) cu.cuLinkDestroy(state[0] ?? 0n);
    scratch.free();
  }
}
