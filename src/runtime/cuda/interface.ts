/**
 * The part of the kernel-interface record (docs/abi.md; `KernelInterface` of src/abi) that the
 * CUDA runtime reads. It is a structural subset, so a record from the compiler passes as is;
 * `kernelInterface()` builds one by hand for PTX written outside loom. The argument table
 * (sizes, alignment, block rounding) is src/abi's, the one the compiler lays the block out with.
 */
import { ARGUMENT_BLOCK_ALIGN, ARGUMENT_ENCODINGS, alignUp, type DeviceArgumentType } from "../../abi/index.js";
import { LoomError } from "../../core/errors.js";

/** A kernel argument type as the CUDA runtime packs it into the parameter block. */
export type CudaArgumentType = DeviceArgumentType;

/** Size and alignment of each argument type in the explicit argument block (language.md §7): src/abi's table, the compiler's. */
export const ARGUMENT_SIZE_ALIGN: Readonly<Record<CudaArgumentType, readonly [size: number, align: number]>> = Object.freeze(
  Object.fromEntries(Object.entries(ARGUMENT_ENCODINGS).map(([type, { size, align }]) => [type, [size, align] as const])) as Record<CudaArgumentType, readonly [number, number]>,
);

export const isArgumentType = (t: unknown): t is CudaArgumentType => typeof t === "string" && Object.hasOwn(ARGUMENT_SIZE_ALIGN, t);

/** One slot of the block: a buffer is a u64 device address at `offset`, its u64 byte length at `offset + 8`. */
export interface CudaInterfaceArgument {
  readonly name: string;
  readonly type: CudaArgumentType;
  readonly offset: number;
  readonly size: number;
}

/** The kernel interface of a PTX kernel: entry name, argument layout and launch facts (docs/abi.md). */
export interface CudaKernelInterface {
  /** The `.entry` name in the PTX / cubin. */
  readonly entryName: string;
  readonly arguments: readonly CudaInterfaceArgument[];
  /** The block's size: alignUp(end, 8), 0 without arguments (then the entry takes no parameter). */
  readonly argumentBlockBytes: number;
  /** Baked into the kernel, or chosen per launch by the launch configuration. */
  readonly workgroupSize: readonly [number, number, number] | "launch-config";
  /** Workgroup-local bytes, passed as dynamic shared memory (docs/abi.md, PTX row). */
  readonly workgroupStorageBytes: number;
  /** How buffers reach the kernel; on PTX their addresses are in the block ("bindings" cannot be launched). */
  readonly bufferAddressing?: string;
}

/**
 * A record for an entry taking these arguments in declaration order, laid out by §7 (for PTX
 * written by hand; the compiler's records come with the artifact).
 */
export function kernelInterface(
  entryName: string,
  args: readonly (readonly [name: string, type: CudaArgumentType])[],
  options: { readonly workgroupSize?: readonly [number, number, number] | "launch-config"; readonly workgroupStorageBytes?: number } = {},
): CudaKernelInterface {
  let end = 0;
  const slots = args.map(([name, type], i) => {
    if (!isArgumentType(type)) throw new LoomError("invalid-argument", `kernelInterface: argument ${i} ('${name}') has unknown type ${String(type)}`);
    const [size, align] = ARGUMENT_SIZE_ALIGN[type];
    const offset = alignUp(end, align);
    end = offset + size;
    return { name, type, offset, size };
  });
  return checkKernelInterface({
    entryName,
    arguments: slots,
    argumentBlockBytes: alignUp(end, ARGUMENT_BLOCK_ALIGN),
    workgroupSize: options.workgroupSize ?? "launch-config",
    workgroupStorageBytes: options.workgroupStorageBytes ?? 0,
    bufferAddressing: "device-address",
  });
}

/**
 * Checks the fields this runtime relies on: every slot a §7 type of the table's size at an
 * aligned offset inside the block, no overlap, a block size that is a multiple of 8 and
 * covers the slots, a workgroup size of three positive integers or "launch-config", and an
 * addressing that puts buffer addresses in the block. Throws LoomError("invalid-argument").
 */
export function checkKernelInterface(record: CudaKernelInterface): CudaKernelInterface {
  const fail = (what: string): never => {
    throw new LoomError("invalid-argument", `kernel interface${typeof record?.entryName === "string" ? ` '${record.entryName}'` : ""}: ${what}`);
  };
  if (record === null || typeof record !== "object") return fail("must be an object");
  if (typeof record.entryName !== "string" || record.entryName.length === 0) fail("entryName must be a non-empty string");
  if (/\0/.test(record.entryName)) fail("entryName contains NUL");
  const block = record.argumentBlockBytes;
  if (!Number.isSafeInteger(block) || block < 0 || block % 8 !== 0) fail(`argumentBlockBytes must be a non-negative multiple of 8, got ${String(block)}`);
  if (!Array.isArray(record.arguments)) fail("arguments must be an array");
  const taken: [number, number, string][] = [];
  for (const [i, a] of record.arguments.entries()) {
    if (a === null || typeof a !== "object" || !isArgumentType(a.type)) fail(`arguments[${i}] has unknown type ${String(a?.type)}`);
    const [size, align] = ARGUMENT_SIZE_ALIGN[a.type];
    const name = String(a.name);
    if (a.size !== size) fail(`arguments[${i}] ('${name}', ${a.type}) has size ${String(a.size)}, the ABI says ${size}`);
    if (!Number.isSafeInteger(a.offset) || a.offset < 0 || a.offset % align !== 0) fail(`arguments[${i}] ('${name}') offset ${String(a.offset)} is not a multiple of ${align}`);
    if (a.offset + size > block) fail(`arguments[${i}] ('${name}') ends at ${a.offset + size}, past the ${block}-byte block`);
    const clash = taken.find(([lo, hi]) => a.offset < hi && lo < a.offset + size);
    if (clash) fail(`arguments[${i}] ('${name}') overlaps '${clash[2]}'`);
    taken.push([a.offset, a.offset + size, name]);
  }
  if (block > 0 && record.arguments.length === 0) fail(`a ${block}-byte block without arguments`);
  const wg = record.workgroupSize;
  if (wg !== "launch-config" && !(Array.isArray(wg) && wg.length === 3 && wg.every((d) => Number.isSafeInteger(d) && d > 0))) {
    fail(`workgroupSize must be three positive integers or "launch-config", got ${JSON.stringify(wg)}`);
  }
  const storage = record.workgroupStorageBytes;
  if (!Number.isSafeInteger(storage) || storage < 0) fail(`workgroupStorageBytes must be a non-negative integer, got ${String(storage)}`);
  if (record.bufferAddressing !== undefined && record.bufferAddressing !== "device-address" && record.bufferAddressing !== "kernarg") {
    fail(`bufferAddressing '${String(record.bufferAddressing)}' does not put buffer addresses in the block; a PTX kernel needs "device-address"`);
  }
  return record;
}
