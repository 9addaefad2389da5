/**
 * `vector.*` ops that are not lanewise. Loom vectors are scalarized: a vector value is its
 * lanes in row-major order (any shape; WGSL's `vecN` stops at 4 lanes and 1 axis), each lane
 * its own `let`. Dynamic lane indices become `select` chains; `vector.load`/`vector.store`
 * access each lane's element (docs/wgsl.md "Vectors").
 */
import type { Op } from "../../../ir/core.js";
import { indicesOf } from "../../../dialects/registry.js";
import type { VectorType } from "../../../ir/types.js";
import type { KernelLowering, Lowered, Rule, Scalar, VectorValue } from "./context.js";
import { combine, LANE_RULES, select } from "./lanes.js";
import { indexScalars, loadElement, storeElement, wordIndex } from "./rules-memory.js";

function shapeOf(op: Op, operand: number): readonly number[] {
  return (op.operands[operand]!.type as VectorType).shape;
}

function vectorOperand(cx: KernelLowering, op: Op, i: number): VectorValue | undefined {
  const l = cx.get(op.operands[i]!);
  return l.kind === "vector" ? l : undefined;
}

/** The tail slot the leading-axis indices select (in units of `tail` lanes), and the tail length. */
function leadingOffset(cx: KernelLowering, op: Op, shape: readonly number[]): { offset: Scalar; tail: number } {
  const idx = indicesOf(op);
  const tail = shape.slice(idx.length).reduce((a, x) => a * x, 1);
  let offset = cx.i32(0);
  idx.forEach((i, d) => {
    const stride = shape.slice(d + 1, idx.length).reduce((a, x) => a * x, 1);
    offset = cx.add(offset, cx.mul(typeof i === "bigint" ? cx.i32(i) : cx.scalar(i), cx.i32(stride)));
  });
  return { offset, tail };
}

const splat: Rule = (cx, op) => {
  const n = (op.results[0]!.type as VectorType).shape.reduce((a, x) => a * x, 1);
  const v = cx.scalar(op.operands[0]!);
  cx.set(op.results[0]!, { kind: "vector", lanes: new Array<Scalar>(n).fill(v), t: v.t });
};

const fromElements: Rule = (cx, op) => {
  cx.set(op.results[0]!, { kind: "vector", lanes: op.operands.map((v) => cx.scalar(v)), t: cx.typeOf(op.results[0]!) });
};

const extract: Rule = (cx, op) => {
  const v = vectorOperand(cx, op, 0);
  if (!v) return cx.poison(op);
  const { offset, tail } = leadingOffset(cx, op, shapeOf(op, 0));
  const count = v.lanes.length / tail;
  const lanes: Scalar[] = [];
  for (let r = 0; r < tail; r++) {
    if (offset.c !== undefined) {
      lanes.push(v.lanes[Number(offset.c) * tail + r]!);
      continue;
    }
    let acc = v.lanes[r]!;
    for (let k = 1; k < count; k++) acc = select(cx, cx.let("bool", `(${offset.e} == ${k}i)`), v.lanes[k * tail + r]!, acc);
    lanes.push(acc);
  }
  const result = op.results[0]!;
  cx.set(result, result.type.kind === "vector" ? { kind: "vector", lanes, t: v.t } : lanes[0]!);
};

const insert: Rule = (cx, op) => {
  const v = vectorOperand(cx, op, 1);
  const x = cx.get(op.operands[0]!);
  if (!v || x.kind === "invalid") return cx.poison(op);
  const parts = x.kind === "vector" ? x.lanes : [cx.scalar(op.operands[0]!)];
  const { offset, tail } = leadingOffset(cx, op, shapeOf(op, 1));
  const lanes = v.lanes.map((old, j) => {
    const slot = Math.floor(j / tail);
    if (offset.c !== undefined) return Number(offset.c) === slot ? parts[j % tail]! : old;
    return select(cx, cx.let("bool", `(${offset.e} == ${slot}i)`), parts[j % tail]!, old);
  });
  cx.set(op.results[0]!, { kind: "vector", lanes, t: v.t });
};

/** View indices of each lane: vector axes walk the trailing view axes from the origin. */
function laneIndices(cx: KernelLowering, origin: readonly Scalar[], shape: readonly number[]): Scalar[][] {
  const first = origin.length - shape.length;
  const count = shape.reduce((a, x) => a * x, 1);
  const out: Scalar[][] = [];
  // Lane `lane`'s step along axis a is its row-major digit (laneSteps, without its arrays).
  for (let lane = 0; lane < count; lane++) {
    const idx = origin.slice();
    let below = count;
    for (let a = 0; a < shape.length; a++) {
      const extent = shape[a] ?? 1;
      below /= extent;
      const step = Math.floor(lane / below) % extent;
      if (step !== 0) idx[first + a] = cx.add(idx[first + a]!, cx.i32(step));
    }
    out.push(idx);
  }
  return out;
}

const load: Rule = (cx, op) => {
  const view = cx.get(op.operands[0]!);
  if (view.kind !== "view") return cx.poison(op);
  const shape = (op.results[0]!.type as VectorType).shape;
  const lanes = laneIndices(cx, indexScalars(cx, op), shape).map((idx) => loadElement(cx, view, wordIndex(cx, view, idx)));
  cx.set(op.results[0]!, { kind: "vector", lanes, t: view.element });
};

const store: Rule = (cx, op) => {
  const view = cx.get(op.operands[1]!);
  const v = vectorOperand(cx, op, 0);
  if (view.kind !== "view" || !v) return;
  laneIndices(cx, indexScalars(cx, op), shapeOf(op, 0)).forEach((idx, lane) => storeElement(cx, view, wordIndex(cx, view, idx), v.lanes[lane]!));
};

/** Strict left fold `((init ⊕ l₀) ⊕ l₁) …` in lane order. */
const reduce: Rule = (cx, op) => {
  const v = vectorOperand(cx, op, 0);
  if (!v) return cx.poison(op);
  const kind = String(op.props.kind);
  let acc = cx.scalar(op.operands[1]!);
  for (const lane of v.lanes) acc = combine(cx, op, kind, v.t, acc, lane);
  cx.set(op.results[0]!, acc);
};

/** `acc = fma(a[i], b[i], acc)` in lane order (one rounding per lane). */
const dotf: Rule = (cx, op) => {
  const a = vectorOperand(cx, op, 0), b = vectorOperand(cx, op, 1);
  if (!a || !b) return cx.poison(op);
  let acc = cx.scalar(op.operands[2]!);
  a.lanes.forEach((x, i) => {
    acc = LANE_RULES.fmaf!({ cx, op, args: [x, b.lanes[i]!, acc], from: a.t, to: a.t, dialect: "vector" });
  });
  cx.set(op.results[0]!, acc);
};

/** Lane i = base + i·step, wrapping (32-bit here, like every index value on this target). */
const iota: Rule = (cx, op) => {
  const result = op.results[0]!;
  const t = cx.typeOf(result);
  const base = cx.scalar(op.operands[0]!), step = cx.scalar(op.operands[1]!);
  const n = (result.type as VectorType).shape.reduce((x, y) => x * y, 1);
  const lanes: Scalar[] = [];
  for (let i = 0; i < n; i++) lanes.push(i === 0 ? base : cx.add(base, cx.mul(step, cx.int(t, i))));
  cx.set(result, { kind: "vector", lanes, t } satisfies Lowered);
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
} as const satisfies Record<string, Rule>;
