/**
 * `vector.*` ops that are not lanewise. Loom vectors are scalarized: a vector value is its
 * lanes in row-major order (any rank-1/2 shape). Dynamic lane indices become select chains.
 * A rank-1 `vector.load`/`vector.store` of 2 or 4 lanes along a unit-stride axis whose
 * address is proven aligned to the whole vector uses one `ld/st.<space>.v2|v4` (e.g.
 * `ld.global.nc.v4.f32`, the 128-bit load); otherwise each lane is its own access.
 */
import type { Op } from "../../../ir/core.js";
import type { VectorType } from "../../../ir/types.js";
import { BYTES, type KernelLowering, type Lowered, type Rule, type Scalar } from "./context.js";
import { LANE_RULES, select } from "./lanes.js";
import { scalarLanes, type LaneIndexing } from "../../../dialects/lanewise.js";
import { laneIndices, vectorIota, vectorLaneRules } from "../../../dialects/vector-lanes.js";
import { elementAddress, elementAlignment, indexMultiples, indexScalars, loadElement, memoryType, storeElement, type ViewValue } from "./rules-memory.js";

type VectorValue = Extract<Lowered, { kind: "vector" }>;

function shapeOf(op: Op, operand: number): readonly number[] {
  return (op.operands[operand]!.type as VectorType).shape;
}

function vectorOperand(cx: KernelLowering, op: Op, i: number): VectorValue | undefined {
  const l = cx.get(op.operands[i]!);
  return l.kind === "vector" ? l : undefined;
}

/** Lane-index arithmetic in the 64-bit index carrier (dynamic lane indices compare with `setp.eq.s64`). */
const INDEXING: LaneIndexing<KernelLowering, Scalar> = {
  scalar: (cx, v) => cx.scalar(v),
  index: (cx, n) => cx.i64(n),
  add: (cx, a, x) => cx.add64(a, x),
  mul: (cx, a, x) => cx.mul64(a, x),
  equals: (cx, offset, k) => cx.op("setp.eq.s64", "pred", offset, String(k)),
  select,
};

/** Whether `view[origin … origin + n)` along the last axis can be one vector access. */
function vectorizable(cx: KernelLowering, op: Op, view: ViewValue, shape: readonly number[]): boolean {
  const n = shape.reduce((a, x) => a * x, 1);
  if (shape.length !== 1 || (n !== 2 && n !== 4) || n * BYTES[view.element] > 16 || BYTES[view.element] < 4) return false;
  const last = view.strides[view.strides.length - 1];
  if (last?.c !== 1n) return false;
  return elementAlignment(view, indexMultiples(cx, op)) >= n * BYTES[view.element];
}

const load: Rule = (cx, op) => {
  const view = cx.get(op.operands[0]!);
  if (view.kind !== "view") return cx.poison(op);
  const shape = (op.results[0]!.type as VectorType).shape;
  const origin = indexScalars(cx, op);
  if (vectorizable(cx, op, view, shape)) {
    const lanes = Array.from({ length: shape[0]! }, () => cx.reg(view.element));
    const nc = view.space === "global" && cx.ncLoads.has(op) ? ".nc" : "";
    cx.ins(`ld.${view.space}${nc}.v${lanes.length}.${memoryType(view.element, true)}`, `{${lanes.map((l) => l.r).join(", ")}}`, `[${elementAddress(cx, view, origin).r}]`);
    return cx.set(op.results[0]!, { kind: "vector", lanes, t: view.element });
  }
  const lanes = laneIndices(origin, shape, (i, n) => cx.add64(i, cx.i64(n))).map((idx) => loadElement(cx, op, view, elementAddress(cx, view, idx)));
  cx.set(op.results[0]!, { kind: "vector", lanes, t: view.element });
};

const store: Rule = (cx, op) => {
  const view = cx.get(op.operands[1]!);
  const v = vectorOperand(cx, op, 0);
  if (view.kind !== "view" || !v) return;
  const shape = shapeOf(op, 0);
  const origin = indexScalars(cx, op);
  if (vectorizable(cx, op, view, shape)) {
    const lanes = v.lanes.map((l) => cx.inReg(l).r);
    cx.ins(`st.${view.space}.v${lanes.length}.${memoryType(view.element, false)}`, `[${elementAddress(cx, view, origin).r}]`, `{${lanes.join(", ")}}`);
    return;
  }
  laneIndices(origin, shape, (i, n) => cx.add64(i, cx.i64(n))).forEach((idx, lane) => storeElement(cx, view, elementAddress(cx, view, idx), v.lanes[lane]!));
};

const LANES = scalarLanes(INDEXING, LANE_RULES);

export const VECTOR_RULES = {
  "vector.iota": vectorIota(LANES, (cx, t, n) => cx.int(t, n)),
  ...vectorLaneRules(LANES),
  "vector.load": load,
  "vector.store": store,
} as const satisfies Record<string, Rule>;
