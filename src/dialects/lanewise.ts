/**
 * The lanewise part of a lowering table, shared by back ends that scalarize vectors:
 * a back end writes one lane rule per scalar semantics (`addi`, `cmpf`, …) and this module
 * applies it to `scalar.<name>`, `index.<op>` and `vector.<name>` — once for a scalar op, lane by
 * lane for a vector op, with scalar operands broadcast. Which ops exist comes from the registry,
 * so a new lanewise op needs only its lane rule.
 */
import type { Op, Value } from "../ir/core.js";
import { opInfo, type OpName } from "./registry.js";
import { vectorLaneRules, type VectorLaneOp, type VectorLanes } from "./vector-lanes.js";

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

/**
 * What a lane rule sees: the operands' lanes, the deciding operand type, the result type, and
 * the op's dialect. The lanes of a vector op share one input (its `args` refilled per lane), so
 * a rule keeps neither past its return.
 */
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

/** Lane `i` of each input (a non-vector input is the same in every lane), into `args` when given. */
export function laneOf<S>(inputs: readonly { readonly kind: string }[], i: number, args = new Array<S>(inputs.length)): S[] {
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
    const input = { cx, op, args: inputs as readonly unknown[] as readonly S[], from, to, dialect };
    if (n === undefined) return cx.set(result, rule(input));
    // Every lane takes the one input, its arguments refilled: a vector op makes no array or input per lane.
    const args = (input.args = new Array<S>(inputs.length));
    const lanes: S[] = [];
    for (let i = 0; i < n; i++) lanes.push(rule((laneOf(inputs, i, args), input)));
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
  return lanewiseTable(laneRules, indexRules, lanewise);
}

/** `lanewiseEntries` with the driver `wrap` (`lanewise`, or `carriedLanewise` over a back end's carrier). */
export function lanewiseTable<C, L, T>(
  laneRules: Readonly<Record<string, (l: LaneInput<C, L, T>) => L>>,
  indexRules: Readonly<Record<string, string>>,
  wrap: (rule: (l: LaneInput<C, L, T>) => L) => (cx: C, op: Op) => void,
): Partial<Record<OpName, (cx: C, op: Op) => void>> {
  const entries: Partial<Record<OpName, (cx: C, op: Op) => void>> = {};
  const wrapped = new Map<string, (cx: C, op: Op) => void>();
  const ruleFor = (name: string) => {
    const rule = laneRules[name];
    if (!rule) throw new Error(`lanewise lowering: no lane rule '${name}'`);
    let w = wrapped.get(name);
    if (!w) wrapped.set(name, (w = wrap(rule)));
    return w;
  };
  for (const name of Object.keys(laneRules)) if (opInfo(`scalar.${name}`)) entries[`scalar.${name}` as OpName] = ruleFor(name);
  for (const [suffix, name] of Object.entries(indexRules)) entries[`index.${suffix}` as OpName] = ruleFor(name);
  for (const name of Object.keys(laneRules)) if (opInfo(`vector.${name}`)) entries[`vector.${name}` as OpName] = ruleFor(name);
  return entries;
}

/** How the lanewise driver reads and makes the lowered values of a back end whose lane is not its lowered scalar (SPIR-V: an id). */
export interface LaneCarrier<C, L, T, V> {
  /** Lane `i` of a lowered operand (a scalar is the same in every lane). */
  lane(cx: C, lowered: { readonly kind: string }, i: number): L;
  /** The lowered result of a scalar op's one lane, and of a vector op's lanes. */
  scalar(lane: L, t: T): V;
  vector(lanes: L[], t: T): V;
}

/** `lanewise` for a back end whose lanes `carrier` reads and makes. */
export function carriedLanewise<C extends { get(v: Value): { readonly kind: string }; typeOf(v: Value): T; poison(op: Op): void; set(v: Value, lowered: V): void }, L, T, V>(
  rule: (l: LaneInput<C, L, T>) => L,
  carrier: LaneCarrier<C, L, T, V>,
): (cx: C, op: Op) => void {
  return (cx, op) => {
    const inputs = op.operands.map((v) => cx.get(v));
    if (inputs.some((l) => l.kind === "invalid")) return cx.poison(op);
    const [result] = op.results;
    const deciding = op.operands[op.name.endsWith("select") ? 1 : 0];
    if (!result || !deciding) return cx.poison(op);
    const to = cx.typeOf(result);
    const from = cx.typeOf(deciding);
    const dialect = dialectOf(op.name);
    const laneAt = (i: number) => rule({ cx, op, args: inputs.map((l) => carrier.lane(cx, l, i)), from, to, dialect });
    const n = laneCount(op);
    if (n === undefined) return cx.set(result, carrier.scalar(laneAt(0), to));
    const lanes: L[] = [];
    for (let i = 0; i < n; i++) lanes.push(laneAt(i));
    cx.set(result, carrier.vector(lanes, to));
  };
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
 * A back end's lanes for dialects/vector-lanes.ts when they are its lowered scalars (a constant
 * one knows its value as `c`), combined through its lane rules: a reduction through the rule of
 * its kind, a dot product through `fmaf`.
 */
export function scalarLanes<C extends LanewiseContext<S, T>, S extends ScalarLane<T>, T>(
  ix: LaneIndexing<C, S>,
  laneRules: Readonly<Record<string, (l: LaneInput<C, S, T>) => S>>,
): VectorLanes<C, S, T, S | LaneVector<S, T>> {
  return {
    ...ix,
    select: (cx, _t, c, a, x) => ix.select(cx, c, a, x),
    constant: (_cx, offset) => offset.c,
    vectorOf: (cx, v) => {
      const l = cx.get(v);
      return l.kind === "vector" ? (l as LaneVector<S, T>) : undefined;
    },
    vector: (lanes, t) => ({ kind: "vector", lanes, t }),
    scalarValue: (lane) => lane,
    laneType: (cx, result, lane) => (lane ? lane.t : cx.typeOf(result)),
    combine: (cx, op, kind, t, a, x) => combineLanes(laneRules, cx, op, kind, t, a, x),
    fma: (cx, op, t, a, b, acc) => {
      const fmaf = laneRules.fmaf;
      if (!fmaf) throw new Error("lanewise lowering: no lane rule 'fmaf'");
      return fmaf({ cx, op, args: [a, b, acc], from: t, to: t, dialect: "vector" });
    },
  };
}

/** dialects/vector-lanes.ts's rules over `scalarLanes(ix, laneRules)`. */
export function scalarizedVectorRules<C extends LanewiseContext<S, T>, S extends ScalarLane<T>, T>(
  ix: LaneIndexing<C, S>,
  laneRules: Readonly<Record<string, (l: LaneInput<C, S, T>) => S>>,
): Record<VectorLaneOp, (cx: C, op: Op) => void> {
  return vectorLaneRules(scalarLanes(ix, laneRules));
}
