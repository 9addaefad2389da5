/**
 * Packs the explicit argument block of language.md §7 from the values of a kernel's arguments,
 * at the offsets its kernel-interface record gives. Sizes and alignment come from the ABI table
 * in src/abi (the compiler lays out with the same table). Under the WebGPU ABI a buffer's field
 * holds address 0 and the buffer's byte length (docs/abi.md, WGSL).
 */
import { ARGUMENT_ENCODINGS, BUFFER_ADDRESS_FIELD, BUFFER_LENGTH_FIELD, type InterfaceArgument } from "../../abi/index.js";
import { LoomError } from "../../core/errors.js";

/** A buffer argument's block field: where it lives (0 under bindings) and how many bytes the kernel may use. */
export interface BufferArgument {
  readonly address: bigint | number;
  readonly byteLength: bigint | number;
}

/** One argument value: integers as number or bigint, i1 also as boolean, floats as number. */
export type ArgValue = number | bigint | boolean | BufferArgument;

const TWO_63 = 1n << 63n;

function integer(value: unknown, what: string): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === "number" && Number.isInteger(value)) throw new LoomError("invalid-argument", `${what}: ${value} is not exactly representable; pass a bigint`);
  throw new LoomError("invalid-argument", `${what}: expected an integer (number or bigint), got ${typeof value} ${String(value)}`);
}

function checked(v: bigint, lo: bigint, hi: bigint, what: string, type: string): bigint {
  if (v < lo || v > hi) throw new LoomError("out-of-range", `${what}: ${v} does not fit ${type} (${lo} to ${hi})`);
  return v;
}

/**
 * The block (`blockBytes` long, zero padding) holding `values[i]` in `slots[i]`. Throws LoomError:
 * "invalid-argument" for a wrong count or kind of value, "out-of-range" for a value the type cannot hold.
 */
export function packArguments(slots: readonly InterfaceArgument[], values: readonly ArgValue[], blockBytes: number): Uint8Array {
  if (!Array.isArray(values)) throw new LoomError("invalid-argument", "packArguments: values must be an array");
  if (values.length !== slots.length) throw new LoomError("invalid-argument", `packArguments: the kernel takes ${slots.length} argument(s), got ${values.length}`);
  const block = new Uint8Array(blockBytes);
  const view = new DataView(block.buffer);
  slots.forEach((slot, i) => {
    const what = `argument ${i} ('${slot.name}')`;
    const at = slot.offset;
    if (at + ARGUMENT_ENCODINGS[slot.type].size > blockBytes) throw new LoomError("invalid-argument", `${what} lies outside the ${blockBytes}-byte block`);
    const value = values[i];
    switch (slot.type) {
      case "index":
        view.setBigInt64(at, checked(integer(value, what), -TWO_63, TWO_63 - 1n, what, "index"), true);
        return;
      case "offset":
        view.setBigUint64(at, checked(integer(value, what), 0n, TWO_63 - 1n, what, "offset"), true);
        return;
      case "i1":
        view.setUint32(at, Number(checked(typeof value === "boolean" ? (value ? 1n : 0n) : integer(value, what), 0n, 1n, what, "i1")), true);
        return;
      case "i8":
      case "i16":
      case "i32":
      case "i64": {
        // Signedness belongs to the ops: the signed and the unsigned range are both accepted.
        const bits = Number(slot.type.slice(1));
        const v = BigInt.asUintN(bits, checked(integer(value, what), -(1n << BigInt(bits - 1)), (1n << BigInt(bits)) - 1n, what, slot.type));
        if (bits === 64) view.setBigUint64(at, v, true);
        else if (bits === 32) view.setUint32(at, Number(v), true);
        else if (bits === 16) view.setUint16(at, Number(v), true);
        else view.setUint8(at, Number(v));
        return;
      }
      case "f16":
      case "bf16":
      case "f32":
      case "f64":
        if (typeof value !== "number") throw new LoomError("invalid-argument", `${what}: expected a number for ${slot.type}, got ${typeof value}`);
        if (slot.type === "f64") view.setFloat64(at, value, true);
        else if (slot.type === "f32") view.setFloat32(at, value, true);
        else view.setUint16(at, slot.type === "f16" ? minifloatBits(value, 5, 10) : minifloatBits(value, 8, 7), true);
        return;
      case "buffer": {
        const b = value as Partial<BufferArgument> | null;
        if (b === null || typeof b !== "object" || b.address === undefined || b.byteLength === undefined) {
          throw new LoomError("invalid-argument", `${what}: expected { address, byteLength } for a buffer (kernel.bufferArgument(buffer))`);
        }
        view.setBigUint64(at + BUFFER_ADDRESS_FIELD, checked(integer(b.address, `${what}.address`), 0n, (1n << 64n) - 1n, what, "address"), true);
        view.setBigUint64(at + BUFFER_LENGTH_FIELD, checked(integer(b.byteLength, `${what}.byteLength`), 0n, TWO_63 - 1n, what, "byte length"), true);
        return;
      }
    }
  });
  return block;
}

/** Bits of `x` rounded to nearest even, straight from the double, to a binary float of the given widths. */
export function minifloatBits(x: number, expBits: number, manBits: number): number {
  const bias = (1 << (expBits - 1)) - 1;
  const expMax = (1 << expBits) - 1;
  const sign = x < 0 || Object.is(x, -0) ? 1 << (expBits + manBits) : 0;
  if (Number.isNaN(x)) return (expMax << manBits) | (1 << (manBits - 1));
  const a = Math.abs(x);
  if (a === Infinity) return sign | (expMax << manBits);
  let e = Math.max(a === 0 ? 1 - bias : Math.floor(Math.log2(a)), 1 - bias);
  if (a !== 0 && 2 ** e > a) e--; // log2 may round up just below a power of two
  if (a !== 0 && 2 ** (e + 1) <= a) e++;
  e = Math.max(e, 1 - bias);
  const scaled = a * 2 ** (manBits - e); // exact: a power-of-two scale
  const floor = Math.floor(scaled);
  const rest = scaled - floor;
  let m = rest > 0.5 || (rest === 0.5 && floor % 2 === 1) ? floor + 1 : floor;
  if (m >= 2 << manBits) {
    m /= 2;
    e++;
  }
  const biased = m >= 1 << manBits ? e + bias : 0;
  if (biased >= expMax) return sign | (expMax << manBits);
  return sign | (biased << manBits) | (m & ((1 << manBits) - 1));
}
