/**
 * The number fast path of every exactly evaluable op, stated once (docs/launch-config.md
 * "Fast path"). Both fast evaluators derive from it: the code generator splices each term's
 * source text into the function it generates (src/launch/splice.ts), the closure evaluator
 * (strict-CSP pages) calls the same functions (src/launch/closure-fast.ts).
 *
 * Representation: `index` and `i64` signed numbers, `offset` non-negative, `i1`…`i32` their
 * bit pattern in `[0, 2^N)`, floats their value. A rule computes an op exactly on these, or
 * bails (a guard or the check says so, or there is no rule) whenever the result is not
 * certainly exact or the op might be undefined behaviour; the exact path then decides.
 *
 * Small integers (width w ≤ 32) are read signed as `(x << s) >> s` and wrapped to a pattern as
 * `(v << s) >>> s`, with `s = 32 − w`: both are exact on the integer-valued numbers here.
 */
import * as S from "../scalar/semantics.js";
import { FLAG_BITS, isFloatType, typeWidth, type LType } from "./types.js";

/** A term's function: called with its operands (or the result), then its constants. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TermFn = (...args: any[]) => unknown;

/** Numbers, strings and booleans are spliced as literals; anything else is passed by reference. */
export type FastConstant = number | string | boolean | object;

/**
 * One pure function and the constants it takes after its operands. The function's source must
 * be an arrow with an expression body that names nothing but its parameters and JS globals
 * (`Math`, `Number`), so that it means the same spliced into generated code.
 */
export interface FastTerm {
  readonly fn: TermFn;
  readonly constants: readonly FastConstant[];
}

export interface FastRule {
  /** Called with (operands…, constants…), in order: true bails before computing. */
  readonly guards: readonly FastTerm[];
  /** (operands…, constants…) → the result in the fast representation of the result type. */
  readonly value: FastTerm;
  /** (result, constants…): true bails (the result is not certainly exact). */
  readonly check?: FastTerm;
}

const MAXS = Number.MAX_SAFE_INTEGER;
const SAFE_N = BigInt(MAXS);
const P2 = Object.freeze(Array.from({ length: 65 }, (_, i) => 2 ** i));

const term = (fn: TermFn, ...constants: FastConstant[]): FastTerm => ({ fn, constants });
const rule = (value: FastTerm, guards: readonly FastTerm[] = [], check?: FastTerm): FastRule => (check ? { guards, value, check } : { guards, value });

// ---- shared terms ---------------------------------------------------------------------------

const identity = term((x: number) => x);
const outside = (lo: number, hi: number) => term((v: number, lo: number, hi: number) => v > hi || v < lo, lo, hi);
const unsafe = outside(-MAXS, MAXS);
const negative = term((x: number) => x < 0);
const notNumber = term((v: unknown) => typeof v !== "number");
const notInt32Pair = term((x: number, y: number) => x !== (x | 0) || y !== (y | 0));
const shiftAtLeast = (w: number) => term((_x: number, y: number, w: number) => y >= w, w);
const shiftOf = (w: number) => 32 - w;
const signedRead = (w: number) => term((x: number, s: number) => (x << s) >> s, shiftOf(w));
const patternOf = (w: number) => term((x: number, s: number) => (x << s) >>> s, shiftOf(w));

/** Rounding of a double to the float format `t` (f64 exact, f32 `fround`, f16/bf16 ours). */
function rounded(t: LType): FastTerm {
  if (t === "f64") return identity;
  if (t === "f32") return term((x: number) => Math.fround(x));
  return term((x: number, round: typeof S.roundToFormat, t: S.FloatName) => round(x, t), S.roundToFormat, t);
}

/** Fast-math operand guard: NaN under `nnan`, an infinity under `ninf` (arity 1 or 2). */
function banned(arity: number, nnan: boolean, ninf: boolean): FastTerm {
  if (arity === 1) return term((x: number, nan: boolean, inf: boolean) => (nan && x !== x) || (inf && (x === Infinity || x === -Infinity)), nnan, ninf);
  return term((x: number, y: number, nan: boolean, inf: boolean) => (nan && (x !== x || y !== y)) || (inf && (x === Infinity || x === -Infinity || y === Infinity || y === -Infinity)), nnan, ninf);
}

/** An integer compare, 1/0, on the fast representation of `t` (signed small ints read back). */
function compare(pred: string, t: LType): FastTerm | undefined {
  const w = typeWidth(t), small = w <= 32, s = shiftOf(w);
  // Unsigned order is plain `<` on patterns and offsets; index/i64 order negatives above.
  const plain = small || t === "offset";
  switch (pred) {
    case "eq": return term((x: number, y: number) => (x === y ? 1 : 0));
    case "ne": return term((x: number, y: number) => (x !== y ? 1 : 0));
    case "slt": return small ? term((x: number, y: number, s: number) => (((x << s) >> s) < ((y << s) >> s) ? 1 : 0), s) : term((x: number, y: number) => (x < y ? 1 : 0));
    case "sle": return small ? term((x: number, y: number, s: number) => (((x << s) >> s) <= ((y << s) >> s) ? 1 : 0), s) : term((x: number, y: number) => (x <= y ? 1 : 0));
    case "sgt": return small ? term((x: number, y: number, s: number) => (((x << s) >> s) > ((y << s) >> s) ? 1 : 0), s) : term((x: number, y: number) => (x > y ? 1 : 0));
    case "sge": return small ? term((x: number, y: number, s: number) => (((x << s) >> s) >= ((y << s) >> s) ? 1 : 0), s) : term((x: number, y: number) => (x >= y ? 1 : 0));
    case "ult": return plain ? term((x: number, y: number) => (x < y ? 1 : 0)) : term((x: number, y: number) => (((x < 0) === (y < 0) ? x < y : y < 0) ? 1 : 0));
    case "ule": return plain ? term((x: number, y: number) => (x <= y ? 1 : 0)) : term((x: number, y: number) => (((x < 0) === (y < 0) ? x <= y : y < 0) ? 1 : 0));
    case "ugt": return plain ? term((x: number, y: number) => (y < x ? 1 : 0)) : term((x: number, y: number) => (((y < 0) === (x < 0) ? y < x : x < 0) ? 1 : 0));
    case "uge": return plain ? term((x: number, y: number) => (y <= x ? 1 : 0)) : term((x: number, y: number) => (((y < 0) === (x < 0) ? y <= x : x < 0) ? 1 : 0));
  }
  return undefined;
}

/** `scalar.cmpf`, 1/0: `o*` false on NaN, `u*` true. */
function compareFloat(pred: string): FastTerm | undefined {
  switch (pred) {
    case "ord": return term((x: number, y: number) => (!(x !== x || y !== y) ? 1 : 0));
    case "uno": return term((x: number, y: number) => (x !== x || y !== y ? 1 : 0));
    case "oeq": return term((x: number, y: number) => (x === y ? 1 : 0));
    case "ogt": return term((x: number, y: number) => (x > y ? 1 : 0));
    case "oge": return term((x: number, y: number) => (x >= y ? 1 : 0));
    case "olt": return term((x: number, y: number) => (x < y ? 1 : 0));
    case "ole": return term((x: number, y: number) => (x <= y ? 1 : 0));
    case "one": return term((x: number, y: number) => (!(x !== x || y !== y) && x !== y ? 1 : 0));
    case "ueq": return term((x: number, y: number) => (x !== x || y !== y || x === y ? 1 : 0));
    case "ugt": return term((x: number, y: number) => (!(x <= y) ? 1 : 0));
    case "uge": return term((x: number, y: number) => (!(x < y) ? 1 : 0));
    case "ult": return term((x: number, y: number) => (!(x >= y) ? 1 : 0));
    case "ule": return term((x: number, y: number) => (!(x > y) ? 1 : 0));
    case "une": return term((x: number, y: number) => (x !== y ? 1 : 0));
  }
  return undefined;
}

/** Float ↔ same-width integer bits as numbers; undefined when not a safe i64. */
function floatToIntBits(x: number, from: S.FloatName, to: S.IntName): number | undefined {
  const bits = S.floatToBits(x, from);
  if (to !== "i64") return Number(bits);
  const v = BigInt.asIntN(64, bits);
  return v >= -SAFE_N && v <= SAFE_N ? Number(v) : undefined;
}
function intBitsToFloat(v: number, _from: S.IntName, to: S.FloatName): number {
  return S.bitsToFloat(BigInt.asUintN(64, BigInt(v)), to);
}
function floatToFloatBits(x: number, from: S.FloatName, to: S.FloatName): number {
  return S.bitsToFloat(S.floatToBits(x, from), to);
}

// ---- the rules ------------------------------------------------------------------------------

/**
 * The fast rule of one op, bound to its types, flags and predicate; undefined when the fast
 * path always defers to the exact one (rare ops: rotations, bit counts, wide divisions …).
 */
export function fastRule(name: string, t: LType, t0: LType, flags: number, predicate?: string): FastRule | undefined {
  if (name.startsWith("index.")) return indexRule(name.slice(6), t, t0, predicate);
  if (name.startsWith("scalar.")) return intRule(name.slice(7), t, t0, flags, predicate) ?? floatRule(name.slice(7), t, t0, flags, predicate);
  return undefined;
}

function indexRule(op: string, t: LType, t0: LType, predicate: string | undefined): FastRule | undefined {
  const lo = t === "offset" ? 0 : -MAXS;
  switch (op) {
    case "add": return rule(term((x: number, y: number) => x + y), [], outside(lo, MAXS));
    case "sub": return rule(term((x: number, y: number) => x - y), [], outside(lo, MAXS));
    case "mul": return rule(term((x: number, y: number) => x * y + 0), [], unsafe);
    case "scale": return rule(term((x: number, y: number) => x * y + 0), [], outside(0, MAXS));
    case "div": return rule(term((x: number, y: number) => (x - (x % y)) / y), [term((x: number, y: number) => !(x >= 0 && y > 0))]);
    case "rem": return rule(term((x: number, y: number) => x % y), [term((x: number, y: number) => !(x >= 0 && y > 0))]);
    case "min": return rule(term((x: number, y: number) => (x < y ? x : y)));
    case "max": return rule(term((x: number, y: number) => (x > y ? x : y)));
    case "madd": {
      const productUnsafe = term((x: number, y: number, _z: number, lo: number, hi: number) => x * y > hi || x * y < lo, -MAXS, MAXS);
      return rule(term((x: number, y: number, z: number) => x * y + z + 0), [productUnsafe], unsafe);
    }
    case "andi": return rule(term((x: number, y: number) => x & y), [notInt32Pair]);
    case "ori": return rule(term((x: number, y: number) => x | y), [notInt32Pair]);
    case "xori": return rule(term((x: number, y: number) => x ^ y), [notInt32Pair]);
    case "shli": return rule(term((x: number, y: number, p2: readonly number[]) => x * p2[y]!, P2), [term((_x: number, y: number) => !(y >= 0 && y <= 63))], unsafe);
    case "shrsi": return rule(term((x: number, y: number, p2: readonly number[]) => Math.floor(x / p2[y]!), P2), [term((_x: number, y: number) => !(y >= 0 && y <= 63))]);
    case "shrui": return rule(term((x: number, y: number, p2: readonly number[]) => Math.floor(x / p2[y]!), P2), [term((x: number, y: number) => !(y >= 0 && y <= 63) || x < 0)]);
    case "cmp": {
      const c = compare(predicate ?? "", t0);
      return c && rule(c);
    }
    case "cast": {
      if (t === "offset") return t0 === "index" || t0 === "i64" ? rule(identity, [negative]) : rule(identity);
      if (t === "index") return rule(t0 === "i1" || typeWidth(t0) > 32 ? identity : signedRead(typeWidth(t0)));
      const w = typeWidth(t);
      return rule(w <= 32 ? patternOf(w) : identity); // address → integer: the low bits
    }
  }
  return undefined; // rotations and bit counts: rare, left to the exact path
}

function intRule(op: string, t: LType, t0: LType, flags: number, predicate: string | undefined): FastRule | undefined {
  const w = typeWidth(t), small = w <= 32, s = shiftOf(w), s0 = shiftOf(typeWidth(t0));
  const nsw = (flags & FLAG_BITS.nsw!) !== 0, nuw = (flags & FLAG_BITS.nuw!) !== 0;
  switch (op) {
    case "addi": case "subi": case "muli": {
      if (!small) {
        if (nuw) return undefined;
        if (op === "addi") return rule(term((x: number, y: number) => x + y + 0), [], unsafe);
        if (op === "subi") return rule(term((x: number, y: number) => x - y + 0), [], unsafe);
        return rule(term((x: number, y: number) => x * y + 0), [], unsafe);
      }
      if (op === "muli") return flags === 0 ? rule(term((x: number, y: number, s: number) => (Math.imul(x, y) << s) >>> s, s)) : undefined;
      const add = op === "addi";
      const guards: FastTerm[] = [];
      const half = 2 ** (w - 1), full = 2 ** w;
      if (nsw) {
        guards.push(add
          ? term((x: number, y: number, s: number, lo: number, hi: number) => !(((x << s) >> s) + ((y << s) >> s) >= lo && ((x << s) >> s) + ((y << s) >> s) < hi), s, -half, half)
          : term((x: number, y: number, s: number, lo: number, hi: number) => !(((x << s) >> s) - ((y << s) >> s) >= lo && ((x << s) >> s) - ((y << s) >> s) < hi), s, -half, half));
      }
      if (nuw) {
        guards.push(add
          ? term((x: number, y: number, full: number) => !(x + y >= 0 && x + y < full), full)
          : term((x: number, y: number, full: number) => !(x - y >= 0 && x - y < full), full));
      }
      return rule(add ? term((x: number, y: number, s: number) => ((x + y) << s) >>> s, s) : term((x: number, y: number, s: number) => ((x - y) << s) >>> s, s), guards);
    }
    case "divsi": case "ceildivsi": case "floordivsi": case "remsi": {
      if (!small) return undefined;
      const undefinedDivision = term((x: number, y: number, s: number, min: number) => y === 0 || (((y << s) >> s) === -1 && ((x << s) >> s) === min), s, -(2 ** (w - 1)));
      switch (op) {
        case "divsi": return rule(term((x: number, y: number, s: number) => (Math.trunc(((x << s) >> s) / ((y << s) >> s)) << s) >>> s, s), [undefinedDivision]);
        case "ceildivsi": return rule(term((x: number, y: number, s: number) => (Math.ceil(((x << s) >> s) / ((y << s) >> s)) << s) >>> s, s), [undefinedDivision]);
        case "floordivsi": return rule(term((x: number, y: number, s: number) => (Math.floor(((x << s) >> s) / ((y << s) >> s)) << s) >>> s, s), [undefinedDivision]);
        default: return rule(term((x: number, y: number, s: number) => ((((x << s) >> s) % ((y << s) >> s)) << s) >>> s, s), [undefinedDivision]);
      }
    }
    case "divui": case "ceildivui": case "remui": {
      if (!small) return undefined;
      const zero = term((_x: number, y: number) => y === 0);
      if (op === "divui") return rule(term((x: number, y: number) => Math.floor(x / y)), [zero]);
      if (op === "ceildivui") return rule(term((x: number, y: number) => Math.ceil(x / y)), [zero]);
      return rule(term((x: number, y: number) => x % y), [zero]);
    }
    case "negi": return rule(small ? term((x: number, s: number) => (-x << s) >>> s, s) : term((x: number) => 0 - x));
    case "absi": return rule(small ? term((x: number, s: number) => (Math.abs((x << s) >> s) << s) >>> s, s) : term((x: number) => Math.abs(x)));
    case "minsi": return rule(small ? term((x: number, y: number, s: number) => (((x << s) >> s) <= ((y << s) >> s) ? x : y), s) : term((x: number, y: number) => (x <= y ? x : y)));
    case "maxsi": return rule(small ? term((x: number, y: number, s: number) => (((x << s) >> s) >= ((y << s) >> s) ? x : y), s) : term((x: number, y: number) => (x >= y ? x : y)));
    case "minui": return rule(small ? term((x: number, y: number) => (x <= y ? x : y)) : term((x: number, y: number) => (((x < 0) === (y < 0) ? x <= y : y < 0) ? x : y)));
    case "maxui": return rule(small ? term((x: number, y: number) => (y <= x ? x : y)) : term((x: number, y: number) => (((y < 0) === (x < 0) ? y <= x : x < 0) ? x : y)));
    case "andi": return small ? rule(term((x: number, y: number, s: number) => ((x & y) << s) >>> s, s)) : rule(term((x: number, y: number) => x & y), [notInt32Pair]);
    case "ori": return small ? rule(term((x: number, y: number, s: number) => ((x | y) << s) >>> s, s)) : rule(term((x: number, y: number) => x | y), [notInt32Pair]);
    case "xori": return small ? rule(term((x: number, y: number, s: number) => ((x ^ y) << s) >>> s, s)) : rule(term((x: number, y: number) => x ^ y), [notInt32Pair]);
    case "shli": return small && flags === 0 ? rule(term((x: number, y: number, s: number) => ((x << y) << s) >>> s, s), [shiftAtLeast(w)]) : undefined;
    case "shrsi": return small ? rule(term((x: number, y: number, s: number) => ((((x << s) >> s) >> y) << s) >>> s, s), [shiftAtLeast(w)]) : undefined;
    case "shrui": return small ? rule(term((x: number, y: number) => x >>> y), [shiftAtLeast(w)]) : undefined;
    case "cmpi": {
      const c = compare(predicate ?? "", t0);
      return c && rule(c);
    }
    case "extsi": {
      if (typeWidth(t0) > 32) return rule(identity);
      return rule(small ? term((x: number, s0: number, s: number) => (((x << s0) >> s0) << s) >>> s, s0, s) : signedRead(typeWidth(t0)));
    }
    case "extui": return rule(identity);
    case "trunci": return rule(small ? patternOf(w) : identity);
  }
  return undefined;
}

function floatRule(op: string, t: LType, t0: LType, flags: number, predicate: string | undefined): FastRule | undefined {
  const w = typeWidth(t), small = w <= 32;
  const nnan = (flags & FLAG_BITS.nnan!) !== 0, ninf = (flags & FLAG_BITS.ninf!) !== 0;
  const fm = nnan || ninf;
  const ft = t as S.FloatName;
  const helperFlags: S.FloatFlags = Object.freeze({ nnan, ninf });
  /** A total float op: fast-math flags forbid NaN/infinite operands and results (the exact path reports them). */
  const flagged = (arity: number, value: FastTerm): FastRule => (fm ? rule(value, [banned(arity, nnan, ninf)], banned(1, nnan, ninf)) : rule(value));
  const roundedArith = (f64: TermFn, f32: TermFn, narrow: TermFn): FastTerm => (t === "f64" ? term(f64) : t === "f32" ? term(f32) : term(narrow, S.roundToFormat, ft));
  switch (op) {
    case "addf": return flagged(2, roundedArith((x: number, y: number) => x + y, (x: number, y: number) => Math.fround(x + y), (x: number, y: number, round: typeof S.roundToFormat, t: S.FloatName) => round(x + y, t)));
    case "subf": return flagged(2, roundedArith((x: number, y: number) => x - y, (x: number, y: number) => Math.fround(x - y), (x: number, y: number, round: typeof S.roundToFormat, t: S.FloatName) => round(x - y, t)));
    case "mulf": return flagged(2, roundedArith((x: number, y: number) => x * y, (x: number, y: number) => Math.fround(x * y), (x: number, y: number, round: typeof S.roundToFormat, t: S.FloatName) => round(x * y, t)));
    case "divf": return flagged(2, roundedArith((x: number, y: number) => x / y, (x: number, y: number) => Math.fround(x / y), (x: number, y: number, round: typeof S.roundToFormat, t: S.FloatName) => round(x / y, t)));
    case "remf": return flagged(2, term((x: number, y: number) => x % y));
    case "negf": return flagged(1, term((x: number) => -x));
    case "absf": return flagged(1, term((x: number) => Math.abs(x)));
    case "ceilf": return flagged(1, term((x: number) => Math.ceil(x)));
    case "floorf": return flagged(1, term((x: number) => Math.floor(x)));
    case "truncf": return flagged(1, term((x: number) => Math.trunc(x)));
    // The exact semantics helpers: an `Undefined` outcome (not a number) bails.
    case "copysignf": case "minimumf": case "maximumf": case "minnumf": case "maxnumf":
      return rule(term((x: number, y: number, f: typeof S.minnumf, t: S.FloatName, fl: S.FloatFlags) => f(t, x, y, fl), S[op], ft, helperFlags), [], notNumber);
    case "roundf": case "roundevenf":
      return rule(term((x: number, f: typeof S.roundf, t: S.FloatName, fl: S.FloatFlags) => f(t, x, fl), S[op], ft, helperFlags), [], notNumber);
    case "fmaf":
      return rule(term((x: number, y: number, z: number, f: typeof S.fmaf, t: S.FloatName, fl: S.FloatFlags) => f(t, x, y, z, fl), S.fmaf, ft, helperFlags), [], notNumber);
    case "cmpf": {
      const c = compareFloat(predicate ?? "");
      return c && rule(c, fm ? [banned(2, nnan, ninf)] : []);
    }
    case "sitofp": {
      if (typeWidth(t0) > 32) return rule(rounded(t));
      const s0 = shiftOf(typeWidth(t0));
      if (t === "f64") return rule(term((x: number, s: number) => (x << s) >> s, s0));
      if (t === "f32") return rule(term((x: number, s: number) => Math.fround((x << s) >> s), s0));
      return rule(term((x: number, s: number, round: typeof S.roundToFormat, t: S.FloatName) => round((x << s) >> s, t), s0, S.roundToFormat, ft));
    }
    case "uitofp": return typeWidth(t0) <= 32 ? rule(rounded(t)) : rule(rounded(t), [negative]);
    case "fptosi": case "fptoui": {
      const signed = op === "fptosi";
      const lo = signed ? (small ? -(2 ** (w - 1)) : -MAXS) : 0;
      const hi = signed ? (small ? 2 ** (w - 1) - 1 : MAXS) : small ? 2 ** w - 1 : MAXS;
      const inRange = term((x: number, lo: number, hi: number) => !(Math.trunc(x) >= lo && Math.trunc(x) <= hi), lo, hi);
      return rule(small ? term((x: number, s: number) => (Math.trunc(x) << s) >>> s, shiftOf(w)) : term((x: number) => Math.trunc(x) + 0), [inRange]);
    }
    case "extf": return rule(identity);
    case "fptrunc": return rule(rounded(t));
    case "bitcast": {
      const tf = isFloatType(t), sf = isFloatType(t0);
      const convert = (f: TermFn) => term((x: number, f: (x: number, from: string, to: string) => number | undefined, from: string, to: string) => f(x, from, to), f, t0, t);
      if (sf && tf) return rule(convert(floatToFloatBits as TermFn));
      if (sf) return rule(convert(floatToIntBits as TermFn), [], term((v: number | undefined) => v === undefined));
      if (tf) return rule(convert(intBitsToFloat as TermFn));
      return rule(identity);
    }
  }
  return undefined;
}

// ---- constants, arguments and predicates ------------------------------------------------------

/** The fast representation of an `index.constant`/`scalar.constant` value; undefined when it has none (the op bails). */
export function fastConstant(t: LType, value: bigint | number): number | undefined {
  if (typeof value === "number") return value;
  const signed = t === "i64" ? BigInt.asIntN(64, value) : value;
  return signed <= SAFE_N && signed >= -SAFE_N ? Number(signed) : undefined;
}

/**
 * A JS argument into the fast representation of `t` (`invokeNumbers`): the guard bails on
 * what the number path cannot take exactly, the value converts (floats round to their format).
 */
export function fastArgument(t: LType): FastRule {
  if (isFloatType(t)) return rule(rounded(t), [term((x: unknown) => typeof x !== "number")]);
  const notSafe = term((x: unknown) => !Number.isSafeInteger(x));
  switch (t) {
    case "index": case "i64": return rule(term((x: number) => x + 0), [notSafe]);
    case "offset": return rule(term((x: number) => x + 0), [term((x: unknown) => !Number.isSafeInteger(x) || (x as number) < 0)]);
    case "i32": return rule(term((x: number) => x >>> 0), [notSafe]);
  }
  return rule(term((x: number, mask: number) => x & mask, 2 ** typeWidth(t) - 1), [notSafe]);
}

/** How a predicate sees a register (language.md §5): integers signed, `offset` and floats as they are. */
export function predicateRead(t: LType): FastTerm {
  const w = typeWidth(t);
  return isFloatType(t) || w > 32 ? identity : signedRead(w);
}

/** A predicate literal as a number; undefined beyond the safe range (the predicate bails). */
export function predicateLiteral(v: bigint): number | undefined {
  return v > SAFE_N || v < -SAFE_N ? undefined : Number(v);
}

/** `kind(args…)` on the values predicates see: true when it holds; undefined for an unknown kind (bails). */
export function fastPredicate(kind: string): FastTerm | undefined {
  switch (kind) {
    case "eq": return term((a: number, b: number) => a === b);
    case "ne": return term((a: number, b: number) => a !== b);
    case "lt": return term((a: number, b: number) => a < b);
    case "le": case "max": return term((a: number, b: number) => a <= b);
    case "gt": return term((a: number, b: number) => a > b);
    case "ge": case "min": return term((a: number, b: number) => a >= b);
    case "range": return term((a: number, b: number, c: number) => b <= a && a <= c);
    case "mul": return term((a: number, b: number) => Number.isInteger(a) && Number.isInteger(b) && b > 0 && a % b === 0);
    case "pow2": return term((a: number) => Number.isInteger(a) && a >= 1 && a === 2 ** Math.round(Math.log2(a)));
    case "not_nan": return term((a: number) => a === a);
    case "not_inf": return term((a: number) => a !== Infinity && a !== -Infinity);
    case "finite": return term((a: number) => Number.isFinite(a));
  }
  return undefined;
}
