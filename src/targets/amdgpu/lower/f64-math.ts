/**
 * The f64 math functions beyond exp/log (docs/amdgpu.md "f64"): sin/cos (Cody–Waite reduction
 * by π/2 in three parts, Taylor kernels), tanh (from e^x − 1), pow (log in two doubles, exp of
 * the product with its low part) and fmod. All are fma polynomials over f64.ts's blocks.
 */
import { imm } from "../isa/operands.js";
import { part } from "../machine/program.js";
import { boolOp, select, vop3Sources } from "./arith.js";
import type { KernelLowering, Scalar } from "./context.js";
import { abs64, ATANH_COEFFICIENTS, compareF64, copySign64, decompose, divide64, exp64, F64_HALF, f64c, horner, LN2, LN2_LO, negate64, op3, raw, unary } from "./f64.js";

type Cx = KernelLowering;

const add = (cx: Cx, a: Scalar, b: Scalar) => op3(cx, "v_add_f64", [a, b]);
const sub = (cx: Cx, a: Scalar, b: Scalar) => add(cx, a, negate64(cx, b));
const mul = (cx: Cx, a: Scalar, b: Scalar) => op3(cx, "v_mul_f64", [a, b]);
const fma = (cx: Cx, a: Scalar, b: Scalar, c: Scalar) => op3(cx, "v_fma_f64", [a, b, c]);
const is = (cx: Cx, pred: string, a: Scalar, b: Scalar) => compareF64(cx, pred, a, b)!;

/** π/2 as three doubles (each the rounding of what the ones before leave; the rest is below 2^-163). */
const PIO2_PARTS = [1.5707963267948966, 6.123233995736766e-17, -1.4973849048591698e-33];
const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));
/** (−1)^i / (first + 2i)! for i = 1…9: the sine (first 1) and cosine (first 0) series in r², past the leading 1. */
const series = (first: number) => Array.from({ length: 9 }, (_, i) => (-1) ** (i + 1) / factorial(first + 2 * i + 2));

/**
 * sin x or cos x: k = rndne(x·2/π), r = x − k·π/2 by three fmas (the first is exact for every
 * |x| < 2^53: x and k·c₁ are multiples of 2^-53 and differ by less than 1), |r| ≲ π/4; the
 * kernels are the Taylor series to r^19 and r^18 (remainders below 2^-60), and the quadrant
 * k (+1 for cosine) mod 4, computed exactly in f64, picks sin r / cos r and the sign.
 * ±∞ and NaN come out NaN (r is); sin keeps ±0.
 */
function sinCos64(cx: Cx, x: Scalar, cosine: boolean): Scalar {
  const k = unary(cx, "v_rndne_f64", mul(cx, x, f64c(cx, 2 / Math.PI)));
  const negK = negate64(cx, k);
  const r = PIO2_PARTS.reduce((v, c) => fma(cx, negK, f64c(cx, c), v), x);
  const z = mul(cx, r, r);
  const sin = fma(cx, mul(cx, r, z), horner(cx, z, series(1)), r);
  const cos = fma(cx, z, horner(cx, z, series(0)), f64c(cx, 1));
  const n = cosine ? add(cx, k, f64c(cx, 1)) : k;
  const quadrant = fma(cx, unary(cx, "v_floor_f64", mul(cx, n, f64c(cx, 0.25))), f64c(cx, -4), n);
  const half = mul(cx, quadrant, f64c(cx, 0.5));
  const v = select(cx, is(cx, "one", unary(cx, "v_trunc_f64", half), half), cos, sin);
  const signed = select(cx, is(cx, "oge", quadrant, f64c(cx, 2)), negate64(cx, v), v);
  return cosine ? signed : select(cx, is(cx, "oeq", x, f64c(cx, 0)), x, signed);
}

/** tanh x = e/(e + 2) with e = e^(2|x|) − 1 (|x| clamped to 40, where tanh is 1) and e + 2's rounding error corrected, x's sign; NaN itself. */
function tanh64(cx: Cx, x: Scalar): Scalar {
  const a = op3(cx, "v_min_f64", [abs64(cx, x), f64c(cx, 40)]);
  const e = exp64(cx, add(cx, a, a), false, undefined, true);
  const d = add(cx, e, f64c(cx, 2));
  const q = divide64(cx, e, d);
  // e/(d + dLow) with dLow = e − (d − 2) the rounding error of d, and 1/(e + 2) = (1 − q)/2.
  const dLow = sub(cx, e, add(cx, d, f64c(cx, -2)));
  const t = copySign64(cx, fma(cx, mul(cx, q, dLow), fma(cx, q, f64c(cx, 0.5), f64c(cx, -0.5)), q), x);
  return select(cx, is(cx, "uno", x, x), x, t);
}

/**
 * log a (a > 0 finite) as hi + lo: a = 2^e·m, s = (m − 1)/(m + 1) with its low part from the
 * exact residual (1/(m + 1) = (1 − s)/2), log m = 2s + s³·R(s²), e·ln2 split exactly by fma,
 * and the leading sum e·ln2 + 2s by TwoSum; the rest adds into lo.
 */
function logTwoPart(cx: Cx, a: Scalar): [Scalar, Scalar] {
  const { m, ef } = decompose(cx, a);
  const f = add(cx, m, f64c(cx, -1));
  const d = add(cx, m, f64c(cx, 1));
  const dLow = sub(cx, m, add(cx, d, f64c(cx, -1)));
  const s = divide64(cx, f, d);
  const negS = negate64(cx, s);
  const sLow = mul(cx, fma(cx, negS, dLow, fma(cx, negS, d, f)), fma(cx, s, f64c(cx, -0.5), f64c(cx, 0.5)));
  const z = mul(cx, s, s);
  const tail = fma(cx, mul(cx, s, z), horner(cx, z, ATANH_COEFFICIENTS), add(cx, sLow, sLow));
  const p = mul(cx, ef, f64c(cx, LN2));
  const pLow = fma(cx, ef, f64c(cx, LN2_LO), fma(cx, ef, f64c(cx, LN2), negate64(cx, p)));
  const twoS = add(cx, s, s);
  const sum = add(cx, p, twoS);
  const b = sub(cx, sum, p);
  const error = add(cx, sub(cx, p, sub(cx, sum, b)), sub(cx, twoS, b));
  const lo = add(cx, add(cx, error, pLow), tail);
  const hi = add(cx, sum, lo);
  return [hi, sub(cx, lo, sub(cx, hi, sum))];
}

/** v_cmp_class_f64 of x against `mask` (bits: 0–1 NaN, 2 −∞, 5 −0, 6 +0, 9 +∞ …). */
function classIs(cx: Cx, x: Scalar, mask: number): Scalar {
  const c = cx.vreg("s", cx.maskDwords);
  cx.emit("v_cmp_class_f64", [part(c), part(cx.vpair(x)), ...vop3Sources(cx, [imm(mask)])]);
  return cx.sval("i1", c, { mask: true });
}

/**
 * pow(x, y) with C's special cases (as the f32 rule): |x|^y = e^(y·log|x|) with log|x| in two
 * parts and y·log|x| = t + t_lo (fma), t_lo added to exp's reduced argument; |x| = 0, ∞, NaN
 * give log −∞, ∞, NaN. Odd integer y gives x's sign, finite x < 0 with non-integer y NaN,
 * y = 0, x = 1 and (x = −1, y = ±∞) give 1.
 */
function pow64(cx: Cx, x: Scalar, y: Scalar): Scalar {
  const ax = abs64(cx, x);
  const [logHi, logLo] = logTwoPart(cx, ax);
  const hi = select(cx, classIs(cx, ax, 0x60), f64c(cx, -Infinity), select(cx, classIs(cx, ax, 0x203), ax, logHi));
  const t = mul(cx, y, hi);
  const tLow = fma(cx, y, logLo, fma(cx, y, hi, negate64(cx, t)));
  const r = exp64(cx, t, false, select(cx, is(cx, "uno", tLow, tLow), f64c(cx, 0), tLow));
  const ty = unary(cx, "v_trunc_f64", y), half = mul(cx, y, f64c(cx, 0.5));
  const odd = boolOp(cx, "and", is(cx, "oeq", ty, y), is(cx, "une", unary(cx, "v_trunc_f64", half), half));
  const one = boolOp(cx, "or", boolOp(cx, "or", is(cx, "oeq", y, f64c(cx, 0)), is(cx, "oeq", x, f64c(cx, 1))),
    boolOp(cx, "and", is(cx, "oeq", ax, f64c(cx, 1)), is(cx, "oeq", abs64(cx, y), f64c(cx, Infinity))));
  const nan = boolOp(cx, "and", classIs(cx, x, 0x18), is(cx, "une", ty, y));
  return select(cx, one, f64c(cx, 1), select(cx, nan, f64c(cx, NaN), select(cx, odd, copySign64(cx, r, x), r)));
}

/**
 * fmod (C), exact while |a/b| < 2^53: q = trunc(|a|/|b|) with the correctly rounded quotient is
 * the true one or one more (then r = |a| − q·|b| is −|b| < r < 0, still exact, and |b| is added
 * back exactly); |b| = ∞ gives |a|; a's sign (zeros included).
 */
function rem64(cx: Cx, a: Scalar, b: Scalar): Scalar {
  const ax = abs64(cx, a), ay = abs64(cx, b);
  const r1 = fma(cx, unary(cx, "v_trunc_f64", divide64(cx, ax, ay)), negate64(cx, ay), ax);
  const r = select(cx, is(cx, "olt", r1, f64c(cx, 0)), add(cx, r1, ay), r1);
  const infinite = boolOp(cx, "and", is(cx, "oeq", ay, f64c(cx, Infinity)), is(cx, "olt", ax, f64c(cx, Infinity)));
  return copySign64(cx, select(cx, infinite, ax, r), a);
}

const TWO_OVER_SQRT_PI = 1.1283791670955126;
/** erf x = x·Σ c_n x^(2n), c_n = 2/√π·(−1)^n/(n!(2n+1)), n < 27 (the remainder below 2^-60 for |x| < 1.5). */
const ERF_SERIES = Array.from({ length: 27 }, (_, n) => ((-1) ** n * TWO_OVER_SQRT_PI) / (factorial(n) * (2 * n + 1)));

/**
 * erf x: for |x| < 1.5 the series x·Σ c_n x^(2n) (Horner in x²); above, 1 − erfc with
 * erfc = e^(−x²)/√π · B/A, A/B the 80th convergent of x + (1/2)/(x + 1/(x + (3/2)/(x + …)))
 * by its forward recurrences (all terms positive: no cancellation), e^(−x²) with x² in two
 * parts (fma) and |x| clamped to 6 (erf is 1 in f64 there); x's sign, NaN itself.
 */
function erf64(cx: Cx, x: Scalar): Scalar {
  const a = op3(cx, "v_min_f64", [abs64(cx, x), f64c(cx, 6)]);
  const near = mul(cx, a, horner(cx, mul(cx, a, a), ERF_SERIES));
  let [a1, a0, b1, b0] = [f64c(cx, 1), a, f64c(cx, 0), f64c(cx, 1)];
  // h = n/2 stepped in a register (one v_add by an inline 0.5, not a constant pair per term).
  for (let n = 1, h = f64c(cx, 0.5); n <= 80; n++, h = cx.sval("f64", raw(cx, "v_add_f64", [part(cx.vpair(h)), F64_HALF]).r)) [a1, a0, b1, b0] = [a0, fma(cx, a, a0, mul(cx, a1, h)), b0, fma(cx, a, b0, mul(cx, b1, h))];
  const square = mul(cx, a, a);
  const e = exp64(cx, negate64(cx, square), false, fma(cx, negate64(cx, a), a, square));
  const erfc = mul(cx, mul(cx, divide64(cx, b0, a0), e), f64c(cx, TWO_OVER_SQRT_PI / 2));
  const far = add(cx, f64c(cx, 1), negate64(cx, erfc));
  const r = copySign64(cx, select(cx, is(cx, "olt", a, f64c(cx, 1.5)), near, far), x);
  return select(cx, is(cx, "uno", x, x), x, r);
}

/** The f64 lane functions of this file, by scalar op name. */
export const F64_MATH: Readonly<Record<string, (cx: Cx, args: readonly Scalar[]) => Scalar>> = {
  sinf: (cx, [a]) => sinCos64(cx, a!, false),
  cosf: (cx, [a]) => sinCos64(cx, a!, true),
  tanhf: (cx, [a]) => tanh64(cx, a!),
  powf: (cx, [a, b]) => pow64(cx, a!, b!),
  remf: (cx, [a, b]) => rem64(cx, a!, b!),
  erff: (cx, [a]) => erf64(cx, a!),
};
