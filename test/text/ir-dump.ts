/**
 * A structural dump of a parsed module for comparing two parses: values are numbered in
 * definition order, so the dump is independent of object identity but sensitive to which
 * definition every use refers to, to names, types, props, comments and blank-line flags.
 */
import { Module, Op, Region, Value, type Prop } from "../../src/ir/core.js";
import type { Type } from "../../src/ir/types.js";

export function dumpModule(m: Module): string {
  const ids = new Map<Value, number>();
  const idOf = (v: Value): string => {
    let id = ids.get(v);
    if (id === undefined) {
      id = ids.size;
      ids.set(v, id);
    }
    return `%${v.name}#${id}`;
  };
  const type = (t: Type): string => {
    if (t.kind === "prim") return t.name;
    if (t.kind === "vector") return `vector<${t.shape.join("x")}x${t.element.name}>`;
    const dims = t.dims.map((d) => (d.kind === "static" ? String(d.size) : `[${idOf(d.value)}]`)).join("x");
    if (t.kind === "tensor") return `tensor<${dims}x${t.element.name}>`;
    const layout = t.layout ? (t.layout.kind === "named" ? `,#${t.layout.name}` : t.layout.kind === "strided" ? `,strides[${t.layout.strides.join(",")}]` : `,${idOf(t.layout.value)}`) : "";
    return `view<${dims}x${t.element.name}${layout}>`;
  };
  const prop = (p: Prop): string => {
    if (p === null || p === undefined) return String(p);
    if (typeof p === "bigint") return `${p}n`;
    if (typeof p !== "object") return JSON.stringify(p);
    if (p instanceof Value) return idOf(p);
    if (Array.isArray(p)) return `[${p.map(prop).join(",")}]`;
    const o = p as Record<string, Prop>;
    if ((o.kind === "prim" || o.kind === "vector" || o.kind === "view") && "element" in o || o.kind === "prim") return type(o as unknown as Type);
    if ("kind" in o && "args" in o) return `${String(o.kind)}(${(o.args as Prop[]).map(prop).join(",")})`;
    if (o.kind === "float") return `float:${Object.is(o.value, -0) ? "-0" : String(o.value)}`;
    return `{${Object.keys(o).filter((k) => k !== "span").sort().map((k) => `${k}=${prop(o[k])}`).join(",")}}`;
  };
  const out: string[] = [];
  const region = (r: Region, depth: number): void => {
    out.push(`${"  ".repeat(depth)}region(${r.args.map((a) => `${idOf(a)}:${type(a.type)}`).join(", ")}) trailing=${JSON.stringify(r.trailingComments)} blank=${r.trailingBlank}`);
    for (const op of r.ops) opLine(op, depth + 1);
  };
  const opLine = (op: Op, depth: number): void => {
    const pad = "  ".repeat(depth);
    for (const v of op.results) idOf(v);
    const props = Object.keys(op.props).sort().map((k) => `${k}=${prop(op.props[k])}`).join(" ");
    out.push(`${pad}${op.results.map((r) => `${idOf(r)}:${type(r.type)}`).join(", ")} = ${op.name}(${op.operands.map(idOf).join(", ")}) {${props}} comments=${JSON.stringify(op.comments)} blank=${op.blankBefore}`);
    for (const r of op.regions) region(r, depth + 1);
  };
  for (const op of m.ops) opLine(op, 0);
  out.push(`trailing=${JSON.stringify(m.trailingComments)} blank=${m.trailingBlank}`);
  return out.join("\n");
}
