/**
 * Packs the explicit argument block (language.md §7) for a kernel-interface record: value i
 * goes to `record.arguments[i]` at its offset, little-endian, padding zero. On PTX the block is
 * the kernel's one `.param .align 8 .b8 args[S]` parameter (docs/abi.md), so these bytes are
 * what cuLaunchKernel copies.
 */
import { LoomError } from "../../core/errors.js";
import { minifloatBits } from "../../abi/index.js";
import type { CudaInterfaceArgument, CudaKernelInterface } from "./interface.js";

/** A buffer argument: a device address and how many bytes the kernel may use. A CudaBuffer is one. */
export interface BufferArgument {
  readonly address: bigint | number;
  readonly byteLength: bigint | number;
}

/** A CUDA kernel argument: a scalar (number, bigint or boolean) or a {@link CudaBuffer}-like buffer argument. */
export type ArgValue = number | bigint | boolean | BufferArgument;

/**
 * Called for each buffer value before it is written (the runtime checks it names its memory);
 * `what` builds the argument's label for a message; `value` is the argument object itself
 * (absent for a packed block), so a buffer object of the runtime can be accepted by identity.
 */
export type BufferCheck = (address: bigint, byteLength: bigint | number, what: () => string, value?: BufferArgument) => void;

const TWO_63 = 1n << 63n;
const TWO_64 = 1n << 64n;

/** Writes `values` into `view` (which must hold the whole block); zeroes the rest first. */
export function writeArguments(record: CudaKernelInterface, values: readonly ArgValue[], view: DataView, checkBuffer?: BufferCheck): void {
  if (!Array.isArray(values)) throw new LoomError("invalid-argument", `kernel '${record.entryName}': arguments must be an array`);
  const slots = record.arguments;
  if (values.length !== slots.length) {
    throw new LoomError("invalid-argument", `kernel '${record.entryName}' takes ${slots.length} arguments (${slots.map((s) => s.name).join(", ")}), got ${values.length}`);
  }
  for (let i = 0; i < record.argumentBlockBytes; i += 8) view.setFloat64(i, 0);
  // Indexed loop, messages built only on failure: this runs on every launch.
  for (let i = 0; i < slots.length; i++) writeValue(view, slots[i] as CudaInterfaceArgument, values[i], record, i, checkBuffer);
}

/** The block as a fresh Uint8Array of `record.argumentBlockBytes` bytes. */
export function packArguments(record: CudaKernelInterface, values: readonly ArgValue[], checkBuffer?: BufferCheck): Uint8Array {
  const block = new Uint8Array(record.argumentBlockBytes);
  writeArguments(record, values, new DataView(block.buffer), checkBuffer);
  return block;
}

const label = (record: CudaKernelInterface, i: number): string => `kernel '${record.entryName}' argument ${i} ('${record.arguments[i]?.name ?? "?"}')`;

function describe(value: unknown): string {
  return typeof value === "object" ? (JSON.stringify(value, (_, v) => (typeof v === "bigint" ? `${v}n` : v)) ?? "null") : `${typeof value} ${String(value)}`;
}

/** An integer value as a BigInt, or a LoomError naming the argument. */
function integer(value: unknown, what: () => string): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value)) {
    if (!Number.isSafeInteger(value)) throw new LoomError("invalid-argument", `${what()}: ${value} is not exactly representable; pass a bigint`);
    return BigInt(value);
  }
  throw new LoomError("invalid-argument", `${what()}: expected an integer (number or bigint), got ${describe(value)}`);
}

function inRange(v: bigint, lo: bigint, hi: bigint, what: () => string, type: string): bigint {
  if (v < lo || v > hi) throw new LoomError("out-of-range", `${what()}: ${v} does not fit ${type} (${lo} to ${hi})`);
  return v;
}

/** A safe-integer number as 64 bits, without a BigInt: low word mod 2^32, high word by floor division. */
function setInt64(view: DataView, at: number, v: number): void {
  view.setUint32(at, v >>> 0, true);
  view.setUint32(at + 4, Math.floor(v / 4294967296) >>> 0, true);
}

function writeValue(view: DataView, slot: CudaInterfaceArgument, value: unknown, record: CudaKernelInterface, i: number, checkBuffer: BufferCheck | undefined): void {
  const at = slot.offset;
  const what = () => label(record, i);
  switch (slot.type) {
    case "index":
      if (typeof value === "number" && Number.isSafeInteger(value)) setInt64(view, at, value);
      else view.setBigInt64(at, inRange(integer(value, what), -TWO_63, TWO_63 - 1n, what, "index"), true);
      return;
    case "offset":
      if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) setInt64(view, at, value);
      else view.setBigUint64(at, inRange(integer(value, what), 0n, TWO_63 - 1n, what, "offset"), true);
      return;
    case "i1":
      view.setUint32(at, Number(inRange(typeof value === "boolean" ? (value ? 1n : 0n) : integer(value, what), 0n, 1n, what, "i1")), true);
      return;
    case "i8":
    case "i16":
    case "i32":
    case "i64": {
      // Signedness belongs to the ops: both the signed and the unsigned reading are accepted.
      if (slot.type === "i32" && typeof value === "number" && Number.isInteger(value) && value >= -2147483648 && value <= 4294967295) {
        view.setUint32(at, value >>> 0, true);
        return;
      }
      const bits = Number(slot.type.slice(1));
      const v = inRange(integer(value, what), -(1n << BigInt(bits - 1)), (1n << BigInt(bits)) - 1n, what, slot.type);
      const pattern = BigInt.asUintN(bits, v);
      if (bits === 64) view.setBigUint64(at, pattern, true);
      else if (bits === 32) view.setUint32(at, Number(pattern), true);
      else if (bits === 16) view.setUint16(at, Number(pattern), true);
      else view.setUint8(at, Number(pattern));
      return;
    }
    case "f16":
    case "bf16":
    case "f32":
    case "f64":
      if (typeof value !== "number") throw new LoomError("invalid-argument", `${what()}: expected a number for ${slot.type}, got ${describe(value)}`);
      if (slot.type === "f32") view.setFloat32(at, value, true);
      else if (slot.type === "f64") view.setFloat64(at, value, true);
      else view.setUint16(at, slot.type === "f16" ? minifloatBits(value, 5, 10) : minifloatBits(value, 8, 7), true);
      return;
    case "buffer": {
      if (value === null || typeof value !== "object" || !("address" in value) || !("byteLength" in value)) {
        throw new LoomError("invalid-argument", `${what()}: expected a CudaBuffer or { address, byteLength }, got ${describe(value)}`);
      }
      const b = value as BufferArgument;
      const address = typeof b.address === "bigint" && b.address >= 0n && b.address < TWO_64 ? b.address : inRange(integer(b.address, () => `${what()}.address`), 0n, TWO_64 - 1n, what, "a 64-bit address");
      const length = typeof b.byteLength === "number" && Number.isSafeInteger(b.byteLength) && b.byteLength >= 0 ? b.byteLength : inRange(integer(b.byteLength, () => `${what()}.byteLength`), 0n, TWO_63 - 1n, what, "a byte length");
      checkBuffer?.(address, length, what, b);
      view.setBigUint64(at, address, true);
      if (typeof length === "number") setInt64(view, at + 8, length);
      else view.setBigUint64(at + 8, length, true);
      return;
    }
  }
}

