/**
 * The lanewise part of a lowering table, shared by back ends that scalarize vectors:
 * a back end writes one lane rule per scalar semantics (`addi`, `cmpf`, …) and this module
 * applies it to `scalar.<name>`, `index.<op>` and `vector.<name>` — once for a scalar op, lane by
 * lane for a vector op, with scalar operands broadcast. Which ops exist comes from the registry,
 * so a new lanewise op needs only its lane rule.
 */
import type { Op, Value } from "../ir/core.js";
import { laneSteps } from "../ir/types.js";
import { indicesOf, opInfo, type OpName } from "./registry.js";

/** `index.*` op suffix → the lane rule that computes it (index ops are signed; offset only adds and compares). */
export const INDEX_LANE_RULES: Readonly<Record<string, string>> = {
  add: "addi", sub: "subi", mul: "muli", div: "divsi", rem: "remsi", min: "minsi", max: "maxsi", madd: "madd", scale: "scale",
  andi: "andi", ori: "ori", xori: "xori", shli: "shli", shrsi: "shrsi", shrui: "shrui", rotli: "rotli", rotri: "rotri",
  ctlzi: "ctlzi", cttzi: "cttzi", ctpopi: "ctpopi", cmp: "cmpi", cast: "cast",
};

/** Lanes of the first vector among an op's results and operands; undefined for a scalar op. */
export function laneCount(op: Op): number | undefined {
  for (const v of op.results) if (v.type.kind === "vector") return v.type.shape.reduce((a, x) => a * x, 1);
  for (const v of op.operands) if (v.type.kind === "vector") return v.type.shape.reduce((a, x) => a * x, 1);
  return undefined;
}

/** What a lane rule sees: the operands' lanes, the deciding operand type, the result type, and the op's dialect. */
export interface LaneInput<C, S, T> {
  readonly cx: C;
  readonly op: Op;
  readonly args: readonly S[];
  /** The operand type that decides the instruction (the second operand of a select), and the result type. */
  readonly from: T;
  readonly to: T;
  /** The op's family (`index`, `scalar`, `vector`). */
  readonly dialect: string;
}

/** What the lanewise driver needs from a back end's per-kernel context (`S` is its scalar). */
export interface LanewiseContext<S, T> {
  get(v: Value): { readonly kind: string };
  typeOf(v: Value): T;
  poison(op: Op): void;
  set(v: Value, lowered: S | { readonly kind: "vector"; readonly lanes: readonly S[]; readonly t: T }): void;
}

/** The dialect of each op name seen (a slice of the name would allocate a string per op). */
const DIALECT_OF = new Map<string, string>();

function dialectOf(name: string): string {
  let d = DIALECT_OF.get(name);
  if (d === undefined) DIALECT_OF.set(name, (d = name.slice(0, name.indexOf("."))));
  return d;
}

/** Lane `i` of each input (a non-vector input is the same in every lane). */
export function laneOf<S>(inputs: readonly { readonly kind: string }[], i: number): S[] {
  const args = new Array<S>(inputs.length);
  let j = 0;
  for (const l of inputs) {
    args[j++] = l.kind === "vector" ? (l as { readonly kind: string; readonly lanes: readonly S[] }).lanes[i]! : (l as S);
  }
  return args;
}

/** The table rule applying `rule` to a scalar op, or lane by lane to a vector op. */
export function lanewise<C extends LanewiseContext<S, T>, S extends { readonly kind: "scalar" }, T>(rule: (l: LaneInput<C, S, T>) => S): (cx: C, op: Op) => void {
  // Runs once per op: no closures; a scalar op's lowered operands are its lane arguments as they are.
  return (cx, op) => {
    const operands = op.operands;
    const inputs = new Array<{ readonly kind: string }>(operands.length);
    let invalid = false;
    let at = 0;
    for (const v of operands) {
      const l = cx.get(v);
      if (l.kind === "invalid") invalid = true;
      inputs[at++] = l;
    }
    if (invalid) return cx.poison(op);
    const result = op.results[0]!;
    const to = cx.typeOf(result);
    const from = cx.typeOf(op.operands[op.name.endsWith("select") ? 1 : 0]!);
    const dialect = dialectOf(op.name);
    const n = laneCount(op);
    if (n === undefined) return cx.set(result, rule({ cx, op, args: inputs as readonly unknown[] as readonly S[], from, to, dialect }));
    const lanes: S[] = [];
    for (let i = 0; i < n; i++) lanes.push(rule({ cx, op, args: laneOf<S>(inputs, i), from, to, dialect }));
    cx.set(result, { kind: "vector", lanes, t: to });
  };
}

/**
 * The table entries of every registered `scalar.<name>`, `index.<op>` (through `indexRules`,
 * default INDEX_LANE_RULES) and `vector.<name>` op that one of `laneRules` computes.
 */
export function lanewiseEntries<C extends LanewiseContext<S, T>, S extends { readonly kind: "scalar" }, T>(
  laneRules: Readonly<Record<string, (l: LaneInput<C, S, T>) => S>>,
  indexRules: Readonly<Record<string, string>> = INDEX_LANE_RULES,
): Partial<Record<OpName, (cx: C, op: Op) => void>> {
  const entries: Partial<Record<OpName, (cx: C, op: Op) => void>> = {};
  const wrapped = new Map<string, (cx: C, op: Op) => void>();
  const ruleFor = (name: string) => {
    const rule = laneRules[name];
    if (!rule) throw new Error(`lanewise lowering: no lane rule '${name}'`);
    let w = wrapped.get(name);
    if (!w) wrapped.set(name, (w = lanewise(rule)));
    return w;
  };
  for (const name of Object.keys(laneRules)) if (opInfo(`scalar.${name}`)) entries[`scalar.${name}` as OpName] = ruleFor(name);
  for (const [suffix, name] of Object.entries(indexRules)) entries[`index.${suffix}` as OpName] = ruleFor(name);
  for (const name of Object.keys(laneRules)) if (opInfo(`vector.${name}`)) entries[`vector.${name}` as OpName] = ruleFor(name);
  return entries;
}

/** `a ⊕ x` for a combining kind (`addf`, `maxsi`, …) through the back end's lane rule of that name (reductions, scans). */
export function combineLanes<C, S, T>(laneRules: Readonly<Record<string, (l: LaneInput<C, S, T>) => S>>, cx: C, op: Op, kind: string, t: T, a: S, x: S): S {
  const rule = laneRules[kind];
  if (!rule) throw new Error(`lanewise lowering: unknown combining kind '${kind}'`);
  return rule({ cx, op, args: [a, x], from: t, to: t, dialect: "scalar" });
}

/**
 * What `index.cast` (language.md §4.2) does to the value: between index and offset nothing
 * ("same"); into them a sign (index) or zero (offset) extension, an i1 becoming 0/1 ("bool");
 * out of them a truncation.
 */
export function indexCastKind(op: Op): "same" | "bool" | "sext" | "zext" | "trunc" {
  const [from] = op.operands, [to] = op.results;
  const fromName = from?.type.kind === "prim" ? from.type.name : "", toName = to?.type.kind === "prim" ? to.type.name : "";
  const isAddr = (n: string) => n === "index" || n === "offset";
  if (!isAddr(toName)) return "trunc";
  return isAddr(fromName) ? "same" : fromName === "i1" ? "bool" : toName === "index" ? "sext" : "zext";
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

/** What the scalarized vector rules need from a back end: its scalars, and lane-index arithmetic in its index carrier. */
export interface LaneIndexing<C, S> {
  /** The lowered scalar of an index operand. */
  scalar(cx: C, v: Value): S;
  /** An index constant. */
  index(cx: C, n: bigint | number): S;
  add(cx: C, a: S, x: S): S;
  mul(cx: C, a: S, x: S): S;
  /** The condition `offset == k`, for `select`. */
  equals(cx: C, offset: S, k: number): S;
  /** `c ? a : x`. */
  select(cx: C, c: S, a: S, x: S): S;
}

type ScalarLane<T> = { readonly kind: "scalar"; readonly t: T; readonly c?: bigint };
type LaneVector<S, T> = { readonly kind: "vector"; readonly lanes: readonly S[]; readonly t: T };

/**
 * `vector.splat`, `vector.from_elements`, `vector.extract`, `vector.insert` and
 * `vector.reduce` and `vector.dotf` for a back end whose vector value is its lanes in row-major
 * order: constant lane indices pick lanes, dynamic ones become `select` chains; a reduction is
 * the strict left fold `((init ⊕ l₀) ⊕ l₁) …` through the lane rule of its kind, a dot product
 * `acc = fma(a[i], b[i], acc)` in lane order (one rounding per lane) through the `fmaf` rule.
 */
export function scalarizedVectorRules<C extends LanewiseContext<S, T>, S extends ScalarLane<T>, T>(
  ix: LaneIndexing<C, S>,
  laneRules: Readonly<Record<string, (l: LaneInput<C, S, T>) => S>>,
): Record<"vector.splat" | "vector.from_elements" | "vector.extract" | "vector.insert" | "vector.reduce" | "vector.dotf", (cx: C, op: Op) => void> {
  const lanesOf = (v: Value): number => (v.type.kind === "vector" ? v.type.shape.reduce((a, x) => a * x, 1) : 1);
  const shapeOf = (v: Value | undefined): readonly number[] => (v?.type.kind === "vector" ? v.type.shape : []);
  const vectorOf = (cx: C, v: Value | undefined): LaneVector<S, T> | undefined => {
    const l = v && cx.get(v);
    return l?.kind === "vector" ? (l as LaneVector<S, T>) : undefined;
  };
  /** The tail slot the leading-axis indices select (in units of `tail` lanes), and the tail length. */
  const leadingOffset = (cx: C, op: Op, shape: readonly number[]): { offset: S; tail: number } => {
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
      cx.set(result, { kind: "vector", lanes: new Array<S>(lanesOf(result)).fill(v), t: v.t });
    },
    "vector.from_elements": (cx, op) => {
      const [result] = op.results;
      if (!result) return;
      cx.set(result, { kind: "vector", lanes: op.operands.map((v) => ix.scalar(cx, v)), t: cx.typeOf(result) });
    },
    "vector.extract": (cx, op) => {
      const [source] = op.operands, [result] = op.results;
      const v = vectorOf(cx, source);
      if (!v || !result) return cx.poison(op);
      const { offset, tail } = leadingOffset(cx, op, shapeOf(source));
      const count = v.lanes.length / tail;
      const lanes: S[] = [];
      for (let r = 0; r < tail; r++) {
        if (offset.c !== undefined) {
          lanes.push(laneAt(v.lanes, Number(offset.c) * tail + r));
          continue;
        }
        let acc = laneAt(v.lanes, r);
        for (let k = 1; k < count; k++) acc = ix.select(cx, ix.equals(cx, offset, k), laneAt(v.lanes, k * tail + r), acc);
        lanes.push(acc);
      }
      cx.set(result, result.type.kind === "vector" ? { kind: "vector", lanes, t: v.t } : laneAt(lanes, 0));
    },
    "vector.insert": (cx, op) => {
      const [inserted, target] = op.operands, [result] = op.results;
      const v = vectorOf(cx, target);
      const x = inserted && cx.get(inserted);
      if (!v || !inserted || !result || !x || x.kind === "invalid") return cx.poison(op);
      const parts = x.kind === "vector" ? (x as LaneVector<S, T>).lanes : [ix.scalar(cx, inserted)];
      const { offset, tail } = leadingOffset(cx, op, shapeOf(target));
      const lanes = v.lanes.map((old, j) => {
        const slot = Math.floor(j / tail);
        if (offset.c !== undefined) return Number(offset.c) === slot ? laneAt(parts, j % tail) : old;
        return ix.select(cx, ix.equals(cx, offset, slot), laneAt(parts, j % tail), old);
      });
      cx.set(result, { kind: "vector", lanes, t: v.t });
    },
    "vector.reduce": (cx, op) => {
      const [source, init] = op.operands, [result] = op.results;
      const v = vectorOf(cx, source);
      if (!v || !init || !result) return cx.poison(op);
      const kind = String(op.props.kind);
      let acc = ix.scalar(cx, init);
      for (const lane of v.lanes) acc = combineLanes(laneRules, cx, op, kind, v.t, acc, lane);
      cx.set(result, acc);
    },
    "vector.dotf": (cx, op) => {
      const [a, b, init] = op.operands, [result] = op.results;
      const va = vectorOf(cx, a), vb = vectorOf(cx, b);
      if (!va || !vb || !init || !result) return cx.poison(op);
      const fmaf = laneRules.fmaf;
      if (!fmaf) throw new Error("lanewise lowering: no lane rule 'fmaf'");
      let acc = ix.scalar(cx, init);
      va.lanes.forEach((x, i) => {
        acc = fmaf({ cx, op, args: [x, laneAt(vb.lanes, i), acc], from: va.t, to: va.t, dialect: "vector" });
      });
      cx.set(result, acc);
    },
  };
}

/** Lane `i` of a scalarized vector (lane indices come from the verified shape). */
function laneAt<S>(lanes: readonly S[], i: number): S {
  const lane = lanes[i];
  if (lane === undefined) throw new Error(`lanewise lowering: lane ${i} of ${lanes.length}`);
  return lane;
}
