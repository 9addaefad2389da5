/**
 * f64 selection: a register pair (low dword first), as i64 but never narrow. Arithmetic is
 * the native VOP3 instructions (`v_add/mul/fma/min/max_f64`, one rounding each, IEEE mode),
 * compares `v_cmp_*_f64`, sign operations on the high dword; constants other than +0 go to a
 * VGPR pair first (a 64-bit float operand reads inline integers and literals differently
 * from their bits). Division and square root are LLVM's correctly rounded sequences
 * (`divide64`, `sqrt64`); exp/exp2/log/log2 reduce the argument and sum a Taylor series
 * (`exp64`, `log64`); the other transcendental math functions are TARGET/001.
 */
import { floatToBits } from "../../../dialects/scalar/semantics.js";
import { imm } from "../isa/operands.js";
import { part, type MOperand, type VOperand } from "../machine/program.js";
import { FLOAT_PREDICATES, maskToBool, select, transHazard, vop2, vop3Sources } from "./arith.js";
import type { KernelLowering, Scalar } from "./context.js";

type Cx = KernelLowering;

const SIGN = 0x80000000n;

/** A VOP3 source of an f64: +0 inline, other constants and narrow values as a VGPR pair. */
function source(cx: Cx, x: Scalar, allowSgpr: boolean): MOperand {
  if (x.c === 0n) return imm(0);
  if (allowSgpr && x.c === undefined && cx.isS(x) && x.reg!.n === 2 && !x.narrow) return part(x.reg!);
  return part(cx.vpair(x));
}

/** One f64 VOP3 op: at most one SGPR pair among the sources (gfx9's constant bus). */
export function op3(cx: Cx, mnemonic: string, xs: readonly Scalar[]): Scalar {
  const d = cx.vreg("v", 2);
  let sgpr = true;
  const srcs = xs.map((x) => {
    const o = source(cx, x, sgpr);
    if (o.k === "vreg" && o.r.cls === "s") sgpr = false;
    return o;
  });
  cx.emit(mnemonic, [part(d), ...srcs]);
  return cx.sval("f64", d);
}

/** A pair whose high dword is `hi` applied to x's (sign operations). */
function withHigh(cx: Cx, x: Scalar, hi: (h: MOperand) => MOperand): Scalar {
  const d = cx.vreg("v", 2);
  cx.emit("v_mov_b32", [part(d, 0, 1), cx.lo(x)]);
  cx.emit("v_mov_b32", [part(d, 1, 1), hi(cx.hi(x))]);
  return cx.sval("f64", d);
}

function bitOp(cx: Cx, mnemonic: string, mask: bigint, h: MOperand): MOperand {
  const r = cx.vreg("v", 1);
  vop2(cx, mnemonic, part(r), imm(Number(mask)), h, true);
  return part(r);
}

export function negate64(cx: Cx, x: Scalar): Scalar {
  if (x.c !== undefined) return cx.const("f64", x.c ^ (SIGN << 32n));
  return withHigh(cx, x, (h) => bitOp(cx, "v_xor_b32", SIGN, h));
}

export function abs64(cx: Cx, x: Scalar): Scalar {
  if (x.c !== undefined) return cx.const("f64", x.c & ~(SIGN << 32n));
  return withHigh(cx, x, (h) => bitOp(cx, "v_and_b32", SIGN - 1n, h));
}

export function copySign64(cx: Cx, x: Scalar, y: Scalar): Scalar {
  const sign = bitOp(cx, "v_and_b32", SIGN, cx.hi(y));
  return withHigh(cx, x, (h) => {
    const r = cx.vreg("v", 1);
    vop2(cx, "v_or_b32", part(r), sign, bitOp(cx, "v_and_b32", SIGN - 1n, h), true);
    return part(r);
  });
}

export function compareF64(cx: Cx, pred: string, a: Scalar, b: Scalar): Scalar | undefined {
  const suffix = FLOAT_PREDICATES[pred];
  if (!suffix) return undefined;
  const m = cx.vreg("s", cx.maskDwords);
  const sa = source(cx, a, true);
  const sb = source(cx, b, !(sa.k === "vreg" && sa.r.cls === "s"));
  cx.emit(`v_cmp_${suffix}_f64`, [part(m), sa, sb]);
  const mask = cx.sval("i1", m, { mask: true });
  const uniform = (x: Scalar) => x.c !== undefined || cx.isS(x);
  return uniform(a) && uniform(b) ? maskToBool(cx, mask) : mask;
}

const F64_NAN = 0x7ff8000000000000n;

/** The f64 lane functions, by scalar op name (undefined: not selected on f64). */
export const F64_LANES: Readonly<Record<string, (cx: Cx, args: readonly Scalar[]) => Scalar>> = {
  ...Object.fromEntries(Object.entries({ addf: "add", mulf: "mul", fmaf: "fma", minnumf: "min", maxnumf: "max" }).map(([n, m]) => [n, (cx: Cx, args: readonly Scalar[]) => op3(cx, `v_${m}_f64`, args)])),
  ...Object.fromEntries(Object.entries({ floorf: "floor", ceilf: "ceil", truncf: "trunc", roundevenf: "rndne" }).map(([n, m]) => [n, (cx: Cx, [a]: readonly Scalar[]) => unary(cx, `v_${m}_f64`, a!)])),
  subf: (cx, [a, b]) => op3(cx, "v_add_f64", [a!, negate64(cx, b!)]),
  minimumf: (cx, [a, b]) => nanOr(cx, a!, b!, "min"),
  maximumf: (cx, [a, b]) => nanOr(cx, a!, b!, "max"),
  negf: (cx, [a]) => negate64(cx, a!),
  absf: (cx, [a]) => abs64(cx, a!),
  copysignf: (cx, [a, b]) => copySign64(cx, a!, b!),
  divf: (cx, [a, b]) => divide64(cx, a!, b!),
  sqrtf: (cx, [a]) => sqrt64(cx, a!),
  // Two correctly rounded steps: within 1 ulp (docs/amdgpu.md).
  rsqrtf: (cx, [a]) => divide64(cx, cx.const("f64", ONE_BITS), sqrt64(cx, a!)),
  roundf: (cx, [a]) => roundHalfAway64(cx, a!),
  expf: (cx, [a]) => exp64(cx, a!, false),
  exp2f: (cx, [a]) => exp64(cx, a!, true),
  logf: (cx, [a]) => log64(cx, a!, false),
  log2f: (cx, [a]) => log64(cx, a!, true),
};

const ONE_BITS = 0x3ff0000000000000n;
/** Inline constants of a 64-bit float operand: the hardware reads these codes as the doubles ±0.5, ±1. */
const F64_ONE = imm(0x3f800000), F64_MINUS_ONE = imm(0xbf800000), F64_MINUS_HALF = imm(0xbf000000);
export const F64_HALF = imm(0x3f000000);

/** A VOP3/VOP1 f64 op on operands already legal (VGPR pairs and inline constants). */
export function raw(cx: Cx, mnemonic: string, srcs: readonly MOperand[]): VOperand {
  const d = cx.vreg("v", 2);
  cx.emit(mnemonic, [part(d), ...srcs]);
  return part(d);
}

/**
 * a / b correctly rounded, LLVM's sequence: `v_div_scale_f64` scales the denominator and the
 * numerator away from the exponent range ends (VCC says whether the quotient must be scaled
 * back), `v_rcp_f64` (about 2^-23 relative error) is refined by two Newton steps
 * r' = r + r(1 − d·r), the quotient q = n·r is corrected once with the exact fma residual
 * n − d·q inside `v_div_fmas_f64` (which applies the scale before its one rounding), and
 * `v_div_fixup_f64` gives the IEEE results of zeros, infinities, NaNs and out-of-range
 * quotients. LLVM negates d through source modifiers, which loom's encoder does not emit:
 * −d is one `v_mul_f64` by −1 (exact) instead.
 */
export function divide64(cx: Cx, a: Scalar, b: Scalar): Scalar {
  const n = part(cx.vpair(a)), d = part(cx.vpair(b));
  const vcc = cx.vcc;
  const ds = raw(cx, "v_div_scale_f64", [vcc, d, d, n]);
  // VCC of the numerator's scale is read by v_div_fmas below (gfx9 wants 4 VALU wait states between).
  const ns = raw(cx, "v_div_scale_f64", [vcc, n, d, n]);
  let r = raw(cx, "v_rcp_f64", [ds]);
  transHazard(cx);
  const negD = raw(cx, "v_mul_f64", [ds, F64_MINUS_ONE]);
  for (let step = 0; step < 2; step++) r = raw(cx, "v_fma_f64", [r, raw(cx, "v_fma_f64", [negD, r, F64_ONE]), r]);
  const q = raw(cx, "v_mul_f64", [ns, r]);
  const residual = raw(cx, "v_fma_f64", [negD, q, ns]);
  const scaled = raw(cx, "v_div_fmas_f64", [residual, r, q]);
  const out = raw(cx, "v_div_fixup_f64", [scaled, d, n]);
  return cx.sval("f64", out.r);
}

/** f64 class bits of v_cmp_class: −0, +0 and +∞ (the inputs that are their own square root). */
const ZERO_OR_PLUS_INFINITY = 0x260n;

/**
 * √x correctly rounded, LLVM's sequence: x below 2^-767 is scaled by 2^256 (the result by
 * 2^-128 after), y = `v_rsq_f64` (about 2^-23) seeds g ≈ √x and h ≈ 1/(2√x), one coupled
 * Newton step refines both, two fma residual corrections g += (x − g²)·h round the result,
 * and ±0 and +∞ are returned as they are (NaN and x < 0 come out of v_rsq_f64 as NaN). The
 * negated h and x (LLVM's source modifiers) are formed once: h by scaling with −0.5, x by
 * a `v_mul_f64` by −1.
 */
function sqrt64(cx: Cx, a: Scalar): Scalar {
  const small = compareF64(cx, "olt", a, cx.const("f64", 0x1000000000000000n))!;
  // The exponents from one 0/1 lane value by shifts (inline operands; 256 and −128 would be literals).
  const bit = cx.lo(select(cx, small, cx.const("i32", 1n), cx.const("i32", 0n)));
  const shifted = (k: number) => {
    const d = cx.vreg("v", 1);
    vop2(cx, "v_lshlrev_b32", part(d), imm(k), bit, false);
    return part(d);
  };
  const up = shifted(8);
  const x = raw(cx, "v_ldexp_f64", [part(cx.vpair(a)), up]);
  const y = raw(cx, "v_rsq_f64", [x]);
  transHazard(cx);
  let g = raw(cx, "v_mul_f64", [x, y]);
  let negH = raw(cx, "v_mul_f64", [y, F64_MINUS_HALF]);
  const e = raw(cx, "v_fma_f64", [negH, g, F64_HALF]);
  g = raw(cx, "v_fma_f64", [g, e, g]);
  negH = raw(cx, "v_fma_f64", [negH, e, negH]);
  const negX = raw(cx, "v_mul_f64", [x, F64_MINUS_ONE]);
  for (let step = 0; step < 2; step++) g = raw(cx, "v_fma_f64", [raw(cx, "v_fma_f64", [g, g, negX]), negH, g]);
  const down = cx.vreg("v", 1);
  vop2(cx, "v_sub_u32", part(down), imm(0), shifted(7), false);
  const root = raw(cx, "v_ldexp_f64", [g, part(down)]);
  const m = cx.vreg("s", cx.maskDwords);
  cx.emit("v_cmp_class_f64", [part(m), x, ...vop3Sources(cx, [imm(Number(ZERO_OR_PLUS_INFINITY))])]);
  const scaledX = cx.sval("f64", x.r);
  return select(cx, cx.sval("i1", m, { mask: true }), scaledX, cx.sval("f64", root.r));
}

/** Round half away from zero: t = trunc(x) plus copysign(1, x) where |x − t| ≥ 0.5 (x − t is exact). */
function roundHalfAway64(cx: Cx, x: Scalar): Scalar {
  const t = unary(cx, "v_trunc_f64", x);
  const fraction = abs64(cx, op3(cx, "v_add_f64", [x, negate64(cx, t)]));
  const half = compareF64(cx, "oge", fraction, cx.const("f64", 0x3fe0000000000000n))!;
  const step = copySign64(cx, select(cx, half, cx.const("f64", ONE_BITS), cx.const("f64", 0n)), x);
  return op3(cx, "v_add_f64", [t, step]);
}

/** IEEE minimum/maximum: NaN when either operand is (v_min/max_f64 return the other). */
function nanOr(cx: Cx, a: Scalar, b: Scalar, which: "min" | "max"): Scalar {
  return select(cx, compareF64(cx, "uno", a, b)!, cx.const("f64", F64_NAN), op3(cx, `v_${which}_f64`, [a, b]));
}

/** A VOP1 f64 → f64 op. */
export function unary(cx: Cx, mnemonic: string, x: Scalar): Scalar {
  const d = cx.vreg("v", 2);
  cx.emit(mnemonic, [part(d), source(cx, x, true)]);
  return cx.sval("f64", d);
}

/** f32 (or i32 by `mnemonic`) → f64, exact. */
export function toF64(cx: Cx, mnemonic: "v_cvt_f64_f32" | "v_cvt_f64_i32" | "v_cvt_f64_u32", x: Scalar): Scalar {
  const d = cx.vreg("v", 2);
  cx.emit(mnemonic, [part(d), cx.lo(x)]);
  return cx.sval("f64", d);
}

/** f64 → f32 (nearest even) or i32/u32 (toward zero). */
export function fromF64(cx: Cx, mnemonic: "v_cvt_f32_f64" | "v_cvt_i32_f64" | "v_cvt_u32_f64", x: Scalar): Scalar {
  const d = cx.vreg("v", 1);
  cx.emit(mnemonic, [part(d), source(cx, x, true)]);
  return cx.sval(mnemonic === "v_cvt_f32_f64" ? "f32" : "i32", d);
}

/** i64/u64 → f64, rounded once (LLVM's): hi·2^32 (`v_ldexp_f64`, exact) + lo, both converted exactly. */
export function int64ToF64(cx: Cx, x: Scalar, signed: boolean): Scalar {
  const convert = (mnemonic: string, word: MOperand) => raw(cx, mnemonic, [word]);
  const scaled = raw(cx, "v_ldexp_f64", [convert(signed ? "v_cvt_f64_i32" : "v_cvt_f64_u32", cx.hi(x)), imm(32)]);
  return cx.sval("f64", raw(cx, "v_add_f64", [scaled, convert("v_cvt_f64_u32", cx.lo(x))]).r);
}

/** f64 → i64/u64 toward zero (LLVM's): t = trunc x, hi = floor(t·2^-32), lo = t − hi·2^32 (exact, in [0, 2^32)). */
export function f64ToInt64(cx: Cx, x: Scalar, signed: boolean): Scalar {
  const t = unary(cx, "v_trunc_f64", x);
  const high = unary(cx, "v_floor_f64", op3(cx, "v_mul_f64", [t, f64c(cx, 2 ** -32)]));
  const low = op3(cx, "v_fma_f64", [high, f64c(cx, -(2 ** 32)), t]);
  const d = cx.vreg("v", 2);
  cx.emit("v_cvt_u32_f64", [part(d, 0, 1), source(cx, low, true)]);
  cx.emit(signed ? "v_cvt_i32_f64" : "v_cvt_u32_f64", [part(d, 1, 1), source(cx, high, true)]);
  return cx.sval("i64", d);
}

export const f64c = (cx: Cx, x: number): Scalar => cx.const("f64", floatToBits(x, "f64"));
const LOG2_E = 1.4426950408889634;
export const LN2 = 0.6931471805599453, LN2_LO = 2.3190468138462996e-17;
/** 1/n! for n = 0…13 (each rounded once; n! is exact in double). */
const INVERSE_FACTORIALS = Array.from({ length: 14 }, (_, n) => 1 / Array.from({ length: n }, (_, k) => k + 1).reduce((a, b) => a * b, 1));

/** Σ c_i·z^i by Horner's rule in fma (coefficients lowest first). */
export function horner(cx: Cx, z: Scalar, coefficients: readonly number[]): Scalar {
  let p = f64c(cx, coefficients[coefficients.length - 1]!);
  for (let i = coefficients.length - 2; i >= 0; i--) p = op3(cx, "v_fma_f64", [p, z, f64c(cx, coefficients[i]!)]);
  return p;
}

/**
 * e^(x+lo), 2^x or (minusOne) e^x − 1: x clamped to where the result is 0 or ∞ (NaN comes back
 * as itself at the end), k = rndne(x·log2 e) (or rndne(x)), r = x − k·ln2 with ln2 in two parts
 * by fma (or (x − k)·ln2, x − k exact), |r| ≤ ln2/2, plus lo (pow's low part of its exponent);
 * e^r is the Taylor series to r^13 (its remainder below 2^-57) by Horner's rule in fma, and
 * `v_ldexp_f64` applies 2^k (one more rounding for subnormal results). e^x − 1 sums the series
 * without its 1 and adds 2^k − 1 after the scaling (no cancellation near 0).
 */
export function exp64(cx: Cx, x: Scalar, base2: boolean, lo?: Scalar, minusOne = false): Scalar {
  const [low, high] = base2 ? [-1076, 1025] : [-746, 710];
  const clamped = op3(cx, "v_max_f64", [op3(cx, "v_min_f64", [x, f64c(cx, high)]), f64c(cx, low)]);
  const k = unary(cx, "v_rndne_f64", base2 ? clamped : op3(cx, "v_mul_f64", [clamped, f64c(cx, LOG2_E)]));
  const negK = negate64(cx, k);
  let r = base2
    ? op3(cx, "v_mul_f64", [op3(cx, "v_add_f64", [clamped, negK]), f64c(cx, LN2)])
    : op3(cx, "v_fma_f64", [negK, f64c(cx, LN2_LO), op3(cx, "v_fma_f64", [negK, f64c(cx, LN2), clamped])]);
  if (lo) r = op3(cx, "v_add_f64", [r, lo]);
  const series = horner(cx, r, minusOne ? INVERSE_FACTORIALS.slice(1) : INVERSE_FACTORIALS);
  const mantissa = part(cx.vpair(minusOne ? op3(cx, "v_mul_f64", [series, r]) : series));
  const kInt = cx.lo(fromF64(cx, "v_cvt_i32_f64", k));
  const ldexp = (m: MOperand) => cx.sval("f64", raw(cx, "v_ldexp_f64", [m, kInt]).r);
  const scaled = minusOne ? op3(cx, "v_add_f64", [ldexp(mantissa), op3(cx, "v_add_f64", [ldexp(F64_ONE), f64c(cx, -1)])]) : ldexp(mantissa);
  return select(cx, compareF64(cx, "uno", x, x)!, x, scaled);
}

/** x = 2^e·m with m ∈ [√½, √2) (x > 0 finite; subnormals scaled by 2^54 first): m, and e as an f64. */
export function decompose(cx: Cx, x: Scalar): { m: Scalar; ef: Scalar } {
  const tiny = compareF64(cx, "olt", x, f64c(cx, 2 ** -1022))!;
  const xs = select(cx, tiny, op3(cx, "v_mul_f64", [x, f64c(cx, 2 ** 54)]), x);
  const hi = cx.hi(xs);
  const biased = int(cx, "v_and_b32", imm(0x7ff), int(cx, "v_lshrrev_b32", imm(20), hi));
  const mHigh = int(cx, "v_or_b32", imm(0x3fe00000), int(cx, "v_and_b32", imm(0x000fffff), hi));
  const pair = cx.vreg("v", 2);
  cx.emit("v_mov_b32", [part(pair, 0, 1), cx.lo(xs)]);
  cx.emit("v_mov_b32", [part(pair, 1, 1), mHigh]);
  const half = cx.sval("f64", pair);
  const low = compareF64(cx, "olt", half, f64c(cx, Math.SQRT1_2))!;
  const m = select(cx, low, op3(cx, "v_add_f64", [half, half]), half);
  // e = biased − 1022 − (m doubled) − (54 if scaled).
  const shift = cx.lo(select(cx, tiny, cx.const("i32", BigInt.asUintN(32, -1076n)), cx.const("i32", BigInt.asUintN(32, -1022n))));
  const e = int(cx, "v_add_u32", cx.lo(select(cx, low, cx.const("i32", 0xffffffffn), cx.const("i32", 0n))), int(cx, "v_add_u32", shift, biased));
  return { m, ef: toF64(cx, "v_cvt_f64_i32", cx.sval("i32", e.r)) };
}

/** 2/(2k+1) for k = 1…10: log(1+f) = 2·atanh(s) = 2s + s·Σ c_k s^(2k), s = f/(2+f). */
export const ATANH_COEFFICIENTS = Array.from({ length: 10 }, (_, k) => 2 / (2 * k + 3));

/** The i32 op `a op b` in a VGPR (b a VGPR or moved into one; a may be an immediate). */
function int(cx: Cx, mnemonic: string, a: MOperand, b: MOperand): VOperand {
  const d = cx.vreg("v", 1);
  vop2(cx, mnemonic, part(d), a, b, false);
  return part(d);
}

/**
 * log(x) or log2(x): subnormal x is scaled by 2^54 first; x = 2^e·m with m ∈ [√½, √2) from the
 * exponent field (m's exponent set to −1, doubled below √½), f = m − 1 exact, s = f/(2+f)
 * (`divide64`), log(1+f) = f − (f²/2 − s·(f²/2 + R)) with R = Σ c_k s^(2k) to s^20 (remainder
 * below 2^-57 of the result), and e·ln2 added with ln2 in two parts (log2: e + log(1+f)·log2 e).
 * x < 0 and NaN give NaN, ±0 −∞, +∞ itself (`v_cmp_class_f64`).
 */
function log64(cx: Cx, x: Scalar, base2: boolean): Scalar {
  const { m, ef } = decompose(cx, x);
  const f = op3(cx, "v_add_f64", [m, f64c(cx, -1)]);
  const s = divide64(cx, f, op3(cx, "v_add_f64", [f, f64c(cx, 2)]));
  const z = op3(cx, "v_mul_f64", [s, s]);
  const r = op3(cx, "v_mul_f64", [horner(cx, z, ATANH_COEFFICIENTS), z]);
  const halfSquare = op3(cx, "v_mul_f64", [op3(cx, "v_mul_f64", [f, f]), f64c(cx, 0.5)]);
  const correction = op3(cx, "v_fma_f64", [s, op3(cx, "v_add_f64", [halfSquare, r]), negate64(cx, halfSquare)]);
  const log1p = op3(cx, "v_add_f64", [f, correction]);
  const result = base2
    ? op3(cx, "v_fma_f64", [log1p, f64c(cx, LOG2_E), ef])
    : op3(cx, "v_fma_f64", [ef, f64c(cx, LN2), op3(cx, "v_fma_f64", [ef, f64c(cx, LN2_LO), log1p])]);
  const classed = (mask: number, value: number, otherwise: Scalar) => {
    const c = cx.vreg("s", cx.maskDwords);
    cx.emit("v_cmp_class_f64", [part(c), part(cx.vpair(x)), ...vop3Sources(cx, [imm(mask)])]);
    return select(cx, cx.sval("i1", c, { mask: true }), f64c(cx, value), otherwise);
  };
  // NaN and x < 0 (classes 0–4), ±0 (5, 6), +∞ (9).
  return classed(0x200, Infinity, classed(0x60, -Infinity, classed(0x1f, NaN, result)));
}
