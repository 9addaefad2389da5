/**
 * `index.*`, `scalar.*` and register-only `vector.*` ops (language.md §4.2, §4.3, §4.7).
 * Integer and float arithmetic is bound once per op through the shared exact semantics
 * (`bindExactOp`); math functions through ./math.ts. Vector ops apply the scalar op lane by
 * lane. Every undefined-behaviour outcome is an error at the op.
 */
import type { Literal, Op, Predicate, Value } from "../ir/core.js";
import { bindExactOp, type ExactOp } from "../dialects/eval/exact.js";
import { bitcastLane, evaluatePredicate, FLOAT_WIDTHS, INT_WIDTHS, isFloatName, numberOf, PayloadNaN, type FloatName, type IntName, type PredicateOperand } from "../dialects/scalar/semantics.js";
import { defined, raise, type FunctionCompiler } from "./compiler.js";
import { arithmetic, combiner, fold } from "./collectives.js";
import { bindMathOp, fmaF32, isMathOp } from "./math.js";
import { plain, type Frame, type Lane, type Step, type Val } from "./state.js";
import { flagBits, floatFlags, laneCount, laneType, literalValue, prop, operandOf, resultOf } from "./types.js";
import type { LType } from "../dialects/eval/types.js";
import type { Outcome } from "../dialects/index/semantics.js";
import { propOf } from "../dialects/registry.js";

export function compileArith(c: FunctionCompiler, op: Op): Step | undefined {
  const dot = op.name.indexOf(".");
  const dialect = op.name.slice(0, dot), name = op.name.slice(dot + 1);
  if (dialect !== "index" && dialect !== "scalar" && dialect !== "vector") return undefined;
  switch (name) {
    case "constant": return constant(c, op);
    case "assume": return assume(c, op);
    case "load": case "store": return undefined; // vector memory ops: ./ops-memory.ts
    case "splat": return splat(c, op);
    case "from_elements": return fromElements(c, op);
    case "extract": return extract(c, op);
    case "insert": return insert(c, op);
    case "select": return vectorSelect(c, op);
    case "reduce": return vectorReduce(c, op);
  }
  if (dialect === "vector" && name === "bitcast" && laneCount(operandOf(op, 0).type) !== laneCount(resultOf(op, 0).type)) return reshapeBitcast(c, op);
  const fn = bindLaneOp(op, name);
  const ins = op.operands.map((v) => c.slot(v));
  const [out] = c.results(op);
  const r = out!;
  if (dialect !== "vector") {
    const [a, b, d] = ins as [number, number, number];
    switch (ins.length) {
      case 1: return plain((f) => { f.slots[r] = defined(f, op, fn(f.slots[a] as Lane)); });
      case 2: return plain((f) => { f.slots[r] = defined(f, op, fn(f.slots[a] as Lane, f.slots[b] as Lane)); });
      default: return plain((f) => { f.slots[r] = defined(f, op, fn(f.slots[a] as Lane, f.slots[b] as Lane, f.slots[d] as Lane)); });
    }
  }
  return plain((f) => {
    const vs = ins.map((i) => f.slots[i] as readonly Lane[]);
    const n = vs[0]!.length, lanes = new Array<Lane>(n);
    for (let l = 0; l < n; l++) lanes[l] = defined(f, op, fn(...vs.map((v) => v[l]!)));
    f.slots[r] = Object.freeze(lanes);
  });
}

type LaneOp = (...operands: Lane[]) => Outcome<Lane>;

/**
 * The per-lane function of an arithmetic, comparison or conversion op. `bitcast` moves bits
 * (a `PayloadNaN` keeps its payload); every other op with a float operand computes, so a
 * `PayloadNaN` operand is NaN to it and a NaN result is the canonical NaN.
 */
function bindLaneOp(op: Op, name: string): LaneOp {
  const result = laneType(resultOf(op, 0).type);
  const operands = op.operands.map((v) => laneType(v.type));
  const t = operands[0]!;
  if (name === "bitcast") return (a) => bitcastLane(t as IntName | FloatName, result as IntName | FloatName, a);
  if (isMathOp(name)) {
    const m = bindMathOp(name, t as FloatName, floatFlags(op));
    return (a, b) => m(numberOf(a) as number, b === undefined ? undefined : (numberOf(b) as number));
  }
  const bits = flagBits(op);
  if (name === "fmaf" && t === "f32" && (bits & 0x18) === 0) return arithmetic((a, b, d) => fmaF32(a as number, b as number, d as number));
  const exact: ExactOp = bindExactOp(op.name, result, operands, bits, propOf(op, "predicate"));
  if (name === "copysignf") {
    // The sign operand is read for its sign bit only, a NaN's included (IEEE copySign).
    const signOf = (b: Lane) => (b instanceof PayloadNaN ? ((b.bits >> BigInt(FLOAT_WIDTHS[b.format] - 1)) & 1n ? -0 : 0) : b);
    return (a, b) => exact(numberOf(a) as number, signOf(b) as number);
  }
  return operands.some(isFloatName) ? arithmetic(exact) : (exact as LaneOp);
}

function constant(c: FunctionCompiler, op: Op): Step {
  const t = resultOf(op, 0).type;
  const lane = literalValue(prop(op, "value"), laneType(t));
  const value: Val = t.kind === "vector" ? Object.freeze(new Array<Lane>(laneCount(t)).fill(lane)) : lane;
  const [r] = c.results(op);
  return plain((f) => { f.slots[r!] = value; });
}

/** The values a predicate sees: operands by type, literals as written. */
export function predicateChecker(c: FunctionCompiler, preds: readonly Predicate[]): (f: Frame) => Predicate | undefined {
  const compiled = preds.map((p) => ({
    p,
    args: p.args.map((a) => (typeof a === "bigint" ? a : { slot: c.slot(a), type: laneType((a as Value).type) })),
  }));
  return (f) => {
    for (const { p, args } of compiled) {
      const values: PredicateOperand[] = args.map((a) => (typeof a === "bigint" ? a : { type: a.type, value: numberOf(f.slots[a.slot] as Lane) }));
      if (!evaluatePredicate(p.kind, values)) return p;
    }
    return undefined;
  };
}

export function describePredicate(p: Predicate): string {
  return `${p.kind}(${p.args.map((a) => (typeof a === "bigint" ? a.toString() : `%${a.name}`)).join(", ")})`;
}

/** `index.assume` / `scalar.assume`: identity; a false predicate is UB, reported here. */
function assume(c: FunctionCompiler, op: Op): Step {
  const ins = op.operands.map((v) => c.slot(v));
  const check = predicateChecker(c, propOf(op, "predicates") ?? []);
  const outs = c.results(op);
  return plain((f) => {
    const bad = check(f);
    if (bad) raise(f, op, "undefined-behaviour", `the assumed predicate ${describePredicate(bad)} is false`);
    for (let i = 0; i < ins.length; i++) f.slots[outs[i]!] = f.slots[ins[i]!]!;
  });
}

function splat(c: FunctionCompiler, op: Op): Step {
  const s = c.slot(operandOf(op, 0)), n = laneCount(resultOf(op, 0).type);
  const [r] = c.results(op);
  return plain((f) => { f.slots[r!] = Object.freeze(new Array<Lane>(n).fill(f.slots[s] as Lane)); });
}

function fromElements(c: FunctionCompiler, op: Op): Step {
  const ins = op.operands.map((v) => c.slot(v));
  const [r] = c.results(op);
  return plain((f) => { f.slots[r!] = Object.freeze(ins.map((i) => f.slots[i] as Lane)); });
}

/** Resolves `[i, …]` of extract/insert to the first lane and lane count it addresses. */
function laneRange(c: FunctionCompiler, op: Op, shape: readonly number[]): (f: Frame) => [number, number] {
  const idx = (propOf(op, "indices") ?? []).map((x) => (typeof x === "bigint" ? x : c.slot(x)));
  const tail = shape.slice(idx.length).reduce((a, b) => a * b, 1);
  return (f) => {
    let lane = 0;
    idx.forEach((x, k) => {
      const i = typeof x === "bigint" ? x : (f.slots[x] as bigint);
      if (i < 0n || i >= BigInt(shape[k]!)) raise(f, op, "out-of-bounds", `index ${i} is outside [0, ${shape[k]}) of vector axis ${k}`);
      lane = lane * shape[k]! + Number(i);
    });
    return [lane * tail, tail];
  };
}

function extract(c: FunctionCompiler, op: Op): Step {
  const v = operandOf(op, 0), s = c.slot(v);
  const shape = v.type.kind === "vector" ? v.type.shape : [1];
  const range = laneRange(c, op, shape);
  const scalarResult = resultOf(op, 0).type.kind !== "vector";
  const [r] = c.results(op);
  return plain((f) => {
    const [first, n] = range(f);
    const lanes = f.slots[s] as readonly Lane[];
    f.slots[r!] = scalarResult ? lanes[first]! : Object.freeze(lanes.slice(first, first + n));
  });
}

function insert(c: FunctionCompiler, op: Op): Step {
  const [x, v] = op.operands as [Value, Value];
  const xs = c.slot(x), vs = c.slot(v);
  const range = laneRange(c, op, v.type.kind === "vector" ? v.type.shape : [1]);
  const [r] = c.results(op);
  return plain((f) => {
    const [first, n] = range(f);
    const lanes = [...(f.slots[vs] as readonly Lane[])];
    const value = f.slots[xs] as Lane | readonly Lane[];
    if (n === 1 && !Array.isArray(value)) lanes[first] = value as Lane;
    else for (let i = 0; i < n; i++) lanes[first + i] = (value as readonly Lane[])[i]!;
    f.slots[r!] = Object.freeze(lanes);
  });
}

function vectorSelect(c: FunctionCompiler, op: Op): Step {
  const [m, a, b] = op.operands.map((v) => c.slot(v)) as [number, number, number];
  const [r] = c.results(op);
  return plain((f) => {
    const mask = f.slots[m] as readonly Lane[], x = f.slots[a] as readonly Lane[], y = f.slots[b] as readonly Lane[];
    f.slots[r!] = Object.freeze(mask.map((k, i) => (k === 1n ? x[i]! : y[i]!)));
  });
}

function vectorReduce(c: FunctionCompiler, op: Op): Step | undefined {
  const [v, init] = op.operands as [Value, Value];
  const t = laneType(init.type);
  const combine = combiner(prop(op, "kind"), t, flagBits(op));
  if (!combine) return undefined;
  const vs = c.slot(v), is = c.slot(init);
  const [r] = c.results(op);
  return plain((f) => { f.slots[r!] = defined(f, op, fold(combine, f.slots[is] as Lane, f.slots[vs] as readonly Lane[])); });
}

/** `vector.bitcast` between shapes of equal total bits: lanes are packed little-endian. */
function reshapeBitcast(c: FunctionCompiler, op: Op): Step {
  const from = laneType(operandOf(op, 0).type), to = laneType(resultOf(op, 0).type);
  const wFrom = width(from), wTo = width(to), n = laneCount(resultOf(op, 0).type);
  const toBits = (x: Lane) => bitcastLane(from as IntName | FloatName, intOfWidth(wFrom) as IntName, x);
  const fromBits = (x: bigint) => bitcastLane(intOfWidth(wTo) as IntName, to as IntName | FloatName, x);
  const s = c.slot(operandOf(op, 0));
  const [r] = c.results(op);
  return plain((f) => {
    let all = 0n;
    (f.slots[s] as readonly Lane[]).forEach((lane, i) => { all |= (toBits(lane) as bigint) << BigInt(i * wFrom); });
    const out = new Array<Lane>(n);
    for (let i = 0; i < n; i++) out[i] = fromBits(BigInt.asUintN(wTo, all >> BigInt(i * wTo))) as Lane;
    f.slots[r!] = Object.freeze(out);
  });
}

function width(t: LType): number {
  if (isFloatName(t)) return t === "f64" ? 64 : t === "f32" ? 32 : 16;
  return t === "index" || t === "offset" ? 64 : INT_WIDTHS[t as IntName];
}
function intOfWidth(w: number): LType {
  return (w === 1 ? "i1" : `i${w}`) as LType;
}
