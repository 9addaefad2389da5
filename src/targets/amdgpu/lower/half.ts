/**
 * f16 and bf16 selection. A 16-bit float lives in the low half of a 32-bit register (the high
 * half unspecified). Arithmetic widens to f32, computes there and rounds back: for + − × ÷ √,
 * min/max and compares the f32 result rounded to 16 bits is the 16-bit result (f32 carries
 * more than 2·11 + 2 significand bits, so the double rounding is innocuous); fma would round
 * twice, so f16 uses `v_fma_f16` and bf16 fma is refused.
 *
 *   f16 → f32:  v_cvt_f32_f16 (exact)           f32 → f16:  v_cvt_f16_f32 (nearest even, mode default)
 *   bf16 → f32: a shift by 16 (exact)          f32 → bf16: bits + 0x7fff + bit 16, then >> 16; NaN → 0x7fc0
 */
import { imm } from "../isa/operands.js";
import { part } from "../machine/program.js";
import { compareFloat, int32, select, vop2, vop3, vunary } from "./arith.js";
import type { Carrier, KernelLowering, Scalar } from "./context.js";
import { bitsToFloat, floatToBits, roundToFormat } from "../../../dialects/scalar/semantics.js";

type Cx = KernelLowering;
export type HalfCarrier = "f16" | "bf16";

export const isHalf = (t: Carrier | undefined): t is HalfCarrier => t === "f16" || t === "bf16";

/** The bits of a 16-bit constant written as a number (rounded once, as the interpreter reads literals). */
export function halfBits(value: number, t: HalfCarrier): bigint {
  return floatToBits(roundToFormat(value, t), t);
}

/** The f32 value of a 16-bit float (exact). */
export function widen(cx: Cx, x: Scalar): Scalar {
  if (x.t === "f32") return x;
  if (x.c !== undefined) {
    const bits = Number(x.c & 0xffffn);
    return cx.const("f32", floatToBits(bitsToFloat(BigInt(bits), x.t as HalfCarrier), "f32"));
  }
  // One widening per value and scope (every f16 op reads its operands in f32).
  return cx.memo("widen", [x], () => (x.t === "bf16" ? ({ ...int32(cx, "shl", { ...x, t: "i32" }, cx.const("i32", 16n)), t: "f32", max: undefined } as Scalar) : vunary(cx, "v_cvt_f32_f16", x)));
}

/** An f32 rounded to nearest even in `t`. */
export function narrow(cx: Cx, x: Scalar, t: HalfCarrier): Scalar {
  if (x.c !== undefined) return cx.const(t, halfBits(bitsToFloat(x.c, "f32"), t));
  if (t === "f16") return vunary(cx, "v_cvt_f16_f32", x, "f16");
  const lsb = cx.vreg("v", 1);
  vop3(cx, "v_bfe_u32", part(lsb), [cx.lo(x), imm(16), imm(1)]);
  const sum = cx.vreg("v", 1);
  vop3(cx, "v_add3_u32", part(sum), [cx.lo(x), cx.lo(cx.const("i32", 0x7fffn)), part(lsb)]);
  const rounded = int32(cx, "shru", cx.sval("i32", sum), cx.const("i32", 16n));
  const nan = compareFloat(cx, "uno", x, x)!;
  return { ...select(cx, nan, cx.const("i32", 0x7fc0n), rounded), t: "bf16", max: undefined } as Scalar;
}

/** A 32-bit VGPR source of 16-bit bits (constants as a literal move: no f16 inline-constant reinterpretation). */
function halfSource(cx: Cx, x: Scalar) {
  return x.c !== undefined ? part(cx.own32(imm(Number(x.c & 0xffffn)))) : cx.lo(x);
}

/** f16 a·b + c with one rounding. */
export function fmaHalf(cx: Cx, a: Scalar, b: Scalar, c: Scalar): Scalar {
  const d = cx.vreg("v", 1);
  vop3(cx, "v_fma_f16", part(d), [halfSource(cx, a), halfSource(cx, b), halfSource(cx, c)]);
  return cx.sval("f16", d);
}


/**
 * The f16 ops with a native VOP2 form that rounds as the f32 route does (one rounding of the
 * exact result; IEEE minNum/maxNum): one instruction instead of two widenings, the op and a
 * rounding. Constants go to a VGPR (no f16 inline-constant reinterpretation).
 */
const NATIVE_F16: Readonly<Record<string, [string, boolean]>> = {
  addf: ["v_add_f16", true], subf: ["v_sub_f16", false], mulf: ["v_mul_f16", true], maxnumf: ["v_max_f16", true], minnumf: ["v_min_f16", true],
};

export function nativeHalf(name: string): ((cx: Cx, args: readonly Scalar[]) => Scalar) | undefined {
  const form = NATIVE_F16[name];
  if (!form) return undefined;
  const [mnemonic, commutative] = form;
  return (cx, [a, b]) => {
    const d = cx.vreg("v", 1);
    vop2(cx, mnemonic, part(d), halfSource(cx, a!), halfSource(cx, b!), commutative);
    return cx.sval("f16", d);
  };
}
