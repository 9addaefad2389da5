/**
 * Reference semantics of the `scalar` dialect (language.md §4.3) and of the §5 predicates.
 *
 * Value domains: an integer `iN` is its bit pattern, a bigint in `[0, 2^N)` (signedness is
 * chosen by the op); `i1` is 0n/1n. A float is a JS number holding a value exactly
 * representable in its format (f64 as is, f32 via `Math.fround`, f16/bf16 by our rounding);
 * every rounding is to nearest, ties to even. NaN payloads (docs/language.md "NaN payloads"):
 * a NaN that arithmetic produces is *the* canonical quiet NaN of the format here (a device may
 * give any NaN); ops that only move bits keep every bit, so a NaN that is not the canonical one
 * is carried as a `PayloadNaN` (its exact bits) by the interpreter's bit-moving ops and by
 * `bitcastLane`. The arithmetic functions below take plain numbers: callers pass
 * `numberOf(lane)` (a `PayloadNaN` is then just NaN).
 *
 * Functions return the result or an `Undefined` outcome (UB, language.md §4): division by
 * zero, signed `MIN / -1`, shift amount ≥ width, violated `nsw`/`nuw`, `fpto*` of NaN or
 * out-of-range values, NaN/Inf under `nnan`/`ninf`. Math ops (`expf`…) are not here: they
 * are not exact and not allowed in launch-config regions.
 */
import { COMPARE_PREDICATES, Undefined, compareIntegers, type ComparePredicate, type Outcome } from "../index/semantics.js";

export { Undefined, type Outcome };

export type IntName = "i1" | "i8" | "i16" | "i32" | "i64";
export type FloatName = "f16" | "bf16" | "f32" | "f64";

export const INT_WIDTHS: Readonly<Record<IntName, number>> = { i1: 1, i8: 8, i16: 16, i32: 32, i64: 64 };
export const FLOAT_WIDTHS: Readonly<Record<FloatName, number>> = { f16: 16, bf16: 16, f32: 32, f64: 64 };

export function isIntName(t: string): t is IntName {
  return Object.prototype.hasOwnProperty.call(INT_WIDTHS, t);
}
export function isFloatName(t: string): t is FloatName {
  return Object.prototype.hasOwnProperty.call(FLOAT_WIDTHS, t);
}

const signed = (w: number, bits: bigint): bigint => BigInt.asIntN(w, bits);
const pattern = (w: number, v: bigint): bigint => BigInt.asUintN(w, v);

/** Overflow flags of `addi subi muli shli` (`<ovf>`). */
export interface IntFlags {
  readonly nsw?: boolean;
  readonly nuw?: boolean;
}
/** Fast-math flags that change meaning in exact evaluation: NaN/Inf operands or results are UB. */
export interface FloatFlags {
  readonly nnan?: boolean;
  readonly ninf?: boolean;
}

/** Reads `props.flags` (`["nsw", "nnan", ...]`) into both flag sets. */
export function flagsFromList(list: readonly string[] | undefined): IntFlags & FloatFlags {
  const has = (f: string) => list?.includes(f) ?? false;
  const fast = has("fast");
  return { nsw: has("nsw"), nuw: has("nuw"), nnan: fast || has("nnan"), ninf: fast || has("ninf") };
}

// ---- integer arithmetic -------------------------------------------------------------------

type WrapOp = (a: bigint, b: bigint) => bigint;
function wrapping(w: number, a: bigint, b: bigint, f: IntFlags, op: WrapOp, name: string): Outcome<bigint> {
  const r = pattern(w, op(a, b));
  if (f.nsw && op(signed(w, a), signed(w, b)) !== signed(w, r)) return new Undefined(`${name} overflows the signed range under nsw`);
  if (f.nuw && op(a, b) !== r) return new Undefined(`${name} overflows the unsigned range under nuw`);
  return r;
}
export function addi(t: IntName, a: bigint, b: bigint, f: IntFlags = {}): Outcome<bigint> {
  return wrapping(INT_WIDTHS[t], a, b, f, (x, y) => x + y, "addi");
}
export function subi(t: IntName, a: bigint, b: bigint, f: IntFlags = {}): Outcome<bigint> {
  return wrapping(INT_WIDTHS[t], a, b, f, (x, y) => x - y, "subi");
}
export function muli(t: IntName, a: bigint, b: bigint, f: IntFlags = {}): Outcome<bigint> {
  return wrapping(INT_WIDTHS[t], a, b, f, (x, y) => x * y, "muli");
}

type Rounding = "trunc" | "ceil" | "floor";
function divRounded(x: bigint, y: bigint, rounding: Rounding): bigint {
  const q = x / y, r = x % y;
  if (r === 0n || rounding === "trunc") return q;
  const positive = (r > 0n) === (y > 0n); // sign of the exact quotient's fraction
  if (rounding === "ceil") return positive ? q + 1n : q;
  return positive ? q : q - 1n;
}
function signedDivision(t: IntName, a: bigint, b: bigint, name: string): Undefined | [bigint, bigint, number] {
  const w = INT_WIDTHS[t];
  const x = signed(w, a), y = signed(w, b);
  if (y === 0n) return new Undefined(`${name} by zero`);
  if (y === -1n && x === -(1n << BigInt(w - 1))) return new Undefined(`${name} of the minimum value by -1 overflows`);
  return [x, y, w];
}
function signedDiv(t: IntName, a: bigint, b: bigint, rounding: Rounding, name: string): Outcome<bigint> {
  const d = signedDivision(t, a, b, name);
  return d instanceof Undefined ? d : pattern(d[2], divRounded(d[0], d[1], rounding));
}
export const divsi = (t: IntName, a: bigint, b: bigint) => signedDiv(t, a, b, "trunc", "divsi");
export const ceildivsi = (t: IntName, a: bigint, b: bigint) => signedDiv(t, a, b, "ceil", "ceildivsi");
export const floordivsi = (t: IntName, a: bigint, b: bigint) => signedDiv(t, a, b, "floor", "floordivsi");
export function remsi(t: IntName, a: bigint, b: bigint): Outcome<bigint> {
  const d = signedDivision(t, a, b, "remsi");
  return d instanceof Undefined ? d : pattern(d[2], d[0] % d[1]);
}
export function divui(_t: IntName, a: bigint, b: bigint): Outcome<bigint> {
  return b === 0n ? new Undefined("divui by zero") : a / b;
}
export function ceildivui(_t: IntName, a: bigint, b: bigint): Outcome<bigint> {
  return b === 0n ? new Undefined("ceildivui by zero") : divRounded(a, b, "ceil");
}
export function remui(_t: IntName, a: bigint, b: bigint): Outcome<bigint> {
  return b === 0n ? new Undefined("remui by zero") : a % b;
}
export function negi(t: IntName, a: bigint): bigint {
  return pattern(INT_WIDTHS[t], -a);
}
/** Wrapping absolute value: `absi(MIN) = MIN`. */
export function absi(t: IntName, a: bigint): bigint {
  const w = INT_WIDTHS[t], x = signed(w, a);
  return pattern(w, x < 0n ? -x : x);
}
export const minsi = (t: IntName, a: bigint, b: bigint): bigint => (signed(INT_WIDTHS[t], a) <= signed(INT_WIDTHS[t], b) ? a : b);
export const maxsi = (t: IntName, a: bigint, b: bigint): bigint => (signed(INT_WIDTHS[t], a) >= signed(INT_WIDTHS[t], b) ? a : b);
export const minui = (_t: IntName, a: bigint, b: bigint): bigint => (a <= b ? a : b);
export const maxui = (_t: IntName, a: bigint, b: bigint): bigint => (a >= b ? a : b);
export const andi = (_t: IntName, a: bigint, b: bigint): bigint => a & b;
export const ori = (_t: IntName, a: bigint, b: bigint): bigint => a | b;
export const xori = (_t: IntName, a: bigint, b: bigint): bigint => a ^ b;

/** Shifts take the amount as unsigned; an amount ≥ width is UB **(ours)**. */
function amount(t: IntName, b: bigint): Undefined | bigint {
  return b < BigInt(INT_WIDTHS[t]) ? b : new Undefined(`shift amount ${b} is not below the bit width ${INT_WIDTHS[t]}`);
}
export function shli(t: IntName, a: bigint, b: bigint, f: IntFlags = {}): Outcome<bigint> {
  const s = amount(t, b);
  if (s instanceof Undefined) return s;
  const w = INT_WIDTHS[t], r = pattern(w, a << s);
  if (f.nsw && signed(w, r) >> s !== signed(w, a)) return new Undefined("shli shifts out significant bits under nsw");
  if (f.nuw && r >> s !== a) return new Undefined("shli shifts out set bits under nuw");
  return r;
}
export function shrsi(t: IntName, a: bigint, b: bigint): Outcome<bigint> {
  const s = amount(t, b);
  return s instanceof Undefined ? s : pattern(INT_WIDTHS[t], signed(INT_WIDTHS[t], a) >> s);
}
export function shrui(t: IntName, a: bigint, b: bigint): Outcome<bigint> {
  const s = amount(t, b);
  return s instanceof Undefined ? s : a >> s;
}

/** `scalar.cmpi`: predicates as `index.cmp`, on the signed or unsigned reading of the bits. */
export function cmpi(pred: ComparePredicate, t: IntName, a: bigint, b: bigint): bigint {
  const w = INT_WIDTHS[t];
  return compareIntegers(pred, signed(w, a), signed(w, b), a, b);
}
export { COMPARE_PREDICATES };

// ---- float formats ------------------------------------------------------------------------

interface FloatFormat {
  /** Significand bits including the implicit one. */
  readonly precision: number;
  /** Exponent of the smallest normal number. */
  readonly emin: number;
  readonly emax: number;
}
const FORMATS: Readonly<Record<FloatName, FloatFormat>> = {
  f16: { precision: 11, emin: -14, emax: 15 },
  bf16: { precision: 8, emin: -126, emax: 127 },
  f32: { precision: 24, emin: -126, emax: 127 },
  f64: { precision: 53, emin: -1022, emax: 1023 },
};

const scratch = new DataView(new ArrayBuffer(8));

/** The unbiased binary exponent of a finite non-zero double (subnormals report < −1022). */
function exponentOf(x: number): number {
  scratch.setFloat64(0, x);
  const biased = (scratch.getUint16(0) >> 4) & 0x7ff;
  if (biased !== 0) return biased - 1023;
  return Math.floor(Math.log2(Math.abs(x))); // subnormal double: far below every narrower emin
}

function roundHalfEven(y: number): number {
  const f = Math.floor(y), d = y - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** Rounds a double to the format (RNE, overflow to ±Infinity, NaN stays NaN). */
export function roundToFormat(x: number, t: FloatName): number {
  if (t === "f64") return x;
  if (t === "f32") return Math.fround(x);
  if (!Number.isFinite(x) || x === 0) return x;
  const { precision, emin, emax } = FORMATS[t];
  const e = Math.max(exponentOf(x), emin);
  const quantum = 2 ** (e - precision + 1);
  const r = roundHalfEven(x / quantum) * quantum;
  const maxFinite = (2 - 2 ** (1 - precision)) * 2 ** emax;
  if (Math.abs(r) > maxFinite) return x < 0 ? -Infinity : Infinity;
  return r === 0 ? (x < 0 ? -0 : 0) : r;
}

/**
 * Rounds the exact value `s · 2^e` (s a non-zero bigint) to the format, once (RNE).
 * Used where a double intermediate would round twice: FMA, wide int → float.
 */
export function roundScaled(s: bigint, e: number, t: FloatName): number {
  const negative = s < 0n;
  const mag = negative ? -s : s;
  const { precision, emin } = FORMATS[t];
  const bitLength = mag.toString(2).length;
  const valueExponent = bitLength - 1 + e;
  const quantumExponent = Math.max(valueExponent, emin) - precision + 1;
  let q: bigint, qe: number;
  if (quantumExponent <= e) {
    q = mag;
    qe = e;
  } else {
    const shift = BigInt(quantumExponent - e);
    q = mag >> shift;
    const rem = mag - (q << shift), half = 1n << (shift - 1n);
    if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
    qe = quantumExponent;
  }
  // q has at most precision+1 bits, so both factors and the product are exact (or overflow).
  const magnitude = Number(q) * 2 ** qe;
  const r = roundToFormat(magnitude, t); // only maps overflow to Infinity: already representable
  return negative ? -r : r;
}

/** Exact decomposition of a finite non-zero double into `m · 2^e`. */
function decompose(x: number): [bigint, number] {
  scratch.setFloat64(0, x);
  const hi = scratch.getUint32(0), lo = scratch.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (biased === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  return [x < 0 ? -m : m, e];
}

/** The integer `v` rounded to the format (RNE). */
export function intToFloat(v: bigint, t: FloatName): number {
  if (v === 0n) return 0;
  if (v >= -(2n ** 53n) && v <= 2n ** 53n) return roundToFormat(Number(v), t);
  return roundScaled(v, 0, t);
}

// ---- float bits ---------------------------------------------------------------------------

const CANONICAL_NAN: Readonly<Record<FloatName, bigint>> = { f16: 0x7e00n, bf16: 0x7fc0n, f32: 0x7fc00000n, f64: 0x7ff8000000000000n };

/**
 * A NaN with bits other than the canonical NaN's (a sign, a payload, a signalling NaN), as a
 * lane of bit-moving ops. `valueOf` makes any arithmetic that still meets one see NaN.
 */
export class PayloadNaN {
  constructor(readonly format: FloatName, readonly bits: bigint) {}
  valueOf(): number {
    return NaN;
  }
}

/** A float lane: a number, or a NaN that keeps its bits. */
export type FloatLane = number | PayloadNaN;

/** The number a float lane stands for (a `PayloadNaN` is NaN). */
export function numberOf<T>(x: T | PayloadNaN): T | number {
  return x instanceof PayloadNaN ? NaN : x;
}

/** The lane of a bit pattern: a number, or a `PayloadNaN` when the bits are a non-canonical NaN. */
export function bitsToFloatLane(bits: bigint, t: FloatName): FloatLane {
  const x = bitsToFloat(bits, t);
  const b = BigInt.asUintN(FLOAT_WIDTHS[t], bits);
  return Number.isNaN(x) && b !== CANONICAL_NAN[t] ? new PayloadNaN(t, b) : x;
}

/** The bit pattern of a float lane (a `PayloadNaN` gives its own bits). */
export function floatLaneToBits(x: FloatLane, t: FloatName): bigint {
  return x instanceof PayloadNaN ? x.bits : floatToBits(x, t);
}

/** `scalar.bitcast` on lanes: every bit is kept, NaN payloads included. */
export function bitcastLane(from: IntName | FloatName, to: IntName | FloatName, a: bigint | FloatLane): bigint | FloatLane {
  const bits = isFloatName(from) ? floatLaneToBits(a as FloatLane, from) : (a as bigint);
  return isFloatName(to) ? bitsToFloatLane(bits, to) : bits;
}

/** The bit pattern of a value of the format; NaN gives the canonical quiet NaN. */
export function floatToBits(x: number, t: FloatName): bigint {
  if (Number.isNaN(x)) return CANONICAL_NAN[t];
  switch (t) {
    case "f64":
      scratch.setFloat64(0, x);
      return scratch.getBigUint64(0);
    case "f32":
      scratch.setFloat32(0, x);
      return BigInt(scratch.getUint32(0));
    case "bf16":
      scratch.setFloat32(0, x); // exact: bf16 values are f32 values with 16 zero low bits
      return BigInt(scratch.getUint32(0) >>> 16);
    case "f16":
      return BigInt(f16Bits(x));
  }
}

function f16Bits(x: number): number {
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a === Infinity) return sign | 0x7c00;
  if (a === 0) return sign;
  if (a < 2 ** -14) return sign | Math.round(a / 2 ** -24); // subnormal: exact multiple of 2^-24
  const e = exponentOf(a);
  return sign | ((e + 15) << 10) | Math.round((a / 2 ** e - 1) * 1024);
}

/** The value of a bit pattern (low bits of `bits`) of the format. */
export function bitsToFloat(bits: bigint, t: FloatName): number {
  switch (t) {
    case "f64":
      scratch.setBigUint64(0, BigInt.asUintN(64, bits));
      return scratch.getFloat64(0);
    case "f32":
      scratch.setUint32(0, Number(BigInt.asUintN(32, bits)));
      return scratch.getFloat32(0);
    case "bf16":
      scratch.setUint32(0, Number(BigInt.asUintN(16, bits)) << 16 >>> 0);
      return scratch.getFloat32(0);
    case "f16": {
      const h = Number(BigInt.asUintN(16, bits));
      const sign = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
      if (e === 0x1f) return m === 0 ? sign * Infinity : NaN;
      if (e === 0) return sign * m * 2 ** -24;
      return sign * (1 + m / 1024) * 2 ** (e - 15);
    }
  }
}

// ---- float arithmetic ---------------------------------------------------------------------

function checkFloatFlags(name: string, f: FloatFlags, values: readonly number[]): Undefined | undefined {
  for (const v of values) {
    if (f.nnan && Number.isNaN(v)) return new Undefined(`${name} sees NaN under nnan`);
    if (f.ninf && (v === Infinity || v === -Infinity)) return new Undefined(`${name} sees an infinity under ninf`);
  }
  return undefined;
}
function flagged(name: string, f: FloatFlags, r: number, operands: readonly number[]): Outcome<number> {
  if (!f.nnan && !f.ninf) return r;
  return checkFloatFlags(name, f, [...operands, r]) ?? r;
}

// + − × ÷ on doubles then one rounding to a narrower format is exact (53 ≥ 2p + 2 for p ≤ 24).
export const addf = (t: FloatName, a: number, b: number, f: FloatFlags = {}) => flagged("addf", f, roundToFormat(a + b, t), [a, b]);
export const subf = (t: FloatName, a: number, b: number, f: FloatFlags = {}) => flagged("subf", f, roundToFormat(a - b, t), [a, b]);
export const mulf = (t: FloatName, a: number, b: number, f: FloatFlags = {}) => flagged("mulf", f, roundToFormat(a * b, t), [a, b]);
export const divf = (t: FloatName, a: number, b: number, f: FloatFlags = {}) => flagged("divf", f, roundToFormat(a / b, t), [a, b]);
/** C `fmod`: exact, so no rounding is needed. */
export const remf = (_t: FloatName, a: number, b: number, f: FloatFlags = {}) => flagged("remf", f, a % b, [a, b]);
export const negf = (_t: FloatName, a: number, f: FloatFlags = {}) => flagged("negf", f, -a, [a]);
export const absf = (_t: FloatName, a: number, f: FloatFlags = {}) => flagged("absf", f, Math.abs(a), [a]);
export function copysignf(_t: FloatName, a: number, b: number, f: FloatFlags = {}): Outcome<number> {
  const negative = b < 0 || Object.is(b, -0);
  return flagged("copysignf", f, negative ? -Math.abs(a) : Math.abs(a), [a, b]);
}

/** `a·b + c` with a single rounding to the format. */
export function fmaf(t: FloatName, a: number, b: number, c: number, f: FloatFlags = {}): Outcome<number> {
  return flagged("fmaf", f, fmaExact(t, a, b, c), [a, b, c]);
}
function fmaExact(t: FloatName, a: number, b: number, c: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return roundToFormat(a * b + c, t);
  if (!Number.isFinite(c)) return c; // a·b is finite, so c decides (NaN stays NaN)
  if (a === 0 || b === 0) return roundToFormat(a * b + c, t); // exact: adding a signed zero
  if (c === 0) return roundScaledProduct(t, a, b); // a·b ≠ 0, so adding ±0 changes nothing
  const [ma, ea] = decompose(a), [mb, eb] = decompose(b), [mc, ec] = decompose(c);
  const ep = ea + eb, e = Math.min(ep, ec);
  const s = ((ma * mb) << BigInt(ep - e)) + (mc << BigInt(ec - e));
  return s === 0n ? 0 : roundScaled(s, e, t);
}
function roundScaledProduct(t: FloatName, a: number, b: number): number {
  const [ma, ea] = decompose(a), [mb, eb] = decompose(b);
  return roundScaled(ma * mb, ea + eb, t);
}

/** IEEE 754-2019 minimum/maximum: NaN propagates, −0 < +0. */
export function minimumf(_t: FloatName, a: number, b: number, f: FloatFlags = {}): Outcome<number> {
  const r = Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.min(a, b);
  return flagged("minimumf", f, r, [a, b]);
}
export function maximumf(_t: FloatName, a: number, b: number, f: FloatFlags = {}): Outcome<number> {
  const r = Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.max(a, b);
  return flagged("maximumf", f, r, [a, b]);
}
/** C99 `fmin`/`fmax`: a NaN operand yields the other; −0 < +0 **(ours, deterministic)**. */
export function minnumf(_t: FloatName, a: number, b: number, f: FloatFlags = {}): Outcome<number> {
  const r = Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b);
  return flagged("minnumf", f, r, [a, b]);
}
export function maxnumf(_t: FloatName, a: number, b: number, f: FloatFlags = {}): Outcome<number> {
  const r = Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b);
  return flagged("maxnumf", f, r, [a, b]);
}

/** Rounding to an integral value; the result is representable in every format. */
export const ceilf = (_t: FloatName, a: number, f: FloatFlags = {}) => flagged("ceilf", f, Math.ceil(a), [a]);
export const floorf = (_t: FloatName, a: number, f: FloatFlags = {}) => flagged("floorf", f, Math.floor(a), [a]);
export const truncf = (_t: FloatName, a: number, f: FloatFlags = {}) => flagged("truncf", f, Math.trunc(a), [a]);
/** Ties away from zero. */
export function roundf(_t: FloatName, a: number, f: FloatFlags = {}): Outcome<number> {
  let r = a;
  if (Number.isFinite(a) && a !== 0) {
    const m = Math.abs(a), i = Math.floor(m); // m − i is exact for every double
    const away = m - i >= 0.5 ? i + 1 : i;
    r = a < 0 ? -away : away;
    if (r === 0) r = a < 0 ? -0 : 0;
  }
  return flagged("roundf", f, r, [a]);
}
/** Ties to even. */
export function roundevenf(_t: FloatName, a: number, f: FloatFlags = {}): Outcome<number> {
  let r = a;
  if (Number.isFinite(a) && a !== 0) {
    const m = roundHalfEven(Math.abs(a));
    r = a < 0 ? -m : m;
    if (r === 0) r = a < 0 ? -0 : 0;
  }
  return flagged("roundevenf", f, r, [a]);
}

export const CMPF_PREDICATES = ["oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno"] as const;
export type CmpfPredicate = (typeof CMPF_PREDICATES)[number];

/** `scalar.cmpf`: `o*` false when either operand is NaN, `u*` true. */
export function cmpf(pred: CmpfPredicate, a: number, b: number, f: FloatFlags = {}): Outcome<bigint> {
  const bad = f.nnan || f.ninf ? checkFloatFlags("cmpf", f, [a, b]) : undefined;
  if (bad) return bad;
  const unordered = Number.isNaN(a) || Number.isNaN(b);
  let r: boolean;
  switch (pred) {
    case "ord": r = !unordered; break;
    case "uno": r = unordered; break;
    case "oeq": r = a === b; break;
    case "ogt": r = a > b; break;
    case "oge": r = a >= b; break;
    case "olt": r = a < b; break;
    case "ole": r = a <= b; break;
    case "one": r = !unordered && a !== b; break;
    case "ueq": r = unordered || a === b; break;
    case "ugt": r = unordered || a > b; break;
    case "uge": r = unordered || a >= b; break;
    case "ult": r = unordered || a < b; break;
    case "ule": r = unordered || a <= b; break;
    case "une": r = unordered || a !== b; break;
  }
  return r ? 1n : 0n;
}

// ---- conversions --------------------------------------------------------------------------

export function sitofp(from: IntName, to: FloatName, a: bigint): number {
  return intToFloat(signed(INT_WIDTHS[from], a), to);
}
export function uitofp(_from: IntName, to: FloatName, a: bigint): number {
  return intToFloat(a, to);
}
function floatToInt(name: string, to: IntName, a: number, lo: bigint, hi: bigint): Outcome<bigint> {
  if (Number.isNaN(a)) return new Undefined(`${name} of NaN`);
  const t = Math.trunc(a);
  if (!Number.isFinite(t) || BigInt(t) < lo || BigInt(t) > hi) return new Undefined(`${name} of ${a} is out of range for ${to}`);
  return pattern(INT_WIDTHS[to], BigInt(t));
}
export function fptosi(_from: FloatName, to: IntName, a: number): Outcome<bigint> {
  const w = BigInt(INT_WIDTHS[to]);
  return floatToInt("fptosi", to, a, -(1n << (w - 1n)), (1n << (w - 1n)) - 1n);
}
export function fptoui(_from: FloatName, to: IntName, a: number): Outcome<bigint> {
  return floatToInt("fptoui", to, a, 0n, (1n << BigInt(INT_WIDTHS[to])) - 1n);
}
/** Widening is exact. */
export function extf(_from: FloatName, _to: FloatName, a: number): number {
  return a;
}
export function fptrunc(_from: FloatName, to: FloatName, a: number): number {
  return roundToFormat(a, to);
}
export function extsi(from: IntName, to: IntName, a: bigint): bigint {
  return pattern(INT_WIDTHS[to], signed(INT_WIDTHS[from], a));
}
export function extui(_from: IntName, _to: IntName, a: bigint): bigint {
  return a;
}
export function trunci(_from: IntName, to: IntName, a: bigint): bigint {
  return pattern(INT_WIDTHS[to], a);
}
/** Same-width reinterpretation between any two of `I ∪ F`. */
export function bitcast(from: IntName | FloatName, to: IntName | FloatName, a: bigint | number): bigint | number {
  const bits = isFloatName(from) ? floatToBits(a as number, from) : (a as bigint);
  return isFloatName(to) ? bitsToFloat(bits, to) : bits;
}

// ---- predicates (language.md §5) ----------------------------------------------------------

export const PREDICATE_ARITY: Readonly<Record<string, number>> = {
  eq: 2, ne: 2, lt: 2, le: 2, gt: 2, ge: 2, mul: 2, min: 2, max: 2, pow2: 1, range: 3, not_nan: 1, not_inf: 1, finite: 1,
};

/** A predicate argument: a typed value of the region, or an integer literal. */
export type PredicateOperand = { readonly type: string; readonly value: bigint | number } | bigint;

/**
 * The mathematical value a predicate sees: `index` and integers signed (bit patterns read
 * as two's complement), `offset` unsigned, floats as numbers, literals as written.
 */
export function predicateValue(x: PredicateOperand): bigint | number {
  if (typeof x === "bigint") return x;
  if (isIntName(x.type)) return signed(INT_WIDTHS[x.type], x.value as bigint);
  return x.value;
}

function asInteger(v: bigint | number): bigint | undefined {
  if (typeof v === "bigint") return v;
  return Number.isInteger(v) ? BigInt(v) : undefined;
}

/** Evaluates `kind(args…)`; an unknown kind or wrong arity throws (the verifier rejects them). */
export function evaluatePredicate(kind: string, args: readonly PredicateOperand[]): boolean {
  if (PREDICATE_ARITY[kind] !== args.length) throw new Error(`predicate ${kind} with ${args.length} argument(s)`);
  const v = args.map(predicateValue);
  const [a, b, c] = v as [bigint | number, bigint | number, bigint | number];
  switch (kind) {
    // Mixed bigint/number relations are exact in JS; NaN compares false.
    case "eq": return a == b; // eslint-disable-line eqeqeq
    case "ne": return !(a == b); // eslint-disable-line eqeqeq
    case "lt": return a < b;
    case "le": return a <= b;
    case "gt": return a > b;
    case "ge": return a >= b;
    case "min": return a >= b;
    case "max": return a <= b;
    case "range": return b <= a && a <= c;
    case "mul": {
      const x = asInteger(a), n = asInteger(b);
      return x !== undefined && n !== undefined && n > 0n && x % n === 0n;
    }
    case "pow2": {
      const x = asInteger(a);
      return x !== undefined && x >= 1n && (x & (x - 1n)) === 0n;
    }
    case "not_nan": return !(typeof a === "number" && Number.isNaN(a));
    case "not_inf": return !(a === Infinity || a === -Infinity);
    case "finite": return typeof a === "bigint" || Number.isFinite(a);
  }
  throw new Error(`unknown predicate ${kind}`);
}
