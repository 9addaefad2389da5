/**
 * The explicit part of the kernarg segment, packed two ways: from loom's kernel-interface
 * record (language.md §7 block: buffers are address + byte length), or, for code objects
 * without one (LLVM-built), from the metadata `.args` (a `global_buffer` is an 8-byte
 * address; a `by_value` is encoded by its `.type_name` and size).
 */
import type { KernelInterface } from "../../abi/index.js";
import { LoomError } from "../../core/errors.js";
import type { KernelArgMetadata, SimKernel } from "./code-object.js";
import { numberToHalf } from "./half.js";

/** A buffer argument: a simulated device address and how many bytes the kernel may use. */
export interface BufferArgument {
  readonly address: number;
  readonly byteLength: number;
}

/**
 * One kernel argument: a number, bigint or boolean for a scalar (checked against its declared
 * width), or a buffer (its simulated device address).
 */
export type ArgValue = number | bigint | boolean | BufferArgument;

const isBuffer = (v: unknown): v is BufferArgument => typeof v === "object" && v !== null && "address" in v && "byteLength" in v;

function describe(v: unknown): string {
  return typeof v === "object" ? JSON.stringify(v, (_, x) => (typeof x === "bigint" ? `${x}n` : x)) ?? "null" : `${typeof v} ${String(v)}`;
}

function integerBits(value: ArgValue, bits: number, what: () => string): bigint {
  let v: bigint;
  if (typeof value === "bigint") v = value;
  else if (typeof value === "boolean") v = value ? 1n : 0n;
  else if (typeof value === "number" && Number.isSafeInteger(value)) v = BigInt(value);
  else throw new LoomError("invalid-argument", `${what()}: expected an integer, got ${describe(value)}`);
  if (v < -(1n << BigInt(bits - 1)) || v >= 1n << BigInt(bits)) throw new LoomError("out-of-range", `${what()}: ${v} does not fit ${bits} bits`);
  return BigInt.asUintN(bits, v);
}

function writeInteger(view: DataView, at: number, size: number, value: ArgValue, what: () => string): void {
  const bits = integerBits(value, size * 8, what);
  if (size === 8) view.setBigUint64(at, bits, true);
  else if (size === 4) view.setUint32(at, Number(bits), true);
  else if (size === 2) view.setUint16(at, Number(bits), true);
  else if (size === 1) view.setUint8(at, Number(bits));
  else throw new LoomError("unimplemented", `${what()}: ${size}-byte integer arguments are not packed`);
}

/** A 16-bit float argument's bits: the number rounded to nearest even (bf16 from its f32 value). */
function halfArgumentBits(type: "f16" | "bf16", value: ArgValue, what: () => string): number {
  if (typeof value !== "number") throw new LoomError("invalid-argument", `${what()}: expected a number, got ${describe(value)}`);
  if (type === "f16") return numberToHalf(value);
  if (Number.isNaN(value)) return 0x7fc0;
  const f = new DataView(new ArrayBuffer(4));
  f.setFloat32(0, value);
  const b = f.getUint32(0);
  return ((b + 0x7fff + ((b >>> 16) & 1)) >>> 16) & 0xffff;
}

function writeFloat(view: DataView, at: number, size: number, value: ArgValue, what: () => string): void {
  if (typeof value !== "number") throw new LoomError("invalid-argument", `${what()}: expected a number, got ${describe(value)}`);
  if (size === 4) view.setFloat32(at, value, true);
  else if (size === 8) view.setFloat64(at, value, true);
  else throw new LoomError("unimplemented", `${what()}: ${size}-byte float arguments are not packed`);
}

/** The block for a kernel-interface record: value i fills `record.arguments[i]`. */
export function packFromInterface(record: KernelInterface, values: readonly ArgValue[]): Uint8Array {
  const slots = record.arguments;
  if (!Array.isArray(values) || values.length !== slots.length) {
    throw new LoomError("invalid-argument", `kernel '${record.entryName}' takes ${slots.length} arguments (${slots.map((s) => s.name).join(", ")}), got ${Array.isArray(values) ? values.length : describe(values)}`);
  }
  const block = new Uint8Array(record.argumentBlockBytes);
  const view = new DataView(block.buffer);
  slots.forEach((slot, i) => {
    const value = values[i]!;
    const what = () => `kernel '${record.entryName}' argument ${i} ('${slot.name}')`;
    if (slot.type === "buffer") {
      if (!isBuffer(value)) throw new LoomError("invalid-argument", `${what()}: expected a buffer { address, byteLength }, got ${describe(value)}`);
      view.setBigUint64(slot.offset, BigInt(value.address), true);
      view.setBigUint64(slot.offset + 8, BigInt(value.byteLength), true);
    } else if (slot.type === "f32" || slot.type === "f64") writeFloat(view, slot.offset, slot.size, value, what);
    else if (slot.type === "f16" || slot.type === "bf16") view.setUint16(slot.offset, halfArgumentBits(slot.type, value, what), true);
    else if (slot.type === "i1") writeInteger(view, slot.offset, 4, typeof value === "boolean" ? Number(value) : value, what);
    else writeInteger(view, slot.offset, slot.size, value, what);
  });
  return block;
}

/** The explicit arguments of the metadata: every non-hidden `.args` entry. */
function explicitArgs(kernel: SimKernel): KernelArgMetadata[] {
  return kernel.args.filter((a) => !a.valueKind.startsWith("hidden_"));
}

/**
 * The block from the metadata. One value per source argument: a buffer for a `global_buffer`
 * entry (and, when the next entry is the `by_value` `<name>.length` loom writes, its length
 * goes there), a number or bigint for a `by_value` entry.
 */
export function packFromMetadata(kernel: SimKernel, values: readonly ArgValue[]): Uint8Array {
  const entries = explicitArgs(kernel);
  const block = new Uint8Array(kernel.kernargSegmentSize);
  const view = new DataView(block.buffer);
  let v = 0;
  for (let e = 0; e < entries.length; e++) {
    const a = entries[e]!;
    const index = v;
    const what = () => `kernel '${kernel.name}' argument ${index}${a.name ? ` ('${a.name}')` : ""}`;
    if (v >= values.length) throw new LoomError("invalid-argument", `kernel '${kernel.name}' takes more arguments than the ${values.length} given (${what()} is missing)`);
    const value = values[v++]!;
    if (a.valueKind === "global_buffer" || a.valueKind === "dynamic_shared_pointer") {
      if (!isBuffer(value)) throw new LoomError("invalid-argument", `${what()}: expected a buffer { address, byteLength }, got ${describe(value)}`);
      view.setBigUint64(a.offset, BigInt(value.address), true);
      const next = entries[e + 1];
      if (next && next.valueKind === "by_value" && a.name !== undefined && next.name === `${a.name}.length` && next.offset === a.offset + 8) {
        view.setBigUint64(next.offset, BigInt(value.byteLength), true);
        e++;
      }
    } else if (a.valueKind === "by_value") {
      if (a.offset + a.size > block.length) throw new LoomError("data-loss", `${what()} lies outside the ${block.length}-byte kernarg segment`);
      if (/^(float|double|half)/.test(a.typeName ?? "")) writeFloat(view, a.offset, a.size, value, what);
      else writeInteger(view, a.offset, a.size, value, what);
    } else {
      throw new LoomError("unimplemented", `${what()}: argument kind ${a.valueKind} is not packed by the simulator`);
    }
  }
  if (v !== values.length) throw new LoomError("invalid-argument", `kernel '${kernel.name}' takes ${v} arguments, got ${values.length}`);
  return block;
}
