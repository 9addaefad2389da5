/**
 * `vector.*` ops that are not lanewise. Loom vectors are scalarized: a vector value is its
 * lanes in row-major order (any shape; WGSL's `vecN` stops at 4 lanes and 1 axis), each lane
 * its own `let`. Dynamic lane indices become `select` chains; `vector.load`/`vector.store`
 * access each lane's element (docs/wgsl.md "Vectors").
 */
import type { Op } from "../../../ir/core.js";
import type { VectorType } from "../../../ir/types.js";
import type { KernelLowering, Lowered, Rule, Scalar, VectorValue, ViewValue } from "./context.js";
import { LANE_RULES, select } from "./lanes.js";
import { scalarizedVectorRules, type LaneIndexing } from "../../../dialects/lanewise.js";
import { indexScalars, loadElement, storeElement, wordIndex } from "./rules-memory.js";

function shapeOf(op: Op, operand: number): readonly number[] {
  return (op.operands[operand]!.type as VectorType).shape;
}

function vectorOperand(cx: KernelLowering, op: Op, i: number): VectorValue | undefined {
  const l = cx.get(op.operands[i]!);
  return l.kind === "vector" ? l : undefined;
}

/** Lane-index arithmetic in 32 bits, like every index value on this target. */
const INDEXING: LaneIndexing<KernelLowering, Scalar> = {
  scalar: (cx, v) => cx.scalar(v),
  index: (cx, n) => cx.i32(n),
  add: (cx, a, x) => cx.add(a, x),
  mul: (cx, a, x) => cx.mul(a, x),
  equals: (cx, offset, k) => cx.let("bool", `(${offset.e} == ${k}i)`),
  select,
};

/**
 * The word index of each lane of a vector access at `origin`: the vector axes walk the trailing
 * view axes, so lane ℓ is the origin's word plus Σ stepₐ·strideₐ (its row-major digits times
 * the view strides; the same sum in 32-bit wrapping arithmetic as indexing each lane). The
 * origin's word is computed once (a `let` when several lanes read it), each lane's word is
 * an inline expression its one access reads.
 */
function laneWords(cx: KernelLowering, view: ViewValue, origin: readonly Scalar[], shape: readonly number[]): Scalar[] {
  const first = origin.length - shape.length;
  const count = shape.reduce((a, x) => a * x, 1);
  const at = wordIndex(cx, view, origin);
  const base = count > 1 ? cx.settle(at) : at;
  const words = [base];
  const zero = cx.i32(0);
  for (let lane = 1; lane < count; lane++) {
    let offset = zero;
    let below = count;
    for (let a = 0; a < shape.length; a++) {
      const extent = shape[a]!;
      below /= extent;
      // A zero step folds away (as a zero product and a zero term).
      offset = cx.inline(offset, "+", cx.inline(view.strides[first + a]!, "*", cx.i32(Math.floor(lane / below) % extent)));
    }
    words.push(cx.inline(base, "+", offset));
  }
  return words;
}

const load: Rule = (cx, op) => {
  const view = cx.get(op.operands[0]!);
  if (view.kind !== "view") return cx.poison(op);
  const lanes = laneWords(cx, view, indexScalars(cx, op), (op.results[0]!.type as VectorType).shape).map((at) => loadElement(cx, view, at));
  cx.set(op.results[0]!, { kind: "vector", lanes, t: view.element });
};

const store: Rule = (cx, op) => {
  const view = cx.get(op.operands[1]!);
  const v = vectorOperand(cx, op, 0);
  if (view.kind !== "view" || !v) return;
  laneWords(cx, view, indexScalars(cx, op), shapeOf(op, 0)).forEach((at, lane) => storeElement(cx, view, at, v.lanes[lane]!));
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
  "vector.iota": iota,
  ...scalarizedVectorRules(INDEXING, LANE_RULES),
  "vector.load": load,
  "vector.store": store,
} as const satisfies Record<string, Rule>;
