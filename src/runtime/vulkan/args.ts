/**
 * Packs the explicit argument block of language.md §7 from typed values. Slots are plain data
 * (type + byte offset, as the kernel-interface record gives them); sizes, alignment and the
 * block size come from the shared ABI table (src/abi), the same one the compiler lays out with.
 */
import { ARGUMENT_ENCODINGS, ARGUMENT_BLOCK_ALIGN, BUFFER_ADDRESS_FIELD, BUFFER_LENGTH_FIELD, alignUp, isDeviceArgumentType, layoutArgumentBlock, type DeviceArgumentType } from "../../abi/index.js";
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

/** A buffer argument: where it lives and how many bytes the kernel may use. */
export interface BufferArgument {
  readonly address: bigint | number;
  readonly byteLength: bigint | number;
}

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
 * `blockSize` defaults to alignUp(end of the last slot, 8).
 */
export function packArguments(slots: readonly ArgSlotDescriptor[], values: readonly ArgValue[], blockSize?: number): Uint8Array {
  if (!isArray(slots) || !isArray(values)) throw new LoomError("invalid-argument", "packArguments: slots and values must be arrays");
  if (values.length !== slots.length) throw new LoomError("invalid-argument", `packArguments: ${slots.length} slots but ${values.length} values`);
  let end = 0;
  const taken: [number, number, number][] = [];
  slots.forEach((slot, i) => {
    const enc = slot && isDeviceArgumentType(slot.type) ? ARGUMENT_ENCODINGS[slot.type] : undefined;
    if (!enc) throw new LoomError("invalid-argument", `packArguments: ${label(slot, i)} has unknown type ${String(slot?.type)}`);
    if (!Number.isSafeInteger(slot.offset) || slot.offset < 0 || slot.offset % enc.align !== 0) {
      throw new LoomError("invalid-argument", `packArguments: ${label(slot, i)} offset ${slot.offset} is not a multiple of its alignment ${enc.align}`);
    }
    const clash = taken.find(([a, b]) => slot.offset < b && a < slot.offset + enc.size);
    if (clash) throw new LoomError("invalid-argument", `packArguments: ${label(slot, i)} overlaps ${label(slots[clash[2]], clash[2])}`);
    taken.push([slot.offset, slot.offset + enc.size, i]);
    end = Math.max(end, slot.offset + enc.size);
  });
  const size = blockSize ?? alignUp(end, ARGUMENT_BLOCK_ALIGN);
  if (!Number.isSafeInteger(size) || size < end) {
    throw new LoomError("invalid-argument", `packArguments: block size ${size} does not hold the slots (${end} bytes)`);
  }
  const block = new Uint8Array(size);
  const view = new DataView(block.buffer);
  slots.forEach((slot, i) => writeValue(view, slot, values[i], label(slot, i)));
  return block;
}

/** Array.isArray without narrowing a readonly array to any[]. */
const isArray = (x: unknown): boolean => Array.isArray(x);

function label(slot: ArgSlotDescriptor | undefined, i: number): string {
  return slot?.name ? `argument ${i} ('${slot.name}')` : `argument ${i}`;
}

const TWO_63 = 1n << 63n;
const TWO_64 = 1n << 64n;

/** An integer value as a BigInt, or a LoomError naming the argument. */
function integer(value: unknown, what: string): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value)) {
    if (!Number.isSafeInteger(value)) throw new LoomError("invalid-argument", `${what}: ${value} is not exactly representable; pass a bigint`);
    return BigInt(value);
  }
  throw new LoomError("invalid-argument", `${what}: expected an integer (number or bigint), got ${describe(value)}`);
}

function describe(value: unknown): string {
  return typeof value === "object" ? JSON.stringify(value, (_, v) => (typeof v === "bigint" ? `${v}n` : v)) ?? "null" : `${typeof value} ${String(value)}`;
}

function writeValue(view: DataView, slot: ArgSlotDescriptor, value: unknown, what: string): void {
  const at = slot.offset;
  const inRange = (v: bigint, lo: bigint, hi: bigint, range: string) => {
    if (v < lo || v > hi) throw new LoomError("out-of-range", `${what}: ${v} does not fit ${slot.type} (${range})`);
    return v;
  };
  switch (slot.type) {
    case "index":
      view.setBigInt64(at, inRange(integer(value, what), -TWO_63, TWO_63 - 1n, "signed 64-bit"), true);
      return;
    case "offset":
      view.setBigUint64(at, inRange(integer(value, what), 0n, TWO_63 - 1n, "0 to 2^63-1"), true);
      return;
    case "i1": {
      const v = typeof value === "boolean" ? (value ? 1n : 0n) : integer(value, what);
      view.setUint32(at, Number(inRange(v, 0n, 1n, "0 or 1")), true);
      return;
    }
    case "i8":
    case "i16":
    case "i32":
    case "i64": {
      // Signedness belongs to the ops, so both the signed and the unsigned reading are accepted.
      const bits = BigInt(Number(slot.type.slice(1)));
      const v = inRange(integer(value, what), -(1n << (bits - 1n)), (1n << bits) - 1n, `${-(1n << (bits - 1n))} to ${(1n << bits) - 1n}`);
      const pattern = BigInt.asUintN(Number(bits), v);
      if (bits === 64n) view.setBigUint64(at, pattern, true);
      else if (bits === 32n) view.setUint32(at, Number(pattern), true);
      else if (bits === 16n) view.setUint16(at, Number(pattern), true);
      else view.setUint8(at, Number(pattern));
      return;
    }
    case "f16":
    case "bf16":
    case "f32":
    case "f64": {
      if (typeof value !== "number") throw new LoomError("invalid-argument", `${what}: expected a number for ${slot.type}, got ${describe(value)}`);
      if (slot.type === "f64") view.setFloat64(at, value, true);
      else if (slot.type === "f32") view.setFloat32(at, value, true);
      else view.setUint16(at, slot.type === "f16" ? float16Bits(value) : bfloat16Bits(value), true);
      return;
    }
    case "buffer": {
      if (value === null || typeof value !== "object" || !("address" in value) || !("byteLength" in value)) {
        throw new LoomError("invalid-argument", `${what}: expected { address, byteLength } for a buffer, got ${describe(value)}`);
      }
      const b = value as BufferArgument;
      view.setBigUint64(at + BUFFER_ADDRESS_FIELD, inRange(integer(b.address, `${what}.address`), 0n, TWO_64 - 1n, "unsigned 64-bit address"), true);
      view.setBigUint64(at + BUFFER_LENGTH_FIELD, inRange(integer(b.byteLength, `${what}.byteLength`), 0n, TWO_63 - 1n, "0 to 2^63-1 bytes"), true);
      return;
    }
  }
}

/** Rounds half to even (v is exact: only scaled by powers of two). */
function roundHalfEven(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  return d > 0.5 ? f + 1 : d < 0.5 ? f : f % 2 === 0 ? f : f + 1;
}

/**
 * Bits of `x` rounded (nearest even, straight from the double, no double rounding) to a binary
 * float with `expBits` exponent and `manBits` mantissa bits; NaN becomes the quiet NaN.
 */
export function minifloatBits(x: number, expBits: number, manBits: number): number {
  const bias = (1 << (expBits - 1)) - 1;
  const expMax = (1 << expBits) - 1;
  const sign = x < 0 || Object.is(x, -0) ? 1 << (expBits + manBits) : 0;
  if (Number.isNaN(x)) return (expMax << manBits) | (1 << (manBits - 1));
  const a = Math.abs(x);
  if (a === Infinity) return sign | (expMax << manBits);
  const minNormalExp = 1 - bias;
  let e = a === 0 ? minNormalExp : Math.max(Math.floor(Math.log2(a)), minNormalExp);
  if (a !== 0 && e > minNormalExp && 2 ** e > a) e--; // log2 may round up near powers of two
  if (a !== 0 && 2 ** (e + 1) <= a) e++;
  // Mantissa as an integer in units of 2^(e - manBits); for subnormals e = minNormalExp.
  let m = roundHalfEven(a * 2 ** (manBits - e));
  if (m >= 2 << manBits) {
    m /= 2;
    e++;
  }
  const normal = m >= 1 << manBits;
  const biased = normal ? e + bias : 0;
  if (biased >= expMax) return sign | (expMax << manBits); // overflow → infinity
  return sign | (biased << manBits) | (m & ((1 << manBits) - 1));
}

/** The IEEE binary16 bit pattern of `x` (round to nearest even), as an integer in 0…0xffff. */
export const float16Bits = (x: number): number => minifloatBits(x, 5, 10);
/** The bfloat16 bit pattern of `x` (round to nearest even), as an integer in 0…0xffff. */
export const bfloat16Bits = (x: number): number => minifloatBits(x, 8, 7);
