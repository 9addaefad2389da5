/**
 * Scalar semantics of every `index.*`, `scalar.*` and lanewise `vector.*` op, one lane at a
 * time (vectors are scalarized, see vector-rules.ts). A lane rule receives the lane's operand
 * ids and their SPIR-V types and returns the result id. Where SPIR-V's instruction differs
 * from the Loom meaning (IEEE minimum/maximum, ties-away rounding, i1 arithmetic, 64-bit bit
 * counts), the rule spells the Loom meaning out with exact instruction sequences.
 */
import type { OpName } from "../../../dialects/registry.js";
import { indexCastKind, type LaneInput } from "../../../dialects/lanewise.js";
import type { Op } from "../../../ir/core.js";
import type { Id } from "../instructions.js";
import { BOOL, U32, U64, type ScalarType } from "../module.js";
import { Glsl, Op as S } from "../spec.js";
import type { KernelLowering } from "./context.js";

/** What a lane rule sees (dialects/lanewise.ts): the lanes' operand ids, the deciding operand type (`from`) and the result type (`to`). */
export type Lane = LaneInput<KernelLowering, Id, ScalarType>;
export type LaneRule = (l: Lane) => Id;

const isBool = (t: ScalarType) => t.kind === "bool";
const intOfWidth = (t: ScalarType): ScalarType => ({ kind: "int", width: t.kind === "bool" ? 32 : t.width });

function f(cx: KernelLowering, t: ScalarType, v: number): Id {
  return cx.module.constFloat(t, v);
}

// ---- integers -----------------------------------------------------------------------------

/** An integer binary op; `onBool` gives its meaning on i1 (true = 1 unsigned, −1 signed). */
/**
 * `index.div`/`rem`: the dividend is non-negative (a negative one is undefined behaviour,
 * docs/language.md §4.2), so a constant power-of-two divisor is a logical shift or a mask;
 * any other divisor is OpSDiv/OpSRem.
 */
function indexDivision(kind: "div" | "rem"): LaneRule {
  return ({ cx, args: [a, b], to: result }) => {
    const d = cx.constValue(b!);
    if (d !== undefined && d > 0n && (d & (d - 1n)) === 0n) {
      if (kind === "rem") return d === 1n ? cx.int(result, 0n) : cx.binary(S.BitwiseAnd, result, a!, cx.int(result, d - 1n));
      return d === 1n ? a! : cx.binary(S.ShiftRightLogical, result, a!, cx.int(result, BigInt(d.toString(2).length - 1)));
    }
    return cx.binary(kind === "div" ? S.SDiv : S.SRem, result, a!, b!);
  };
}

function intBinary(opcode: Parameters<KernelLowering["binary"]>[0], onBool: "ne" | "and" | "or" | "first" | "false"): LaneRule {
  return ({ cx, args: [a, b], to: result }) => {
    if (!isBool(result)) return cx.binary(opcode, result, a!, b!);
    switch (onBool) {
      case "ne": return cx.binary(S.LogicalNotEqual, BOOL, a!, b!);
      case "and": return cx.binary(S.LogicalAnd, BOOL, a!, b!);
      case "or": return cx.binary(S.LogicalOr, BOOL, a!, b!);
      case "first": return a!;
      case "false": return cx.module.constBool(false);
    }
  };
}

function minMaxInt(cmp: "slt" | "sgt" | "ult" | "ugt", onBool: "and" | "or"): LaneRule {
  const opcode = ({ slt: S.SLessThan, sgt: S.SGreaterThan, ult: S.ULessThan, ugt: S.UGreaterThan } as const)[cmp];
  return ({ cx, args: [a, b], to: result }) => {
    if (isBool(result)) return cx.binary(onBool === "and" ? S.LogicalAnd : S.LogicalOr, BOOL, a!, b!);
    return cx.select(result, cx.binary(opcode, BOOL, a!, b!), a!, b!);
  };
}

/** `a / b` rounded up (ceil) or down (floor) from the truncating quotient. */
function roundedDivision(kind: "ceilsi" | "ceilui" | "floorsi"): LaneRule {
  return ({ cx, args: [a, b], to: t }) => {
    if (isBool(t)) return a!;
    const zero = cx.int(t, 0n), one = cx.int(t, 1n);
    if (kind === "ceilui") {
      const q = cx.binary(S.UDiv, t, a!, b!);
      const r = cx.binary(S.UMod, t, a!, b!);
      return cx.binary(S.IAdd, t, q, cx.select(t, cx.binary(S.INotEqual, BOOL, r, zero), one, zero));
    }
    const q = cx.binary(S.SDiv, t, a!, b!);
    const r = cx.binary(S.SRem, t, a!, b!);
    const inexact = cx.binary(S.INotEqual, BOOL, r, zero);
    // The remainder has the dividend's sign; the true quotient is positive when r and b agree.
    const sameSign = cx.binary(S.LogicalEqual, BOOL, cx.binary(S.SLessThan, BOOL, r, zero), cx.binary(S.SLessThan, BOOL, b!, zero));
    if (kind === "ceilsi") return cx.binary(S.IAdd, t, q, cx.select(t, cx.binary(S.LogicalAnd, BOOL, inexact, sameSign), one, zero));
    const differ = cx.unary(S.LogicalNot, BOOL, sameSign);
    return cx.binary(S.ISub, t, q, cx.select(t, cx.binary(S.LogicalAnd, BOOL, inexact, differ), one, zero));
  };
}

const negi: LaneRule = ({ cx, args: [a], to: result }) => (isBool(result) ? a! : cx.unary(S.SNegate, result, a!));
const absi: LaneRule = ({ cx, args: [a], to: result }) => {
  if (isBool(result)) return a!;
  const negative = cx.binary(S.SLessThan, BOOL, a!, cx.int(result, 0n));
  return cx.select(result, negative, cx.unary(S.SNegate, result, a!), a!);
};

/** i1 as a 32-bit integer for comparisons: true = 1 (unsigned) or −1 (signed). */
function widenBool(cx: KernelLowering, b: Id, signed: boolean): Id {
  return cx.select(U32, b, cx.u32(signed ? 0xffffffff : 1), cx.u32(0));
}

const INT_PREDICATES: Readonly<Record<string, [opcode: Parameters<KernelLowering["binary"]>[0], signed: boolean]>> = {
  eq: [S.IEqual, false],
  ne: [S.INotEqual, false],
  slt: [S.SLessThan, true],
  sle: [S.SLessThanEqual, true],
  sgt: [S.SGreaterThan, true],
  sge: [S.SGreaterThanEqual, true],
  ult: [S.ULessThan, false],
  ule: [S.ULessThanEqual, false],
  ugt: [S.UGreaterThan, false],
  uge: [S.UGreaterThanEqual, false],
};

const cmpi: LaneRule = ({ cx, op, args: [a, b], from: t }) => {
  const pred = String(op.props.predicate);
  const entry = INT_PREDICATES[pred];
  if (!entry) throw new Error(`SPIR-V lowering: unknown integer predicate '${pred}'`);
  const [opcode, signed] = entry;
  if (!isBool(t!)) return cx.binary(opcode, BOOL, a!, b!);
  if (pred === "eq") return cx.binary(S.LogicalEqual, BOOL, a!, b!);
  if (pred === "ne") return cx.binary(S.LogicalNotEqual, BOOL, a!, b!);
  return cx.binary(opcode, BOOL, widenBool(cx, a!, signed), widenBool(cx, b!, signed));
};

/** 64-bit carrier split into (low, high) u32 halves. */
function halves(cx: KernelLowering, a: Id): [Id, Id] {
  return [cx.unary(S.UConvert, U32, a), cx.unary(S.UConvert, U32, cx.binary(S.ShiftRightLogical, U64, a, cx.u64(32)))];
}

/** Leading zeros of a u32 (FindUMsb(0) = −1 gives 32). */
function clz32(cx: KernelLowering, x: Id): Id {
  return cx.binary(S.ISub, U32, cx.u32(31), cx.glsl(Glsl.FindUMsb, U32, x));
}

const ctlzi: LaneRule = ({ cx, args: [a] }) => {
  const [lo, hi] = halves(cx, a!);
  const hiZero = cx.binary(S.IEqual, BOOL, hi, cx.u32(0));
  const n = cx.select(U32, hiZero, cx.binary(S.IAdd, U32, cx.u32(32), clz32(cx, lo)), clz32(cx, hi));
  return cx.unary(S.UConvert, U64, n);
};

const cttzi: LaneRule = ({ cx, args: [a] }) => {
  const [lo, hi] = halves(cx, a!);
  const loZero = cx.binary(S.IEqual, BOOL, lo, cx.u32(0));
  const hiZero = cx.binary(S.IEqual, BOOL, hi, cx.u32(0));
  const fromHi = cx.select(U32, hiZero, cx.u32(64), cx.binary(S.IAdd, U32, cx.u32(32), cx.glsl(Glsl.FindILsb, U32, hi)));
  return cx.unary(S.UConvert, U64, cx.select(U32, loZero, fromHi, cx.glsl(Glsl.FindILsb, U32, lo)));
};

const ctpopi: LaneRule = ({ cx, args: [a] }) => {
  // Vulkan allows OpBitCount on 32-bit operands only.
  const [lo, hi] = halves(cx, a!);
  return cx.unary(S.UConvert, U64, cx.binary(S.IAdd, U32, cx.unary(S.BitCount, U32, lo), cx.unary(S.BitCount, U32, hi)));
};

function rotate(left: boolean): LaneRule {
  return ({ cx, args: [a, b] }) => {
    // Shifts by ≥ 64 are undefined in SPIR-V, so both amounts are masked into [0, 63].
    const amount = cx.binary(S.BitwiseAnd, U64, b!, cx.u64(63));
    const back = cx.binary(S.BitwiseAnd, U64, cx.binary(S.ISub, U64, cx.u64(64), amount), cx.u64(63));
    const x = cx.binary(left ? S.ShiftLeftLogical : S.ShiftRightLogical, U64, a!, amount);
    const y = cx.binary(left ? S.ShiftRightLogical : S.ShiftLeftLogical, U64, a!, back);
    return cx.binary(S.BitwiseOr, U64, x, y);
  };
}

const madd: LaneRule = ({ cx, args: [a, b, c] }) => cx.binary(S.IAdd, U64, cx.binary(S.IMul, U64, a!, b!), c!);

// ---- floats -------------------------------------------------------------------------------

const floatBinary = (opcode: Parameters<KernelLowering["binary"]>[0]): LaneRule => ({ cx, args: [a, b], to: result }) => cx.binary(opcode, result, a!, b!);
const glslLane = (inst: number): LaneRule => ({ cx, args, to: result }) => cx.glsl(inst, result, ...args);

/**
 * Trunc/RoundEven keeping the operand's sign on a zero result (trunc(−0.25) = −0). Rounding to
 * an integral value never changes the sign, so OR-ing the operand's sign bit in is exact; lavapipe's
 * f64 Trunc and RoundEven return +0 there even under SignedZeroInfNanPreserve.
 */
function integralKeepingSign(cx: KernelLowering, inst: number, t: ScalarType, a: Id): Id {
  const r = cx.glsl(inst, t, a);
  if (t.kind !== "float" || t.width !== 64 || !cx.info.features.shaderInt64) return r;
  const it = intOfWidth(t);
  const sign = cx.binary(S.BitwiseAnd, it, cx.unary(S.Bitcast, it, a), cx.int(it, 1n << 63n));
  return cx.unary(S.Bitcast, t, cx.binary(S.BitwiseOr, it, cx.unary(S.Bitcast, it, r), sign));
}
const signKeepingLane = (inst: number): LaneRule => ({ cx, args: [a], to: result }) => integralKeepingSign(cx, inst, result, a!);

/** GLSL.std.450 transcendental functions exist for 16- and 32-bit floats only. */
function transcendental(inst: number): LaneRule {
  return (l) => {
    if (l.to.kind === "float" && l.to.width === 64) {
      l.cx.unsupported(l.op, `'${l.op.name}' on f64`, "GLSL.std.450 transcendental functions take 16- or 32-bit floats");
      return l.cx.module.id();
    }
    return glslLane(inst)(l);
  };
}

/**
 * Signed-zero ordering of two zeros: min ORs the sign bits, max ANDs them. Done on the bits
 * where the integer type exists (lavapipe folds −0 + 0 to −0, so the float spelling — a + b is
 * +0 unless both are −0; −(−a + −b) is −0 unless both are +0 — is the fallback for f64 without
 * 64-bit integers).
 */
function zeroOf(cx: KernelLowering, isMin: boolean, t: ScalarType, a: Id, b: Id): Id {
  const it = intOfWidth(t);
  if (it.kind === "int" && (it.width === 32 || (it.width === 64 && cx.info.features.shaderInt64) || (it.width === 16 && cx.info.features.shaderInt16))) {
    return cx.unary(S.Bitcast, t, cx.binary(isMin ? S.BitwiseOr : S.BitwiseAnd, it, cx.unary(S.Bitcast, it, a), cx.unary(S.Bitcast, it, b)));
  }
  return isMin
    ? cx.unary(S.FNegate, t, cx.binary(S.FAdd, t, cx.unary(S.FNegate, t, a), cx.unary(S.FNegate, t, b)))
    : cx.binary(S.FAdd, t, a, b);
}

function orderedZeros(cx: KernelLowering, isMin: boolean, t: ScalarType, a: Id, b: Id, otherwise: Id): Id {
  const bothZero = cx.binary(S.LogicalAnd, BOOL, cx.binary(S.FOrdEqual, BOOL, a, f(cx, t, 0)), cx.binary(S.FOrdEqual, BOOL, b, f(cx, t, 0)));
  return cx.select(t, bothZero, zeroOf(cx, isMin, t, a, b), otherwise);
}

/** C fmin/fmax (NMin/NMax skip a NaN operand) with −0 < +0, which NMin/NMax leave open. */
const numMinMax = (isMin: boolean): LaneRule => ({ cx, args: [a, b], to: t }) =>
  orderedZeros(cx, isMin, t, a!, b!, cx.glsl(isMin ? Glsl.NMin : Glsl.NMax, t, a!, b!));

/** IEEE 754-2019 minimum/maximum: NaN propagates, −0 < +0. */
function minimumMaximum(isMin: boolean): LaneRule {
  return ({ cx, args: [a, b], to: t }) => {
    const anyNan = cx.binary(S.LogicalOr, BOOL, cx.unary(S.IsNan, BOOL, a!), cx.unary(S.IsNan, BOOL, b!));
    const pick = cx.select(t, cx.binary(isMin ? S.FOrdLessThan : S.FOrdGreaterThan, BOOL, a!, b!), a!, b!);
    const ordered = orderedZeros(cx, isMin, t, a!, b!, pick);
    return cx.select(t, anyNan, cx.binary(S.FAdd, t, a!, b!), ordered);
  };
}

const copysignf: LaneRule = ({ cx, op, args: [a, b], to: t }) => {
  const it = intOfWidth(t);
  if (it.kind === "int" && it.width === 16 && !cx.requireFeature(op, "shaderInt16", "'copysignf' on f16 (needs 16-bit integers)")) return cx.module.id();
  if (it.kind === "int" && it.width === 64 && !cx.requireFeature(op, "shaderInt64", "'copysignf' on f64 (needs 64-bit integers)")) return cx.module.id();
  const width = it.kind === "int" ? it.width : 32;
  const sign = 1n << BigInt(width - 1);
  const magnitude = cx.binary(S.BitwiseAnd, it, cx.unary(S.Bitcast, it, a!), cx.int(it, sign - 1n));
  const signBit = cx.binary(S.BitwiseAnd, it, cx.unary(S.Bitcast, it, b!), cx.int(it, sign));
  return cx.unary(S.Bitcast, t, cx.binary(S.BitwiseOr, it, magnitude, signBit));
};

/**
 * Ties to even. f64 is spelled with Trunc (lavapipe's f64 RoundEven rounds 1.5 to 1): `t` odd
 * is `t/2` not integral, exact below 2^53 (larger values are integral, so `d = 0`).
 */
const roundevenf: LaneRule = ({ cx, args: [a], to: t }) => {
  if (t.kind !== "float" || t.width !== 64) return cx.glsl(Glsl.RoundEven, t, a!);
  const tr = integralKeepingSign(cx, Glsl.Trunc, t, a!);
  const d = cx.glsl(Glsl.FAbs, t, cx.binary(S.FSub, t, a!, tr));
  const half = cx.binary(S.FMul, t, tr, f(cx, t, 0.5));
  const odd = cx.binary(S.FOrdNotEqual, BOOL, half, cx.glsl(Glsl.Trunc, t, half));
  const tie = cx.binary(S.LogicalAnd, BOOL, cx.binary(S.FOrdEqual, BOOL, d, f(cx, t, 0.5)), odd);
  const up = cx.binary(S.LogicalOr, BOOL, cx.binary(S.FOrdGreaterThan, BOOL, d, f(cx, t, 0.5)), tie);
  return cx.select(t, up, cx.binary(S.FAdd, t, tr, cx.glsl(Glsl.FSign, t, a!)), tr);
};

/** C `round`: ties away from zero (GLSL Round leaves ties implementation-defined). */
const roundf: LaneRule = ({ cx, args: [a], to: t }) => {
  const tr = integralKeepingSign(cx, Glsl.Trunc, t, a!);
  const frac = cx.glsl(Glsl.FAbs, t, cx.binary(S.FSub, t, a!, tr));
  const up = cx.binary(S.FOrdGreaterThanEqual, BOOL, frac, f(cx, t, 0.5));
  return cx.select(t, up, cx.binary(S.FAdd, t, tr, cx.glsl(Glsl.FSign, t, a!)), tr);
};

const ERF_SMALL = [1, -1 / 3, 1 / 10, -1 / 42, 1 / 216, -1 / 1320];
const ERF_AS = [0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429];

/** erf in f32: a Taylor series below 0.5, Abramowitz–Stegun 7.1.26 above (|error| < 1.5e-7). */
const erff: LaneRule = (l) => {
  const { cx, op, args: [a0], to: t } = l;
  if (t.kind === "float" && t.width === 64) {
    cx.unsupported(op, "'erff' on f64", "the SPIR-V backend evaluates erf in 32-bit floats");
    return cx.module.id();
  }
  const F: ScalarType = { kind: "float", width: 32 };
  const a = t.kind === "float" && t.width === 16 ? cx.unary(S.FConvert, F, a0!) : a0!;
  const c = (v: number) => f(cx, F, v);
  const mul = (x: Id, y: Id) => cx.binary(S.FMul, F, x, y);
  const add = (x: Id, y: Id) => cx.binary(S.FAdd, F, x, y);
  const x = cx.glsl(Glsl.FAbs, F, a);
  const x2 = mul(x, x);
  // Series: 2/√π · x · Σ cₖ x^{2k}, Horner in x².
  let s = c(ERF_SMALL[ERF_SMALL.length - 1]!);
  for (let k = ERF_SMALL.length - 2; k >= 0; k--) s = add(mul(s, x2), c(ERF_SMALL[k]!));
  const small = mul(mul(s, x), c(2 / Math.sqrt(Math.PI)));
  const tt = cx.binary(S.FDiv, F, c(1), add(c(1), mul(c(0.3275911), x)));
  let p = c(ERF_AS[ERF_AS.length - 1]!);
  for (let k = ERF_AS.length - 2; k >= 0; k--) p = add(mul(p, tt), c(ERF_AS[k]!));
  const large = cx.binary(S.FSub, F, c(1), mul(mul(p, tt), cx.glsl(Glsl.Exp, F, cx.unary(S.FNegate, F, x2))));
  const magnitude = cx.select(F, cx.binary(S.FOrdLessThan, BOOL, x, c(0.5)), small, large);
  // erf is odd; the sign of the input carries over (NaN stays NaN through the arithmetic).
  const signed = cx.select(F, cx.binary(S.FOrdLessThan, BOOL, a, c(0)), cx.unary(S.FNegate, F, magnitude), magnitude);
  return t.kind === "float" && t.width === 16 ? cx.unary(S.FConvert, t, signed) : signed;
};

const FLOAT_PREDICATES: Readonly<Record<string, Parameters<KernelLowering["binary"]>[0]>> = {
  oeq: S.FOrdEqual, ogt: S.FOrdGreaterThan, oge: S.FOrdGreaterThanEqual, olt: S.FOrdLessThan, ole: S.FOrdLessThanEqual, one: S.FOrdNotEqual,
  ueq: S.FUnordEqual, ugt: S.FUnordGreaterThan, uge: S.FUnordGreaterThanEqual, ult: S.FUnordLessThan, ule: S.FUnordLessThanEqual, une: S.FUnordNotEqual,
};

const cmpf: LaneRule = ({ cx, op, args: [a, b] }) => {
  const pred = String(op.props.predicate);
  if (pred === "ord" || pred === "uno") {
    // OpOrdered/OpUnordered need the Kernel capability; spell them with OpIsNan.
    const anyNan = cx.binary(S.LogicalOr, BOOL, cx.unary(S.IsNan, BOOL, a!), cx.unary(S.IsNan, BOOL, b!));
    return pred === "uno" ? anyNan : cx.unary(S.LogicalNot, BOOL, anyNan);
  }
  const opcode = FLOAT_PREDICATES[pred];
  if (opcode === undefined) throw new Error(`SPIR-V lowering: unknown float predicate '${pred}'`);
  return cx.binary(opcode, BOOL, a!, b!);
};

// ---- conversions --------------------------------------------------------------------------

function fromBool(cx: KernelLowering, b: Id, t: ScalarType, signed: boolean): Id {
  if (t.kind === "bool") return b;
  if (t.kind === "int") return cx.select(t, b, cx.int(t, signed ? -1n : 1n), cx.int(t, 0n));
  return cx.select(t, b, f(cx, t, signed ? -1 : 1), f(cx, t, 0));
}

function toBool(cx: KernelLowering, x: Id, t: ScalarType): Id {
  if (t.kind === "float") return cx.binary(S.FOrdNotEqual, BOOL, x, f(cx, t, 0));
  // Integer truncation keeps bit 0.
  return cx.binary(S.INotEqual, BOOL, cx.binary(S.BitwiseAnd, t, x, cx.int(t, 1n)), cx.int(t, 0n));
}

/** A conversion instruction, with i1 on either side spelled as select / bit test. */
function convert(opcode: Parameters<KernelLowering["unary"]>[0], signed: boolean): LaneRule {
  return ({ cx, args: [a], from, to }) => {
    if (isBool(from!)) return fromBool(cx, a!, to, signed);
    if (isBool(to)) return toBool(cx, a!, from!);
    if (from!.kind === to.kind && from!.width === to.width) return a!;
    if (opcode === S.SConvert && to.kind === "int" && from!.kind === "int" && to.width > from!.width) {
      // Sign extension as (zext(a) ^ m) − m, m = 2^(w−1): lavapipe miscompiles an OpSConvert
      // whose result is compared signed with a constant (sext(−1) >s 31 came out false).
      const m = cx.int(to, 1n << BigInt(from!.width - 1));
      return cx.binary(S.ISub, to, cx.binary(S.BitwiseXor, to, cx.unary(S.UConvert, to, a!), m), m);
    }
    return cx.unary(opcode, to, a!);
  };
}

const bitcast: LaneRule = ({ cx, args: [a], from, to }) =>
  from!.kind === to.kind ? a! : cx.unary(S.Bitcast, to, a!);

/** `index.cast` (language.md §4.2): sign-extend into index, zero-extend into offset, truncate out. */
const indexCast: LaneRule = (l) => {
  const kind = indexCastKind(l.op);
  if (kind === "same") return l.args[0]!;
  if (kind === "bool") return fromBool(l.cx, l.args[0]!, U64, false);
  return convert(kind === "sext" ? S.SConvert : S.UConvert, kind === "sext")(l);
};

// ---- the table ----------------------------------------------------------------------------

/** Lane rules by op suffix (`scalar.addi`, `vector.addi` → "addi"). */
export const LANE_RULES = {
  addi: intBinary(S.IAdd, "ne"),
  subi: intBinary(S.ISub, "ne"),
  muli: intBinary(S.IMul, "and"),
  divsi: intBinary(S.SDiv, "first"),
  indexdiv: indexDivision("div"),
  indexrem: indexDivision("rem"),
  divui: intBinary(S.UDiv, "first"),
  remsi: intBinary(S.SRem, "false"),
  remui: intBinary(S.UMod, "false"),
  ceildivsi: roundedDivision("ceilsi"),
  ceildivui: roundedDivision("ceilui"),
  floordivsi: roundedDivision("floorsi"),
  negi,
  absi,
  minsi: minMaxInt("slt", "or"),
  maxsi: minMaxInt("sgt", "and"),
  minui: minMaxInt("ult", "and"),
  maxui: minMaxInt("ugt", "or"),
  andi: intBinary(S.BitwiseAnd, "and"),
  ori: intBinary(S.BitwiseOr, "or"),
  xori: intBinary(S.BitwiseXor, "ne"),
  shli: intBinary(S.ShiftLeftLogical, "first"),
  shrsi: intBinary(S.ShiftRightArithmetic, "first"),
  shrui: intBinary(S.ShiftRightLogical, "first"),
  rotli: rotate(true),
  rotri: rotate(false),
  ctlzi,
  cttzi,
  ctpopi,
  madd,
  cmpi,
  addf: floatBinary(S.FAdd),
  subf: floatBinary(S.FSub),
  mulf: floatBinary(S.FMul),
  divf: floatBinary(S.FDiv),
  remf: floatBinary(S.FRem),
  negf: ({ cx, args: [a], to: result }) => cx.unary(S.FNegate, result, a!),
  absf: glslLane(Glsl.FAbs),
  copysignf,
  fmaf: glslLane(Glsl.Fma),
  minimumf: minimumMaximum(true),
  maximumf: minimumMaximum(false),
  minnumf: numMinMax(true),
  maxnumf: numMinMax(false),
  expf: transcendental(Glsl.Exp),
  exp2f: transcendental(Glsl.Exp2),
  logf: transcendental(Glsl.Log),
  log2f: transcendental(Glsl.Log2),
  sqrtf: glslLane(Glsl.Sqrt),
  rsqrtf: glslLane(Glsl.InverseSqrt),
  sinf: transcendental(Glsl.Sin),
  cosf: transcendental(Glsl.Cos),
  tanhf: transcendental(Glsl.Tanh),
  erff,
  powf: transcendental(Glsl.Pow),
  ceilf: glslLane(Glsl.Ceil),
  floorf: glslLane(Glsl.Floor),
  roundf,
  roundevenf,
  truncf: signKeepingLane(Glsl.Trunc),
  cmpf,
  sitofp: convert(S.ConvertSToF, true),
  uitofp: convert(S.ConvertUToF, false),
  fptosi: convert(S.ConvertFToS, true),
  fptoui: convert(S.ConvertFToU, false),
  extf: convert(S.FConvert, false),
  fptrunc: convert(S.FConvert, false),
  extsi: convert(S.SConvert, true),
  extui: convert(S.UConvert, false),
  trunci: convert(S.UConvert, false),
  bitcast,
  cast: indexCast,
} as const satisfies Readonly<Record<string, LaneRule>>;

export type LaneName = keyof typeof LANE_RULES;

/** `index.*` ops lowered lanewise. */
type IndexLanewise = Exclude<Extract<OpName, `index.${string}`>, "index.constant" | "index.assume">;
type SuffixOf<N extends string> = N extends `${string}.${infer S}` ? S : never;

/** `index.*` op suffix → lane rule name (index ops are signed 64-bit; offset only adds/compares). */
export const INDEX_RULE_NAMES: Readonly<Record<SuffixOf<IndexLanewise>, LaneName>> = {
  add: "addi", sub: "subi", mul: "muli", div: "indexdiv", rem: "indexrem", min: "minsi", max: "maxsi", scale: "muli", madd: "madd",
  andi: "andi", ori: "ori", xori: "xori", shli: "shli", shrsi: "shrsi", shrui: "shrui", rotli: "rotli", rotri: "rotri",
  ctlzi: "ctlzi", cttzi: "cttzi", ctpopi: "ctpopi", cmp: "cmpi", cast: "cast",
};
