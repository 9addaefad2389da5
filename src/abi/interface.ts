/**
 * The kernel-interface record (docs/abi.md "Kernel-interface record"): what a runtime must know
 * to load and launch each kernel of one executable artifact, as versioned, JSON-serializable
 * plain data. The compiler writes it next to every executable (an `interface` artifact); a
 * runtime reads it instead of parsing the executable, and checks it belongs to those bytes
 * through `executable` (length + CRC-32).
 */
import { ARGUMENT_ENCODINGS, isDeviceArgumentType, type DeviceArgumentType } from "./arguments.js";
import type { BufferAddressing, BufferBinding } from "./conventions.js";

/** Version of the kernel-interface JSON schema written next to every kernel artifact (docs/abi.md). */
export const KERNEL_INTERFACE_VERSION = 1;

/** One field of the explicit argument block. */
export interface InterfaceArgument {
  readonly name: string;
  readonly type: DeviceArgumentType;
  readonly offset: number;
  readonly size: number;
  /**
   * Buffers only: element types the kernel views the buffer as, in first-use order (a view's
   * byte offset must be a multiple of its element size).
   */
  readonly elementTypes?: readonly string[];
}

/** Subgroup facts a kernel depends on (size and operations); a runtime refuses a device that lacks them. */
export interface SubgroupRequirements {
  /** Subgroup width the kernel was compiled for; 0 = any (read at run time). */
  readonly size: number;
  /** The kernel uses subgroup operations and assumes full subgroups. */
  readonly fullSubgroups: boolean;
  /** Subgroup operation classes it uses (the target's names, e.g. "basic", "arithmetic"). */
  readonly operations: readonly string[];
}

/** One kernel (entry point) of the executable. */
export interface KernelInterface {
  /** Symbol in the source module, without '@'. */
  readonly symbol: string;
  /** Entry-point / export name in the executable. */
  readonly entryName: string;
  readonly arguments: readonly InterfaceArgument[];
  /** Size of the explicit argument block (alignUp(end, 8); 0 without arguments). */
  readonly argumentBlockBytes: number;
  readonly bufferAddressing: BufferAddressing;
  readonly bindings: readonly BufferBinding[];
  /** Baked into the executable, or chosen per launch by the launch configuration. */
  readonly workgroupSize: readonly [number, number, number] | "launch-config";
  readonly subgroup: SubgroupRequirements;
  /** Device features the runtime must enable (the target's names, e.g. Vulkan feature names). */
  readonly requiredFeatures: readonly string[];
  /** Static workgroup-local bytes (language.md §6 rule 7). */
  readonly workgroupStorageBytes: number;
}

/** Identifies the bytes a record describes. */
export interface ExecutableFingerprint {
  readonly byteLength: number;
  /** CRC-32 (IEEE) of the bytes. */
  readonly crc32: number;
}

/** The record of one executable artifact. */
export interface ExecutableInterface {
  readonly version: typeof KERNEL_INTERFACE_VERSION;
  /** The executable's artifact format and identifier. */
  readonly format: string;
  readonly identifier: string;
  /** Target environment and device the kernels were specialized for (the profile's `environment` and `target`). */
  readonly environment: string;
  readonly target: string;
  readonly executable: ExecutableFingerprint;
  readonly kernels: readonly KernelInterface[];
}

/** What a target's emit knows about each kernel beyond the prepared module (keyed by entry name). */
export interface TargetKernelInterface {
  readonly entryName: string;
  readonly bufferAddressing: BufferAddressing;
  readonly requiredFeatures: readonly string[];
  readonly subgroupOperations: readonly string[];
  /** "bindings" only: binding numbers of buffers the kernel only reads (declared read-only, docs/abi.md). */
  readonly readOnlyBindings?: readonly number[];
}

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE 802.3, reflected, as zlib). */
export function crc32(bytes: Uint8Array): number {
  const table = (crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  }));
  let c = 0xffffffff;
  for (const b of bytes) c = (table[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function fingerprintOf(bytes: Uint8Array): ExecutableFingerprint {
  return { byteLength: bytes.byteLength, crc32: crc32(bytes) };
}

/** Whether `record` describes exactly `bytes`. */
export function describesExecutable(record: ExecutableInterface, bytes: Uint8Array): boolean {
  return record.executable.byteLength === bytes.byteLength && record.executable.crc32 === crc32(bytes);
}

/** Thrown by `checkExecutableInterface` for a record that is not well-formed. */
export class InterfaceRecordError extends Error {
  override readonly name = "InterfaceRecordError";
}

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === "object" && !Array.isArray(x);
const isStrings = (x: unknown): boolean => Array.isArray(x) && x.every((s) => typeof s === "string");
const isCount = (x: unknown): x is number => typeof x === "number" && Number.isSafeInteger(x) && x >= 0;

/**
 * Checks that `value` is a well-formed record of this version (shape, types, slot sizes that
 * match the ABI table, bindings that name buffer arguments); returns it typed. Throws
 * InterfaceRecordError naming the first problem.
 */
export function checkExecutableInterface(value: unknown): ExecutableInterface {
  const fail = (what: string): never => {
    throw new InterfaceRecordError(`kernel-interface record: ${what}`);
  };
  if (!isObject(value)) return fail("not an object");
  if (value.version !== KERNEL_INTERFACE_VERSION) return fail(`version ${JSON.stringify(value.version)} is not ${KERNEL_INTERFACE_VERSION}`);
  for (const key of ["format", "identifier", "environment", "target"] as const) {
    if (typeof value[key] !== "string") fail(`'${key}' must be a string`);
  }
  const exe = value.executable;
  if (!isObject(exe) || !isCount(exe.byteLength) || !isCount(exe.crc32)) fail("'executable' must be { byteLength, crc32 }");
  if (!Array.isArray(value.kernels)) return fail("'kernels' must be an array");
  for (const [i, k] of (value.kernels as unknown[]).entries()) checkKernel(k, `kernels[${i}]`, fail);
  return value as unknown as ExecutableInterface;
}

function checkKernel(k: unknown, at: string, fail: (what: string) => never): void {
  if (!isObject(k)) fail(`${at} is not an object`);
  const kernel = k as Record<string, unknown>;
  if (typeof kernel.symbol !== "string" || typeof kernel.entryName !== "string" || kernel.entryName.length === 0) fail(`${at} needs 'symbol' and a non-empty 'entryName'`);
  if (!isCount(kernel.argumentBlockBytes)) fail(`${at}.argumentBlockBytes must be a non-negative integer`);
  if (!Array.isArray(kernel.arguments)) fail(`${at}.arguments must be an array`);
  const args = kernel.arguments as unknown[];
  const taken: [number, number][] = [];
  for (const [j, a] of args.entries()) {
    if (!isObject(a) || typeof a.name !== "string" || !isDeviceArgumentType(a.type) || !isCount(a.offset)) fail(`${at}.arguments[${j}] must be { name, type, offset, size }`);
    const arg = a as Record<string, unknown> & { type: DeviceArgumentType; offset: number };
    const { size, align } = ARGUMENT_ENCODINGS[arg.type];
    if (arg.size !== size || arg.offset % align !== 0 || arg.offset + size > (kernel.argumentBlockBytes as number)) {
      fail(`${at}.arguments[${j}] (${arg.type} at ${arg.offset}) is not a ${size}-byte, ${align}-aligned field inside the ${String(kernel.argumentBlockBytes)}-byte block`);
    }
    if (taken.some(([lo, hi]) => arg.offset < hi && lo < arg.offset + size)) fail(`${at}.arguments[${j}] overlaps another argument`);
    taken.push([arg.offset, arg.offset + size]);
    if (arg.elementTypes !== undefined && !isStrings(arg.elementTypes)) fail(`${at}.arguments[${j}].elementTypes must be an array of strings`);
  }
  if (!["bindings", "device-address", "kernarg"].includes(kernel.bufferAddressing as string)) fail(`${at}.bufferAddressing is unknown: ${JSON.stringify(kernel.bufferAddressing)}`);
  if (!Array.isArray(kernel.bindings)) fail(`${at}.bindings must be an array`);
  for (const [j, b] of (kernel.bindings as unknown[]).entries()) {
    const arg = isObject(b) && isCount(b.argument) ? (args[b.argument] as Record<string, unknown> | undefined) : undefined;
    if (!isObject(b) || !isCount(b.set) || !isCount(b.binding) || arg?.type !== "buffer") fail(`${at}.bindings[${j}] must be { set, binding, argument } naming a buffer argument`);
  }
  const wg = kernel.workgroupSize;
  if (wg !== "launch-config" && !(Array.isArray(wg) && wg.length === 3 && wg.every((d) => isCount(d) && d > 0))) fail(`${at}.workgroupSize must be three positive integers or "launch-config"`);
  const sg = kernel.subgroup;
  if (!isObject(sg) || !isCount(sg.size) || typeof sg.fullSubgroups !== "boolean" || !isStrings(sg.operations)) fail(`${at}.subgroup must be { size, fullSubgroups, operations }`);
  if (!isStrings(kernel.requiredFeatures)) fail(`${at}.requiredFeatures must be an array of strings`);
  if (!isCount(kernel.workgroupStorageBytes)) fail(`${at}.workgroupStorageBytes must be a non-negative integer`);
}

/** Reads an `interface` artifact's contents (UTF-8 JSON) into a checked record. */
export function parseExecutableInterface(contents: Uint8Array | string): ExecutableInterface {
  const text = typeof contents === "string" ? contents : new TextDecoder().decode(contents);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new InterfaceRecordError(`kernel-interface record: not JSON (${(e as Error).message})`);
  }
  return checkExecutableInterface(value);
}

/** The record's JSON bytes, as the `interface` artifact holds them. */
export function encodeExecutableInterface(record: ExecutableInterface): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(record)}\n`);
}
