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
  constructor(private readonly ctx: VerifyContext) {}

  #use(op: Op, v: Value, reported: Set<Value>): void {
    if (this.#visible.has(v) || reported.has(v)) return;
    reported.add(v);
    this.ctx.report(D.notDominated, op.span, [v.name]);
  }

  /** Makes `region`'s args visible, checks their types, runs `fn`, then hides them again. */
  #withArgs(owner: Op, region: Region, fn: () => void): void {
    for (const a of region.args) this.#visible.add(a);
    const reported = new Set<Value>();
    for (const a of region.args) typeValues(a.type, (v) => this.#use(owner, v, reported));
    fn();
    for (const a of region.args) this.#visible.delete(a);
  }

  #predicates(owner: Op, preds: unknown, reported: Set<Value>): void {
    for (const p of Array.isArray(preds) ? (preds as Predicate[]) : []) {
      for (const a of Array.isArray(p?.args) ? p.args : []) if (typeof a !== "bigint") this.#use(owner, a, reported);
    }
  }

  #types(owner: Op, types: unknown, reported: Set<Value>): void {
    for (const t of Array.isArray(types) ? (types as Type[]) : []) typeValues(t, (v) => this.#use(owner, v, reported));
  }

  /** A signature (or body) region of a top-level op, with the props that may mention its args. */
  #signature(op: Op, region: Region | undefined, whereKey: string | undefined, isBody: boolean): void {
    const run = () => {
      const reported = new Set<Value>();
      if (whereKey) this.#predicates(op, op.props[whereKey], reported);
      if (op.name.startsWith("func.") || op.name.startsWith("template.")) this.#types(op, op.props.resultTypes, reported);
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
      const reported = new Set<Value>();
      forEachUse(op, (v) => this.#use(op, v, reported));
      for (const inner of op.regions) this.#withArgs(op, inner, () => this.#region(inner));
      for (const r of op.results) {
        this.#visible.add(r);
        defined.push(r);
      }
    }
    for (const v of defined) this.#visible.delete(v);
  }
}

export function checkDominance(ctx: VerifyContext): void {
  const checker = new DominanceChecker(ctx);
  for (const op of ctx.module.ops) checker.topLevel(op);
}
