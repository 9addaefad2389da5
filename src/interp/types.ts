/** Small readers of IR types and props used by the op compilers. */
import type { Literal, Op, Value } from "../ir/core.js";
import type { Type } from "../ir/types.js";
import { FLAG_BITS, type LType } from "../dialects/eval/types.js";
import { INT_WIDTHS, isFloatName, roundToFormat, type FloatName, type IntName } from "../dialects/scalar/semantics.js";
import type { Lane } from "./state.js";
import { propOf, type PropKey, type PropType } from "../dialects/registry.js";

/** The scalar type name of a prim type, or the lane type of a vector. */
export function laneType(t: Type): LType {
  if (t.kind === "prim") return t.name as LType;
  return t.element.name as LType;
}

/** Number of lanes of a vector type (1 for a scalar). */
export function laneCount(t: Type): number {
  return t.kind === "vector" ? t.shape.reduce((a, b) => a * b, 1) : 1;
}

export function flagList(op: Op): readonly string[] {
  return propOf(op, "flags") ?? [];
}

/** `props.flags` as the bit set `bindExactOp` takes; `fast` means all seven fast-math flags. */
export function flagBits(op: Op): number {
  let bits = 0;
  for (const f of flagList(op)) bits |= f === "fast" ? 0x1fc : FLAG_BITS[f] ?? 0;
  return bits;
}

export function floatFlags(op: Op): { nnan: boolean; ninf: boolean } {
  const l = flagList(op);
  return { nnan: l.includes("nnan") || l.includes("fast"), ninf: l.includes("ninf") || l.includes("fast") };
}

/** The value of a constant literal in the representation of type `t`. */
export function literalValue(lit: Literal, t: LType): Lane {
  if (isFloatName(t)) return roundToFormat(Number(lit.value), t as FloatName);
  const v = lit.kind === "bool" ? (lit.value ? 1n : 0n) : BigInt(lit.value as bigint);
  if (t === "index" || t === "offset") return v;
  return BigInt.asUintN(INT_WIDTHS[t as IntName], v);
}


/** Prop `key` of an op that must carry it (the parser and verifier guarantee it); a missing one is an internal error. */
export function prop<K extends PropKey>(op: Op, key: K): PropType<K> {
  const v = propOf(op, key);
  if (v === undefined) throw new Error(`interpreter: ${op.name} lacks its '${key}' prop`);
  return v;
}

/** Operand `i` of an op the verifier checked (so it has it); a missing one is an internal error. */
export function operandOf(op: Op, i: number): Value {
  const v = op.operands[i];
  if (v === undefined) throw new Error(`interpreter: ${op.name} lacks operand ${i}`);
  return v;
}

/** Result `i` of an op the verifier checked; a missing one is an internal error. */
export function resultOf(op: Op, i: number): Value {
  const v = op.results[i];
  if (v === undefined) throw new Error(`interpreter: ${op.name} lacks result ${i}`);
  return v;
}
