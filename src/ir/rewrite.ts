/** In-place use rewriting over a region tree. */
import { Value, type Op, type Prop, type Region } from "./core.js";
import { remapType, type ValueMap } from "./clone.js";

function remapPropInPlace(p: Prop, map: ValueMap): Prop {
  if (p === null || typeof p !== "object") return p;
  if (p instanceof Value) return map.get(p) ?? p;
  if (Array.isArray(p)) return p.map((x) => remapPropInPlace(x, map));
  const o = p as { readonly [key: string]: Prop };
  if ((o.kind === "view" || o.kind === "vector" || o.kind === "prim") && "element" in o) return remapType(o as never, map) as unknown as Prop;
  const out: Record<string, Prop> = {};
  for (const k in o) out[k] = remapPropInPlace(o[k], map);
  return out;
}

/** Rewrites every use (operands, props, types) of a key of `map` inside `op` and its regions. */
export function replaceUsesInOp(op: Op, map: ValueMap): void {
  if (map.size === 0) return;
  for (const [i, v] of op.operands.entries()) op.operands[i] = map.get(v) ?? v;
  for (const k in op.props) op.props[k] = remapPropInPlace(op.props[k], map);
  for (const r of op.results) r.type = remapType(r.type, map);
  for (const region of op.regions) replaceUsesInRegion(region, map);
}

export function replaceUsesInRegion(region: Region, map: ValueMap): void {
  if (map.size === 0) return;
  for (const a of region.args) a.type = remapType(a.type, map);
  for (const op of region.ops) replaceUsesInOp(op, map);
}
