/**
 * Packing the explicit argument block of language.md §7 from host values, for every runtime:
 * slots are (type, offset) pairs as the kernel-interface record gives them, sizes and alignment
 * come from ARGUMENT_ENCODINGS (the table the compiler lays out with), so no runtime restates
 * the layout. Errors are ArgumentValueError carrying the LoomError status a runtime reports
 * them with (src/abi imports nothing from the rest of loom, so it cannot throw LoomError itself).
 */
import { ARGUMENT_BLOCK_ALIGN, ARGUMENT_ENCODINGS, BUFFER_ADDRESS_FIELD, BUFFER_LENGTH_FIELD, alignUp, isDeviceArgumentType, type DeviceArgumentType } from "./arguments.js";

/** A bad slot or value; `status` is the LoomError status to report it with. */
export class ArgumentValueError extends Error {
  override readonly name = "ArgumentValueError";
  constructor(
    readonly status: "invalid-argument" | "out-of-range",
    message: string,
  ) {
    super(message);
  }
}

/** A buffer argument's two block fields: its device address (0 under bindings) and the bytes the kernel may use. */
export interface BufferArgumentValue {
  readonly address: bigint | number;
  readonly byteLength: bigint | number;
}

/** One argument value: integers as number or bigint, i1 also as boolean, floats as number. */
export type ArgumentValue = number | bigint | boolean | BufferArgumentValue;

/** Where one argument goes: the record's `arguments[i]` (`name` only for messages). */
export interface ArgumentSlot {
  readonly type: DeviceArgumentType;
  readonly offset: number;
  readonly name?: string;
}

const TWO_63 = 1n << 63n;
const TWO_64 = 1n << 64n;

function describe(value: unknown): string {
  return typeof value === "object" ? (JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : v)) ?? "null") : `${typeof value} ${String(value)}`;
}

function integer(value: unknown, what: string): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value)) {
    if (!Number.isSafeInteger(value)) throw new ArgumentValueError("invalid-argument", `${what}: ${value} is not exactly representable; pass a bigint`);
    return BigInt(value);
  }
  throw new ArgumentValueError("invalid-argument", `${what}: expected an integer (number or bigint), got ${describe(value)}`);
}

/**
 * How a runtime takes buffer arguments: every runtime writes the same two fields (docs/abi.md:
 * the device address — a CUDA device pointer, a Vulkan buffer device address, 0 under bindings —
 * and the byte length), but what it accepts and checks is its own.
 */
export interface BufferEncoding {
  /** What a buffer argument must be, for the message when it is not one. */
  readonly expected: string;
  /**
   * Called with the checked fields before they are written (e.g. to require memory of this
   * runtime); `value` is the argument object itself, so a runtime's buffer can be accepted by identity.
   */
  readonly check?: (address: bigint, byteLength: bigint | number, what: () => string, value: BufferArgumentValue) => void;
}

/** Buffers as plain `{ address, byteLength }` fields (Vulkan, WebGPU). */
const PLAIN_BUFFERS: BufferEncoding = { expected: "{ address, byteLength } for a buffer" };

/** A safe-integer number as 64 bits, without a BigInt: low word mod 2^32, high word by floor division. */
function setInt64(view: DataView, at: number, v: number): void {
  view.setUint32(at, v >>> 0, true);
  view.setUint32(at + 4, Math.floor(v / 4294967296) >>> 0, true);
}

/**
 * Writes `value` as an argument of `type` at byte `offset` of `view`; `what` names it in errors
 * (a function, so a runtime builds the label only on failure). Plain numbers take no BigInt on
 * the common paths: this runs for every argument of every launch.
 */
export function writeArgument(view: DataView, type: DeviceArgumentType, offset: number, value: unknown, what: string | (() => string), buffers: BufferEncoding = PLAIN_BUFFERS): void {
  const name = typeof what === "string" ? () => what : what;
  const inRange = (v: bigint, lo: bigint, hi: bigint, range: string): bigint => {
    if (v < lo || v > hi) throw new ArgumentValueError("out-of-range", `${name()}: ${v} does not fit ${type} (${range})`);
    return v;
  };
  switch (type) {
    case "index":
      if (typeof value === "number" && Number.isSafeInteger(value)) setInt64(view, offset, value);
      else view.setBigInt64(offset, inRange(integer(value, name()), -TWO_63, TWO_63 - 1n, "signed 64-bit"), true);
      return;
    case "offset":
      if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) setInt64(view, offset, value);
      else view.setBigUint64(offset, inRange(integer(value, name()), 0n, TWO_63 - 1n, "0 to 2^63-1"), true);
      return;
    case "i1": {
      const v = typeof value === "boolean" ? (value ? 1n : 0n) : integer(value, name());
      view.setUint32(offset, Number(inRange(v, 0n, 1n, "0 or 1")), true);
      return;
    }
    case "i8":
    case "i16":
    case "i32":
    case "i64": {
      // Signedness belongs to the ops, so both the signed and the unsigned reading are accepted.
      if (type === "i32" && typeof value === "number" && Number.isInteger(value) && value >= -2147483648 && value <= 4294967295) {
        view.setUint32(offset, value >>> 0, true);
        return;
      }
      const bits = BigInt(ARGUMENT_ENCODINGS[type].size * 8);
      const lo = -(1n << (bits - 1n)), hi = (1n << bits) - 1n;
      const pattern = BigInt.asUintN(Number(bits), inRange(integer(value, name()), lo, hi, `${lo} to ${hi}`));
      if (bits === 64n) view.setBigUint64(offset, pattern, true);
      else if (bits === 32n) view.setUint32(offset, Number(pattern), true);
      else if (bits === 16n) view.setUint16(offset, Number(pattern), true);
      else view.setUint8(offset, Number(pattern));
      return;
    }
    case "f16":
    case "bf16":
    case "f32":
    case "f64":
      if (typeof value !== "number") throw new ArgumentValueError("invalid-argument", `${name()}: expected a number for ${type}, got ${describe(value)}`);
      if (type === "f64") view.setFloat64(offset, value, true);
      else if (type === "f32") view.setFloat32(offset, value, true);
      else view.setUint16(offset, type === "f16" ? minifloatBits(value, 5, 10) : minifloatBits(value, 8, 7), true);
      return;
    case "buffer": {
      if (value === null || typeof value !== "object" || !("address" in value) || !("byteLength" in value)) {
        throw new ArgumentValueError("invalid-argument", `${name()}: expected ${buffers.expected}, got ${describe(value)}`);
      }
      const b = value as BufferArgumentValue;
      const address =
        typeof b.address === "bigint" && b.address >= 0n && b.address < TWO_64 ? b.address : inRange(integer(b.address, `${name()}.address`), 0n, TWO_64 - 1n, "unsigned 64-bit address");
      const length =
        typeof b.byteLength === "number" && Number.isSafeInteger(b.byteLength) && b.byteLength >= 0 ? b.byteLength : inRange(integer(b.byteLength, `${name()}.byteLength`), 0n, TWO_63 - 1n, "0 to 2^63-1 bytes");
      buffers.check?.(address, length, name, b);
      view.setBigUint64(offset + BUFFER_ADDRESS_FIELD, address, true);
      if (typeof length === "number") setInt64(view, offset + BUFFER_LENGTH_FIELD, length);
      else view.setBigUint64(offset + BUFFER_LENGTH_FIELD, length, true);
      return;
    }
  }
}

const label = (slot: ArgumentSlot | undefined, i: number): string => (slot?.name ? `argument ${i} ('${slot.name}')` : `argument ${i}`);

/**
 * The block holding `values[i]` in `slots[i]`, zero padding, `blockBytes` long (default: the end
 * of the last slot rounded up to 8). Checks each slot's type, alignment and overlap first.
 */
export function packArgumentBlock(slots: readonly ArgumentSlot[], values: readonly unknown[], blockBytes?: number): Uint8Array {
  if (!Array.isArray(slots) || !Array.isArray(values)) throw new ArgumentValueError("invalid-argument", "packArguments: slots and values must be arrays");
  if (values.length !== slots.length) throw new ArgumentValueError("invalid-argument", `packArguments: the kernel takes ${slots.length} argument(s), got ${values.length}`);
  let end = 0;
  const taken: [number, number, number][] = [];
  slots.forEach((slot: ArgumentSlot | undefined, i) => {
    const enc = slot && isDeviceArgumentType(slot.type) ? ARGUMENT_ENCODINGS[slot.type] : undefined;
    if (!slot || !enc) throw new ArgumentValueError("invalid-argument", `packArguments: ${label(slot, i)} has unknown type ${String(slot?.type)}`);
    if (!Number.isSafeInteger(slot.offset) || slot.offset < 0 || slot.offset % enc.align !== 0) {
      throw new ArgumentValueError("invalid-argument", `packArguments: ${label(slot, i)} offset ${slot.offset} is not a multiple of its alignment ${enc.align}`);
    }
    const clash = taken.find(([a, b]) => slot.offset < b && a < slot.offset + enc.size);
    if (clash) throw new ArgumentValueError("invalid-argument", `packArguments: ${label(slot, i)} overlaps ${label(slots[clash[2]], clash[2])}`);
    taken.push([slot.offset, slot.offset + enc.size, i]);
    end = Math.max(end, slot.offset + enc.size);
  });
  const size = blockBytes ?? alignUp(end, ARGUMENT_BLOCK_ALIGN);
  if (!Number.isSafeInteger(size) || size < end) throw new ArgumentValueError("invalid-argument", `packArguments: the ${size}-byte block does not hold the slots (${end} bytes)`);
  const block = new Uint8Array(size);
  const view = new DataView(block.buffer);
  slots.forEach((slot, i) => writeArgument(view, slot.type, slot.offset, values[i], label(slot, i)));
  return block;
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
  const biased = m >= 1 << manBits ? e + bias : 0;
  if (biased >= expMax) return sign | (expMax << manBits); // overflow → infinity
  return sign | (biased << manBits) | (m & ((1 << manBits) - 1));
}
