/**
 * Storage of the interpreter: buffer roots (kernel arguments and allocas), typed views over
 * them, and element reads and writes in the device byte order (little-endian, §7).
 *
 * A root is one contiguous byte range. Every access is checked twice: each index against
 * its view extent `[0, D)`, then the byte range against the root. Misaligned element
 * addresses (relative to the root, which models a maximally aligned device allocation) are
 * UB **(ours)** and reported too.
 */
import { bitsToFloatLane, floatLaneToBits, type FloatLane } from "../dialects/scalar/semantics.js";
import type { PrimName } from "../ir/types.js";

export type MemorySpace = "global" | "workgroup" | "private";

let nextRootId = 1;

/** A buffer value: the storage root a `buffer` SSA value denotes. */
export class BufferRoot {
  readonly id = nextRootId++;
  readonly data: DataView;
  constructor(
    /** The bytes, read and written in place (a caller's array for kernel arguments). */
    readonly bytes: Uint8Array,
    /** Device-visible byte length (`buffer.length`); ≤ bytes.byteLength. */
    readonly length: number,
    readonly space: MemorySpace,
    /** For messages: the argument name or the alloca's result name. */
    readonly label: string,
  ) {
    this.data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Whether two roots share bytes (aliasing, for `buffer.assume.noalias`). */
  overlaps(other: BufferRoot): boolean {
    if (this.bytes.buffer !== other.bytes.buffer || this.length === 0 || other.length === 0) return false;
    const a = this.bytes.byteOffset, b = other.bytes.byteOffset;
    return a < b + other.length && b < a + this.length;
  }
}

/** Element types a view may hold (`S` of the spec). */
export type ElementName = Exclude<PrimName, "index" | "offset" | "buffer" | "encoding<layout>">;

export const ELEMENT_BYTES: Readonly<Record<ElementName, number>> = {
  i1: 1, i8: 1, i16: 2, i32: 4, i64: 8, f16: 2, bf16: 2, f32: 4, f64: 8,
};

/** A typed window on a root: `base` is the byte address of element (0, …, 0). */
export interface ViewValue {
  readonly kind: "view";
  readonly root: BufferRoot;
  readonly base: number;
  readonly dims: readonly number[];
  /** Element strides per dimension (dense: row-major). */
  readonly strides: readonly number[];
  readonly element: ElementName;
  readonly elementBytes: number;
}

/** A layout value (`encoding.layout.*`): element strides, or undefined for dense. */
export interface LayoutValue {
  readonly kind: "layout";
  readonly strides: readonly number[] | undefined;
}

export function denseStrides(dims: readonly number[]): number[] {
  const s = new Array<number>(dims.length);
  let acc = 1;
  for (let i = dims.length - 1; i >= 0; i--) {
    s[i] = acc;
    acc *= dims[i]!;
  }
  return s;
}

/** The byte range [lo, hi) a view's elements cover, or undefined when it has no elements. */
export function viewFootprint(v: Pick<ViewValue, "base" | "dims" | "strides" | "elementBytes">): [number, number] | undefined {
  let last = 0;
  for (let i = 0; i < v.dims.length; i++) {
    if (v.dims[i] === 0) return undefined;
    last += (v.dims[i]! - 1) * v.strides[i]!;
  }
  return [v.base, v.base + last * v.elementBytes + v.elementBytes];
}

/**
 * Reads one element at a checked byte address. Integers as bit patterns, floats as numbers
 * (a NaN that is not the canonical one as a `PayloadNaN`, so its bits survive a round trip).
 */
export function readElement(root: BufferRoot, addr: number, t: ElementName): bigint | FloatLane {
  const d = root.data;
  switch (t) {
    case "f32": {
      const x = d.getFloat32(addr, true);
      return x === x ? x : bitsToFloatLane(BigInt(d.getUint32(addr, true)), t); // eslint-disable-line no-self-compare
    }
    case "i32": return BigInt(d.getUint32(addr, true));
    case "f64": {
      const x = d.getFloat64(addr, true);
      return x === x ? x : bitsToFloatLane(d.getBigUint64(addr, true), t); // eslint-disable-line no-self-compare
    }
    case "i64": return d.getBigUint64(addr, true);
    case "i8": return BigInt(d.getUint8(addr));
    case "i1": return BigInt(d.getUint8(addr) & 1);
    case "i16": return BigInt(d.getUint16(addr, true));
    case "f16": case "bf16": return bitsToFloatLane(BigInt(d.getUint16(addr, true)), t);
  }
}

/** Writes one element at a checked byte address; float lanes are written by their bits. */
export function writeElement(root: BufferRoot, addr: number, t: ElementName, x: bigint | FloatLane): void {
  const d = root.data;
  switch (t) {
    case "f32":
      if (typeof x === "number" && x === x) d.setFloat32(addr, x, true); // eslint-disable-line no-self-compare
      else d.setUint32(addr, Number(floatLaneToBits(x as FloatLane, t)), true);
      return;
    case "i32": d.setUint32(addr, Number(x as bigint), true); return;
    case "f64":
      if (typeof x === "number" && x === x) d.setFloat64(addr, x, true); // eslint-disable-line no-self-compare
      else d.setBigUint64(addr, floatLaneToBits(x as FloatLane, t), true);
      return;
    case "i64": d.setBigUint64(addr, x as bigint, true); return;
    case "i8": case "i1": d.setUint8(addr, Number(x as bigint)); return;
    case "i16": d.setUint16(addr, Number(x as bigint), true); return;
    case "f16": case "bf16": d.setUint16(addr, Number(floatLaneToBits(x as FloatLane, t)), true); return;
  }
}
