/**
 * Accuracy of the f64 exp, exp2, log and log2 sequences (lower/f64.ts `exp64`, `log64`;
 * docs/amdgpu.md "f64"): data/f64-math.loom built for gfx1100 and gfx942 runs in the ISA
 * simulator over the special values, a dense sweep of exp's whole range (−750 … 712, results
 * from 0 through the subnormals to ∞), positive doubles of every exponent (subnormals
 * included) and values next to 1, against V8's Math.exp/log/log2 and 2 ** x (fdlibm, within
 * 1 ulp themselves), in ulps of the result; the bounds are asserted.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { f64Bits } from "../util/f64-inputs.js";
import { amdgpuListingOf } from "../../src/targets/amdgpu/index.js";
import { checkWithLlvm, LLVM_CHECK_TOOLS, runOnSimulator } from "./llvm-checks.js";
import { requireLlvm } from "./llvm.js";

const FILE = "test/amdgpu/data/f64-math.loom";

/** |got − want| in ulps of want (0 when both are the same value, ∞ or NaN). */
function ulps(got: number, want: number): number {
  if (f64Bits(got) === f64Bits(want) || (Number.isNaN(got) && Number.isNaN(want))) return 0;
  if (!Number.isFinite(want) || !Number.isFinite(got)) return Infinity;
  const a = Math.abs(want);
  const ulp = a < 2 ** -1022 ? 2 ** -1074 : 2 ** (Math.floor(Math.log2(a)) - 52);
  return Math.abs(got - want) / ulp;
}

function inputs(): number[] {
  const out = [0, -0, Infinity, -Infinity, NaN, 1, -1, 2, 0.5, 1 - 2 ** -53, 1 + 2 ** -52, 2 ** -1074, 2 ** -1022, Number.MAX_VALUE, 709.782712893384, 709.7827128933841, -745.1332191019411, -745.1332191019412, 1024, 1023.9999999999999, -1074, -1075, -1022.5];
  for (let k = 0; k < 6000; k++) out.push(-750 + (1462 * k) / 5999 + Math.sin(k) * 1e-3);
  for (let k = 0; k < 3000; k++) out.push(2 ** (-1074 + (2097 * k) / 2999) * (1 + 0.37 * Math.abs(Math.sin(k))));
  for (let k = 1; k < 1000; k++) out.push(1 + Math.sin(k) * 2 ** -(k % 50), -k * 0.25);
  return out;
}

for (const processor of ["gfx1100", "gfx942"]) {
  test(`f64 expf, exp2f, logf and log2f on ${processor}: within their documented ulps`, (t) => {
    const x = Float64Array.from(inputs());
    const n = x.length;
    const out = new Float64Array(runOnSimulator(processor, FILE, "f64_math", [x], 32).out);
    const references: [string, (v: number) => number, number][] = [["expf", Math.exp, 1], ["exp2f", (v) => 2 ** v, 1], ["logf", Math.log, 1], ["log2f", Math.log2, 1]];
    references.forEach(([name, reference, bound], j) => {
      let max = 0, at = "";
      for (let i = 0; i < n; i++) {
        const e = ulps(out[4 * i + j]!, reference(x[i]!));
        if (!(e <= max)) [max, at] = [e, `x=${x[i]}: got ${out[4 * i + j]}, want ${reference(x[i]!)}`];
      }
      t.diagnostic(`${processor}: ${name} ≤ ${max.toFixed(3)} ulp (${at})`);
      assert.ok(max <= bound, `${name}: ${max} ulp at ${at}`);
    });
  });
}

/**
 * sin, cos, tanh, pow and rem (lower/f64-math.ts): data/f64-math2.loom on both families against
 * V8's Math.sin/cos/tanh/pow (fdlibm, within 1 ulp; pow with C's special cases, as the f32 rule)
 * and the exact `%` (C fmod). Inputs: the special values, a dense sweep of [−10, 10], magnitudes
 * to 2^20 and the doubles next to k·π/2 (k to 2^20) for sin/cos; pow over pairs with
 * |y·log x| ≤ 700 (negative x with integer y), rem over pairs with |x/y| < 2^53.
 */
function inputs2(): [number[], number[]] {
  const xs: number[] = [], ys: number[] = [];
  const push = (x: number, y: number) => (xs.push(x), ys.push(y));
  const specials = [0, -0, Infinity, -Infinity, NaN, 1, -1, 2, -2, 0.5, -0.5, 3, -3, 2 ** -1074, 2 ** -1022, 1e-300, 1e300, Number.MAX_VALUE, 1 - 2 ** -53, 1 + 2 ** -52];
  for (const a of specials) for (const b of specials) push(a, b);
  for (let k = 0; k < 4000; k++) push(-10 + (20 * k) / 3999 + Math.sin(k) * 1e-4, 0.5 + k / 8);
  for (let k = 0; k < 2000; k++) {
    const x = 2 ** (-30 + (50 * k) / 1999) * (1 + Math.abs(Math.sin(k * 7)));
    push(k % 2 ? -x : x, (Math.sin(k) * 700) / Math.max(Math.abs(Math.log(x)), 1e-3));
  }
  for (let k = 1; k < 2 ** 20; k = Math.ceil(k * 1.37)) {
    const near = k * (Math.PI / 2);
    for (const d of [-2, -1, 0, 1, 2]) push(near + d * 2 ** (Math.floor(Math.log2(near)) - 52), -(k % 9) - 1);
  }
  for (let k = 0; k < 1000; k++) push(Math.sin(k) * 2 ** ((k % 60) - 30), (k % 2 ? -1 : 1) * (2 ** ((k % 40) - 20)) * (1 + Math.abs(Math.cos(k))));
  return [xs, ys];
}

/** A double as sign·m·2^e (m the significand field with its hidden bit: 2^e is its ulp). */
function parts(v: number): { s: bigint; m: bigint; e: number } {
  const b = f64Bits(v), field = Number((b >> 52n) & 0x7ffn), frac = b & ((1n << 52n) - 1n);
  return { s: b >> 63n ? -1n : 1n, m: field ? frac | (1n << 52n) : frac, e: field ? field - 1075 : -1074 };
}

const P = 256n, ONE = 1n << P;
const shift = (v: bigint, k: number) => (k >= 0 ? v << BigInt(k) : v >> BigInt(-k));
function isqrt(v: bigint): bigint {
  let r = 1n << BigInt(Math.ceil(v.toString(2).length / 2));
  for (let next = (r + v / r) >> 1n; next < r; next = (r + v / r) >> 1n) r = next;
  return r;
}
/** 2/√π in fixed point (π = 16·atan(1/5) − 4·atan(1/239)). */
const TWO_OVER_SQRT_PI = (() => {
  const atanInverse = (k: bigint) => {
    let sum = 0n;
    for (let term = ONE / k, n = 1n, sign = 1n; term !== 0n; term /= k * k, n += 2n, sign = -sign) sum += (sign * term) / n;
    return sum;
  };
  return (2n * ONE * ONE) / isqrt((16n * atanInverse(5n) - 4n * atanInverse(239n)) * ONE);
})();

/** |got − erf x| in ulps of got, erf x = x·S with S = 2/√π·Σ (−1)^n x^(2n)/(n!(2n+1)) summed in 256-bit fixed point (|x| ≤ 6; beyond, erf is ±1 in f64). */
function erfUlps(got: number, x: number): number {
  if (Number.isNaN(x)) return Number.isNaN(got) ? 0 : Infinity;
  if (Math.abs(x) > 6) return ulps(got, Math.sign(x));
  if (x === 0) return f64Bits(got) === f64Bits(x) ? 0 : Infinity;
  const px = parts(x), pg = parts(got);
  const x2 = shift(px.m * px.m, 2 * px.e + Number(P));
  let sum = ONE;
  for (let term = ONE, k = 1n; term !== 0n; k++) (term = -((term * x2) >> P) / k), (sum += term / (2n * k + 1n));
  const series = (sum * TWO_OVER_SQRT_PI) >> P;
  const low = Math.min(pg.e, px.e - Number(P));
  const d = pg.s * shift(pg.m, pg.e - low) - px.s * shift(px.m * series, px.e - Number(P) - low);
  return Number(d < 0n ? -d : d) * 2 ** (low - pg.e);
}

/** C's pow where it differs from Math.pow: x = 1 and (x = −1, y = ±∞) give 1. */
const powC = (x: number, y: number) => (x === 1 || (Math.abs(x) === 1 && Math.abs(y) === Infinity) ? 1 : Math.pow(x, y));

for (const processor of ["gfx1100", "gfx942"]) {
  test(`f64 sinf, cosf, tanhf, powf and remf on ${processor}: within their documented ulps`, (t) => {
    const file = "test/amdgpu/data/f64-math2.loom";
    const [xs, ys] = inputs2();
    const x = Float64Array.from(xs), y = Float64Array.from(ys);
    const n = x.length;
    const run = runOnSimulator(processor, file, "f64_math2", [x, y], 48);
    const out = new Float64Array(run.out);
    const inRange = (a: number, b: number) => !(Number.isFinite(a) && Number.isFinite(b) && b !== 0 && Math.abs(a / b) >= 2 ** 53);
    const references: [string, (a: number, b: number) => number, (a: number, b: number) => number, (a: number, b: number) => boolean][] = [
      ["sinf", Math.sin, () => 1, (a) => Math.abs(a) <= 2 ** 20], ["cosf", Math.cos, () => 1, (a) => Math.abs(a) <= 2 ** 20], ["tanhf", Math.tanh, () => 3, () => true],
      // pow's log carries about 2^-57 relative error into y·log|x|: the bound grows with it.
      ["powf", powC, (a, b) => 2 + (Math.abs(b * Math.log(Math.abs(a))) / 16 || 0), (a, b) => !(Math.abs(b * Math.log(Math.abs(a))) > 700)], ["remf", (a, b) => a % b, () => 0, inRange],
    ];
    const failures: string[] = [];
    references.forEach(([name, reference, bound, covered], j) => {
      let max = 0, at = "", count = 0;
      for (let i = 0; i < n; i++) {
        if (!covered(x[i]!, y[i]!)) continue;
        count++;
        const e = ulps(out[6 * i + j]!, reference(x[i]!, y[i]!));
        const where = `x=${x[i]}, y=${y[i]}: got ${out[6 * i + j]}, want ${reference(x[i]!, y[i]!)}`;
        if (!(e <= max)) [max, at] = [e, where];
        if (!(e <= bound(x[i]!, y[i]!))) failures.push(`${name}: ${e} ulp at ${where}`);
      }
      t.diagnostic(`${processor}: ${name} ≤ ${max.toFixed(3)} ulp over ${count} inputs (${at})`);
    });
    let erfMax = 0, erfAt = "";
    for (let i = 0; i < n; i++) {
      const e = erfUlps(out[6 * i + 5]!, x[i]!);
      if (!(e <= erfMax)) [erfMax, erfAt] = [e, `x=${x[i]}: got ${out[6 * i + 5]}`];
      if (!(e <= 2)) failures.push(`erff: ${e} ulp at x=${x[i]}: got ${out[6 * i + 5]}`);
    }
    t.diagnostic(`${processor}: erff ≤ ${erfMax.toFixed(3)} ulp over ${n} inputs (${erfAt})`);
    assert.deepEqual(failures, []);
    if (!requireLlvm(t, ...LLVM_CHECK_TOOLS)) return;
    const listing = amdgpuListingOf(run.kernel.executable);
    assert.ok(listing, "the listing of a code object this process emitted");
    // LLVM 19 decodes every instruction and re-assembles the listing to the same bytes.
    checkWithLlvm(run.kernel.executable, listing, processor);
    t.diagnostic(`${processor}: ${listing.split("\n").filter((l) => /^\s+[sv]_/.test(l)).length} instructions`);
  });
}
