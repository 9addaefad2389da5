/**
 * Op rules for values: constants, `index.*`, `scalar.*`, lanewise `vector.*`, `scf.select`
 * and the assume ops (identities: their facts were used by earlier passes). Lanewise ops on
 * vectors apply the scalar lane rule to each lane; a scalar operand is broadcast.
 */
import type { Op } from "../../../ir/core.js";
import { Op as S } from "../spec.js";
import type { KernelLowering, Lowered, OpRule } from "./context.js";
import { INDEX_RULE_NAMES, LANE_RULES, type LaneName, type LaneRule } from "./lanes.js";
import type { OpName } from "../../../dialects/registry.js";
import { numericLiteral } from "../../../dialects/lowering.js";
import { carriedLanewise, combineLanes, lanewiseTable, type LaneCarrier } from "../../../dialects/lanewise.js";
import type { Id } from "../instructions.js";
import type { ScalarType } from "../module.js";

type ScalarValue = Extract<Lowered, { kind: "scalar" }>;
type VectorValue = Extract<Lowered, { kind: "vector" }>;

/** SPIR-V's lanes for the lanewise driver: ids (an operand that is neither a scalar nor a vector gives a fresh, unused one). */
const CARRIER: LaneCarrier<KernelLowering, Id, ScalarType, Lowered> = {
  lane: (cx, l, i) => (l.kind === "vector" ? (l as VectorValue).lanes[i]! : l.kind === "scalar" ? (l as ScalarValue).id : cx.module.id()),
  scalar: (id, type) => ({ kind: "scalar", id, type }),
  vector: (lanes, type) => ({ kind: "vector", lanes, type }),
};

/** Applies a lane rule to a scalar op, or lane by lane to a vector op (dialects/lanewise.ts's driver). */
export function lanewise(rule: LaneRule): OpRule {
  return carriedLanewise(rule, CARRIER);
}

const selectLane: LaneRule = ({ cx, args: [c, a, b], to }) => cx.select(to, c!, a!, b!);

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

/** The ops of a lane rule: `scalar.X` and `vector.X` for a rule `X`, `index.*` through INDEX_RULE_NAMES. */
type LanewiseOp = Extract<OpName, `${"scalar" | "vector"}.${LaneName}`> | `index.${keyof typeof INDEX_RULE_NAMES}`;

export const ARITH_RULES = {
  "index.constant": constantRule,
  "scalar.constant": constantRule,
  "vector.constant": constantRule,
  // Built from the registry with the same name filter the type states.
  ...(lanewiseTable(LANE_RULES, INDEX_RULE_NAMES, lanewise) as Record<LanewiseOp, OpRule>),
  "vector.select": lanewise(selectLane),
  "scf.select": scfSelect,
  "index.assume": identityRule,
  "scalar.assume": identityRule,
} satisfies Partial<Record<OpName, OpRule>>;

/** Used by reductions: combine two scalars of type `t` with a combining kind. */
export function combine(cx: KernelLowering, op: Op, kind: string, t: ScalarType, a: Id, b: Id): Id {
  return combineLanes(LANE_RULES, cx, op, kind, t, a, b);
}
