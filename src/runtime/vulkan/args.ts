/**
 * Packs the explicit argument block of language.md §7 from typed values. Slots are plain data
 * (type + byte offset, as the kernel-interface record gives them); the layout table and the
 * value encoding are src/abi's, the ones the compiler lays out with and WebGPU packs with.
 */
import { ARGUMENT_ENCODINGS, ArgumentValueError, layoutArgumentBlock, minifloatBits, packArgumentBlock, type BufferArgumentValue, type DeviceArgumentType } from "../../abi/index.js";
import { LoomError } from "../../core/errors.js";

/** A kernel argument type the Vulkan runtime can pack (the device argument types of docs/abi.md). */
export type ArgType = DeviceArgumentType;

/** One field of the block. */
export interface ArgSlotDescriptor {
  readonly type: ArgType;
  readonly offset: number;
  /** For messages only. */
  readonly name?: string;
}

/** A buffer argument: where it lives and how many bytes the kernel may use (src/abi's). */
export type BufferArgument = BufferArgumentValue;

/** A Vulkan kernel argument: a scalar (number, bigint or boolean) or a buffer argument. */
export type ArgValue = number | bigint | boolean | BufferArgument;

/** Size in bytes of one argument of `type` in the argument block. */
export function argSize(type: ArgType): number {
  return ARGUMENT_ENCODINGS[type].size;
}

/** Lays out arguments of these types in declaration order (language.md §7). */
export function argumentLayout(types: readonly ArgType[]): { slots: ArgSlotDescriptor[]; size: number } {
  const layout = layoutArgumentBlock(types);
  if ("unsupported" in layout) {
    throw new LoomError("invalid-argument", `argumentLayout: types[${layout.unsupported}] = ${String(types[layout.unsupported])} is not a device-argument type`);
  }
  return { slots: layout.slots.map(({ type, offset }) => ({ type, offset })), size: layout.size };
}

/**
 * Writes `values[i]` into slot i. Throws LoomError: "invalid-argument" for a wrong count, a
 * misplaced slot or a value of the wrong kind; "out-of-range" for a value the type cannot hold.
 * `blockSize` defaults to alignUp(end of the last slot, 8). The encoding is src/abi's
 * (`packArgumentBlock`), shared with the WebGPU runtime and laid out by the compiler's table.
 */
export function packArguments(slots: readonly ArgSlotDescriptor[], values: readonly ArgValue[], blockSize?: number): Uint8Array {
  try {
    return packArgumentBlock(slots, values, blockSize);
  } catch (e) {
    if (e instanceof ArgumentValueError) throw new LoomError(e.status, e.message);
    throw e;
  }
}

/** The IEEE binary16 bit pattern of `x` (round to nearest even), as an integer in 0…0xffff. */
export const float16Bits = (x: number): number => minifloatBits(x, 5, 10);
/** The bfloat16 bit pattern of `x` (round to nearest even), as an integer in 0…0xffff. */
export const bfloat16Bits = (x: number): number => minifloatBits(x, 8, 7);
