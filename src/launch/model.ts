/**
 * The launch-config function as plain data: what the `launch` section encodes, what the
 * decoder returns and what the code generators consume (docs/launch-config.md).
 *
 * Values live in numbered registers. Workload arguments are registers `0..args.length-1`;
 * every other register is defined by an op, numbered in *completion order*: an op's nested
 * regions define theirs first (`scf.for`: induction variable, iteration args, then the body's
 * ops), then the op's own results. Register numbers are implied by the op list, so the
 * encoding does not store them; the `result`/`results` fields here are a convenience.
 *
 * Register values (shared with src/dialects/*\/semantics.ts): `index` signed bigint,
 * `offset` bigint in [0, 2^63−1], `iN` bit pattern bigint, floats JS numbers.
 */
import type { LType } from "../dialects/eval/types.js";

// Types and flags belong to the ops' declarations (src/dialects/eval/types.ts); launch/ re-exports them.
export { FLAG_BITS, isAddressType, isFloatType, isIntType, typeWidth, type LType } from "../dialects/eval/types.js";

/** Wire ids of types (the reference format's scalar element ids). */
export const TYPE_IDS: Readonly<Record<LType, number>> = {
  index: 1, offset: 2, i1: 3, i8: 4, i16: 5, i32: 6, i64: 7, f16: 10, bf16: 11, f32: 12, f64: 13,
};
export const TYPE_BY_ID: ReadonlyMap<number, LType> = new Map(Object.entries(TYPE_IDS).map(([t, id]) => [id, t as LType]));

/** A predicate argument: a register number, or an integer literal (bigint). */
export type LPredArg = number | bigint;

export interface LPredicate {
  readonly kind: string;
  readonly args: readonly LPredArg[];
}

export type LOp =
  | { readonly kind: "constant"; readonly name: "index.constant" | "scalar.constant"; readonly type: LType; readonly value: bigint | number; readonly result: number }
  | {
      readonly kind: "simple";
      readonly name: string;
      /** Result type. */
      readonly type: LType;
      readonly operands: readonly number[];
      readonly flags: number;
      /** `index.cmp`/`scalar.cmpi`/`scalar.cmpf` predicate. */
      readonly predicate?: string;
      readonly result: number;
    }
  | { readonly kind: "assume"; readonly name: "index.assume" | "scalar.assume"; readonly operands: readonly number[]; readonly predicates: readonly LPredicate[]; readonly results: readonly number[] }
  | { readonly kind: "select"; readonly operands: readonly [number, number, number]; readonly result: number }
  | {
      readonly kind: "if";
      readonly cond: number;
      readonly resultTypes: readonly LType[];
      readonly then: readonly LOp[];
      /** Empty list (no ops) means "no else region"; with results it ends in a yield. */
      readonly else: readonly LOp[];
      readonly hasElse: boolean;
      readonly results: readonly number[];
    }
  | {
      readonly kind: "for";
      readonly lo: number;
      readonly hi: number;
      readonly step: number;
      readonly inits: readonly number[];
      readonly iv: number;
      readonly iterArgs: readonly number[];
      readonly body: readonly LOp[];
      readonly results: readonly number[];
    }
  | { readonly kind: "yield"; readonly operands: readonly number[] }
  | { readonly kind: "launch"; readonly operands: readonly number[] };

export interface LaunchLimits {
  readonly maxWorkgroupCount: readonly [number, number, number];
  readonly maxWorkgroupSize: readonly [number, number, number];
  readonly maxFlatWorkgroupSize: number;
}

export interface LaunchFunction {
  readonly exportName: string;
  readonly args: readonly { readonly name: string; readonly type: LType }[];
  /** Workload `where` predicates: arguments are argument registers or literals. */
  readonly where: readonly LPredicate[];
  readonly subgroupSize: number;
  readonly workgroupStorageBytes: number;
  readonly limits: LaunchLimits;
  readonly body: readonly LOp[];
  /** Type of every register, by number. */
  readonly registerTypes: readonly LType[];
  /**
   * Where the function came from, when known (the optional `launch-locations` section):
   * absent when no location of the function is known.
   */
  readonly locations?: LaunchLocations;
}

/** A source position (1-based line and column) that a launch-config error cites. */
export interface LaunchSourceLocation {
  readonly source: string;
  readonly line: number;
  readonly column: number;
}

/**
 * The source locations of one function (docs/launch-config.md "Source locations"); an entry
 * is `undefined` where the location is unknown.
 */
export interface LaunchLocations {
  /** The kernel declaration: cited by argument and workload-count errors. */
  readonly function: LaunchSourceLocation | undefined;
  /** One per workload `where` predicate, in order. */
  readonly where: readonly (LaunchSourceLocation | undefined)[];
  /**
   * One per op other than `scf.yield`, in encoding order (an op before the ops of its
   * regions): the numbering "op N" of error messages uses.
   */
  readonly ops: readonly (LaunchSourceLocation | undefined)[];
}

/** Limits every decoder and lowering enforces (docs/launch-config.md "Limits"). */
export const LIMITS = {
  functions: 4096,
  args: 256,
  predicates: 256,
  opsPerFunction: 1 << 16,
  registers: 1 << 16,
  nesting: 64,
  assumeValues: 64,
  yieldValues: 64,
  u32: 0xffffffff,
  /** Total loop iterations one invocation may run (hostile artifacts must not hang). */
  loopIterations: 1 << 24,
} as const;

/** Version of the `launch` section layout (docs/launch-config.md). */
export const LAUNCH_ENCODING_VERSION = 1;

/** Predicate kinds by wire id (language.md §5 order). */
export const PREDICATE_KINDS = ["eq", "ne", "lt", "le", "gt", "ge", "mul", "min", "max", "pow2", "range", "not_nan", "not_inf", "finite"] as const;

/** Export names (language.md §4.1, ours). */
export const EXPORT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Ops other than scf.yield, nested ones included: the length of `LaunchLocations.ops`. */
export function countLocatedOps(ops: readonly LOp[]): number {
  let n = 0;
  for (const op of ops) {
    if (op.kind === "yield") continue;
    n++;
    if (op.kind === "if") n += countLocatedOps(op.then) + countLocatedOps(op.else);
    else if (op.kind === "for") n += countLocatedOps(op.body);
  }
  return n;
}
