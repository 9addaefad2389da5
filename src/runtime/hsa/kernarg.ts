/**
 * The kernarg segment of one dispatch: the explicit argument block packed from loom's
 * kernel-interface record (language.md §7; buffers are device address + byte length), then the
 * code object v5 hidden arguments at the offsets the HSACO metadata gives (block counts, group
 * sizes, remainders, grid dims, ...). The segment is `.kernarg_segment_size` bytes.
 */
import type { KernelInterface } from "../../abi/index.js";
import { LoomError } from "../../core/errors.js";
import type { HsacoKernelMetadata } from "./metadata.js";

/** A buffer argument: a device address (from an HSA memory pool) and its byte length. */
export interface BufferArgument {
  readonly address: bigint | number;
  readonly byteLength: bigint | number;
}

/**
 * One kernel argument: a number, bigint or boolean for a scalar (checked against its declared
 * width), or a buffer (its device address).
 */
export type ArgValue = number | bigint | boolean | BufferArgument;

/**
 * A dispatch's geometry: workgroup count and size per dimension, and dynamic LDS (group segment)
 * bytes on top of the kernel's fixed amount.
 */
export interface LaunchDims {
  readonly workgroups: readonly [number, number, number];
  readonly workgroupSize: readonly [number, number, number];
  readonly dynamicLdsBytes?: number;
}

const describe = (v: unknown): string => (typeof v === "object" ? JSON.stringify(v, (_, x) => (typeof x === "bigint" ? `${x}n` : x)) ?? "null" : `${typeof v} ${String(v)}`);

function bits(value: ArgValue, width: number, what: () => string): bigint {
  let v: bigint;
  if (typeof value === "bigint") v = value;
  else if (typeof value === "boolean") v = value ? 1n : 0n;
  else if (typeof value === "number" && Number.isSafeInteger(value)) v = BigInt(value);
  else throw new LoomError("invalid-argument", `${what()}: expected an integer, got ${describe(value)}`);
  if (v < -(1n << BigInt(width - 1)) || v >= 1n << BigInt(width)) throw new LoomError("out-of-range", `${what()}: ${v} does not fit ${width} bits`);
  return BigInt.asUintN(width, v);
}

/** The explicit block of `record` with `values` in declaration order. */
export function packExplicitArguments(record: KernelInterface, values: readonly ArgValue[]): Uint8Array {
  if (!Array.isArray(values) || values.length !== record.arguments.length) {
    throw new LoomError("invalid-argument", `kernel '${record.entryName}' takes ${record.arguments.length} arguments (${record.arguments.map((a) => a.name).join(", ")}), got ${Array.isArray(values) ? values.length : describe(values)}`);
  }
  const block = new Uint8Array(record.argumentBlockBytes);
  const view = new DataView(block.buffer);
  record.arguments.forEach((slot, i) => {
    const value = values[i]!;
    const what = () => `kernel '${record.entryName}' argument ${i} ('${slot.name}')`;
    const at = slot.offset;
    switch (slot.type) {
      case "buffer": {
        if (typeof value !== "object" || value === null || !("address" in value) || !("byteLength" in value)) throw new LoomError("invalid-argument", `${what()}: expected a buffer { address, byteLength }, got ${describe(value)}`);
        view.setBigUint64(at, bits(value.address, 64, what), true);
        view.setBigUint64(at + 8, bits(value.byteLength, 64, what), true);
        return;
      }
      case "f32":
      case "f64":
        if (typeof value !== "number") throw new LoomError("invalid-argument", `${what()}: expected a number, got ${describe(value)}`);
        if (slot.type === "f32") view.setFloat32(at, value, true);
        else view.setFloat64(at, value, true);
        return;
      case "f16":
      case "bf16":
        throw new LoomError("unimplemented", `${what()}: ${slot.type} arguments are not packed by the HSA handoff yet`);
      case "i1":
        view.setUint32(at, Number(bits(value, 1, what)), true);
        return;
      default: {
        const b = bits(value, slot.size * 8, what);
        if (slot.size === 8) view.setBigUint64(at, b, true);
        else if (slot.size === 4) view.setUint32(at, Number(b), true);
        else if (slot.size === 2) view.setUint16(at, Number(b), true);
        else view.setUint8(at, Number(b));
      }
    }
  });
  return block;
}

/** The whole kernarg segment: `explicit` at offset 0, hidden arguments where the metadata puts them. */
export function kernargSegment(metadata: HsacoKernelMetadata, explicit: Uint8Array, dims: LaunchDims): Uint8Array {
  const size = Math.max(metadata.kernargSegmentSize, explicit.length);
  const segment = new Uint8Array(size);
  segment.set(explicit, 0);
  const view = new DataView(segment.buffer);
  const [gx, gy, gz] = dims.workgroups;
  const [sx, sy, sz] = dims.workgroupSize;
  const gridDims = gz > 1 || sz > 1 ? 3 : gy > 1 || sy > 1 ? 2 : 1;
  for (const a of metadata.hidden) {
    if (a.offset < explicit.length) throw new LoomError("data-loss", `kernel '${metadata.name}': hidden argument ${a.valueKind} at ${a.offset} overlaps the ${explicit.length}-byte explicit block`);
    if (a.offset + a.size > size) throw new LoomError("data-loss", `kernel '${metadata.name}': hidden argument ${a.valueKind} lies outside the ${size}-byte kernarg segment`);
    const put = (v: number) => {
      if (a.size === 2) view.setUint16(a.offset, v, true);
      else if (a.size === 4) view.setUint32(a.offset, v, true);
      else if (a.size === 8) view.setBigUint64(a.offset, BigInt(v), true);
    };
    switch (a.valueKind) {
      case "hidden_block_count_x": put(gx); break;
      case "hidden_block_count_y": put(gy); break;
      case "hidden_block_count_z": put(gz); break;
      case "hidden_group_size_x": put(sx); break;
      case "hidden_group_size_y": put(sy); break;
      case "hidden_group_size_z": put(sz); break;
      case "hidden_grid_dims": put(gridDims); break;
      case "hidden_dynamic_lds_size": put(dims.dynamicLdsBytes ?? 0); break;
      // Whole workgroups only: no remainder; no global offset. Buffers the runtime does not
      // provide (printf, hostcall, heap, multigrid, queue, completion action) stay null.
      default: put(0);
    }
  }
  return segment;
}
