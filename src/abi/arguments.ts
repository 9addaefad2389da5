/**
 * The explicit device-argument block of language.md §7, as data. Compiler (passes/abi.ts) and
 * runtimes (runtime/vulkan/args.ts) both read this table, so they cannot disagree on a byte.
 * The block is little-endian, padding is zero, slots follow declaration order at
 * offsetᵢ = alignUp(endᵢ₋₁, alignᵢ), and its size is alignUp(end, 8) (0 when there are no args).
 */

/** The device-argument types v1 passes. */
const DEVICE_ARGUMENT_TYPES = ["index", "offset", "i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "buffer"] as const;
/** A kernel argument type a device runtime can pass: a scalar (`i1`…`f64`, `index`, `offset`) or `buffer`. */
export type DeviceArgumentType = (typeof DEVICE_ARGUMENT_TYPES)[number];

/** How one argument sits in the block. */
export interface ArgumentEncoding {
  readonly size: number;
  readonly align: number;
  /** What the bytes hold. */
  readonly contents: string;
}

export const ARGUMENT_ENCODINGS: Readonly<Record<DeviceArgumentType, ArgumentEncoding>> = Object.freeze({
  index: { size: 8, align: 8, contents: "i64 two's complement" },
  offset: { size: 8, align: 8, contents: "u64 at most 2^63-1" },
  i1: { size: 4, align: 4, contents: "u32 0 or 1" },
  i8: { size: 1, align: 1, contents: "two's complement bits" },
  i16: { size: 2, align: 2, contents: "two's complement bits" },
  i32: { size: 4, align: 4, contents: "two's complement bits" },
  i64: { size: 8, align: 8, contents: "two's complement bits" },
  f16: { size: 2, align: 2, contents: "IEEE binary16 bits" },
  bf16: { size: 2, align: 2, contents: "bfloat16 bits" },
  f32: { size: 4, align: 4, contents: "IEEE binary32 bits" },
  f64: { size: 8, align: 8, contents: "IEEE binary64 bits" },
  buffer: { size: 16, align: 8, contents: "u64 device address (0 = null), then u64 byte length" },
});

/** Byte offsets of a buffer argument's two fields, relative to the slot. */
export const BUFFER_ADDRESS_FIELD = 0;
export const BUFFER_LENGTH_FIELD = 8;

/** The block's size is a multiple of this. */
export const ARGUMENT_BLOCK_ALIGN = 8;

export function alignUp(x: number, align: number): number {
  return Math.ceil(x / align) * align;
}

export function isDeviceArgumentType(name: unknown): name is DeviceArgumentType {
  return typeof name === "string" && Object.hasOwn(ARGUMENT_ENCODINGS, name);
}

/** One laid-out slot. */
export interface LaidOutArgument {
  readonly type: DeviceArgumentType;
  readonly offset: number;
  readonly size: number;
  readonly align: number;
}

/**
 * Lays out arguments of these types in declaration order. Returns the index of the first
 * type that is not a device-argument type instead of a layout.
 */
export function layoutArgumentBlock(types: readonly string[]): { readonly slots: LaidOutArgument[]; readonly size: number } | { readonly unsupported: number } {
  const slots: LaidOutArgument[] = [];
  let end = 0;
  for (const [i, type] of types.entries()) {
    if (!isDeviceArgumentType(type)) return { unsupported: i };
    const { size, align } = ARGUMENT_ENCODINGS[type];
    const offset = alignUp(end, align);
    slots.push({ type, offset, size, align });
    end = offset + size;
  }
  return { slots, size: alignUp(end, ARGUMENT_BLOCK_ALIGN) };
}
