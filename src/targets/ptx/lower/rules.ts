/**
 * The PTX lowering table: one entry per op name — a rule, or `unsupported(reason)` for an op
 * this backend does not lower (reported as TARGET/001 at the op). Ops that never reach a
 * backend (they are gone from prepared-low IR: calls, templates, config reads, launch
 * configs) are listed too, so the table states every op's fate.
 */
import type { Op } from "../../../ir/core.js";
import type { KernelLowering, PtxScalar, Rule, Scalar } from "./context.js";
import { NEVER_LOWERED, numericLiteral, type LoweringTable, passOperandsThrough } from "../../../dialects/lowering.js";
import { INDEX_LANE_RULES, lanewiseEntries } from "../../../dialects/lanewise.js";
import { LANE_RULES } from "./lanes.js";
import { CONTROL_RULES } from "./rules-control.js";
import { KERNEL_RULES } from "./rules-kernel.js";
import { MEMORY_RULES } from "./rules-memory.js";
import { VECTOR_RULES } from "./rules-vector.js";

/** Integer and f32/f64 constants are immediates; i1 and 16-bit floats need a register. */
function constant(cx: KernelLowering, op: Op): Scalar {
  const t = cx.typeOf(op.results[0]!);
  const value = numericLiteral(op, "PTX");
  if (t === "pred") return cx.bool(value === true || value === 1n);
  if (typeof value === "bigint") {
    if (t === "f16" || t === "bf16" || t === "f32" || t === "f64") return cx.float(t, Number(value));
    return cx.int(t, value);
  }
  return cx.float(t, Number(value));
}

const constantRule: Rule = (cx, op) => {
  const result = op.results[0]!;
  const c = constant(cx, op);
  if (result.type.kind === "vector") {
    const n = result.type.shape.reduce((a, x) => a * x, 1);
    return cx.set(result, { kind: "vector", lanes: new Array<Scalar>(n).fill(c), t: c.t });
  }
  cx.set(result, c);
};


/** Partial in type because the lanewise entries are built from the registry; test/ptx/table.test.ts holds it to the registry. */
export const PTX_RULES: Partial<LoweringTable<Rule>> = {
  ...NEVER_LOWERED,
  "index.constant": constantRule,
  "scalar.constant": constantRule,
  "vector.constant": constantRule,
  "index.assume": passOperandsThrough,
  "scalar.assume": passOperandsThrough,
  // index.scale is a 64-bit multiply here (index and offset share the i64 carrier).
  ...lanewiseEntries<KernelLowering, Scalar, PtxScalar>(LANE_RULES, { ...INDEX_LANE_RULES, scale: "muli" }),
  ...CONTROL_RULES,
  ...MEMORY_RULES,
  ...KERNEL_RULES,
  ...VECTOR_RULES,
};
