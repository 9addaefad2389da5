/**
 * Workload arguments at the door (language.md §6 "Raw argument slots", api.md §5): one
 * 64-bit slot per argument; `index` two's complement (a bigint in [−2^63, 2^64) wraps),
 * `offset` unsigned and ≤ 2^63−1, `iN` the low N bits, `i1` bit 0, floats their bit pattern
 * in the low bits. `invokeNumbers` takes JS numbers instead: safe integers for integer
 * types (two's complement, low bits as above), any number for floats (rounded to the
 * format, RNE).
 */
import { I64_MIN, OFFSET_MAX } from "../dialects/index/semantics.js";
import { bitsToFloat, roundToFormat } from "../dialects/scalar/semantics.js";
import type { ExactValue } from "../dialects/eval/exact.js";
import type { LaunchMessages } from "./messages.js";
import { isFloatType, typeWidth, type LType } from "./model.js";

const U64_LIMIT = 1n << 64n;
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function checkList(args: unknown, count: number, msg: LaunchMessages): ArrayLike<unknown> {
  if (!Array.isArray(args) && !(ArrayBuffer.isView(args) && !(args instanceof DataView))) throw msg.invalid("workload arguments must be an array");
  const list = args as ArrayLike<unknown>;
  if (list.length !== count) throw msg.wrongCount(list.length);
  return list;
}

/** The exact value of one raw 64-bit slot. */
export function valueFromBits(t: LType, bits: bigint, i: number, msg: LaunchMessages): ExactValue {
  switch (t) {
    case "index": return BigInt.asIntN(64, bits);
    case "offset": {
      const u = BigInt.asUintN(64, bits);
      if (u > OFFSET_MAX) throw msg.outOfRange(`${msg.argument(i)} = ${u} exceeds 2^63-1`);
      return u;
    }
    default:
      return isFloatType(t) ? bitsToFloat(bits, t) : BigInt.asUintN(typeWidth(t), bits);
  }
}

/** Validates raw bigint slots (`invoke`/`invokeInto`) and returns exact values. */
export function exactArgsFromBits(types: readonly LType[], args: unknown, msg: LaunchMessages): ExactValue[] {
  const list = checkList(args, types.length, msg);
  const out: ExactValue[] = [];
  for (let i = 0; i < types.length; i++) {
    const x = list[i];
    if (typeof x !== "bigint") throw msg.invalid(`${msg.argument(i)} must be a bigint holding raw 64-bit bits, got ${describe(x)}`);
    if (x < I64_MIN || x >= U64_LIMIT) throw msg.invalid(`${msg.argument(i)} = ${x} does not fit 64 bits (expected [-2^63, 2^64))`);
    out.push(valueFromBits(types[i]!, x, i, msg));
  }
  return out;
}

/** Validates number arguments (`invokeNumbers`) and returns exact values. */
export function exactArgsFromNumbers(types: readonly LType[], args: unknown, msg: LaunchMessages): ExactValue[] {
  const list = checkList(args, types.length, msg);
  const out: ExactValue[] = [];
  for (let i = 0; i < types.length; i++) {
    const x = list[i], t = types[i]!;
    if (typeof x !== "number") throw msg.invalid(`${msg.argument(i)} must be a number, got ${describe(x)}`);
    if (isFloatType(t)) {
      out.push(roundToFormat(x, t));
      continue;
    }
    if (!Number.isSafeInteger(x)) throw msg.invalid(`${msg.argument(i)} must be a safe integer, got ${x}`);
    out.push(valueFromBits(t, BigInt(x), i, msg));
  }
  return out;
}

function describe(x: unknown): string {
  if (x === null) return "null";
  if (typeof x === "number" || typeof x === "boolean") return `${typeof x} ${x}`;
  return typeof x;
}

// ---- bigint slots → fast-path numbers, without allocating -----------------------------------

const scratch = new BigUint64Array(1);
const asF64 = new Float64Array(scratch.buffer);
const asF32 = new Float32Array(scratch.buffer);
const asU16 = new Uint16Array(scratch.buffer);
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
const TWO_64 = U64_LIMIT;
const NEG_SAFE = -SAFE; // hoisted: negating a bigint allocates
const NEG_SAFE_WRAPPED = TWO_64 - SAFE;

/**
 * Converts raw slots into the fast path's number representation in `dst`. Returns false
 * (the caller takes the exact path, which also produces any error) when a slot is not a
 * bigint, is out of range, or its value is not a safe integer.
 */
export function fastNumbersFromBits(types: readonly LType[], args: ArrayLike<unknown>, dst: Float64Array): boolean {
  for (let i = 0; i < types.length; i++) {
    const x = args[i];
    if (typeof x !== "bigint") return false;
    const t = types[i]!;
    if (isFloatType(t)) {
      if (!LITTLE_ENDIAN || x < I64_MIN || x >= TWO_64) return false;
      scratch[0] = x;
      dst[i] = t === "f64" ? asF64[0]! : t === "f32" ? asF32[0]! : bitsToFloat(BigInt(asU16[0]!), t);
      continue;
    }
    let n: number;
    if (x >= NEG_SAFE && x <= SAFE) n = Number(x);
    else if (x >= NEG_SAFE_WRAPPED && x < TWO_64 && (t === "index" || t === "i64")) n = -Number(TWO_64 - x);
    else return false;
    switch (t) {
      case "index": case "i64": dst[i] = n; break;
      case "offset": if (n < 0) return false; dst[i] = n; break;
      case "i32": dst[i] = n >>> 0; break;
      default: dst[i] = n & (2 ** typeWidth(t) - 1);
    }
  }
  return true;
}
