/**
 * Scalar semantics of every `index.*`, `scalar.*` and lanewise `vector.*` op, one lane at a
 * time, as PTX instruction sequences. Where PTX's instruction differs from the Loom meaning
 * (IEEE minimum/maximum, ties-away rounding, fmod, i1 arithmetic, narrow integers), the rule
 * spells the Loom meaning out. i8 lives sign-extended in a 16-bit register: wrapping results
 * are re-extended (`cvt.s16.s8`) and unsigned ops zero-extend their operands first.
 * 16-bit floats: add/sub/mul/fma/min/max run natively where the profile allows; everything
 * else runs in f32 and rounds back, which is exact for the correctly rounded operations
 * (24 ≥ 2·11 + 2 significand bits) and inherits the f32 accuracy elsewhere (docs/ptx.md).
 */
import type { Op } from "../../../ir/core.js";
import { b, BITS, s, u, type KernelLowering, type PtxScalar, type Scalar } from "./context.js";
import { combineLanes, indexCastKind } from "../../../dialects/lanewise.js";

export interface Lane {
  readonly cx: KernelLowering;
  readonly op: Op;
  readonly args: readonly Scalar[];
  readonly from: PtxScalar;
  readonly to: PtxScalar;
  /** The op's family (`index`, `scalar`, `vector`); absent when a rule calls another rule. */
  readonly dialect?: string;
}
export type LaneRule = (l: Lane) => Scalar;

const SIGN_MASK: Readonly<Record<string, string>> = { b16: "0x8000", b32: "0x80000000", b64: "0x8000000000000000" };
const ABS_MASK: Readonly<Record<string, string>> = { b16: "0x7FFF", b32: "0x7FFFFFFF", b64: "0x7FFFFFFFFFFFFFFF" };

/** Re-extends an i8 result (others unchanged). */
function canon(cx: KernelLowering, x: Scalar): Scalar {
  return x.t === "i8" ? cx.op("cvt.s16.s8", "i8", x) : x;
}

/** The value of an i8 as an unsigned 8-bit number in its 16-bit register (others unchanged). */
function zext8(cx: KernelLowering, x: Scalar): Scalar {
  if (x.t !== "i8") return x;
  if (x.c !== undefined) return cx.int("i16", BigInt.asUintN(8, x.c));
  return cx.op("and.b16", "i16", x, "255");
}

/** `opcode d, a, b…` with the first operand in a register. */
function alu(cx: KernelLowering, opcode: string, t: PtxScalar, a: Scalar, ...rest: Scalar[]): Scalar {
  return cx.op(opcode, t, cx.inReg(a), ...rest);
}

export function select(cx: KernelLowering, c: Scalar, a: Scalar, x: Scalar): Scalar {
  if (a.t === "pred") {
    const d = cx.reg("pred");
    const pc = cx.inReg(c);
    cx.guarded(pc, false, "mov.pred", d.r, a.r);
    cx.guarded(pc, true, "mov.pred", d.r, x.r);
    return d;
  }
  return { ...cx.op(`selp.${b(a.t)}`, a.t, cx.inReg(a), cx.inReg(x), cx.inReg(c)), t: a.t };
}

function boolToInt(cx: KernelLowering, p: Scalar, t: PtxScalar, signed: boolean): Scalar {
  return cx.op(`selp.${b(t)}`, t, signed ? "-1" : "1", "0", cx.inReg(p).r);
}

function setp(cx: KernelLowering, cmp: string, type: string, a: Scalar, x: Scalar): Scalar {
  return cx.op(`setp.${cmp}.${type}`, "pred", cx.inReg(a), x);
}

// ---- integers -----------------------------------------------------------------------------

type OnBool = "ne" | "and" | "or" | "first" | "false";

function boolBinary(cx: KernelLowering, onBool: OnBool, a: Scalar, x: Scalar): Scalar {
  switch (onBool) {
    case "ne": return cx.op("xor.pred", "pred", cx.inReg(a), cx.inReg(x));
    case "and": return cx.op("and.pred", "pred", cx.inReg(a), cx.inReg(x));
    case "or": return cx.op("or.pred", "pred", cx.inReg(a), cx.inReg(x));
    case "first": return a;
    case "false": return cx.bool(false);
  }
}

/** A wrapping integer op (`add.s32`…): `kind` picks the type suffix; i8 is re-extended. */
function wrapping(name: string, kind: "s" | "b", onBool: OnBool): LaneRule {
  return ({ cx, args: [a, x], to }) => {
    if (to === "pred") return boolBinary(cx, onBool, a!, x!);
    return canon(cx, alu(cx, `${name}.${kind === "s" ? s(to) : b(to)}`, to, a!, x!));
  };
}

/** Bitwise ops keep i8's sign extension. */
function bitwise(name: string, onBool: OnBool): LaneRule {
  return ({ cx, args: [a, x], to }) => (to === "pred" ? boolBinary(cx, onBool, a!, x!) : alu(cx, `${name}.${b(to)}`, to, a!, x!));
}

/** k when `x` is the constant 2^k (k ≥ 0, positive in the carrier's signed reading), else undefined. */
function powerOfTwo(x: Scalar): number | undefined {
  const c = x.c;
  if (c === undefined || c <= 0n || (c & (c - 1n)) !== 0n) return undefined;
  return c.toString(2).length - 1;
}

/**
 * `a / 2^k` and `a rem 2^k` without a divide, on 32- and 64-bit carriers. An `index` dividend
 * is non-negative (a negative one is undefined behaviour, docs/language.md §4.2), and so is an
 * unsigned one: a shift and a mask. A signed dividend rounds toward zero: add 2^k − 1 when
 * negative (the sign smeared, shifted down), then shift; the remainder is `a` minus the
 * quotient's multiple. Else undefined (narrow carriers keep the divide).
 */
function divideByPowerOfTwo(cx: KernelLowering, name: string, nonNegative: boolean, a: Scalar, k: number, to: PtxScalar): Scalar | undefined {
  if (to !== "i32" && to !== "i64") return undefined;
  const w = BITS[to];
  if (k === 0) return name === "div" ? a : cx.int(to, 0);
  if (nonNegative) return name === "div" ? alu(cx, `shr.${u(to)}`, to, a, cx.int("i32", k)) : alu(cx, `and.${b(to)}`, to, a, cx.int(to, (1n << BigInt(k)) - 1n));
  const sign = alu(cx, `shr.${s(to)}`, to, a, cx.int("i32", w - 1));
  const bias = cx.op(`shr.${u(to)}`, to, sign, cx.int("i32", w - k));
  const biased = alu(cx, `add.${s(to)}`, to, a, bias);
  if (name === "div") return cx.op(`shr.${s(to)}`, to, biased, cx.int("i32", k));
  return alu(cx, `sub.${s(to)}`, to, a, cx.op(`and.${b(to)}`, to, biased, cx.int(to, -(1n << BigInt(k)))));
}

/** Division-like ops: signed on the sign-extended carrier, unsigned on zero-extended operands. */
function divide(name: string, signed: boolean, onBool: OnBool): LaneRule {
  return ({ cx, args: [a, x], to, dialect }) => {
    if (to === "pred") return boolBinary(cx, onBool, a!, x!);
    const k = powerOfTwo(x!);
    const shifted = k === undefined ? undefined : divideByPowerOfTwo(cx, name, !signed || dialect === "index", a!, k, to);
    if (shifted) return shifted;
    if (signed) return canon(cx, alu(cx, `${name}.${s(to)}`, to, a!, x!));
    const r = alu(cx, `${name}.${u(to)}`, to === "i8" ? "i16" : to, zext8(cx, a!), zext8(cx, x!));
    return canon(cx, { ...r, t: to });
  };
}

function minMax(name: "min" | "max", signed: boolean, onBool: "and" | "or"): LaneRule {
  return ({ cx, args: [a, x], to }) => {
    if (to === "pred") return boolBinary(cx, onBool, a!, x!);
    if (signed) return alu(cx, `${name}.${s(to)}`, to, a!, x!);
    return canon(cx, { ...alu(cx, `${name}.${u(to)}`, to, zext8(cx, a!), zext8(cx, x!)), t: to });
  };
}

/** Shift amounts are u32 in PTX; an amount ≥ the width is UB in Loom, so truncation is fine. */
function amount(cx: KernelLowering, x: Scalar): Scalar {
  if (x.c !== undefined) return cx.int("i32", BigInt.asUintN(32, x.c) & 0xffffn);
  if (x.t === "i32") return x;
  if (x.t === "i8") return cx.op("cvt.u32.u16", "i32", zext8(cx, x));
  return cx.op(`cvt.u32.${u(x.t)}`, "i32", x);
}

function shift(kind: "shl" | "shrs" | "shru"): LaneRule {
  return ({ cx, args: [a, x], to }) => {
    if (to === "pred") return a!;
    const n = amount(cx, x!);
    if (kind === "shl") return canon(cx, alu(cx, `shl.${b(to)}`, to, a!, n));
    if (kind === "shrs") return alu(cx, `shr.${s(to)}`, to, a!, n);
    return canon(cx, { ...alu(cx, `shr.${u(to)}`, to, zext8(cx, a!), n), t: to });
  };
}

function rotate(left: boolean): LaneRule {
  return ({ cx, args: [a, x] }) => {
    const k = x!.c;
    // Both amounts are masked into [0, 63] (PTX clamps shifts ≥ 64 to all-zero results).
    const n = k !== undefined ? cx.int("i32", BigInt.asUintN(6, k)) : cx.op("and.b32", "i32", amount(cx, x!), "63");
    const back = k !== undefined ? cx.int("i32", BigInt.asUintN(6, 64n - BigInt.asUintN(6, k))) : cx.op("and.b32", "i32", cx.op("sub.s32", "i32", cx.inReg(cx.int("i32", 64)), n), "63");
    const p = alu(cx, left ? "shl.b64" : "shr.u64", "i64", a!, n);
    const q = alu(cx, left ? "shr.u64" : "shl.b64", "i64", a!, back);
    return cx.op("or.b64", "i64", p, q);
  };
}

/** `a / b` rounded up (ceil) or down (floor) from the truncating quotient and remainder. */
function roundedDivision(kind: "ceilsi" | "ceilui" | "floorsi"): LaneRule {
  return ({ cx, args: [a0, b0], to }) => {
    if (to === "pred") return a0!;
    const wide = to === "i8" ? "i16" : to;
    if (kind === "ceilui") {
      const a = zext8(cx, a0!), x = zext8(cx, b0!);
      const q = alu(cx, `div.${u(wide)}`, wide, a, x);
      const r = alu(cx, `rem.${u(wide)}`, wide, a, x);
      const up = setp(cx, "ne", b(wide), r, cx.int(wide, 0));
      return canon(cx, { ...cx.op(`add.${s(wide)}`, wide, q, boolToInt(cx, up, wide, false)), t: to });
    }
    const q = alu(cx, `div.${s(to)}`, to, a0!, b0!);
    const r = alu(cx, `rem.${s(to)}`, to, a0!, b0!);
    const inexact = setp(cx, "ne", b(to), r, cx.int(to, 0));
    // The remainder has the dividend's sign; the true quotient is positive when r and b agree.
    const rNeg = setp(cx, "lt", s(to), r, cx.int(to, 0));
    const bNeg = setp(cx, "lt", s(to), b0!, cx.int(to, 0));
    const differ = cx.op("xor.pred", "pred", rNeg, bNeg);
    if (kind === "ceilsi") {
      const same = cx.op("not.pred", "pred", differ);
      return canon(cx, cx.op(`add.${s(to)}`, to, q, boolToInt(cx, cx.op("and.pred", "pred", inexact, same), to, false)));
    }
    return canon(cx, cx.op(`sub.${s(to)}`, to, q, boolToInt(cx, cx.op("and.pred", "pred", inexact, differ), to, false)));
  };
}

const negi: LaneRule = ({ cx, args: [a], to }) => (to === "pred" ? a! : canon(cx, alu(cx, `neg.${s(to)}`, to, a!)));
const absi: LaneRule = ({ cx, args: [a], to }) => (to === "pred" ? a! : canon(cx, alu(cx, `abs.${s(to)}`, to, a!)));

const INT_PREDICATES: Readonly<Record<string, [cmp: string, signed: boolean]>> = {
  eq: ["eq", false], ne: ["ne", false], slt: ["lt", true], sle: ["le", true], sgt: ["gt", true], sge: ["ge", true],
  ult: ["lt", false], ule: ["le", false], ugt: ["gt", false], uge: ["ge", false],
};

const cmpi: LaneRule = ({ cx, op, args: [a, x], from }) => {
  const pred = String(op.props.predicate);
  const entry = INT_PREDICATES[pred];
  if (!entry) throw new Error(`PTX lowering: unknown integer predicate '${pred}'`);
  const [cmp, signed] = entry;
  if (from === "pred") {
    // i1 orders as 1 (unsigned) or −1 (signed).
    const ia = boolToInt(cx, a!, "i32", signed), ib = boolToInt(cx, x!, "i32", signed);
    return setp(cx, cmp, signed ? "s32" : "u32", ia, ib);
  }
  if (signed) return setp(cx, cmp, s(from), a!, x!);
  if (from === "i8") return setp(cx, cmp, "u16", zext8(cx, a!), zext8(cx, x!));
  return setp(cx, cmp, u(from), a!, x!);
};

const ctlzi: LaneRule = ({ cx, args: [a] }) => cx.widen(alu(cx, "clz.b64", "i32", a!));
const cttzi: LaneRule = ({ cx, args: [a] }) => cx.widen(cx.op("clz.b64", "i32", alu(cx, "brev.b64", "i64", a!)));
const ctpopi: LaneRule = ({ cx, args: [a] }) => cx.widen(alu(cx, "popc.b64", "i32", a!));
const madd: LaneRule = ({ cx, args: [a, x, c] }) => cx.mad64(cx.inReg(a!), x!, c!);

// ---- floats -------------------------------------------------------------------------------

const WIDE_CVT: Readonly<Record<string, string>> = { f16: "cvt.f32.f16", bf16: "cvt.f32.bf16" };

/** A 16-bit float widened to f32 (exact), or the value itself. */
export function toF32(cx: KernelLowering, x: Scalar): Scalar {
  const cvt = WIDE_CVT[x.t];
  return cvt ? cx.op(cvt, "f32", cx.inReg(x)) : x;
}

/** An f32 rounded to `t` (RNE), or the value itself. */
export function fromF32(cx: KernelLowering, x: Scalar, t: PtxScalar): Scalar {
  return t === "f16" || t === "bf16" ? cx.op(`cvt.rn.${t}.f32`, t, x) : x;
}

/** Runs `f` in f32 for 16-bit floats (widening the arguments, rounding the result back). */
function viaF32(f: (cx: KernelLowering, t: PtxScalar, args: Scalar[], op: Op) => Scalar): LaneRule {
  return ({ cx, op, args, to }) => {
    if (to !== "f16" && to !== "bf16") return f(cx, to, [...args], op);
    return fromF32(cx, f(cx, "f32", args.map((x) => toF32(cx, x)), op), to);
  };
}

/** `add.rn.f32`-style ops: native for f32/f64 and for 16-bit floats the profile computes in hardware. */
function floatArith(name: string, native16: boolean): LaneRule {
  const wide = viaF32((cx, t, [a, x, c]) => alu(cx, `${name}.${t}`, t, a!, ...(c ? [x!, c] : [x!])));
  return (l) => {
    const { cx, args, to } = l;
    const hw = native16 && ((to === "f16" && cx.info.features.f16Arithmetic) || (to === "bf16" && cx.info.features.bf16Arithmetic));
    if (hw) return cx.op(`${name}.${to}`, to, ...args.map((x) => cx.inReg(x)));
    return wide(l);
  };
}

/** Sign-bit operations on the bit pattern (exact for NaN too). */
const negf: LaneRule = ({ cx, args: [a], to }) => alu(cx, `xor.${b(to)}`, to, a!, { kind: "scalar", r: SIGN_MASK[b(to)]!, t: to });
const absf: LaneRule = ({ cx, args: [a], to }) => alu(cx, `and.${b(to)}`, to, a!, { kind: "scalar", r: ABS_MASK[b(to)]!, t: to });
const copysignf: LaneRule = ({ cx, args: [a, x], to }) => {
  const bt = b(to);
  const magnitude = alu(cx, `and.${bt}`, to, a!, { kind: "scalar", r: ABS_MASK[bt]!, t: to });
  const sign = alu(cx, `and.${bt}`, to, x!, { kind: "scalar", r: SIGN_MASK[bt]!, t: to });
  return cx.op(`or.${bt}`, to, magnitude, sign);
};

/** fma: f16 natively with f16Arithmetic, bf16 natively (sm_80+), else f32/f64. */
const fmaf: LaneRule = (l) => {
  const { cx, args, to } = l;
  if ((to === "f16" && cx.info.features.f16Arithmetic) || to === "bf16") return cx.op(`fma.rn.${to}`, to, ...args.map((x) => cx.inReg(x)));
  return alu(cx, `fma.rn.${to}`, to, args[0]!, args[1]!, args[2]!);
};

/** C fmin/fmax: PTX `min`/`max` return the non-NaN operand. */
const minMaxNum = (name: "min" | "max"): LaneRule => ({ cx, args: [a, x], to }) => cx.op(`${name}.${to}`, to, cx.inReg(a!), cx.inReg(x!));

/** IEEE 754-2019 minimum/maximum: NaN propagates, −0 < +0 (compare + select, as the spec reads). */
function minimumMaximum(isMin: boolean): LaneRule {
  return viaF32((cx, t, [a0, x0]) => {
    const a = cx.inReg(a0!), x = cx.inReg(x0!);
    const anyNan = setp(cx, "nan", t, a, x);
    const pick = select(cx, setp(cx, isMin ? "lt" : "gt", t, a, x), a, x);
    // Both zero: the sign bits decide (OR for minimum keeps −0, AND for maximum keeps +0).
    const bothZero = cx.op("and.pred", "pred", setp(cx, "eq", t, a, cx.float(t, 0)), setp(cx, "eq", t, x, cx.float(t, 0)));
    const zero = cx.op(`${isMin ? "or" : "and"}.${b(t)}`, t, a, x);
    const ordered = select(cx, bothZero, zero, pick);
    return select(cx, anyNan, cx.op(`add.rn.${t}`, t, a, x), ordered);
  });
}

/** f32 only: the approximations below; f64 has no PTX approximation instruction. */
function f32Only(f: (cx: KernelLowering, args: Scalar[], op: Op) => Scalar): LaneRule {
  const wide = viaF32((cx, _t, args, op) => f(cx, args, op));
  return (l) => {
    if (l.to === "f64") {
      l.cx.unsupported(l.op, `'${l.op.name}' on f64`, "PTX has no f64 transcendental instructions; compute in f32");
      return { kind: "scalar", r: "%invalid", t: "f64" };
    }
    return wide(l);
  };
}

const LOG2E = Math.LOG2E;
const LOG2E_LO = 1.925963033500011e-8; // log2(e) − f32(log2(e))
const LN2 = Math.LN2;

/** 2^x via `ex2.approx.f32` (max 2 ulp, subnormals kept). */
function ex2(cx: KernelLowering, x: Scalar): Scalar {
  return cx.op("ex2.approx.f32", "f32", cx.inReg(x));
}

/** e^x = 2^hi · 2^lo with hi = rn(x·log2 e) and lo its rounding error (clamped: ±inf gives NaN there). */
export function expF32(cx: KernelLowering, x0: Scalar): Scalar {
  const x = cx.inReg(x0);
  const hi = cx.op("mul.rn.f32", "f32", x, cx.float("f32", LOG2E));
  const err = cx.op("fma.rn.f32", "f32", x, cx.float("f32", LOG2E), cx.op("neg.f32", "f32", hi));
  const lo0 = cx.op("fma.rn.f32", "f32", x, cx.float("f32", LOG2E_LO), err);
  const lo = cx.op("max.f32", "f32", cx.op("min.f32", "f32", lo0, cx.float("f32", 1)), cx.float("f32", -1));
  return cx.op("mul.rn.f32", "f32", ex2(cx, hi), ex2(cx, lo));
}

const expf = f32Only((cx, [a]) => expF32(cx, a!));
const exp2f = f32Only((cx, [a]) => ex2(cx, a!));
const log2f = f32Only((cx, [a]) => cx.op("lg2.approx.f32", "f32", cx.inReg(a!)));
const logf = f32Only((cx, [a]) => cx.op("mul.rn.f32", "f32", cx.op("lg2.approx.f32", "f32", cx.inReg(a!)), cx.float("f32", LN2)));
const powf = f32Only((cx, [a, x]) => ex2(cx, cx.op("mul.rn.f32", "f32", cx.op("lg2.approx.f32", "f32", cx.inReg(a!)), x!)));

// 2π = TWO_PI_1 + TWO_PI_2 + TWO_PI_3, the first exact in 9 bits so that k·TWO_PI_1 is exact for |k| < 2^15.
const TWO_PI_1 = 6.28125;
const TWO_PI_2 = Math.fround(2 * Math.PI - TWO_PI_1);
const TWO_PI_3 = 2 * Math.PI - TWO_PI_1 - TWO_PI_2;

/** Cody–Waite reduction by 2π (three-part constant), then `sin/cos.approx.f32` on [−π, π]. */
function trig(name: "sin" | "cos"): LaneRule {
  return f32Only((cx, [a]) => {
    const x = cx.inReg(a!);
    const k = cx.op("cvt.rni.f32.f32", "f32", cx.op("mul.rn.f32", "f32", x, cx.float("f32", 1 / (2 * Math.PI))));
    let r = cx.op("fma.rn.f32", "f32", k, cx.float("f32", -TWO_PI_1), x);
    r = cx.op("fma.rn.f32", "f32", k, cx.float("f32", -TWO_PI_2), r);
    r = cx.op("fma.rn.f32", "f32", k, cx.float("f32", -TWO_PI_3), r);
    return cx.op(`${name}.approx.f32`, "f32", r);
  });
}

/** tanh: odd Taylor polynomial below 0.0625, else sign(x)·(1 − 2/(e^{2|x|} + 1)). */
const tanhf = f32Only((cx, [a]) => {
  const x = cx.inReg(a!);
  const ax = cx.op("abs.f32", "f32", x);
  const x2 = cx.op("mul.rn.f32", "f32", x, x);
  let p = cx.float("f32", -17 / 315);
  for (const c of [2 / 15, -1 / 3]) p = cx.op("fma.rn.f32", "f32", cx.inReg(p), x2, cx.float("f32", c));
  const small = cx.op("fma.rn.f32", "f32", cx.op("mul.rn.f32", "f32", p, x2), x, x);
  const e = expF32(cx, cx.op("add.rn.f32", "f32", ax, ax));
  const frac = cx.op("div.rn.f32", "f32", cx.inReg(cx.float("f32", 2)), cx.op("add.rn.f32", "f32", e, cx.float("f32", 1)));
  const magnitude = cx.op("sub.rn.f32", "f32", cx.inReg(cx.float("f32", 1)), frac);
  const large = copysignf({ cx, op: undefined as never, args: [magnitude, x], from: "f32", to: "f32" });
  return select(cx, setp(cx, "lt", "f32", ax, cx.float("f32", 0.0625)), small, large);
});

const ERF_SMALL = [1, -1 / 3, 1 / 10, -1 / 42, 1 / 216, -1 / 1320];
const ERF_AS = [0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429];

/** erf: Taylor series below 0.5, Abramowitz–Stegun 7.1.26 above (|error| < 1.5e-7 + the exp error). */
const erff = f32Only((cx, [a]) => {
  const x0 = cx.inReg(a!);
  const x = cx.op("abs.f32", "f32", x0);
  const x2 = cx.op("mul.rn.f32", "f32", x, x);
  let sm = cx.float("f32", ERF_SMALL[ERF_SMALL.length - 1]!);
  for (let k = ERF_SMALL.length - 2; k >= 0; k--) sm = cx.op("fma.rn.f32", "f32", cx.inReg(sm), x2, cx.float("f32", ERF_SMALL[k]!));
  const small = cx.op("mul.rn.f32", "f32", cx.op("mul.rn.f32", "f32", sm, x), cx.float("f32", 2 / Math.sqrt(Math.PI)));
  const t = cx.op("div.rn.f32", "f32", cx.inReg(cx.float("f32", 1)), cx.op("fma.rn.f32", "f32", x, cx.float("f32", 0.3275911), cx.float("f32", 1)));
  let p = cx.float("f32", ERF_AS[ERF_AS.length - 1]!);
  for (let k = ERF_AS.length - 2; k >= 0; k--) p = cx.op("fma.rn.f32", "f32", cx.inReg(p), t, cx.float("f32", ERF_AS[k]!));
  const tail = cx.op("mul.rn.f32", "f32", cx.op("mul.rn.f32", "f32", p, t), expF32(cx, cx.op("neg.f32", "f32", x2)));
  const large = cx.op("sub.rn.f32", "f32", cx.inReg(cx.float("f32", 1)), tail);
  const magnitude = select(cx, setp(cx, "lt", "f32", x, cx.float("f32", 0.5)), small, large);
  return copysignf({ cx, op: undefined as never, args: [magnitude, x0], from: "f32", to: "f32" });
});

/** sqrt is correctly rounded (`sqrt.rn`); 16-bit floats through f32 stay correctly rounded. */
const sqrtf = viaF32((cx, t, [a]) => cx.op(`sqrt.rn.${t}`, t, cx.inReg(a!)));
/** rsqrt: `rsqrt.approx.f32` (max rel. error 2^-22.9); f64 as rcp.rn(sqrt.rn(x)). */
const rsqrtf = viaF32((cx, t, [a]) =>
  t === "f64" ? cx.op("rcp.rn.f64", "f64", cx.op("sqrt.rn.f64", "f64", cx.inReg(a!))) : cx.op("rsqrt.approx.f32", "f32", cx.inReg(a!)),
);

const rounding = (mode: string): LaneRule => ({ cx, args: [a], to }) =>
  to === "bf16" ? fromF32(cx, cx.op(`cvt.${mode}.f32.f32`, "f32", toF32(cx, a!)), to) : cx.op(`cvt.${mode}.${to}.${to}`, to, cx.inReg(a!));

/** C `round`: ties away from zero. */
const roundf = viaF32((cx, t, [a]) => {
  const x = cx.inReg(a!);
  const tr = cx.op(`cvt.rzi.${t}.${t}`, t, x);
  const frac = cx.op(`abs.${t}`, t, cx.op(`sub.rn.${t}`, t, x, tr));
  const one = copysignf({ cx, op: undefined as never, args: [cx.inReg(cx.float(t, 1)), x], from: t, to: t });
  return select(cx, setp(cx, "ge", t, frac, cx.float(t, 0.5)), cx.op(`add.rn.${t}`, t, tr, one), tr);
});

/**
 * C fmod in f64: q = trunc(a/b), r = fma(−q, b, a) (exact once q is right), then one step of
 * correction each way and the zero's sign from a. Exact while |a/b| < 2^52.
 */
const remf: LaneRule = ({ cx, args: [a0, b0], to }) => {
  const wide = (x: Scalar): Scalar => (to === "f64" ? cx.inReg(x) : cx.op("cvt.f64.f32", "f64", toF32(cx, x)));
  const a = wide(a0!), x = wide(b0!);
  const q = cx.op("cvt.rzi.f64.f64", "f64", cx.op("div.rn.f64", "f64", a, x));
  let r = cx.op("fma.rn.f64", "f64", cx.op("neg.f64", "f64", q), x, a);
  const bAbs = cx.op("abs.f64", "f64", x);
  const bSigned = copysignf({ cx, op: undefined as never, args: [bAbs, a], from: "f64", to: "f64" });
  // A quotient one too large in magnitude leaves r ≠ 0 with the sign opposite to a.
  const signsDiffer = cx.op("xor.pred", "pred", setp(cx, "lt", "f64", r, cx.float("f64", 0)), setp(cx, "lt", "f64", a, cx.float("f64", 0)));
  const wrongSign = cx.op("and.pred", "pred", signsDiffer, setp(cx, "ne", "f64", r, cx.float("f64", 0)));
  r = select(cx, wrongSign, cx.op("add.rn.f64", "f64", r, bSigned), r);
  const tooBig = setp(cx, "ge", "f64", cx.op("abs.f64", "f64", r), bAbs);
  r = select(cx, tooBig, cx.op("sub.rn.f64", "f64", r, bSigned), r);
  r = copysignf({ cx, op: undefined as never, args: [r, a], from: "f64", to: "f64" });
  // fmod(a, ±inf) = a for finite a.
  const bInf = setp(cx, "eq", "f64", bAbs, cx.float("f64", Infinity));
  const aFinite = setp(cx, "lt", "f64", cx.op("abs.f64", "f64", a), cx.float("f64", Infinity));
  r = select(cx, cx.op("and.pred", "pred", bInf, aFinite), a, r);
  if (to === "f64") return r;
  return fromF32(cx, cx.op("cvt.rn.f32.f64", "f32", r), to);
};

const FLOAT_PREDICATES: Readonly<Record<string, string>> = {
  oeq: "eq", ogt: "gt", oge: "ge", olt: "lt", ole: "le", one: "ne", ord: "num",
  ueq: "equ", ugt: "gtu", uge: "geu", ult: "ltu", ule: "leu", une: "neu", uno: "nan",
};

const cmpf: LaneRule = ({ cx, op, args: [a, x], from }) => {
  const pred = String(op.props.predicate);
  const cmp = FLOAT_PREDICATES[pred];
  if (cmp === undefined) throw new Error(`PTX lowering: unknown float predicate '${pred}'`);
  // setp on bf16 needs sm_90; comparing the exact f32 widening is the same.
  if (from === "bf16") return setp(cx, cmp, "f32", toF32(cx, a!), toF32(cx, x!));
  return setp(cx, cmp, from, cx.inReg(a!), from === "f16" ? cx.inReg(x!) : x!);
};

// ---- conversions --------------------------------------------------------------------------

/** The integer type suffix of a conversion side: i8 converts as its 16-bit carrier. */
const intSide = (t: PtxScalar, signed: boolean): string => (signed ? s(t) : u(t));

function needsBf16Conversion(l: Lane): boolean {
  return l.cx.requireFeature(l.op, "bf16Conversions", `'${l.op.name}' between bf16 and ${l.from === "bf16" ? l.to : l.from}`);
}

function intToFloat(signed: boolean): LaneRule {
  return (l) => {
    const { cx, args: [a], from, to } = l;
    if (from === "pred") return toFloatFromBool(cx, a!, to, signed);
    const src = signed ? cx.inReg(a!) : cx.inReg(zext8(cx, a!));
    if (to === "bf16" && !needsBf16Conversion(l)) return { kind: "scalar", r: "%invalid", t: to };
    return cx.op(`cvt.rn.${to}.${intSide(from === "i8" ? "i16" : from, signed)}`, to, src);
  };
}

function toFloatFromBool(cx: KernelLowering, p: Scalar, t: PtxScalar, signed: boolean): Scalar {
  const one = cx.inReg(cx.float(t, signed ? -1 : 1));
  const zero = cx.inReg(cx.float(t, 0));
  return select(cx, p, one, zero);
}

function floatToInt(signed: boolean): LaneRule {
  return ({ cx, args: [a], from, to }) => {
    const x = from === "bf16" ? toF32(cx, a!) : cx.inReg(a!);
    const ft = from === "bf16" ? "f32" : from;
    if (to === "pred") return setp(cx, "ne", ft, x, cx.float(ft, 0));
    const carrier = to === "i8" ? "i16" : to;
    return canon(cx, { ...cx.op(`cvt.rzi.${intSide(carrier, signed)}.${ft}`, carrier, x), t: to });
  };
}

const extf: LaneRule = (l) => {
  const { cx, args: [a], from, to } = l;
  if (from === "bf16") return to === "f32" ? toF32(cx, a!) : cx.op("cvt.f64.f32", to, toF32(cx, a!));
  return cx.op(`cvt.${to}.${from}`, to, cx.inReg(a!));
};

const fptrunc: LaneRule = (l) => {
  const { cx, args: [a], from, to } = l;
  if (to === "bf16" && from === "f64" && !needsBf16Conversion(l)) return { kind: "scalar", r: "%invalid", t: to };
  return cx.op(`cvt.rn.${to}.${from}`, to, cx.inReg(a!));
};

/** Integer widening: sign- or zero-extension (i1: −1/1). */
function extend(signed: boolean): LaneRule {
  return ({ cx, args: [a], from, to }) => {
    if (from === "pred") return boolToInt(cx, a!, to, signed);
    if (BITS[to] === BITS[from]) return signed ? { ...a!, t: to } : { ...zext8(cx, a!), t: to };
    const src = signed ? a! : zext8(cx, a!);
    const fromSide = from === "i8" ? (signed ? "s16" : "u16") : intSide(from, signed);
    return cx.op(`cvt.${intSide(to, signed)}.${fromSide}`, to, cx.inReg(src));
  };
}

/** Integer narrowing keeps the low bits (i1: bit 0). */
const trunci: LaneRule = ({ cx, args: [a], from, to }) => {
  if (to === "pred") return setp(cx, "ne", b(from), alu(cx, `and.${b(from)}`, from, a!, cx.int(from, 1)), cx.int(from, 0));
  if (BITS[to] === BITS[from]) return canon(cx, { ...cx.inReg(a!), t: to });
  return canon(cx, { ...cx.op(`cvt.${u(to)}.${u(from)}`, to, cx.inReg(a!)), t: to });
};

/** Same-width reinterpretation: the same register, another type. */
const bitcast: LaneRule = ({ cx, args: [a], to }) => ({ ...cx.inReg(a!), t: to, c: undefined } as Scalar);

/** `index.cast` (language.md §4.2): sign-extend into index, zero-extend into offset, truncate out. */
const indexCast: LaneRule = (l) => {
  const kind = indexCastKind(l.op);
  if (kind === "same") return l.args[0]!;
  if (kind === "bool") return boolToInt(l.cx, l.args[0]!, "i64", false);
  return kind === "trunc" ? trunci(l) : extend(kind === "sext")(l);
};

const selectLane: LaneRule = ({ cx, args: [c, a, x] }) => select(cx, c!, a!, x!);

// ---- the table ----------------------------------------------------------------------------

/** Lane rules by op suffix (`scalar.addi`, `vector.addi` → "addi"). */
export const LANE_RULES: Readonly<Record<string, LaneRule>> = {
  addi: wrapping("add", "s", "ne"),
  subi: wrapping("sub", "s", "ne"),
  muli: wrapping("mul.lo", "s", "and"),
  divsi: divide("div", true, "first"),
  divui: divide("div", false, "first"),
  remsi: divide("rem", true, "false"),
  remui: divide("rem", false, "false"),
  ceildivsi: roundedDivision("ceilsi"),
  ceildivui: roundedDivision("ceilui"),
  floordivsi: roundedDivision("floorsi"),
  negi,
  absi,
  minsi: minMax("min", true, "or"),
  maxsi: minMax("max", true, "and"),
  minui: minMax("min", false, "and"),
  maxui: minMax("max", false, "or"),
  andi: bitwise("and", "and"),
  ori: bitwise("or", "or"),
  xori: bitwise("xor", "ne"),
  shli: shift("shl"),
  shrsi: shift("shrs"),
  shrui: shift("shru"),
  rotli: rotate(true),
  rotri: rotate(false),
  ctlzi,
  cttzi,
  ctpopi,
  madd,
  cmpi,
  addf: floatArith("add.rn", true),
  subf: floatArith("sub.rn", true),
  mulf: floatArith("mul.rn", true),
  divf: floatArith("div.rn", false),
  remf,
  negf,
  absf,
  copysignf,
  fmaf,
  minimumf: minimumMaximum(true),
  maximumf: minimumMaximum(false),
  minnumf: minMaxNum("min"),
  maxnumf: minMaxNum("max"),
  expf,
  exp2f,
  logf,
  log2f,
  sqrtf,
  rsqrtf,
  sinf: trig("sin"),
  cosf: trig("cos"),
  tanhf,
  erff,
  powf,
  ceilf: rounding("rpi"),
  floorf: rounding("rmi"),
  roundf,
  roundevenf: rounding("rni"),
  truncf: rounding("rzi"),
  cmpf,
  sitofp: intToFloat(true),
  uitofp: intToFloat(false),
  fptosi: floatToInt(true),
  fptoui: floatToInt(false),
  extf,
  fptrunc,
  extsi: extend(true),
  extui: extend(false),
  trunci,
  bitcast,
  cast: indexCast,
  select: selectLane,
};

/** Combines two scalars with a combining kind (reductions). */
export function combine(cx: KernelLowering, op: Op, kind: string, t: PtxScalar, a: Scalar, x: Scalar): Scalar {
  return combineLanes(LANE_RULES, cx, op, kind, t, a, x);
}
