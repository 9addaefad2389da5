/**
 * The WGSL lowering table: one entry per op name — a rule, or `unsupported(reason)` for an op
 * this back end does not lower (reported as TARGET/001 at the op); the ops no prepared body
 * holds come from the shared `NEVER_LOWERED`.
 */
import type { Op } from "../../../ir/core.js";
import { NEVER_LOWERED, type LoweringTable } from "../../../dialects/lowering.js";
import { propOf } from "../../../dialects/registry.js";
import { KernelLowering, type Lowered, type Rule, type Scalar } from "./context.js";
import { INDEX_RULE_NAMES, LANE_RULES, type LaneRule } from "./lanes.js";
import { CONTROL_RULES } from "./rules-control.js";
import { KERNEL_RULES } from "./rules-kernel.js";
import { MEMORY_RULES } from "./rules-memory.js";
import { VECTOR_RULES } from "./rules-vector.js";

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
    const from = cx.typeOf(op.operands[op.name.endsWith("select") ? 1 : 0]!);
    const dialect = op.name.slice(0, op.name.indexOf("."));
    const lane = (l: Lowered, i: number): Scalar => (l.kind === "vector" ? l.lanes[i]! : (l as Scalar));
    const n = laneCount(op);
    if (n === undefined) return cx.set(result, rule({ cx, op, args: inputs.map((l) => lane(l, 0)), from, to, dialect }));
    const lanes: Scalar[] = [];
    for (let i = 0; i < n; i++) lanes.push(rule({ cx, op, args: inputs.map((l) => lane(l, i)), from, to, dialect }));
    cx.set(result, { kind: "vector", lanes, t: to });
  };
}

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

const identity: Rule = (cx, op) => op.results.forEach((r, i) => cx.set(r, cx.get(op.operands[i]!)));

const SCALAR_NAMES = Object.keys(LANE_RULES).filter((n) => !["madd", "scale", "rotli", "rotri", "ctlzi", "cttzi", "ctpopi", "cast", "select"].includes(n));
const VECTOR_LANEWISE = [
  "addf", "subf", "mulf", "divf", "minimumf", "maximumf", "minnumf", "maxnumf", "addi", "subi", "muli", "divsi", "divui", "remsi", "remui",
  "minsi", "maxsi", "minui", "maxui", "andi", "ori", "xori", "shrsi", "shrui", "shli", "negf", "absf", "expf", "exp2f", "logf", "log2f",
  "sqrtf", "rsqrtf", "sinf", "cosf", "tanhf", "erff", "ceilf", "floorf", "roundf", "roundevenf", "truncf", "negi", "absi", "fmaf", "cmpi",
  "cmpf", "extf", "fptrunc", "extsi", "extui", "trunci", "sitofp", "uitofp", "fptosi", "fptoui", "bitcast", "select",
];

/** Partial in type because the lane rules come from name lists; test/wgsl/table.test.ts holds it to the registry. */
export const WGSL_RULES: Partial<LoweringTable<Rule>> = {
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
