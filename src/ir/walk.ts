/** Generic walkers over the IR: every use of a value, every op in program order. */
import { Op, Region, Value, type Prop } from "./core.js";
import type { Type } from "./types.js";

// Indexed loops, not for-of: every verify, fold and lowering counts uses through here.
function visitTypeValues(t: Type, fn: (v: Value) => void): void {
  if (t.kind !== "view") return;
  const dims = t.dims;
  for (let i = 0; i < dims.length; i++) {
    const d = dims[i]!;
    if (d.kind === "dynamic") fn(d.value);
  }
  if (t.layout?.kind === "value") fn(t.layout.value);
}

function visitProp(p: Prop, fn: (v: Value) => void): void {
  if (p === null || typeof p !== "object") return;
  if (p instanceof Value) return fn(p);
  if (Array.isArray(p)) {
    for (let i = 0; i < p.length; i++) visitProp(p[i] as Prop, fn);
    return;
  }
  const o = p as { readonly [key: string]: Prop };
  const kind = o.kind;
  // Primitive types (the most common prop) and vector types name no value.
  if (kind === "prim") return;
  if ((kind === "view" || kind === "vector") && "element" in o) return visitTypeValues(o as unknown as Type, fn);
  for (const k in o) visitProp(o[k], fn);
}

/**
 * Calls `fn` for every value the op itself uses: operands, values inside `props`
 * (index lists, predicates, unroll factors) and values named by its result and
 * argument types (dynamic view dimensions, layout values). Nested regions are not entered.
 */
export function forEachUse(op: Op, fn: (v: Value) => void): void {
  const operands = op.operands;
  for (let i = 0; i < operands.length; i++) fn(operands[i]!);
  forEachNonOperandUse(op, fn);
}

/** `forEachUse` less the operands: the values in props and in result types. */
export function forEachNonOperandUse(op: Op, fn: (v: Value) => void): void {
  const props = op.props;
  for (const k in props) visitProp(props[k], fn);
  const results = op.results;
  for (let i = 0; i < results.length; i++) visitTypeValues(results[i]!.type, fn);
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
