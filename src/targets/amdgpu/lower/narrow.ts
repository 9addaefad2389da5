/**
 * i8 and i16 selection. A narrow integer lives in the low bits of one 32-bit register, the
 * bits above unspecified, so the ops whose low bits depend only on the operands' low bits
 * (add, sub, mul, and, or, xor, shl, select, stores) run as the 32-bit op and wrap for free;
 * the others first extend their operands: sign-extended for signed compares, `shrsi`,
 * signed min/max/division and `extsi`, zero-extended for the unsigned ones. Shift amounts need
 * no extension: a valid amount (below the width) sits in bits 0–3, which the hardware reads.
 * Constants are the width's bits.
 */
import { imm } from "../isa/operands.js";
import { part, type MOperand } from "../machine/program.js";
import { compareInt, divide32, int32, vop3, type IntPredicate } from "./arith.js";
import type { Carrier, KernelLowering, Scalar } from "./context.js";

type Cx = KernelLowering;
export type NarrowInt = "i8" | "i16";

export const isNarrowInt = (t: Carrier | undefined): t is NarrowInt => t === "i8" || t === "i16";
export const widthOf = (t: NarrowInt): 8 | 16 => (t === "i8" ? 8 : 16);

/** The value zero-extended to 32 bits (an i32 bounded by the width's maximum). */
export function zeroExtend(cx: Cx, x: Scalar, bits: number): Scalar {
  const mask = (1n << BigInt(bits)) - 1n;
  if (x.c !== undefined) return cx.const("i32", x.c & mask);
  return cx.memo(`zext${bits}`, [x], () => int32(cx, "and", { ...x, t: "i32" }, cx.const("i32", mask), "i32", mask));
}

/** The value sign-extended to 32 bits. */
export function signExtend(cx: Cx, x: Scalar, bits: number): Scalar {
  if (x.c !== undefined) return cx.const("i32", BigInt.asIntN(bits, x.c));
  return cx.memo(`sext${bits}`, [x], () => {
    const raw = { ...x, t: "i32" } as Scalar;
    if (cx.isV(x)) {
      const d = cx.vreg("v", 1);
      vop3(cx, "v_bfe_i32", part(d), [cx.lo(raw), imm(0), imm(bits)]);
      return cx.sval("i32", d);
    }
    const k = cx.const("i32", BigInt(32 - bits));
    return int32(cx, "shrs", int32(cx, "shl", raw, k), k);
  });
}

/** A 32-bit result read as the narrow type (its low bits; no bound kept: the high bits are unspecified). */
export function asNarrow(x: Scalar, t: NarrowInt, cx: Cx): Scalar {
  if (x.c !== undefined) return cx.const(t, x.c);
  return { kind: "scalar", t, reg: x.reg! };
}

type Binary = "add" | "sub" | "mul" | "and" | "or" | "xor" | "shl" | "shru" | "shrs" | "mins" | "maxs" | "minu" | "maxu";

/** A binary integer op on i8/i16 operands. */
export function narrowBinary(cx: Cx, kind: Binary, t: NarrowInt, a: Scalar, b: Scalar): Scalar {
  const bits = widthOf(t);
  switch (kind) {
    case "add": case "sub": case "mul": case "and": case "or": case "xor": case "shl":
      return asNarrow(int32(cx, kind, { ...a, t: "i32" }, { ...b, t: "i32" }), t, cx);
    case "shru": return asNarrow(int32(cx, "shru", zeroExtend(cx, a, bits), { ...b, t: "i32" }), t, cx);
    case "shrs": return asNarrow(int32(cx, "shrs", signExtend(cx, a, bits), { ...b, t: "i32" }), t, cx);
    case "mins": case "maxs": return asNarrow(int32(cx, kind, signExtend(cx, a, bits), signExtend(cx, b, bits)), t, cx);
    case "minu": case "maxu": return asNarrow(int32(cx, kind, zeroExtend(cx, a, bits), zeroExtend(cx, b, bits)), t, cx);
  }
}

const SIGNED: ReadonlySet<IntPredicate> = new Set(["slt", "sle", "sgt", "sge"]);

export function narrowCompare(cx: Cx, p: IntPredicate, t: NarrowInt, a: Scalar, b: Scalar): Scalar {
  const ext = SIGNED.has(p) ? signExtend : zeroExtend;
  return compareInt(cx, p, ext(cx, a, widthOf(t)), ext(cx, b, widthOf(t)), 32);
}

/** Quotient (0) or remainder (1) through the 32-bit division of the extended operands. */
export function narrowDivide(cx: Cx, t: NarrowInt, a: Scalar, b: Scalar, signed: boolean, kind: "trunc" | "ceil" | "floor", which: 0 | 1): Scalar {
  const ext = signed ? signExtend : zeroExtend;
  return asNarrow(divide32(cx, ext(cx, a, widthOf(t)), ext(cx, b, widthOf(t)), signed, kind)[which], t, cx);
}

/** The value extended to 32 bits as `extsi`/`extui` (or a conversion from it) reads it. */
export function extendTo32(cx: Cx, x: Scalar, t: NarrowInt, signed: boolean): Scalar {
  return signed ? signExtend(cx, x, widthOf(t)) : zeroExtend(cx, x, widthOf(t));
}

/**
 * A kernel argument narrower than a dword at `offset` (naturally aligned): the dword holding
 * it, shifted down to its byte (scalar loads read whole dwords; the bits above stay, as
 * every narrow value allows).
 */
export function narrowArgument(cx: Cx, kernarg: MOperand, offset: number, t: Carrier): Scalar {
  const d = cx.vreg("s", 1);
  cx.emit("s_load_b32", [part(d), kernarg], { offset: offset & ~3 });
  const shift = (offset & 3) * 8;
  if (shift === 0) return cx.sval(t, d);
  const h = cx.vreg("s", 1);
  cx.emit("s_lshr_b32", [part(h), part(d), imm(shift)]);
  return cx.sval(t, h);
}
