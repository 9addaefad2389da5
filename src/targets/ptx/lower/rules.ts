/**
 * The PTX lowering table: one entry per op name — a rule, or `unsupported(reason)` for an op
 * this backend does not lower (reported as TARGET/001 at the op). Ops that never reach a
 * backend (they are gone from prepared-low IR: calls, templates, config reads, launch
 * configs) are listed too, so the table states every op's fate.
 */
import type { Literal, Op } from "../../../ir/core.js";
import type { KernelLowering, Lowered, Rule, Scalar } from "./context.js";
import { NEVER_LOWERED, type LoweringTable } from "../../../dialects/lowering.js";
import { INDEX_RULE_NAMES, LANE_RULES, type LaneRule } from "./lanes.js";
import { CONTROL_RULES } from "./rules-control.js";
import { KERNEL_RULES } from "./rules-kernel.js";
import { MEMORY_RULES } from "./rules-memory.js";
import { VECTOR_RULES } from "./rules-vector.js";
import { propOf } from "../../../dialects/registry.js";

function laneCount(op: Op): number | undefined {
  for (const v of [...op.results, ...op.operands]) if (v.type.kind === "vector") return v.type.shape.reduce((a, x) => a * x, 1);
  return undefined;
}

/** Applies a lane rule to a scalar op, or lane by lane to a vector op (scalar operands broadcast). */
function lanewise(rule: LaneRule): Rule {
  return (cx, op) => {
    const inputs = op.operands.map((v) => cx.get(v));
    if (inputs.some((l) => l.kind === "invalid")) return cx.poison(op);
    const result = op.results[0]!;
    const to = cx.typeOf(result);
    // The operand type that decides the instruction (the last operand for a select).
    const from = cx.typeOf(op.operands[op.name.endsWith("select") ? 1 : 0]!);
    const lane = (l: Lowered, i: number): Scalar => (l.kind === "vector" ? l.lanes[i]! : (l as Scalar));
    const n = laneCount(op);
    if (n === undefined) return cx.set(result, rule({ cx, op, args: inputs.map((l) => lane(l, 0)), from, to }));
    const lanes: Scalar[] = [];
    for (let i = 0; i < n; i++) lanes.push(rule({ cx, op, args: inputs.map((l) => lane(l, i)), from, to }));
    cx.set(result, { kind: "vector", lanes, t: to });
  };
}

function literalValue(op: Op): bigint | number | boolean {
  const lit = propOf(op, "value");
  if (!lit || (lit.kind !== "int" && lit.kind !== "float" && lit.kind !== "bool")) throw new Error(`PTX lowering: '${op.name}' has no numeric literal`);
  return lit.value;
}

/** Integer and f32/f64 constants are immediates; i1 and 16-bit floats need a register. */
function constant(cx: KernelLowering, op: Op): Scalar {
  const t = cx.typeOf(op.results[0]!);
  const value = literalValue(op);
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

const identity: Rule = (cx, op) => op.results.forEach((r, i) => cx.set(r, cx.get(op.operands[i]!)));

const SCALAR_NAMES = Object.keys(LANE_RULES).filter((n) => !["madd", "rotli", "rotri", "ctlzi", "cttzi", "ctpopi", "cast", "select"].includes(n));
const VECTOR_LANEWISE = [
  "addf", "subf", "mulf", "divf", "minimumf", "maximumf", "minnumf", "maxnumf", "addi", "subi", "muli", "divsi", "divui", "remsi", "remui",
  "minsi", "maxsi", "minui", "maxui", "andi", "ori", "xori", "shrsi", "shrui", "shli", "negf", "absf", "expf", "exp2f", "logf", "log2f",
  "sqrtf", "rsqrtf", "sinf", "cosf", "tanhf", "erff", "ceilf", "floorf", "roundf", "roundevenf", "truncf", "negi", "absi", "fmaf", "cmpi",
  "cmpf", "extf", "fptrunc", "extsi", "extui", "trunci", "sitofp", "uitofp", "fptosi", "fptoui", "bitcast", "select",
];

/** Partial in type because the lane rules come from name lists; test/ptx/table.test.ts holds it to the registry. */
export const PTX_RULES: Partial<LoweringTable<Rule>> = {
  ...NEVER_LOWERED,
  "index.constant": constantRule,
  "scalar.constant": constantRule,
  "vector.constant": constantRule,
  "index.assume": identity,
  "scalar.assume": identity,
  ...Object.fromEntries(SCALAR_NAMES.map((n) => [`scalar.${n}`, lanewise(LANE_RULES[n]!)])),
  ...Object.fromEntries(Object.entries(INDEX_RULE_NAMES).map(([n, rule]) => [`index.${n}`, lanewise(LANE_RULES[rule]!)])),
  ...Object.fromEntries(VECTOR_LANEWISE.map((n) => [`vector.${n}`, lanewise(LANE_RULES[n]!)])),
  ...CONTROL_RULES,
  ...MEMORY_RULES,
  ...KERNEL_RULES,
  ...VECTOR_RULES,
};
