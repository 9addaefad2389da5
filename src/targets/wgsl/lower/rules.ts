/**
 * The WGSL lowering table: one entry per op name — a rule, or `unsupported(reason)` for an op
 * this back end does not lower (reported as TARGET/001 at the op); the ops no prepared body
 * holds come from the shared `NEVER_LOWERED`.
 */
import type { Op } from "../../../ir/core.js";
import { NEVER_LOWERED, type LoweringTable, passOperandsThrough } from "../../../dialects/lowering.js";
import { propOf } from "../../../dialects/registry.js";
import { KernelLowering, type Rule, type Scalar, type WType } from "./context.js";
import { lanewiseEntries } from "../../../dialects/lanewise.js";
import { LANE_RULES } from "./lanes.js";
import { CONTROL_RULES } from "./rules-control.js";
import { KERNEL_RULES } from "./rules-kernel.js";
import { MEMORY_RULES } from "./rules-memory.js";
import { VECTOR_RULES } from "./rules-vector.js";

function constant(cx: KernelLowering, op: Op): Scalar | undefined {
  const t = cx.typeOf(op.results[0]!);
  const lit = propOf(op, "value");
  if (!lit || (lit.kind !== "int" && lit.kind !== "float" && lit.kind !== "bool")) throw new Error(`WGSL lowering: '${op.name}' has no numeric literal`);
  const value = lit.value;
  if (t === "bool") return cx.bool(value === true || value === 1n);
  if (t === "f32" || t === "f16") return cx.float(t, Number(value));
  const v = typeof value === "bigint" ? value : BigInt(Math.trunc(Number(value)));
  const name = op.results[0]!.type.kind === "prim" ? (op.results[0]!.type as { name: string }).name : "";
  if ((name === "index" || name === "offset") && !KernelLowering.fits(t, v)) {
    cx.unsupported(op, `the ${name} constant ${v} (outside the 32-bit index domain)`, "the WGSL target carries index and offset values in 32 bits (docs/wgsl.md)");
    return undefined;
  }
  return cx.int(t, v);
}

const constantRule: Rule = (cx, op) => {
  const result = op.results[0]!;
  const c = constant(cx, op);
  if (!c) return cx.poison(op);
  if (result.type.kind === "vector") {
    const n = result.type.shape.reduce((a, x) => a * x, 1);
    return cx.set(result, { kind: "vector", lanes: new Array<Scalar>(n).fill(c), t: c.t });
  }
  cx.set(result, c);
};


/** Partial in type because the lanewise entries are built from the registry; test/wgsl/table.test.ts holds it to the registry. */
export const WGSL_RULES: Partial<LoweringTable<Rule>> = {
  ...NEVER_LOWERED,
  "index.constant": constantRule,
  "scalar.constant": constantRule,
  "vector.constant": constantRule,
  "index.assume": passOperandsThrough,
  "scalar.assume": passOperandsThrough,
  ...lanewiseEntries<KernelLowering, Scalar, WType>(LANE_RULES),
  ...CONTROL_RULES,
  ...MEMORY_RULES,
  ...KERNEL_RULES,
  ...VECTOR_RULES,
};
