/**
 * Declaration/definition signatures for linking (language.md §2): argument and result
 * types, `where` predicates and purity, rendered position-relative so that a declaration
 * and a definition written in different modules compare equal when they mean the same.
 * A dynamic dimension `[%n]` or a predicate argument `%n` becomes `$k`, the position of
 * `%n` in its signature (region `r`'s argument `k` → `$r.k` when there are several regions).
 */
import type { Op, Predicate, Region, Value } from "../../ir/core.js";
import { stridedLayoutText, type Type } from "../../ir/types.js";
import { propOf } from "../../dialects/registry.js";

type Positions = ReadonlyMap<Value, string>;

function valueText(v: Value, positions: Positions): string {
  return positions.get(v) ?? `%${v.name}`;
}

function typeText(t: Type, positions: Positions): string {
  if (t.kind === "prim") return t.name;
  if (t.kind === "vector") return `vector<${t.shape.join("x")}x${t.element.name}>`;
  const dims = t.dims.map((d) => (d.kind === "static" ? String(d.size) : `[${valueText(d.value, positions)}]`));
  // v1 aliases can only name the dense layout, so every named layout is dense.
  if (t.kind === "tensor") return `tensor<${dims.join("x")}x${t.element.name}>`;
  const layout = t.layout === undefined || t.layout.kind === "named" ? "" : t.layout.kind === "strided" ? `, ${stridedLayoutText(t.layout.strides)}` : `, ${valueText(t.layout.value, positions)}`;
  return `view<${dims.join("x")}x${t.element.name}${layout}>`;
}

function predicatesText(preds: unknown, positions: Positions): string {
  if (!Array.isArray(preds) || preds.length === 0) return "";
  const text = (preds as Predicate[]).map((p) => `${p.kind}(${p.args.map((a) => (typeof a === "bigint" ? String(a) : valueText(a, positions))).join(", ")})`);
  return ` where [${text.join(", ")}]`;
}

function argsText(region: Region | undefined, positions: Positions): string {
  return `(${(region?.args ?? []).map((a) => typeText(a.type, positions)).join(", ")})`;
}

function positionsOf(regions: readonly Region[]): Map<Value, string> {
  const out = new Map<Value, string>();
  regions.forEach((r, ri) => r.args.forEach((a, i) => out.set(a, regions.length > 1 ? `$${ri}.${i}` : `$${i}`)));
  return out;
}

function modifiers(op: Op): readonly string[] {
  return propOf(op, "modifiers") ?? [];
}

/**
 * The canonical signature text of a function, kernel, template or config symbol; two
 * symbols are link-compatible exactly when their texts are equal.
 */
export function signatureText(op: Op): string {
  switch (op.name) {
    case "func.def":
    case "func.decl":
    case "template.decl":
    case "template.def": {
      const regions = op.regions.slice(0, 1);
      const positions = positionsOf(regions);
      const results = propOf(op, "resultTypes") ?? [];
      const pure = modifiers(op).includes("pure") ? "pure " : "";
      return `${pure}${argsText(regions[0], positions)} -> (${results.map((t) => typeText(t, positions)).join(", ")})${predicatesText(op.props.where, positions)}`;
    }
    case "kernel.def":
    case "kernel.decl": {
      const positions = positionsOf(op.regions);
      const workload = `${argsText(op.regions[0], positions)}${predicatesText(op.props.workloadWhere, positions)}`;
      return `${workload} launch${argsText(op.regions[1], positions)}${predicatesText(op.props.launchWhere, positions)}`;
    }
    case "config.decl":
    case "config.def": {
      const t = propOf(op, "type");
      return t ? typeText(t, new Map()) : "?";
    }
    default:
      return op.name;
  }
}

/**
 * A kernel seen through a `func.decl`: its launch arguments as parameters, no results. A kernel
 * with workload arguments has none of that form (its workload cannot come from a call), so its
 * text keeps the workload and never equals a declaration's.
 */
export function kernelAsFunctionText(op: Op): string {
  const launch = op.regions.slice(1, 2);
  if ((op.regions[0]?.args.length ?? 0) > 0) return signatureText(op);
  const positions = positionsOf(launch);
  return `${argsText(launch[0], positions)} -> ()${predicatesText(op.props.launchWhere, positions)}`;
}
