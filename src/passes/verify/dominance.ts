/**
 * SSA dominance (language.md §2, DOMINANCE/001). Inside an isolated body a value is usable
 * after its definition in its block and in every region nested there; region arguments are
 * visible in their region (and in the types of sibling arguments, which may refer to each
 * other in any order). Nothing crosses an isolation boundary: a config value used in the
 * device body, or a value of another function, is not dominated. Uses include operands,
 * values in props (index lists, predicates, unroll factors) and values named by types.
 * `where` lists of signatures may only mention the arguments of their own signature.
 */
import { Op, Region, type Predicate, type Value } from "../../ir/core.js";
import type { Type } from "../../ir/types.js";
import { forEachUse } from "../../ir/walk.js";
import { D } from "../../core/diag/catalog.js";
import type { VerifyContext } from "./context.js";
import { nextMarkEpoch } from "./marks.js";

function typeValues(t: Type | undefined, fn: (v: Value) => void): void {
  if (!t || t.kind !== "view") return;
  for (const d of t.dims) if (d.kind === "dynamic") fn(d.value);
  if (t.layout?.kind === "value") fn(t.layout.value);
}

/**
 * The dominance state of one verifier run, driven by the walk (walk.ts): a signature region
 * is entered (its args come into scope), the ops of a block are checked in order (`checkUses`
 * before the op's regions, `define` after them), and `endBlock`/`leave` take the block's
 * values and the region's args out of scope again.
 */
export class DominanceChecker {
  /** Values in scope have `mark === epoch`. */
  readonly #epoch = nextMarkEpoch(0);
  /** The op whose uses are being checked, and the values already reported there (made on the first report). */
  #op: Op | undefined;
  #reported: Set<Value> | undefined;
  constructor(private readonly ctx: VerifyContext) {}

  /** Starts a new group of uses, reported at `op` (each undominated value once per group). */
  #begin(op: Op): void {
    this.#op = op;
    this.#reported = undefined;
  }

  /** Bound once, so that walking uses allocates no closure per op. */
  readonly #use = (v: Value): void => {
    if (v.mark === this.#epoch) return;
    const reported = (this.#reported ??= new Set<Value>());
    if (reported.has(v)) return;
    reported.add(v);
    this.ctx.report(D.notDominated, this.#op?.span, [v.name]);
  };

  /** Makes `region`'s args visible and checks their types (reported at `owner`). */
  enter(owner: Op, region: Region): void {
    const args = region.args;
    for (let i = 0; i < args.length; i++) args[i]!.mark = this.#epoch;
    this.#begin(owner);
    for (let i = 0; i < args.length; i++) typeValues(args[i]!.type, this.#use);
  }

  leave(region: Region): void {
    const args = region.args;
    for (let i = 0; i < args.length; i++) args[i]!.mark = 0;
  }

  #predicates(preds: unknown): void {
    for (const p of Array.isArray(preds) ? (preds as Predicate[]) : []) {
      for (const a of Array.isArray(p?.args) ? p.args : []) if (typeof a !== "bigint") this.#use(a);
    }
  }

  #types(types: unknown): void {
    for (const t of Array.isArray(types) ? (types as Type[]) : []) typeValues(t, this.#use);
  }

  /**
   * The props of a top-level op that may mention the args of its signature region (entered
   * before, when the op has it): the `whereKey` predicates and function result types.
   */
  signature(op: Op, whereKey: string): void {
    this.#begin(op);
    this.#predicates(op.props[whereKey]);
    if (op.name.startsWith("func.") || op.name.startsWith("template.")) this.#types(op.props.resultTypes);
  }

  /** The uses of a body op (operands, values in props and result types). */
  checkUses(op: Op): void {
    this.#begin(op);
    forEachUse(op, this.#use);
  }

  /** `op`'s results come into scope (after its regions). */
  define(op: Op): void {
    const results = op.results;
    for (let k = 0; k < results.length; k++) results[k]!.mark = this.#epoch;
  }

  /** The block's values go out of scope with it. */
  endBlock(ops: readonly Op[]): void {
    for (let i = 0; i < ops.length; i++) {
      const results = ops[i]!.results;
      for (let k = 0; k < results.length; k++) results[k]!.mark = 0;
    }
  }
}

/**
 * The `where` key of the signature region `index` of a top-level op whose args dominance
 * scopes (undefined: not a signature region). A body region is also its op's signature region.
 */
export function signatureKey(op: Op, index: number): string | undefined {
  switch (op.name) {
    case "kernel.def":
    case "kernel.decl":
      return index === 0 ? "workloadWhere" : index === 1 ? "launchWhere" : undefined;
    case "func.def":
    case "template.def":
    case "func.decl":
    case "template.decl":
    case "config.decl":
      return index === 0 ? "where" : undefined;
    default:
      return undefined;
  }
}

/** How many signature regions dominance gives `op` (checked even where the op lacks the region). */
export function signatureCount(op: Op): number {
  switch (op.name) {
    case "kernel.def":
    case "kernel.decl":
      return 2;
    case "func.def":
    case "template.def":
    case "func.decl":
    case "template.decl":
    case "config.decl":
      return 1;
    default:
      return 0;
  }
}
