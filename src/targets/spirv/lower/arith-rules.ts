/**
 * Op rules for values: constants, `index.*`, `scalar.*`, lanewise `vector.*`, `scf.select`
 * and the assume ops (identities: their facts were used by earlier passes). Lanewise ops on
 * vectors apply the scalar lane rule to each lane; a scalar operand is broadcast.
 */
import type { Op } from "../../../ir/core.js";
import { Op as S } from "../spec.js";
import type { KernelLowering, Lowered, OpRule } from "./context.js";
import { INDEX_RULE_NAMES, LANE_RULES, laneRule, type LaneName, type LaneRule } from "./lanes.js";
import { namesWithPrefix, type OpName } from "../../../dialects/registry.js";
import { numericLiteral } from "../../../dialects/lowering.js";
import { laneCount } from "../../../dialects/lanewise.js";

/** Applies a lane rule to a scalar op, or lane by lane to a vector op. */
export function lanewise(rule: LaneRule): OpRule {
  return (cx, op) => {
    const inputs = op.operands.map((v) => cx.get(v));
    if (inputs.some((l) => l.kind === "invalid")) return cx.poison(op);
    const result = op.results[0]!;
    const resultType = cx.scalarType(result.type);
    const argTypes = op.operands.map((v) => cx.scalarType(v.type));
    const laneId = (l: Lowered, i: number) => (l.kind === "vector" ? l.lanes[i]! : l.kind === "scalar" ? l.id : cx.module.id());
    const n = laneCount(op);
    if (n === undefined) {
      cx.set(result, { kind: "scalar", id: rule({ cx, op, args: inputs.map((l) => laneId(l, 0)), argTypes, result: resultType }), type: resultType });
      return;
    }
    const lanes = [];
    for (let i = 0; i < n; i++) lanes.push(rule({ cx, op, args: inputs.map((l) => laneId(l, i)), argTypes, result: resultType }));
    cx.set(result, { kind: "vector", lanes, type: resultType });
  };
}

const selectLane: LaneRule = ({ cx, args: [c, a, b], result }) => cx.select(result, c!, a!, b!);

const constantRule: OpRule = (cx, op) => {
  const result = op.results[0]!;
  const type = cx.scalarType(result.type);
  const value = numericLiteral(op, "SPIR-V");
  // Integer constants go through cx.int so that address arithmetic can fold them.
  const id = type.kind === "int" && typeof value === "bigint" ? cx.int(type, value) : cx.module.constScalar(type, value);
  if (result.type.kind === "vector") {
    const n = result.type.shape.reduce((a, b) => a * b, 1);
    cx.set(result, { kind: "vector", lanes: new Array<number>(n).fill(id), type });
  } else {
    cx.set(result, { kind: "scalar", id, type });
  }
};

/** Results are the operands (facts only matter to earlier passes). */
export const identityRule: OpRule = (cx, op) => op.results.forEach((r, i) => cx.set(r, cx.get(op.operands[i]!)));

/** `scf.select` on scalars and vectors; on views and buffers only when both sides are the same. */
const scfSelect: OpRule = (cx, op) => {
  const [, a, b] = op.operands.map((v) => cx.get(v));
  if (a!.kind === "scalar" || a!.kind === "vector" || a!.kind === "invalid") return lanewise(selectLane)(cx, op);
  if (sameLowered(a!, b!)) return cx.set(op.results[0]!, a!);
  cx.unsupported(op, `'scf.select' between two different ${a!.kind}s`, "SPIR-V logical addressing cannot choose a storage root at run time");
  cx.poison(op);
};

export function sameLowered(a: Lowered, b: Lowered): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "buffer") return a.root === (b as typeof a).root;
  if (a.kind === "view") {
    const v = b as typeof a;
    return a.root === v.root && a.base === v.base && a.strides.every((s, i) => s === v.strides[i]);
  }
  return false;
}

/** Ops of a dialect whose suffix names a lane rule (`scalar.addi`, `vector.fmaf`, ...). */
type LanewiseOf<D extends string> = Extract<OpName, `${D}.${LaneName}`>;

/** Every declared `prefix.X` with a lane rule `X`, lowered lanewise. */
function lanewiseFamily<D extends "scalar" | "vector">(dialect: D): Record<LanewiseOf<D>, OpRule> {
  const out: Record<string, OpRule> = {};
  for (const name of namesWithPrefix(`${dialect}.`)) {
    const rule = laneRule(name.slice(dialect.length + 1));
    if (rule) out[name] = lanewise(rule);
  }
  // Built from the same name filter the type states.
  return out as Record<LanewiseOf<D>, OpRule>;
}

function indexRules(): Record<keyof typeof INDEX_RULE_NAMES extends infer S extends string ? `index.${S}` : never, OpRule> {
  const out: Record<string, OpRule> = {};
  for (const [n, rule] of Object.entries(INDEX_RULE_NAMES)) out[`index.${n}`] = lanewise(LANE_RULES[rule]);
  return out as ReturnType<typeof indexRules>;
}

export const ARITH_RULES = {
  "index.constant": constantRule,
  "scalar.constant": constantRule,
  "vector.constant": constantRule,
  ...lanewiseFamily("scalar"),
  ...indexRules(),
  ...lanewiseFamily("vector"),
  "vector.select": lanewise(selectLane),
  "scf.select": scfSelect,
  "index.assume": identityRule,
  "scalar.assume": identityRule,
} satisfies Partial<Record<OpName, OpRule>>;

/** Used by reductions: combine two scalars of type `t` with a combining kind. */
export function combine(cx: KernelLowering, op: Op, kind: string, t: Parameters<LaneRule>[0]["result"], a: number, b: number): number {
  const rule = laneRule(kind);
  if (!rule) throw new Error(`SPIR-V lowering: unknown combining kind '${kind}'`);
  return rule({ cx, op, args: [a, b], argTypes: [t, t], result: t });
}

