/** Generic walkers over the IR: every use of a value, every op in program order. */
import { Op, Region, Value, type Prop } from "./core.js";
import type { Type } from "./types.js";

function visitTypeValues(t: Type, fn: (v: Value) => void): void {
  if (t.kind !== "view") return;
  for (const d of t.dims) if (d.kind === "dynamic") fn(d.value);
  if (t.layout?.kind === "value") fn(t.layout.value);
}

function visitProp(p: Prop, fn: (v: Value) => void): void {
  if (p === null || typeof p !== "object") return;
  if (p instanceof Value) return fn(p);
  if (Array.isArray(p)) {
    for (const x of p) visitProp(x, fn);
    return;
  }
  const o = p as { readonly [key: string]: Prop };
  if ((o.kind === "view" || o.kind === "vector" || o.kind === "prim") && "element" in o) return visitTypeValues(o as unknown as Type, fn);
  for (const k in o) visitProp(o[k], fn);
}

/**
 * Calls `fn` for every value the op itself uses: operands, values inside `props`
 * (index lists, predicates, unroll factors) and values named by its result and
 * argument types (dynamic view dimensions, layout values). Nested regions are not entered.
 */
export function forEachUse(op: Op, fn: (v: Value) => void): void {
  for (const v of op.operands) fn(v);
  for (const k in op.props) visitProp(op.props[k], fn);
  for (const r of op.results) visitTypeValues(r.type, fn);
}

/** Pre-order walk of ops nested in a region (the region's own ops first, then inside). */
export function walkRegion(region: Region, fn: (op: Op) => void | "skip"): void {
  for (const op of region.ops) walkOp(op, fn);
}

/** Pre-order walk: the op, then the ops of its regions in order. Return "skip" to not enter. */
export function walkOp(op: Op, fn: (op: Op) => void | "skip"): void {
  if (fn(op) === "skip") return;
  for (const r of op.regions) walkRegion(r, fn);
}
