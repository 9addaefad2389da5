/**
 * Accuracy of the AMDGPU math sequences (docs/amdgpu.md "Math functions"): tanhf, erff,
 * powf and remf built for gfx1100 and gfx942, run in the ISA simulator over inputs spread
 * across each function's range (both signs, tiny to overflowing, the special values), and
 * compared with f64 references (Math.tanh, the interpreter's f64 erf, Math.pow, JS `%`,
 * which is C's fmod) in ulps of the f32 result. The simulator's `v_exp_f32`, `v_log_f32`
 * and `v_rcp_f32` are correctly rounded; hardware's are within 1 ulp, which the documented
 * bounds add.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { erf } from "../../src/interp/math.js";
import { runOnSimulator } from "./llvm-checks.js";

const FILE = "test/amdgpu/data/math.loom";

/** Error of `got` against the f64 `want` in ulps of f32 at |want| (0 when both are the same NaN/∞/value). */
function ulps(got: number, want: number): number {
  const w = Math.fround(want);
  if (Object.is(got, w) || (Number.isNaN(got) && Number.isNaN(want))) return 0;
  if (!Number.isFinite(w) || !Number.isFinite(got)) return Infinity;
  const a = Math.abs(w);
  const ulp = a < 2 ** -126 ? 2 ** -149 : 2 ** (Math.floor(Math.log2(a)) - 23);
  return Math.abs(got - want) / ulp;
}

/** Inputs: ±(a geometric sweep from 2^-20 to `top`), the grid of the suite inputs, and the special values. */
function sweep(top: number, count: number): number[] {
  const out: number[] = [0, -0, Infinity, -Infinity, NaN, 1, -1];
  for (let k = 0; k < count; k++) {
    const v = Math.fround(2 ** (-20 + (Math.log2(top) + 20) * (k / (count - 1))));
    out.push(v, -v);
  }
  for (let k = -4 * 4096; k < 4 * 4096; k += 37) out.push(k / 4096);
  return out;
}

interface Run {
  readonly x: Float32Array;
  readonly y: Float32Array;
  readonly out: Float32Array;
}

function run(processor: string, xs: readonly number[], ys: readonly number[]): Run {
  const x = Float32Array.from(xs), y = Float32Array.from(ys);
  return { x, y, out: new Float32Array(runOnSimulator(processor, FILE, "math_functions", [x, y], 16).out) };
}

/** The largest error of output `slot` and where it is, over the inputs `keep` admits. */
function worst(r: Run, slot: number, reference: (x: number, y: number) => number, keep: (x: number, y: number) => boolean = () => true) {
  let max = 0, at = "";
  for (let i = 0; i < r.x.length; i++) {
    const x = r.x[i]!, y = r.y[i]!;
    if (!keep(x, y)) continue;
    const e = ulps(r.out[4 * i + slot]!, reference(x, y));
    if (e > max) [max, at] = [e, `x=${x} y=${y}: got ${r.out[4 * i + slot]}, want ${reference(x, y)}`];
  }
  return { max, at };
}

for (const processor of ["gfx1100", "gfx942"]) {
  test(`tanhf and erff on ${processor}: within their documented ulps over the whole range`, (t) => {
    const xs = sweep(16, 3000);
    const r = run(processor, xs, xs.map(() => 1));
    const tanh = worst(r, 0, Math.tanh), erff = worst(r, 1, erf);
    t.diagnostic(`${processor}: tanhf ≤ ${tanh.max.toFixed(2)} ulp (${tanh.at}); erff ≤ ${erff.max.toFixed(2)} ulp (${erff.at})`);
    assert.ok(tanh.max <= 1.5, `tanhf: ${tanh.max} ulp at ${tanh.at}`);
    assert.ok(erff.max <= 1.5, `erff: ${erff.max} ulp at ${erff.at}`);
  });

  test(`powf and remf on ${processor}: C semantics; pow within 2 + 1.5·|y·log2 x| ulp, fmod exact`, (t) => {
    const xs: number[] = [], ys: number[] = [];
    const specials = [0, -0, 1, -1, 2, -2, 0.5, -0.5, 3, -3, Infinity, -Infinity, NaN, 1e-30, -7.25];
    for (const a of specials) for (const b of specials) xs.push(a), ys.push(b);
    // Every pair of a sweep of bases against integer and fractional exponents.
    const bases = sweep(64, 40).filter(Number.isFinite), exponents = [-9, -4.5, -3, -2, -1.25, -1, -0.5, 0.25, 0.5, 1, 1.5, 2, 3, 5.75, 8, 11];
    for (const a of bases) for (const b of exponents) xs.push(a), ys.push(b);
    // fmod: quotients below 2^22 (exact) of both signs, from the suite-input grid and wider.
    for (let k = 0; k < 4000; k++) {
      const a = Math.fround(Math.sin(k * 12.9898) * 43758.5453), b = Math.fround(Math.cos(k * 78.233) * (k % 7 === 0 ? 0.001 : 9));
      if (Math.abs(a / b) < 2 ** 22) xs.push(a), ys.push(b);
    }
    const r = run(processor, xs, ys);
    let powExcess = 0, powAt = "";
    for (let i = 0; i < r.x.length; i++) {
      const x = r.x[i]!, y = r.y[i]!;
      const want = Math.pow(x, y);
      const e = ulps(r.out[4 * i + 2]!, want);
      const allowed = 2 + 1.5 * Math.abs(y * Math.log2(Math.abs(x)));
      if (!(e <= allowed) && e - allowed >= powExcess) [powExcess, powAt] = [e - allowed, `x=${x} y=${y}: got ${r.out[4 * i + 2]}, want ${want} (${e} ulp)`];
    }
    const fmod = worst(r, 3, (a, b) => a % b, (a, b) => Math.abs(a / b) < 2 ** 22 || b === 0 || !Number.isFinite(a) || !Number.isFinite(b));
    const pow = worst(r, 2, Math.pow, (x, y) => Math.abs(y * Math.log2(Math.abs(x))) <= 1);
    t.diagnostic(`${processor}: powf ≤ ${pow.max.toFixed(2)} ulp where |y·log2 x| ≤ 1 (${pow.at}); remf ≤ ${fmod.max} ulp`);
    assert.equal(powAt, "", `powf beyond its bound: ${powAt}`);
    assert.equal(fmod.max, 0, `remf: ${fmod.at}`);
  });
}
