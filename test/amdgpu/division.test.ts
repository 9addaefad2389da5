/**
 * Integer division against the hardware's inexact reciprocal. The simulator's v_rcp_f32 /
 * v_rcp_iflag_f32 round 1/a toward zero (< 1 ulp, as the hardware's 1-ulp primitive may),
 * so the u32 sequence (scaled reciprocal, one Newton–Raphson step, mulhi) can land two below
 * the quotient: for the pairs below it needs both of its correction steps, which a correctly
 * rounded reciprocal hides for some of them (checked here on a JS model of the sequence).
 * The u64 sequence (lower/divide64.ts, llc-19's: a 64-bit scaled reciprocal, two Newton–Raphson
 * steps, mulhi) is modelled the same way: at most two corrections on every pair tried, and
 * the pairs below need both. test/amdgpu/data/division.loom divides those pairs and others
 * (both signs, i32 and i64) on gfx1100 and gfx942 in the simulator against the reference
 * interpreter; dropping a correction step from lower/arith.ts or lower/divide64.ts fails it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { compileKernel, describeCheck, findDeviceProvider, genericCase, runCase } from "../../src/harness/index.js";
import { fromRoot } from "../util/paths.js";

const F = new Float32Array(1), U = new Uint32Array(F.buffer);
const f32 = Math.fround;
const rcpTowardZero = (a: number) => {
  const exact = 1 / a;
  F[0] = exact;
  if (Math.abs(F[0]!) > Math.abs(exact)) U[0] = U[0]! - 1;
  return F[0]!;
};
const rcpNearest = (a: number) => f32(1 / a);
U[0] = 0x4f7ffffe;
const SCALE = F[0]!;
const cvtU32 = (v: number) => (v !== v || v <= 0 ? 0 : v >= 4294967295 ? 4294967295 : Math.trunc(v));
const mulHi = (a: number, b: number) => Number((BigInt(a >>> 0) * BigInt(b >>> 0)) >> 32n);

/** How many of the u32 sequence's corrections x / y needs with the given reciprocal. */
function correctionsNeeded(x: number, y: number, rcp: (a: number) => number): number {
  const z0 = cvtU32(f32(SCALE * rcp(f32(y))));
  const z = (z0 + mulHi(z0, Math.imul((0 - y) >>> 0, z0) >>> 0)) >>> 0;
  const q = mulHi(x, z);
  let r = (x - Math.imul(q, y)) >>> 0, n = 0;
  while (r >= y) (r -= y), n++;
  return n;
}

/** u32 pairs that need both corrections with a reciprocal rounded toward zero. */
const TWO_STEP: readonly (readonly [number, number])[] = [
  [4294967295, 16777215], [4294967294, 16777215], [4294967295, 33554430], [4294967295, 67108861],
  [4294967295, 65537], [4294967295, 33554431], [4294967295, 268435455], [4294967294, 1073741823],
];

test("the chosen u32 pairs need both correction steps under the simulator's reciprocal", () => {
  for (const [x, y] of TWO_STEP) assert.equal(correctionsNeeded(x, y, rcpTowardZero), 2, `${x} / ${y}`);
  // A correctly rounded reciprocal would let one correction pass for some of them.
  assert.ok(TWO_STEP.some(([x, y]) => correctionsNeeded(x, y, rcpNearest) < 2));
});

const M64 = (1n << 64n) - 1n;
const fmaF32 = (a: number, b: number, c: number) => f32(a * b + c);
const bitsF32 = (u: number) => ((U[0] = u), F[0]!);

/** How many of the u64 sequence's corrections x / y needs (lower/divide64.ts, step by step). */
function corrections64(x: bigint, y: bigint, rcp: (a: number) => number): number {
  const f = fmaF32(f32(Number(y >> 32n)), bitsF32(0x4f800000), f32(Number(y & 0xffffffffn)));
  const r = f32(bitsF32(0x5f7ffffc) * rcp(f));
  const hiF = Math.trunc(f32(bitsF32(0x2f800000) * r));
  const loF = fmaF32(hiF, bitsF32(0xcf800000), r);
  let z = (BigInt(cvtU32(hiF)) << 32n) | BigInt(cvtU32(loF));
  const negY = (0n - y) & M64;
  for (let i = 0; i < 2; i++) z = (z + ((z * ((negY * z) & M64)) >> 64n)) & M64;
  const q = (x * z) >> 64n;
  assert.ok(q * y <= x, `the quotient estimate of ${x} / ${y} is too large`);
  let rem = x - q * y, n = 0;
  while (rem >= y) (rem -= y), n++;
  return n;
}

/** u64 pairs that need both corrections of the u64 sequence. */
const TWO_STEP_64: readonly (readonly [bigint, bigint])[] = [
  [M64, 0x100000001n], [M64, 0x7fffffffffen], [M64 - 1n, 0x7fffffffffen], [M64, 0xffffffffffdn], [M64 - 1n, 0xfffffffffffn], [M64, 0x1ffffffffffdn],
];

test("the u64 sequence needs at most two corrections, and both for the chosen pairs", () => {
  for (const [x, y] of TWO_STEP_64) assert.equal(corrections64(x, y, rcpTowardZero), 2, `${x} / ${y}`);
  let s = 0x9e3779b97f4a7c15n;
  const next = () => ((s ^= (s << 13n) & M64), (s ^= s >> 7n), (s ^= (s << 17n) & M64), s);
  for (let i = 0; i < 20000; i++) {
    const x = next(), y = next() >> (next() % 64n) || 1n;
    for (const rcp of [rcpTowardZero, rcpNearest]) assert.ok(corrections64(x, y, rcp) <= 2, `${x} / ${y}`);
  }
  for (let k = 0n; k < 64n; k++) {
    for (let d = -3n; d <= 3n; d++) {
      const y = ((1n << k) + d) & M64;
      if (y !== 0n) for (const x of [M64, M64 - 1n, 1n << 63n, 0n, y - 1n]) assert.ok(corrections64(x, y, rcpTowardZero) <= 2, `${x} / ${y}`);
    }
  }
});

const FILE = "test/amdgpu/data/division.loom";
const TEXT = readFileSync(fromRoot(FILE), "utf8");
/** Operand pairs: the two-step u32 pairs, extremes of both signs, then pseudo-random ones (never y = 0, never MIN / −1). */
function operands(n: number): { a: Int32Array; b: Int32Array } {
  const a = new BigUint64Array(n), b = new BigUint64Array(n);
  let s = 0x2545f4914f6cdd1dn;
  const next = () => ((s ^= s << 13n), (s ^= s >> 7n), (s ^= s << 17n), (s &= M64));
  const fixed: [bigint, bigint][] = [
    ...TWO_STEP.map(([x, y]): [bigint, bigint] => [BigInt(x) | (BigInt(x) << 32n), BigInt(y)]),
    ...TWO_STEP_64.map(([x, y]): [bigint, bigint] => [x, y]),
    [M64, 3n], [M64, M64], [1n << 63n, 3n], [(1n << 63n) - 1n, M64 - 6n], [0n, 7n], [5n, M64], [0xffffffffn, 0x100000001n], [M64, 0xffffffffn], [0x8000000000000001n, 0xfffffffffffffffdn],
  ];
  for (let i = 0; i < n; i++) {
    let [x, y] = fixed[i] ?? [next(), next() >> (next() % 64n)];
    if ((y & 0xffffffffn) === 0n) y |= 1n;
    if ((x & 0xffffffffn) === 0x80000000n && (y & 0xffffffffn) === 0xffffffffn) y ^= 2n;
    if (x === 1n << 63n && y === M64) y = M64 - 1n;
    a[i] = x;
    b[i] = y;
  }
  return { a: new Int32Array(a.buffer), b: new Int32Array(b.buffer) };
}

for (const processor of ["gfx1100", "gfx942"]) {
  test(`division_pairs on ${processor}: the simulator matches the interpreter on the two-step pairs and others`, () => {
    const device = findDeviceProvider("sim")!.open(processor);
    const outcome = compileKernel(device.target, FILE, TEXT, "division_pairs");
    assert.ok(outcome.ok, outcome.ok ? "" : outcome.diagnostics);
    const failures: string[] = [];
    for (const [k, n] of [1, 17, 64, 131].entries()) {
      const generic = genericCase(outcome.kernel, [n], { a: 2 * n, b: 2 * n, out: 16 * n }, 5 + k);
      const { a, b } = operands(n);
      const c = { ...generic, args: generic.args.map((x) => (x.kind === "buffer" && x.name === "a" ? { ...x, data: a } : x.kind === "buffer" && x.name === "b" ? { ...x, data: b } : x)) };
      const r = runCase(device, outcome.kernel, c, { referenceFromInterpreter: true });
      for (const check of r.device) if (check.mismatches > 0) failures.push(`n=${n} ${describeCheck(check)}`);
    }
    assert.deepEqual(failures, []);
  });
}
