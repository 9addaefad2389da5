/**
 * Prepared-low IR: what `compileModule` leaves for emission. Every backend consumes this
 * and nothing else (no parser, no source text).
 *
 * A `PreparedKernel` is one kernel specialized for one profile: calls inlined, templates
 * and config bound, constants folded, the launch-config region split off (it became the
 * host companion), and the device body left as a single-block region whose ops are v1
 * device ops with folded constants. Facts computed once live here for backends to read.
 */
import type { Op, Region, Value } from "../ir/core.js";
import type { Type } from "../ir/types.js";
import type { TargetProfile } from "./target.js";

/** One field of the explicit device-argument block (language.md §7). */
export interface ArgSlot {
  readonly name: string;
  readonly type: Type;
  readonly value: Value;
  /** Byte offset in the block. */
  readonly offset: number;
  /** Bytes this argument occupies (buffers: 16 = address + length). */
  readonly size: number;
  readonly align: number;
}

export interface PreparedKernel {
  /** Symbol without `@`. */
  readonly symbol: string;
  /** Executable entry name (export name). */
  readonly exportName: string;
  readonly profile: TargetProfile;
  /** The original (now specialized) kernel.def op. */
  readonly op: Op;
  /** The device body, args = device args. */
  readonly body: Region;
  readonly args: readonly ArgSlot[];
  /** Size of the explicit argument block: alignUp(end, 8), 0 when there are no args. */
  readonly argBlockSize: number;
  /** Static workgroup-local bytes (language.md §6 rule 7). */
  readonly workgroupStorageBytes: number;
  /** Workgroup size when it folds to constants without workload values. */
  readonly staticWorkgroupSize?: readonly [number, number, number];
  /** The version's fixed subgroup width (0 when none). */
  readonly subgroupSize: number;
  /** Offsets assigned to each static `buffer.alloca<workgroup>` op. */
  readonly workgroupAllocations: ReadonlyMap<Op, number>;
}

export interface PreparedModule {
  readonly moduleName: string;
  readonly kernels: readonly PreparedKernel[];
}
