/**
 * Deep copies of IR with value remapping: `Module.clone()` and inlining use this.
 * Values defined inside the copied ops get fresh Values; uses of values defined outside
 * are looked up in `map` (left unchanged when absent, which is right for module clones
 * where everything is defined inside, and for inlining where the caller pre-seeds args).
 */
import { Module, Op, Region, Value, type Prop } from "./core.js";
import type { Dim, Layout, Type } from "./types.js";

export type ValueMap = Map<Value, Value>;

function mapValue(v: Value, map: ValueMap): Value {
  return map.get(v) ?? v;
}

export function remapType(t: Type, map: ValueMap): Type {
  if (t.kind === "tensor") {
    // A host program's tensor sized by its arguments (`tensor<[%n]xf32>`), seen at a call.
    let moved = false;
    const dims: Dim[] = t.dims.map((d) => {
      if (d.kind !== "dynamic") return d;
      const nv = mapValue(d.value, map);
      if (nv === d.value) return d;
      moved = true;
      return { kind: "dynamic", value: nv };
    });
    return moved ? { kind: "tensor", dims, element: t.element } : t;
  }
  if (t.kind !== "view") return t;
  let changed = false;
  const dims: Dim[] = t.dims.map((d) => {
    if (d.kind !== "dynamic") return d;
    const nv = mapValue(d.value, map);
    if (nv === d.value) return d;
    changed = true;
    return { kind: "dynamic", value: nv };
  });
  let layout: Layout | undefined = t.layout;
  if (layout?.kind === "value") {
    const nv = mapValue(layout.value, map);
    if (nv !== layout.value) {
      changed = true;
      layout = { kind: "value", value: nv };
    }
  }
  if (!changed) return t;
  return layout ? { kind: "view", dims, element: t.element, layout } : { kind: "view", dims, element: t.element };
}

function remapProp(p: Prop, map: ValueMap): Prop {
  if (p === null || typeof p !== "object") return p;
  if (p instanceof Value) return mapValue(p, map);
  if (Array.isArray(p)) return p.map((x) => remapProp(x, map));
  const o = p as { readonly [key: string]: Prop };
  if ((o.kind === "view" || o.kind === "vector" || o.kind === "prim") && "element" in o) return remapType(o as unknown as Type, map) as unknown as Prop;
  const out: Record<string, Prop> = {};
  for (const k in o) out[k] = remapProp(o[k], map);
  return out;
}

export function cloneRegionInto(src: Region, dst: Region, map: ValueMap): void {
  for (const a of src.args) {
    const na = dst.addArg(a.name, remapType(a.type, map), a.span);
    map.set(a, na);
  }
  // Region arg types may reference sibling args declared later (signatures): fix up.
  for (const a of dst.args) a.type = remapType(a.type, map);
  for (const op of src.ops) {
    const c = cloneOp(op, map);
    c.parent = dst;
    dst.ops.push(c);
  }
  dst.trailingComments = [...src.trailingComments];
  dst.trailingBlank = src.trailingBlank;
}

export function cloneOp(op: Op, map: ValueMap): Op {
  const c = new Op(op.name, op.span);
  c.comments = [...op.comments];
  c.blankBefore = op.blankBefore;
  // Regions first: `where` predicates in props name the regions' arguments.
  for (const r of op.regions) cloneRegionInto(r, c.addRegion(), map);
  c.operands = op.operands.map((v) => mapValue(v, map));
  const props: Record<string, Prop> = {};
  for (const k in op.props) props[k] = remapProp(op.props[k], map);
  c.props = props;
  for (const r of op.results) map.set(r, c.addResult(r.name, remapType(r.type, map), r.span));
  return c;
}

export function cloneModule(m: Module): Module {
  const out = new Module(m.sourceName);
  const map: ValueMap = new Map();
  out.ops = m.ops.map((op) => cloneOp(op, map));
  out.trailingComments = [...m.trailingComments];
  out.trailingBlank = m.trailingBlank;
  return out;
}
