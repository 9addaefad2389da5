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

/** Uniformity of a value or of an op's control (language.md §4.1). */
export type Uniformity = "uniform" | "subgroup" | "varying";

/**
 * What the verifier proved about a module, handed on so later stages read it instead of
 * recomputing it (passes/verify implements it). It describes the module as verified: the
 * prepared kernels' own facts (sizes, uses after specialization) are on `PreparedKernel`.
 */
export interface ModuleAnalyses {
  /** The top-level op defining or declaring `name` (a config key: its `config.decl`). */
  symbol(name: string): Op | undefined;
  /** Value uniformity and the control uniformity of each op in kernel/function bodies. */
  readonly uniformity: {
    of(v: Value): Uniformity;
    controlOf(op: Op): Uniformity;
  };
  /** Constant values and proven upper bounds of integer SSA values: the one bound algorithm. */
  readonly bounds: IntegerBounds;
  /** How many times each value is used (operands and values inside props) in the bodies. */
  readonly uses: ReadonlyMap<Value, number>;
}

/** Compile-time integer facts of SSA values (passes/verify/fold.ts). */
export interface IntegerBounds {
  constant(v: Value): bigint | undefined;
  /** A proven finite upper bound (constants, assume ranges, index.min, bounded sums and products). */
  upperBound(v: Value): bigint | undefined;
}

/** One `buffer.alloca` of a prepared body, or the scratch of a workgroup collective. */
export interface Allocation {
  readonly space: "workgroup" | "private";
  /** Bytes reserved: the size operand's proven maximum (collectives: the scratch size). */
  readonly bytes: number;
  /** Byte offset in workgroup-local storage (workgroup allocations only). */
  readonly offset?: number;
}

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
  /** Size (and workgroup offset) of every `buffer.alloca` and collective scratch of the body. */
  readonly allocations: ReadonlyMap<Op, Allocation>;
  /**
   * Use counts of the body's values after dead-op removal (the liveness backends need:
   * a value absent here is unused; no dead effect-free op is left in the body).
   */
  readonly uses: ReadonlyMap<Value, number>;
}

export interface PreparedModule {
  readonly moduleName: string;
  readonly kernels: readonly PreparedKernel[];
  /** The verifier's analyses of the module the kernels were specialized from (absent for hand-built modules). */
  readonly analyses?: ModuleAnalyses;
  /**
   * What target environments' `check` lowered during this compile, for their `emit` to reuse
   * (check never lowers twice; emit never lowers what check already did). compileModule
   * makes one per compile and hands the same one to `emit`; absent for hand-built modules,
   * whose `emit` then lowers on its own.
   */
  readonly lowered?: LoweredForms;
}

/**
 * Names one target environment's lowered form, typed: the environment creates one key at
 * module load and is the only code that can read or write what is stored under it.
 */
export class LoweredFormKey<T> {
  /** Only carries `T` for the type checker. */
  declare readonly form?: T;
  constructor(readonly environment: string) {}
}

/**
 * Per-compile storage of lowered forms (one entry per target environment key), written by
 * `TargetEnvironment.check` and read by `emit`: a plain slot of the prepared module instead
 * of module-level caches, so it lives and dies with the compile.
 */
export class LoweredForms {
  /** Made at the first `set`: a target whose check lowers nothing leaves it empty. */
  #forms: Map<LoweredFormKey<unknown>, unknown> | undefined;

  set<T>(key: LoweredFormKey<T>, form: T): void {
    (this.#forms ??= new Map()).set(key, form);
  }
  get<T>(key: LoweredFormKey<T>): T | undefined {
    // Only `set` with the same key wrote this entry, so it holds a `T`.
    return this.#forms?.get(key) as T | undefined;
  }
}
