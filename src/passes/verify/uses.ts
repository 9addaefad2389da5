/**
 * The values an op uses, as `forEachUse` (src/ir/walk.ts) finds them (operands, values inside
 * props, values named by result types), visited in the same order, with shortcuts for what
 * the verifier meets on every op: interned primitive types (no values in them) are passed
 * over without walking their fields, and arrays are walked by index.
 */
import { Value, type Op, type Prop } from "../../ir/core.js";
import { T, type Type } from "../../ir/types.js";

/** The interned primitive types (frozen `{ kind, name }`: nothing to visit). */
const INTERNED_PRIMS: ReadonlySet<unknown> = new Set<unknown>(Object.values(T));

function typeValues(t: Type, fn: (v: Value) => void): void {
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
  if (INTERNED_PRIMS.has(p)) return;
  const o = p as { readonly [key: string]: Prop };
  if ((o.kind === "view" || o.kind === "vector" || o.kind === "prim") && "element" in o) return typeValues(o as unknown as Type, fn);
  for (const k in o) visitProp(o[k], fn);
}

/** Calls `fn` for every value `op` itself uses, in `forEachUse`'s order (nested regions are not entered). */
export function forEachOpUse(op: Op, fn: (v: Value) => void): void {
  const operands = op.operands;
  for (let i = 0; i < operands.length; i++) fn(operands[i]!);
  const props = op.props;
  for (const k in props) visitProp(props[k], fn);
  const results = op.results;
  for (let i = 0; i < results.length; i++) typeValues(results[i]!.type, fn);
}
