/**
 * `vector.*` ops that are not lanewise. Loom vectors are scalarized: a vector value is its
 * lanes in row-major order (any rank-1/2 shape, no SPIR-V vector types or size limits).
 * Dynamic lane indices become select chains. Drivers do not merge adjacent scalar accesses,
 * so a rank-1 load/store of 2 or 4 32-bit lanes whose element index is provably a multiple of
 * the lane count is one 8/16-byte access (memory-rules.ts, "wide accesses").
 */
import type { OpName } from "../../../dialects/registry.js";
import type { Op } from "../../../ir/core.js";
import { indicesOf } from "../../../dialects/registry.js";
import type { VectorType } from "../../../ir/types.js";
import { laneIndices } from "../../../dialects/lanewise.js";
import * as I from "../instructions.js";
import type { Id } from "../instructions.js";
import { BOOL } from "../module.js";
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

/** Which tail slot the leading-axis indices select (in units of `tail` lanes), and the tail length. */
function leadingOffset(cx: KernelLowering, op: Op, shape: readonly number[]): { offset: Id; constant?: number; tail: number } {
  const idx = indicesOf(op);
  const tail = shape.slice(idx.length).reduce((a, b) => a * b, 1);
  let offset = cx.u64(0);
  idx.forEach((i, d) => {
    const stride = shape.slice(d + 1, idx.length).reduce((a, b) => a * b, 1);
    offset = cx.add64(offset, cx.mul64(typeof i === "bigint" ? cx.u64(i) : cx.scalar(i), cx.u64(stride)));
  });
  const c = cx.constValue(offset);
  return c === undefined ? { offset, tail } : { offset, constant: Number(c), tail };
}

const splat: OpRule = (cx, op) => {
  const t = cx.scalarType(op.results[0]!.type);
  const n = (op.results[0]!.type as VectorType).shape.reduce((a, b) => a * b, 1);
  cx.set(op.results[0]!, { kind: "vector", lanes: new Array<Id>(n).fill(cx.scalar(op.operands[0]!)), type: t });
};

const fromElements: OpRule = (cx, op) => {
  cx.set(op.results[0]!, { kind: "vector", lanes: op.operands.map((v) => cx.scalar(v)), type: cx.scalarType(op.results[0]!.type) });
};

const extract: OpRule = (cx, op) => {
  const v = vectorOperand(cx, op, 0);
  if (!v) return cx.poison(op);
  const { offset, constant, tail } = leadingOffset(cx, op, shapeOf(op, 0));
  const count = v.lanes.length / tail;
  const lanes: Id[] = [];
  for (let r = 0; r < tail; r++) {
    if (constant !== undefined) {
      lanes.push(v.lanes[constant * tail + r]!);
      continue;
    }
    let acc = v.lanes[r]!;
    for (let k = 1; k < count; k++) acc = cx.select(v.type, cx.binary(S.IEqual, BOOL, offset, cx.u64(k)), v.lanes[k * tail + r]!, acc);
    lanes.push(acc);
  }
  const result = op.results[0]!;
  cx.set(result, result.type.kind === "vector" ? { kind: "vector", lanes, type: v.type } : { kind: "scalar", id: lanes[0]!, type: v.type });
};

const insert: OpRule = (cx, op) => {
  const v = vectorOperand(cx, op, 1);
  const x = cx.get(op.operands[0]!);
  if (!v || x.kind === "invalid") return cx.poison(op);
  const parts = x.kind === "vector" ? x.lanes : [cx.scalar(op.operands[0]!)];
  const { offset, constant, tail } = leadingOffset(cx, op, shapeOf(op, 1));
  const lanes = v.lanes.map((old, j) => {
    const slot = Math.floor(j / tail);
    if (constant !== undefined) return slot === constant ? parts[j % tail]! : old;
    return cx.select(v.type, cx.binary(S.IEqual, BOOL, offset, cx.u64(slot)), parts[j % tail]!, old);
  });
  cx.set(op.results[0]!, { kind: "vector", lanes, type: v.type });
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

/** Strict left fold `((init ⊕ l₀) ⊕ l₁) …` in lane order. */
const reduce: OpRule = (cx, op) => {
  const v = vectorOperand(cx, op, 0);
  if (!v) return cx.poison(op);
  const kind = String(op.props.kind);
  let acc = cx.scalar(op.operands[1]!);
  for (const lane of v.lanes) acc = combine(cx, op, kind, v.type, acc, lane);
  cx.set(op.results[0]!, { kind: "scalar", id: acc, type: v.type });
};

/** `acc = fma(a[i], b[i], acc)` in lane order, starting from the accumulator operand. */
const dotf: OpRule = (cx, op) => {
  const a = vectorOperand(cx, op, 0), b = vectorOperand(cx, op, 1);
  if (!a || !b) return cx.poison(op);
  const t = a.type;
  let acc = cx.scalar(op.operands[2]!);
  a.lanes.forEach((x, i) => {
    acc = LANE_RULES.fmaf({ cx, op, args: [x, b.lanes[i]!, acc], argTypes: [t, t, t], result: t });
  });
  cx.set(op.results[0]!, { kind: "scalar", id: acc, type: t });
};

/** Lane i = base + i·step (integer wrap-around; the index domain is 64-bit). */
const iota: OpRule = (cx, op) => {
  const result = op.results[0]!;
  const t = cx.scalarType(result.type);
  const base = cx.scalar(op.operands[0]!), step = cx.scalar(op.operands[1]!);
  const n = (result.type as VectorType).shape.reduce((x, y) => x * y, 1);
  const lanes: Id[] = [];
  for (let i = 0; i < n; i++) lanes.push(i === 0 ? base : cx.binary(S.IAdd, t, base, cx.binary(S.IMul, t, step, cx.int(t, BigInt(i)))));
  cx.set(result, { kind: "vector", lanes, type: t });
};

export const VECTOR_RULES = {
  "vector.dotf": dotf,
  "vector.iota": iota,
  "vector.splat": splat,
  "vector.from_elements": fromElements,
  "vector.extract": extract,
  "vector.insert": insert,
  "vector.load": load,
  "vector.store": store,
  "vector.reduce": reduce,
} satisfies Partial<Record<OpName, OpRule>>;

