/**
 * f64 inputs for the division and square root tests (test/amdgpu/f64-divide.test.ts,
 * test/sim/llvm-f64-divide.test.ts): every pair of special and boundary values, random
 * doubles across the whole exponent range, and quotients near the range ends.
 */
import { lcg } from "./lcg.js";

const F64 = new Float64Array(1), U64 = new BigUint64Array(F64.buffer);
export const f64Bits = (x: number): bigint => ((F64[0] = x), U64[0]!);
const fromBits = (b: bigint): number => ((U64[0] = b), F64[0]!);

/** Equal as IEEE bit patterns, or both NaN (NaN payloads are the hardware's choice). */
export const sameF64 = (got: number, want: number): boolean => f64Bits(got) === f64Bits(want) || (Number.isNaN(got) && Number.isNaN(want));

/** Zeros, infinities, NaN, subnormals, the normal range ends, values next to 1 and 0.5 (all-ones significands), ties of round. */
const SPECIALS: readonly number[] = [
  0, -0, Infinity, -Infinity, NaN, 1, -1, 3, -7, 0.1, 2 ** -1074, -(2 ** -1074), 3 * 2 ** -1070, 2 ** -1022, -(2 ** -1022),
  fromBits(0x000fffffffffffffn), Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 1023, 2 ** -767, 2 ** -768, 1e-300, 1e300, 1e-310,
  1 + 2 ** -52, 1 - 2 ** -53, 2 ** 53 + 2, 0.5, 2.5, -2.5, 0.49999999999999994, 4503599627370497,
];

/** Pairs (a[i], b[i]): the specials against each other, then `count` random pairs and quotients near the range ends. */
export function f64Pairs(count: number, seed: number): { a: Float64Array; b: Float64Array } {
  const xs: number[] = [], ys: number[] = [];
  for (const a of SPECIALS) for (const b of SPECIALS) xs.push(a), ys.push(b);
  const rng = lcg(seed);
  const any = () => {
    const x = fromBits((BigInt(Math.floor(rng() * 2 ** 32)) << 32n) | BigInt(Math.floor(rng() * 2 ** 32)));
    return Number.isFinite(x) ? x : rng() - 0.5;
  };
  for (let k = 0; k < count; k++) xs.push(any()), ys.push(any());
  // Huge over tiny, tiny over huge, quotients among the subnormals, moderate over huge.
  for (let k = 0; k < count / 8; k++) {
    const m = 1 + rng(), e = Math.floor(rng() * 60);
    xs.push(m * 2 ** (970 + (e % 53)), m * 2 ** (-1020 - (e % 50)), m * 2 ** (-1000 + e), -m * 2 ** (e - 30));
    ys.push((1 + rng()) * 2 ** (-50 - e), (1 + rng()) * 2 ** (40 + e), (1 + rng()) * 2 ** (20 + e), (1 + rng()) * 2 ** (1000 + (e % 23)));
  }
  return { a: Float64Array.from(xs), b: Float64Array.from(ys) };
}
