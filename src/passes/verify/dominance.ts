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

class DominanceChecker {
  readonly #visible = new Set<Value>();
  /** The op whose uses are being checked, and the values already reported there (made on the first report). */
  #op: Op | undefined;
  #reported: Set<Value> | undefined;
  constructor(
    private readonly ctx: VerifyContext,
    /** Use counts of body values, counted on this walk (the verifier's `uses` analysis). */
    private readonly uses: Map<Value, number>,
  ) {}

  /** Starts a new group of uses, reported at `op` (each undominated value once per group). */
  #begin(op: Op): void {
    this.#op = op;
    this.#reported = undefined;
  }

  /** Bound once, so that walking uses allocates no closure per op. */
  readonly #use = (v: Value): void => {
    if (this.#visible.has(v)) return;
    const reported = (this.#reported ??= new Set<Value>());
    if (reported.has(v)) return;
    reported.add(v);
    this.ctx.report(D.notDominated, this.#op?.span, [v.name]);
  };

  /** Makes `region`'s args visible, checks their types, runs `fn`, then hides them again. */
  /** A use by an op of a body: counted, then checked. */
  readonly #countedUse = (v: Value): void => {
    this.uses.set(v, (this.uses.get(v) ?? 0) + 1);
    this.#use(v);
  };

  #withArgs(owner: Op, region: Region, fn: () => void): void {
    for (const a of region.args) this.#visible.add(a);
    this.#begin(owner);
    for (const a of region.args) typeValues(a.type, this.#use);
    fn();
    for (const a of region.args) this.#visible.delete(a);
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
    const run = () => {
      this.#begin(op);
      if (whereKey) this.#predicates(op.props[whereKey]);
      if (op.name.startsWith("func.") || op.name.startsWith("template.")) this.#types(op.props.resultTypes);
      if (isBody && region) this.#region(region);
    };
    if (region) this.#withArgs(op, region, run);
    else run();
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
    const defined: Value[] = [];
    for (const op of region.ops) {
      this.#begin(op);
      forEachUse(op, this.#countedUse);
      for (const inner of op.regions) this.#withArgs(op, inner, () => this.#region(inner));
      for (const r of op.results) {
        this.#visible.add(r);
        defined.push(r);
      }
    }
    for (const v of defined) this.#visible.delete(v);
  }
}

export function checkDominance(ctx: VerifyContext, uses: Map<Value, number>): void {
  const checker = new DominanceChecker(ctx, uses);
  for (const op of ctx.module.ops) checker.topLevel(op);
}
