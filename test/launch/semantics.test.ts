/** The shared index/scalar semantics: hand-computed cases and properties against independent formulas. */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import * as X from "../../src/dialects/index/semantics.js";
import * as S from "../../src/dialects/scalar/semantics.js";

const isUB = (x: unknown) => x instanceof X.Undefined;
const I64_MIN = -(1n << 63n), I64_MAX = (1n << 63n) - 1n;

test("index arithmetic is exact and reports out-of-domain results", () => {
  assert.equal(X.indexAdd("index", 1009n, 63n), 1072n);
  assert.equal(X.indexDiv(1072n, 64n), 16n);
  assert.ok(isUB(X.indexAdd("index", I64_MAX, 1n)));
  assert.ok(isUB(X.indexSub("offset", 3n, 4n)));
  assert.equal(X.indexSub("index", 3n, 4n), -1n);
  assert.ok(isUB(X.indexMul(1n << 32n, 1n << 31n)));
  assert.equal(X.indexMul(-(1n << 32n), 1n << 31n), I64_MIN);
  assert.ok(isUB(X.indexDiv(-1n, 64n)));
  assert.ok(isUB(X.indexDiv(5n, 0n)));
  assert.ok(isUB(X.indexRem(5n, -1n)));
  assert.equal(X.indexRem(65n, 64n), 1n);
  assert.equal(X.indexMadd(1n << 40n, 1n << 23n, -1n), I64_MAX); // only the final result must fit
  assert.equal(X.indexScale(4n, 16n), 64n);
  assert.ok(isUB(X.indexScale(-1n, 16n)));
  assert.equal((X.indexShli(1n, 63n)), I64_MIN);
  assert.equal(X.indexShli(3n, 63n), I64_MIN); // bits shifted out of the carrier are dropped
  assert.ok(isUB(X.indexShli(1n, 64n)));
  assert.equal(X.indexShrsi(-8n, 1n), -4n);
  assert.equal(X.indexShrui(-1n, 60n), 15n);
  assert.equal(X.indexRotli(I64_MIN, 1n), 1n);
  assert.equal(X.indexRotri(1n, 1n), I64_MIN);
  assert.equal(X.indexCtlzi(1n), 63n);
  assert.equal(X.indexCtlzi(0n), 64n);
  assert.equal(X.indexCttzi(I64_MIN), 63n);
  assert.equal(X.indexCtpopi(-1n), 64n);
  assert.equal(X.indexCmp("ult", -1n, 0n), 0n);
  assert.equal(X.indexCmp("slt", -1n, 0n), 1n);
  assert.equal(X.indexCmp("ugt", -1n, 0n), 1n);
});

test("index.cast follows language.md §4.2", () => {
  assert.equal(X.indexCast("i1", "index", 1n), 1n);
  assert.equal(X.indexCast("i8", "index", 0xffn), -1n);
  assert.equal(X.indexCast("i8", "offset", 0xffn), 255n);
  assert.ok(isUB(X.indexCast("i64", "offset", (1n << 64n) - 1n)));
  assert.equal(X.indexCast("index", "i32", -1n), 0xffffffffn);
  assert.equal(X.indexCast("index", "i1", 6n), 0n);
  assert.ok(isUB(X.indexCast("index", "offset", -1n)));
  assert.equal(X.indexCast("offset", "index", 7n), 7n);
});

test("property: index ops agree with BigInt.asIntN formulas", () => {
  const i64 = fc.bigInt(I64_MIN, I64_MAX);
  fc.assert(
    fc.property(i64, i64, (a, b) => {
      const sum = X.indexAdd("index", a, b);
      assert.equal(isUB(sum), BigInt.asIntN(64, a + b) !== a + b);
      const prod = X.indexMul(a, b);
      assert.equal(isUB(prod), BigInt.asIntN(64, a * b) !== a * b);
      assert.equal(X.indexAndi(a, b), BigInt.asIntN(64, BigInt.asUintN(64, a) & BigInt.asUintN(64, b)));
      assert.equal(X.indexXori(a, b), BigInt.asIntN(64, BigInt.asUintN(64, a) ^ BigInt.asUintN(64, b)));
      const s = BigInt.asUintN(6, b);
      assert.equal(X.indexRotri(X.indexRotli(a, s) as bigint, s), a);
      assert.equal(X.indexCtpopi(a) + X.indexCtpopi(~a), 64n);
      if (a >= 0n && b > 0n) assert.equal((X.indexDiv(a, b) as bigint) * b + (X.indexRem(a, b) as bigint), a);
    }),
    { numRuns: 500 },
  );
});

test("scalar integers wrap, and flags and division preconditions are UB", () => {
  assert.equal(S.addi("i8", 0xffn, 1n), 0n);
  assert.ok(isUB(S.addi("i8", 0xffn, 1n, { nuw: true })));
  assert.ok(isUB(S.addi("i8", 0x7fn, 1n, { nsw: true })));
  assert.equal(S.addi("i8", 0xffn, 1n, { nsw: true }), 0n); // -1 + 1 is fine signed
  assert.equal(S.muli("i32", 0x10000n, 0x10000n), 0n);
  assert.equal(S.divsi("i32", 0xfffffff9n, 2n), 0xfffffffdn); // -7 / 2 = -3
  assert.equal(S.floordivsi("i32", 0xfffffff9n, 2n), 0xfffffffcn); // -4
  assert.equal(S.ceildivsi("i32", 7n, 2n), 4n);
  assert.equal(S.ceildivui("i32", 7n, 2n), 4n);
  assert.equal(S.remsi("i32", 0xfffffff9n, 2n), 0xffffffffn); // -1: sign of the dividend
  assert.ok(isUB(S.divsi("i8", 0x80n, 0xffn)));
  assert.ok(isUB(S.remsi("i8", 0x80n, 0xffn)));
  assert.ok(isUB(S.divui("i8", 1n, 0n)));
  assert.equal(S.absi("i8", 0x80n), 0x80n);
  assert.equal(S.negi("i16", 1n), 0xffffn);
  assert.equal(S.minsi("i8", 0xffn, 1n), 0xffn);
  assert.equal(S.minui("i8", 0xffn, 1n), 1n);
  assert.ok(isUB(S.shli("i32", 1n, 32n)));
  assert.ok(isUB(S.shli("i8", 0x40n, 1n, { nsw: true })));
  assert.equal(S.shli("i8", 0x40n, 1n, { nuw: true }), 0x80n);
  assert.equal(S.shrsi("i8", 0x80n, 7n), 0xffn);
  assert.equal(S.shrui("i8", 0x80n, 7n), 1n);
  assert.equal(S.cmpi("slt", "i8", 0xffn, 0n), 1n);
  assert.equal(S.cmpi("ult", "i8", 0xffn, 0n), 0n);
  assert.equal(S.extsi("i8", "i32", 0x80n), 0xffffff80n);
  assert.equal(S.extui("i8", "i32", 0x80n), 0x80n);
  assert.equal(S.trunci("i32", "i8", 0x1234n), 0x34n);
});

/** Every finite f16 value, ascending, decoded from its bits by an independent formula. */
const F16_VALUES = (() => {
  const v: number[] = [];
  for (let h = 0; h < 0x7c00; h++) {
    const e = h >> 10, m = h & 0x3ff;
    v.push(e === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (e - 15));
  }
  return v;
})();

function nearestF16(x: number): number {
  const a = Math.abs(x);
  if (a >= 65520) return Math.sign(x) * Infinity; // max finite 65504 + half an ulp (16)
  let lo = 0, hi = F16_VALUES.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (F16_VALUES[mid]! <= a) lo = mid;
    else hi = mid;
  }
  const below = F16_VALUES[lo]!, above = F16_VALUES[hi]!;
  let r: number;
  if (a - below < above - a) r = below;
  else if (a - below > above - a) r = above;
  else r = lo % 2 === 0 ? below : above; // even significand = even index
  if (a >= F16_VALUES[F16_VALUES.length - 1]!) r = F16_VALUES[F16_VALUES.length - 1]!;
  return x < 0 || Object.is(x, -0) ? -r : r;
}

test("f16 and bf16 rounding: hand-computed values", () => {
  assert.equal(S.roundToFormat(1 + 2 ** -11, "f16"), 1); // tie → even
  assert.equal(S.roundToFormat(1 + 3 * 2 ** -11, "f16"), 1 + 2 ** -9);
  assert.equal(S.roundToFormat(65504, "f16"), 65504);
  assert.equal(S.roundToFormat(65519.99, "f16"), 65504);
  assert.equal(S.roundToFormat(65520, "f16"), Infinity);
  assert.equal(S.roundToFormat(2 ** -25, "f16"), 0); // tie between 0 and the smallest subnormal
  assert.equal(S.roundToFormat(2 ** -25 * 1.5, "f16"), 2 ** -24);
  assert.ok(Object.is(S.roundToFormat(-(2 ** -26), "f16"), -0));
  assert.equal(S.roundToFormat(1 + 2 ** -8, "bf16"), 1);
  assert.equal(S.roundToFormat(1 + 3 * 2 ** -8, "bf16"), 1 + 2 ** -6);
  assert.equal(S.floatToBits(1, "f16"), 0x3c00n);
  assert.equal(S.floatToBits(-2, "bf16"), 0xc000n);
  assert.equal(S.floatToBits(NaN, "f32"), 0x7fc00000n);
  assert.equal(S.bitsToFloat(0x7bffn, "f16"), 65504);
  assert.equal(S.bitsToFloat(0x0001n, "f16"), 2 ** -24);
  assert.ok(Number.isNaN(S.bitsToFloat(0x7c01n, "f16")));
});

test("property: f16 rounding equals the nearest f16 value (ties to even)", () => {
  fc.assert(
    fc.property(fc.double({ min: -70000, max: 70000, noNaN: true }), (x) => {
      assert.equal(S.roundToFormat(x, "f16"), nearestF16(x));
    }),
    { numRuns: 1500 },
  );
});

test("property: float bits round-trip for every format", () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 0xffff }), fc.nat(), (h, w) => {
      for (const t of ["f16", "bf16"] as const) {
        const v = S.bitsToFloat(BigInt(h), t);
        if (!Number.isNaN(v)) assert.equal(S.floatToBits(v, t), BigInt(h));
        assert.equal(S.roundToFormat(v, t), v);
      }
      const v32 = S.bitsToFloat(BigInt(w >>> 0), "f32");
      if (!Number.isNaN(v32)) assert.equal(S.floatToBits(v32, "f32"), BigInt(w >>> 0));
    }),
    { numRuns: 500 },
  );
});

test("fmaf rounds once; conversions round to nearest even and trap out of range", () => {
  const a = 1 + 2 ** -52, b = 1 - 2 ** -52;
  assert.equal(a * b - 1, 0); // two roundings lose the answer
  assert.equal(S.fmaf("f64", a, b, -1), -(2 ** -104));
  assert.equal(S.fmaf("f32", 2, 3, 1), 7);
  assert.ok(Number.isNaN(S.fmaf("f64", Infinity, 0, 1) as number));
  assert.equal(S.fmaf("f64", 1e308, 10, -Infinity), -Infinity);
  assert.equal(S.sitofp("i64", "f32", (1n << 64n) - 1n), -1);
  assert.equal(S.uitofp("i64", "f32", (1n << 64n) - 1n), 2 ** 64);
  assert.equal(S.sitofp("i64", "f64", (1n << 53n) + 1n), 2 ** 53); // tie → even
  assert.equal(S.uitofp("i32", "f16", 65519n), 65504);
  assert.equal(S.uitofp("i32", "f16", 65520n), Infinity);
  assert.equal(S.fptosi("f32", "i8", -128.9), 0x80n);
  assert.ok(isUB(S.fptosi("f32", "i8", 128)));
  assert.ok(isUB(S.fptosi("f64", "i32", NaN)));
  assert.equal(S.fptoui("f32", "i8", -0.5), 0n);
  assert.ok(isUB(S.fptoui("f32", "i8", -1)));
  assert.equal(S.fptrunc("f64", "f16", 1 + 2 ** -11 + 2 ** -40), 1 + 2 ** -10); // one rounding, not via f32
  assert.equal(S.bitcast("f32", "i32", -0), 0x80000000n);
  assert.equal(S.bitcast("i16", "bf16", 0x3f80n), 1);
  assert.equal(S.roundf("f32", -2.5), -3);
  assert.equal(S.roundevenf("f32", -2.5), -2);
  assert.ok(Object.is(S.minimumf("f32", 0, -0), -0));
  assert.ok(Number.isNaN(S.minimumf("f32", NaN, 1) as number));
  assert.equal(S.minnumf("f32", NaN, 1), 1);
  assert.ok(isUB(S.addf("f32", Infinity, 1, { ninf: true })));
  assert.ok(isUB(S.cmpf("olt", NaN, 1, { nnan: true })));
  assert.equal(S.cmpf("ult", NaN, 1), 1n);
  assert.equal(S.cmpf("olt", NaN, 1), 0n);
});

test("predicates of §5", () => {
  const idx = (v: bigint) => ({ type: "index", value: v });
  assert.equal(S.evaluatePredicate("range", [idx(5n), 1n, 5n]), true);
  assert.equal(S.evaluatePredicate("range", [idx(6n), 1n, 5n]), false);
  assert.equal(S.evaluatePredicate("mul", [idx(64n), 16n]), true);
  assert.equal(S.evaluatePredicate("mul", [idx(70n), 16n]), false);
  assert.equal(S.evaluatePredicate("mul", [idx(0n), 0n]), false);
  assert.equal(S.evaluatePredicate("pow2", [idx(1n)]), true);
  assert.equal(S.evaluatePredicate("pow2", [idx(0n)]), false);
  assert.equal(S.evaluatePredicate("lt", [0n, idx(1n)]), true);
  assert.equal(S.evaluatePredicate("lt", [{ type: "i8", value: 0xffn }, 0n]), true); // integers compare signed
  assert.equal(S.evaluatePredicate("min", [idx(3n), 3n]), true);
  assert.equal(S.evaluatePredicate("max", [idx(4n), 3n]), false);
  assert.equal(S.evaluatePredicate("eq", [{ type: "f32", value: 1 }, 1n]), true);
  assert.equal(S.evaluatePredicate("not_nan", [{ type: "f32", value: NaN }]), false);
  assert.equal(S.evaluatePredicate("finite", [{ type: "f32", value: Infinity }]), false);
  assert.equal(S.evaluatePredicate("not_inf", [{ type: "f32", value: 1 }]), true);
});
