/**
 * `vector.*` ops that are not lanewise. Loom vectors are scalarized: a vector value is its
 * lanes in row-major order (any rank-1/2 shape, no SPIR-V vector types or size limits).
 * Dynamic lane indices become select chains (the rules shared with PTX and WGSL,
 * dialects/vector-lanes.ts, over SPIR-V ids). Drivers do not merge adjacent scalar accesses,
 * so a rank-1 load/store of 2 or 4 32-bit lanes whose element index is provably a multiple of
 * the lane count is one 8/16-byte access (memory-rules.ts, "wide accesses").
 */
import type { OpName } from "../../../dialects/registry.js";
import type { Op } from "../../../ir/core.js";
import type { VectorType } from "../../../ir/types.js";
import { laneIndices, vectorIota, vectorLaneRules, type VectorLanes } from "../../../dialects/vector-lanes.js";
import * as I from "../instructions.js";
import type { Id } from "../instructions.js";
import { BOOL, type ScalarType } from "../module.js";
import { Op as S } from "../spec.js";
import { combine } from "./arith-rules.js";
import { LANE_RULES } from "./lanes.js";
import type { KernelLowering, Lowered, OpRule } from "./context.js";
import { elementPointer, indexIds, widePointer } from "./memory-rules.js";

type VectorValue = Extract<Lowered, { kind: "vector" }>;

function shapeOf(op: Op, operand: number): readonly number[] {
  return (op.operands[operand]!.type as VectorType).shape;
}

function vectorOperand(cx: KernelLowering, op: Op, i: number): VectorValue | undefined {
  const l = cx.get(op.operands[i]!);
  return l.kind === "vector" ? l : undefined;
}

/** SPIR-V's lanes for the shared vector rules: ids, lane-index arithmetic in u64 (a dynamic lane index compares with OpIEqual). */
const LANES: VectorLanes<KernelLowering, Id, ScalarType, Lowered> = {
  scalar: (cx, v) => cx.scalar(v),
  vectorOf: (cx, v) => {
    const l = cx.get(v);
    return l.kind === "vector" ? { lanes: l.lanes, t: l.type } : undefined;
  },
  vector: (lanes, type) => ({ kind: "vector", lanes, type }),
  scalarValue: (id, type) => ({ kind: "scalar", id, type }),
  laneType: (cx, result) => cx.scalarType(result.type),
  index: (cx, n) => cx.u64(n),
  add: (cx, a, x) => cx.add64(a, x),
  mul: (cx, a, x) => cx.mul64(a, x),
  constant: (cx, offset) => cx.constValue(offset),
  equals: (cx, offset, k) => cx.binary(S.IEqual, BOOL, offset, cx.u64(k)),
  select: (cx, t, c, a, x) => cx.select(t, c, a, x),
  combine,
  fma: (cx, op, t, a, b, acc) => LANE_RULES.fmaf({ cx, op, args: [a, b, acc], from: t, to: t, dialect: "vector" }),
};

const load: OpRule = (cx, op) => {
  const view = cx.get(op.operands[0]!);
  if (view.kind !== "view") return cx.poison(op);
  const shape = (op.results[0]!.type as VectorType).shape;
  const origin = indexIds(cx, op);
  const wide = shape.length === 1 ? widePointer(cx, op, op.operands[0]!, view, origin, shape[0]!) : undefined;
  if (wide) {
    const whole = cx.module.id();
    cx.emit(I.load(wide.vectorType, whole, wide.ptr, wide.access));
    const parts = Array.from({ length: shape[0]! }, (_, lane) => {
      const id = cx.module.id();
      cx.emit(I.compositeExtract(cx.typeId(view.element), id, whole, [lane]));
      return id;
    });
    return cx.set(op.results[0]!, { kind: "vector", lanes: parts, type: view.element });
  }
  const lanes = laneIndices(origin, shape, (i, n) => cx.add64(i, cx.u64(n))).map((idx) => {
    const p = elementPointer(cx, view, idx);
    const id = cx.module.id();
    cx.emit(I.load(cx.typeId(view.element), id, p.ptr, p.access));
    return id;
  });
  cx.set(op.results[0]!, { kind: "vector", lanes, type: view.element });
};

const store: OpRule = (cx, op) => {
  const view = cx.get(op.operands[1]!);
  const v = vectorOperand(cx, op, 0);
  if (view.kind !== "view" || !v) return;
  const shape = shapeOf(op, 0);
  const origin = indexIds(cx, op);
  const wide = shape.length === 1 ? widePointer(cx, op, op.operands[1]!, view, origin, shape[0]!) : undefined;
  if (wide) {
    const whole = cx.module.id();
    cx.emit(I.compositeConstruct(wide.vectorType, whole, v.lanes));
    cx.emit(I.store(wide.ptr, whole, wide.access));
    return;
  }
  laneIndices(origin, shape, (i, n) => cx.add64(i, cx.u64(n))).forEach((idx, lane) => {
    const p = elementPointer(cx, view, idx);
    cx.emit(I.store(p.ptr, v.lanes[lane]!, p.access));
  });
};

export const VECTOR_RULES = {
  "vector.iota": vectorIota(LANES, (cx, t, n) => cx.int(t, n)),
  ...vectorLaneRules(LANES),
  "vector.load": load,
  "vector.store": store,
} satisfies Partial<Record<OpName, OpRule>>;

