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
import { isOp } from "../../dialects/registry.js";

function typeValues(t: Type | undefined, fn: (v: Value) => void): void {
  if (!t || t.kind !== "view") return;
  for (const d of t.dims) if (d.kind === "dynamic") fn(d.value);
  if (t.layout?.kind === "value") fn(t.layout.value);
}

/** Tells the marks of one checker from those an earlier one left behind (`Value.mark`). */
let lastEpoch = 0;

class DominanceChecker {
  /** Values in scope have `mark === epoch`. */
  readonly #epoch = ++lastEpoch;
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
  #enter(owner: Op, region: Region): void {
    const args = region.args;
    for (let i = 0; i < args.length; i++) args[i]!.mark = this.#epoch;
    this.#begin(owner);
    for (let i = 0; i < args.length; i++) typeValues(args[i]!.type, this.#use);
  }

  #leave(region: Region): void {
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

  /** A signature (or body) region of a top-level op, with the props that may mention its args. */
  #signature(op: Op, region: Region | undefined, whereKey: string | undefined, isBody: boolean): void {
    if (region) this.#enter(op, region);
    this.#begin(op);
    if (whereKey) this.#predicates(op.props[whereKey]);
    if (op.name.startsWith("func.") || op.name.startsWith("template.")) this.#types(op.props.resultTypes);
    if (region) {
      if (isBody) this.#region(region);
      this.#leave(region);
    }
  }

  topLevel(op: Op): void {
    const [r0, r1] = op.regions;
    switch (op.name) {
      case "kernel.def":
      case "kernel.decl":
        this.#signature(op, r0, "workloadWhere", isOp(op, "kernel.def"));
        this.#signature(op, r1, "launchWhere", isOp(op, "kernel.def"));
        break;
      case "func.def":
      case "template.def":
        this.#signature(op, r0, "where", true);
        break;
      case "func.decl":
      case "template.decl":
      case "config.decl":
        this.#signature(op, r0, "where", false);
        break;
    }
  }

  #region(region: Region): void {
    const ops = region.ops;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      this.#begin(op);
      forEachUse(op, this.#use);
      const regions = op.regions;
      for (let k = 0; k < regions.length; k++) {
        const inner = regions[k]!;
        this.#enter(op, inner);
        this.#region(inner);
        this.#leave(inner);
      }
      const results = op.results;
      for (let k = 0; k < results.length; k++) results[k]!.mark = this.#epoch;
    }
    // The block's values go out of scope with it.
    for (let i = 0; i < ops.length; i++) {
      const results = ops[i]!.results;
      for (let k = 0; k < results.length; k++) results[k]!.mark = 0;
    }
  }
}

export function checkDominance(ctx: VerifyContext): void {
  const checker = new DominanceChecker(ctx);
  for (const op of ctx.module.ops) checker.topLevel(op);
}
