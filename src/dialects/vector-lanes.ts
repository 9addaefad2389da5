/**
 * The vector rules every back end that scalarizes vectors shares — `vector.splat`,
 * `vector.from_elements`, `vector.extract`, `vector.insert`, `vector.reduce` and `vector.dotf`
 * — over the back end's own lane (`L`: a register, an expression, a SPIR-V id) and element type
 * (`T`): a vector value is its lanes in row-major order; constant lane indices pick lanes,
 * dynamic ones become `select` chains; a reduction is the strict left fold
 * `((init ⊕ l₀) ⊕ l₁) …`, a dot product `acc = fma(a[i], b[i], acc)` in lane order (one
 * rounding per lane). Also the view indices of each lane of a vector access.
 */
import type { Op, Value } from "../ir/core.js";
import { laneSteps } from "../ir/types.js";
import { indicesOf } from "./registry.js";

/** The ops `vectorLaneRules` lowers. */
export type VectorLaneOp = "vector.splat" | "vector.from_elements" | "vector.extract" | "vector.insert" | "vector.reduce" | "vector.dotf";

/** What the shared vector rules need from a back end's context (`V` its lowered value). */
export interface VectorLaneContext<V> {
  get(v: Value): { readonly kind: string };
  poison(op: Op): void;
  set(v: Value, lowered: V): void;
}

/** A back end's lanes: how it reads and makes lowered values of them, and the lane arithmetic the rules emit. */
export interface VectorLanes<C, L, T, V> {
  /** The lowered scalar of an operand, as a lane. */
  scalar(cx: C, v: Value): L;
  /** The lanes and element type of a lowered vector; undefined for any other value. */
  vectorOf(cx: C, v: Value): { readonly lanes: readonly L[]; readonly t: T } | undefined;
  /** The lowered vector of `lanes`, and the lowered scalar of one lane. */
  vector(lanes: readonly L[], t: T): V;
  scalarValue(lane: L, t: T): V;
  /** The element type of a `vector.splat` (of `lane`) or `vector.from_elements` result. */
  laneType(cx: C, result: Value, lane?: L): T;
  /** An index constant, index arithmetic, and the value of a constant index (undefined when dynamic). */
  index(cx: C, n: bigint | number): L;
  add(cx: C, a: L, x: L): L;
  mul(cx: C, a: L, x: L): L;
  constant(cx: C, offset: L): bigint | undefined;
  /** The condition `offset == k`, and `c ? a : x` on lanes of type `t`. */
  equals(cx: C, offset: L, k: number): L;
  select(cx: C, t: T, c: L, a: L, x: L): L;
  /** `a ⊕ x` for a combining kind (`addf`, `maxsi`, …), and `fma(a, b, acc)`. */
  combine(cx: C, op: Op, kind: string, t: T, a: L, x: L): L;
  fma(cx: C, op: Op, t: T, a: L, b: L, acc: L): L;
}

/** The shared vector rules over one back end's lanes. */
export function vectorLaneRules<C extends VectorLaneContext<V>, L, T, V = unknown>(ix: VectorLanes<C, L, T, V>): Record<VectorLaneOp, (cx: C, op: Op) => void> {
  const lanesOf = (v: Value): number => (v.type.kind === "vector" ? v.type.shape.reduce((a, x) => a * x, 1) : 1);
  const shapeOf = (v: Value | undefined): readonly number[] => (v?.type.kind === "vector" ? v.type.shape : []);
  const vectorOf = (cx: C, v: Value | undefined) => (v ? ix.vectorOf(cx, v) : undefined);
  /** The tail slot the leading-axis indices select (in units of `tail` lanes), and the tail length. */
  const leadingOffset = (cx: C, op: Op, shape: readonly number[]): { offset: L; tail: number } => {
    const idx = indicesOf(op);
    const tail = shape.slice(idx.length).reduce((a, x) => a * x, 1);
    let offset = ix.index(cx, 0);
    idx.forEach((i, d) => {
      const stride = shape.slice(d + 1, idx.length).reduce((a, x) => a * x, 1);
      offset = ix.add(cx, offset, ix.mul(cx, typeof i === "bigint" ? ix.index(cx, i) : ix.scalar(cx, i), ix.index(cx, stride)));
    });
    return { offset, tail };
  };
  return {
    "vector.splat": (cx, op) => {
      const [x] = op.operands, [result] = op.results;
      if (!x || !result) return cx.poison(op);
      const v = ix.scalar(cx, x);
      cx.set(result, ix.vector(new Array<L>(lanesOf(result)).fill(v), ix.laneType(cx, result, v)));
    },
    "vector.from_elements": (cx, op) => {
      const [result] = op.results;
      if (!result) return;
      const lanes = op.operands.map((v) => ix.scalar(cx, v));
      cx.set(result, ix.vector(lanes, ix.laneType(cx, result)));
    },
    "vector.extract": (cx, op) => {
      const [source] = op.operands, [result] = op.results;
      const v = vectorOf(cx, source);
      if (!v || !result) return cx.poison(op);
      const { offset, tail } = leadingOffset(cx, op, shapeOf(source));
      const c = ix.constant(cx, offset);
      const count = v.lanes.length / tail;
      const lanes: L[] = [];
      for (let r = 0; r < tail; r++) {
        if (c !== undefined) {
          lanes.push(laneAt(v.lanes, Number(c) * tail + r));
          continue;
        }
        let acc = laneAt(v.lanes, r);
        for (let k = 1; k < count; k++) acc = ix.select(cx, v.t, ix.equals(cx, offset, k), laneAt(v.lanes, k * tail + r), acc);
        lanes.push(acc);
      }
      cx.set(result, result.type.kind === "vector" ? ix.vector(lanes, v.t) : ix.scalarValue(laneAt(lanes, 0), v.t));
    },
    "vector.insert": (cx, op) => {
      const [inserted, target] = op.operands, [result] = op.results;
      const v = vectorOf(cx, target);
      if (!v || !inserted || !result || cx.get(inserted).kind === "invalid") return cx.poison(op);
      const parts = ix.vectorOf(cx, inserted)?.lanes ?? [ix.scalar(cx, inserted)];
      const { offset, tail } = leadingOffset(cx, op, shapeOf(target));
      const c = ix.constant(cx, offset);
      const lanes = v.lanes.map((old, j) => {
        const slot = Math.floor(j / tail);
        if (c !== undefined) return Number(c) === slot ? laneAt(parts, j % tail) : old;
        return ix.select(cx, v.t, ix.equals(cx, offset, slot), laneAt(parts, j % tail), old);
      });
      cx.set(result, ix.vector(lanes, v.t));
    },
    "vector.reduce": (cx, op) => {
      const [source, init] = op.operands, [result] = op.results;
      const v = vectorOf(cx, source);
      if (!v || !init || !result) return cx.poison(op);
      const kind = String(op.props.kind);
      let acc = ix.scalar(cx, init);
      for (const lane of v.lanes) acc = ix.combine(cx, op, kind, v.t, acc, lane);
      cx.set(result, ix.scalarValue(acc, v.t));
    },
    "vector.dotf": (cx, op) => {
      const [a, b, init] = op.operands, [result] = op.results;
      const va = vectorOf(cx, a), vb = vectorOf(cx, b);
      if (!va || !vb || !init || !result) return cx.poison(op);
      let acc = ix.scalar(cx, init);
      va.lanes.forEach((x, i) => {
        acc = ix.fma(cx, op, va.t, x, laneAt(vb.lanes, i), acc);
      });
      cx.set(result, ix.scalarValue(acc, va.t));
    },
  };
}

/**
 * `vector.iota`: lane i = base + i·step, wrapping like the back end's `muli` and `addi` lane
 * rules (the index domain is 64-bit); `int` makes the integer constant i of the element type.
 */
export function vectorIota<C extends VectorLaneContext<V>, L, T, V>(ix: VectorLanes<C, L, T, V>, int: (cx: C, t: T, n: bigint) => L): (cx: C, op: Op) => void {
  return (cx, op) => {
    const [base, step] = op.operands, [result] = op.results;
    if (!base || !step || !result) return cx.poison(op);
    const t = ix.laneType(cx, result);
    const first = ix.scalar(cx, base), by = ix.scalar(cx, step);
    const n = result.type.kind === "vector" ? result.type.shape.reduce((a, x) => a * x, 1) : 1;
    const lanes: L[] = [];
    for (let i = 0; i < n; i++) lanes.push(i === 0 ? first : ix.combine(cx, op, "addi", t, first, ix.combine(cx, op, "muli", t, by, int(cx, t, BigInt(i)))));
    cx.set(result, ix.vector(lanes, t));
  };
}

/**
 * View indices of each lane of a vector access of `shape` at `origin`: the vector axes walk
 * the trailing view axes, `step(i, n)` adding `n` to the index `i` (last axis first, the
 * instruction order the back ends have always emitted).
 */
export function laneIndices<S>(origin: readonly S[], shape: readonly number[], step: (index: S, n: number) => S): S[][] {
  const first = origin.length - shape.length;
  return laneSteps(shape).map((steps) => {
    const idx = [...origin];
    for (let a = steps.length - 1; a >= 0; a--) {
      const n = steps[a] ?? 0;
      if (n !== 0) idx[first + a] = step(laneAt(idx, first + a), n);
    }
    return idx;
  });
}

/** Lane `i` of a scalarized vector (lane indices come from the verified shape). */
function laneAt<S>(lanes: readonly S[], i: number): S {
  const lane = lanes[i];
  if (lane === undefined) throw new Error(`lanewise lowering: lane ${i} of ${lanes.length}`);
  return lane;
}
