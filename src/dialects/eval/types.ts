/**
 * The value types of exactly evaluable scalar code (launch-config functions, the constant
 * folder, the reference interpreter) and the op flag bits, shared by every evaluator.
 *
 * Register values: `index` signed bigint, `offset` bigint in [0, 2^63−1], `iN` bit pattern
 * bigint, floats JS numbers (index/semantics.ts, scalar/semantics.ts).
 */
import type { FloatName, IntName } from "../scalar/semantics.js";

export type LType = "index" | "offset" | IntName | FloatName;

export const isAddressType = (t: LType): t is "index" | "offset" => t === "index" || t === "offset";
export const isIntType = (t: LType): t is IntName => t === "i1" || t === "i8" || t === "i16" || t === "i32" || t === "i64";
export const isFloatType = (t: LType): t is FloatName => t === "f16" || t === "bf16" || t === "f32" || t === "f64";

/** Bit width of the type's value (index/offset: 64-bit carriers). */
export function typeWidth(t: LType): number {
  switch (t) {
    case "i1": return 1;
    case "i8": return 8;
    case "i16": case "f16": case "bf16": return 16;
    case "i32": case "f32": return 32;
    default: return 64;
  }
}

/** Flag bits (`<ovf>` and fast-math); the launch-config encoding stores them as one varuint. */
export const FLAG_BITS: Readonly<Record<string, number>> = {
  nsw: 1, nuw: 2, reassoc: 4, nnan: 8, ninf: 16, nsz: 32, arcp: 64, contract: 128, afn: 256,
};
export const OVERFLOW_FLAGS = 1 | 2;
/** Every fast-math bit: what `fast` stands for. */
export const FASTMATH_FLAGS = 0x1fc;
