/**
 * Device math (`expf logf sqrtf …`, language.md §4.3) and a fast exact f32 FMA.
 *
 * Math functions are not in the shared exact semantics (they are not allowed in launch
 * configs): here each is computed in f64 and rounded once to the format with the shared
 * `roundToFormat`. `sqrtf` is then correctly rounded (f64 has more than 2p+2 bits for every
 * narrower format); the others are within an ulp or so of the true value, which is the
 * accuracy a device comparison must allow anyway.
 */
import { Undefined, type Outcome } from "../dialects/index/semantics.js";
import * as S from "../dialects/scalar/semantics.js";

type Unary = (a: number) => number;

/** erf in f64: Taylor series near zero, the erfc continued fraction further out. */
export function erf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const a = Math.abs(x);
  if (a >= 6) return Math.sign(x);
  if (a < 2.5) {
    // erf(x) = 2/√π · Σ (−1)^n x^(2n+1) / (n! (2n+1))
    let term = a, sum = a;
    const x2 = a * a;
    for (let n = 1; n < 200; n++) {
      term *= -x2 / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    return Math.sign(x) * ((2 / Math.sqrt(Math.PI)) * sum);
  }
  // erfc(a) = e^(−a²)/√π · 1/(a + (1/2)/(a + 1/(a + (3/2)/(a + …)))), evaluated bottom-up.
  let frac = a;
  for (let k = 60; k >= 1; k--) frac = a + k / 2 / frac;
  const erfc = Math.exp(-a * a) / Math.sqrt(Math.PI) / frac;
  return Math.sign(x) * (1 - erfc);
}

const UNARY: Readonly<Record<string, Unary>> = {
  expf: Math.exp,
  exp2f: (a) => 2 ** a,
  logf: Math.log,
  log2f: Math.log2,
  sqrtf: Math.sqrt,
  rsqrtf: (a) => 1 / Math.sqrt(a),
  sinf: Math.sin,
  cosf: Math.cos,
  tanhf: Math.tanh,
  erff: erf,
};

export function isMathOp(op: string): boolean {
  return op in UNARY || op === "powf";
}

function flagged(name: string, f: S.FloatFlags, r: number, operands: readonly number[]): Outcome<number> {
  if (!f.nnan && !f.ninf) return r;
  for (const v of [...operands, r]) {
    if (f.nnan && Number.isNaN(v)) return new Undefined(`${name} sees NaN under nnan`);
    if (f.ninf && (v === Infinity || v === -Infinity)) return new Undefined(`${name} sees an infinity under ninf`);
  }
  return r;
}

/** The math op `op` (without dialect) on format `t`, as a function of its operands. */
export function bindMathOp(op: string, t: S.FloatName, flags: S.FloatFlags): (a: number, b?: number) => Outcome<number> {
  if (op === "powf") return (a, b) => flagged(op, flags, S.roundToFormat(Math.pow(a, b!), t), [a, b!]);
  const f = UNARY[op];
  if (!f) throw new Error(`no math op '${op}'`);
  return (a) => flagged(op, flags, S.roundToFormat(f(a), t), [a]);
}

const bits = new DataView(new ArrayBuffer(8));

/**
 * `fma(a, b, c)` on f32 values, correctly rounded. `a·b` is exact in f64 (48 significant
 * bits), so `s = a·b + c` has one f64 rounding; rounding `s` to f32 equals rounding the exact
 * sum unless `s` is exactly halfway between two f32 values (then, and for non-finite or
 * f32-subnormal results, the shared bigint FMA decides).
 */
export function fmaF32(a: number, b: number, c: number): number {
  const s = a * b + c;
  const r = Math.fround(s);
  if (r === s) return r;
  const m = Math.abs(s);
  if (m < 2 ** -126 || !Number.isFinite(s)) return S.fmaf("f32", a, b, c) as number;
  bits.setFloat64(0, s, true);
  const low29 = bits.getUint32(0, true) & 0x1fffffff;
  return low29 === 0x10000000 ? (S.fmaf("f32", a, b, c) as number) : r;
}
