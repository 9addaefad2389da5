/**
 * Reference semantics of the `index` dialect (language.md §4.2), exact, on bigint.
 *
 * Value domains: `index` is a signed 64-bit integer `[−2^63, 2^63−1]`; `offset` is unsigned
 * `[0, 2^63−1]`; integers `iN` (for `index.cast`) are bit patterns `[0, 2^N)`; `i1` is 0n/1n.
 * Every function returns either the exact result or an `Undefined` outcome naming the
 * undefined behaviour (UB, language.md §4): a result outside its domain, a division
 * precondition, a shift amount outside `[0, 63]`. The constant folder treats `Undefined`
 * as "do not fold"; the launch-config evaluator turns it into `out-of-range`.
 *
 * These functions are the one definition shared by the folder, the launch-config
 * reference interpreter and the compiled evaluator's exact path.
 */

/** A typed "undefined behaviour" outcome: the op has no defined result for these operands. */
export class Undefined {
  constructor(
    /** Why, in words that can follow "op <name>: " in an error message. */
    readonly reason: string,
  ) {}
}

export type Outcome<T> = T | Undefined;

export function isUndefined(x: unknown): x is Undefined {
  return x instanceof Undefined;
}

export const I64_MIN = -(1n << 63n);
export const I64_MAX = (1n << 63n) - 1n;
/** The largest `offset` (offsets are non-negative and fit in a signed 64-bit value). */
export const OFFSET_MAX = 2n ** 63n - 1n;
const U64_MASK = (1n << 64n) - 1n;

export type AddressType = "index" | "offset";

/** The result if it lies in the type's domain, otherwise UB. */
export function inAddressDomain(type: AddressType, v: bigint): Outcome<bigint> {
  if (type === "index") return v >= I64_MIN && v <= I64_MAX ? v : new Undefined(`index result ${v} is outside the signed 64-bit range`);
  return v >= 0n && v <= OFFSET_MAX ? v : new Undefined(`offset result ${v} is outside [0, 2^63-1]`);
}

// ---- arithmetic ---------------------------------------------------------------------------

export function indexAdd(type: AddressType, a: bigint, b: bigint): Outcome<bigint> {
  return inAddressDomain(type, a + b);
}
export function indexSub(type: AddressType, a: bigint, b: bigint): Outcome<bigint> {
  return inAddressDomain(type, a - b);
}
export function indexMul(a: bigint, b: bigint): Outcome<bigint> {
  return inAddressDomain("index", a * b);
}
/** `a / b` truncating; requires `a ≥ 0` and `b > 0`. */
export function indexDiv(a: bigint, b: bigint): Outcome<bigint> {
  const bad = divisionPrecondition(a, b);
  return bad ?? a / b;
}
/** `a mod b`; requires `a ≥ 0` and `b > 0`. */
export function indexRem(a: bigint, b: bigint): Outcome<bigint> {
  const bad = divisionPrecondition(a, b);
  return bad ?? a % b;
}
function divisionPrecondition(a: bigint, b: bigint): Undefined | undefined {
  if (b <= 0n) return new Undefined(`divisor ${b} is not positive`);
  if (a < 0n) return new Undefined(`dividend ${a} is negative`);
  return undefined;
}
export function indexMin(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
export function indexMax(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
/** `a·b + c`, exact; only the final result must lie in the index domain. */
export function indexMadd(a: bigint, b: bigint, c: bigint): Outcome<bigint> {
  return inAddressDomain("index", a * b + c);
}
/** `i·s` as a byte offset (`index × offset → offset`). */
export function indexScale(i: bigint, s: bigint): Outcome<bigint> {
  return inAddressDomain("offset", i * s);
}

// ---- bitwise on the 64-bit two's complement carrier ---------------------------------------

const toCarrier = (v: bigint): bigint => v & U64_MASK;
const fromCarrier = (bits: bigint): bigint => BigInt.asIntN(64, bits);

export function indexAndi(a: bigint, b: bigint): bigint {
  return a & b;
}
export function indexOri(a: bigint, b: bigint): bigint {
  return a | b;
}
export function indexXori(a: bigint, b: bigint): bigint {
  return a ^ b;
}
function shiftAmount(b: bigint): Undefined | number {
  return b >= 0n && b <= 63n ? Number(b) : new Undefined(`shift amount ${b} is outside [0, 63]`);
}
/** Shift left on the carrier (bits shifted out are dropped, as on the 64-bit register). */
export function indexShli(a: bigint, b: bigint): Outcome<bigint> {
  const s = shiftAmount(b);
  return typeof s === "number" ? fromCarrier(toCarrier(a << BigInt(s))) : s;
}
export function indexShrsi(a: bigint, b: bigint): Outcome<bigint> {
  const s = shiftAmount(b);
  return typeof s === "number" ? a >> BigInt(s) : s;
}
export function indexShrui(a: bigint, b: bigint): Outcome<bigint> {
  const s = shiftAmount(b);
  return typeof s === "number" ? fromCarrier(toCarrier(a) >> BigInt(s)) : s;
}
export function indexRotli(a: bigint, b: bigint): Outcome<bigint> {
  const s = shiftAmount(b);
  if (typeof s !== "number") return s;
  const x = toCarrier(a), k = BigInt(s);
  return fromCarrier(toCarrier((x << k) | (x >> ((64n - k) % 64n))));
}
export function indexRotri(a: bigint, b: bigint): Outcome<bigint> {
  const s = shiftAmount(b);
  if (typeof s !== "number") return s;
  const x = toCarrier(a), k = BigInt(s);
  return fromCarrier(toCarrier((x >> k) | (x << ((64n - k) % 64n))));
}
/** Leading zeros of the 64-bit carrier (64 for zero). */
export function indexCtlzi(a: bigint): bigint {
  const x = toCarrier(a);
  return x === 0n ? 64n : BigInt(64 - x.toString(2).length);
}
/** Trailing zeros of the 64-bit carrier (64 for zero). */
export function indexCttzi(a: bigint): bigint {
  let x = toCarrier(a);
  if (x === 0n) return 64n;
  let n = 0n;
  while ((x & 1n) === 0n) {
    x >>= 1n;
    n++;
  }
  return n;
}
export function indexCtpopi(a: bigint): bigint {
  let x = toCarrier(a), n = 0n;
  while (x !== 0n) {
    n += x & 1n;
    x >>= 1n;
  }
  return n;
}

// ---- comparison ---------------------------------------------------------------------------

export const COMPARE_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"] as const;
export type ComparePredicate = (typeof COMPARE_PREDICATES)[number];

/**
 * Compares two integers already interpreted (signed for `s*`, unsigned for `u*`) — used by
 * `index.cmp` and `scalar.cmpi`. Returns the i1 result 0n/1n.
 */
export function compareIntegers(pred: ComparePredicate, signedA: bigint, signedB: bigint, unsignedA: bigint, unsignedB: bigint): bigint {
  let r: boolean;
  switch (pred) {
    case "eq": r = unsignedA === unsignedB; break;
    case "ne": r = unsignedA !== unsignedB; break;
    case "slt": r = signedA < signedB; break;
    case "sle": r = signedA <= signedB; break;
    case "sgt": r = signedA > signedB; break;
    case "sge": r = signedA >= signedB; break;
    case "ult": r = unsignedA < unsignedB; break;
    case "ule": r = unsignedA <= unsignedB; break;
    case "ugt": r = unsignedA > unsignedB; break;
    case "uge": r = unsignedA >= unsignedB; break;
  }
  return r ? 1n : 0n;
}

/** `index.cmp`: index compares as i64 (unsigned predicates see the carrier), offset unsigned. */
export function indexCmp(pred: ComparePredicate, a: bigint, b: bigint): bigint {
  return compareIntegers(pred, a, b, toCarrier(a), toCarrier(b));
}

// ---- casts --------------------------------------------------------------------------------

/** Integer types `index.cast` accepts on the non-address side, by width. */
export type IntTypeName = "i1" | "i8" | "i16" | "i32" | "i64";
const INT_WIDTH: Readonly<Record<IntTypeName, number>> = { i1: 1, i8: 8, i16: 16, i32: 32, i64: 64 };

/**
 * `index.cast %x : from to to`. Into `index`: i1 → 0/1, other integers sign-extend. Into
 * `offset`: zero-extend, except an `i64` must be non-negative as a signed value (UB).
 * Out of an address type into `iN`: keep the low N bits. `index` ↔ `offset`: the value is
 * kept and must be representable.
 */
export function indexCast(from: AddressType | IntTypeName, to: AddressType | IntTypeName, v: bigint): Outcome<bigint> {
  if (from === to) return v;
  if (from === "index" || from === "offset") {
    if (to === "index") return v; // offset ⊂ index
    if (to === "offset") return v >= 0n ? v : new Undefined(`index value ${v} is negative and has no offset representation`);
    return BigInt.asUintN(INT_WIDTH[to], v);
  }
  const w = INT_WIDTH[from];
  if (to === "index") return w === 1 ? v : BigInt.asIntN(w, v);
  if (to === "offset") {
    if (w === 64 && v > OFFSET_MAX) return new Undefined(`i64 value ${BigInt.asIntN(64, v)} is negative and has no offset representation`);
    return v;
  }
  throw new Error(`index.cast between two integer types (${from} to ${to}) is not an index.cast`);
}

// ---- op tables for folders and interpreters -----------------------------------------------

/** `index.*` binary ops by name; `type` is the annotated type (`index` or `offset`). */
export const INDEX_BINARY: Readonly<Record<string, (type: AddressType, a: bigint, b: bigint) => Outcome<bigint>>> = {
  "index.add": indexAdd,
  "index.sub": indexSub,
  "index.mul": (_t, a, b) => indexMul(a, b),
  "index.div": (_t, a, b) => indexDiv(a, b),
  "index.rem": (_t, a, b) => indexRem(a, b),
  "index.min": (_t, a, b) => indexMin(a, b),
  "index.max": (_t, a, b) => indexMax(a, b),
  "index.andi": (_t, a, b) => indexAndi(a, b),
  "index.ori": (_t, a, b) => indexOri(a, b),
  "index.xori": (_t, a, b) => indexXori(a, b),
  "index.shli": (_t, a, b) => indexShli(a, b),
  "index.shrsi": (_t, a, b) => indexShrsi(a, b),
  "index.shrui": (_t, a, b) => indexShrui(a, b),
  "index.rotli": (_t, a, b) => indexRotli(a, b),
  "index.rotri": (_t, a, b) => indexRotri(a, b),
};

export const INDEX_UNARY: Readonly<Record<string, (a: bigint) => bigint>> = {
  "index.ctlzi": indexCtlzi,
  "index.cttzi": indexCttzi,
  "index.ctpopi": indexCtpopi,
};
