/**
 * x / y and x % y on u64 (y ≠ 0) without a loop, as llc-19 expands `udiv i64` for AMDGPU
 * (AMDGPUTargetLowering's 64-bit UDIVREM): a float reciprocal of y scaled to ≈ 2⁶⁴/y
 * (f32(y) = hi·2³² + lo; rcp; × (2⁶⁴ − 2⁴⁰) as 0x5f7ffffc; split into two dwords with
 * trunc(· 2⁻³²) and an fma by −2³²), two Newton–Raphson steps in 64-bit integers
 * (z += mulhi(z, −y·z)), q = mulhi(x, z), r = x − q·y, and two corrections (r ≥ y: q + 1,
 * r − y). q is at most 2 short with the hardware's 1-ulp reciprocal (division.test.ts checks
 * a JS model of this sequence and the simulator runs it against the interpreter).
 */
import { imm } from "../isa/operands.js";
import { part } from "../machine/program.js";
import { add64, boolOp, compareInt, fma, madU64, mul64, select, sub64, vfloat, vunary } from "./arith.js";
import type { KernelLowering, Scalar } from "./context.js";

type Cx = KernelLowering;

const F32 = (cx: Cx, bits: number): Scalar => cx.const("f32", BigInt(bits));
const TWO_POW_32 = 0x4f800000, TWO_POW_64_SCALED = 0x5f7ffffc, TWO_POW_M32 = 0x2f800000, MINUS_TWO_POW_32 = 0xcf800000;

/** The low dword of a 64-bit value, as a narrow i64 view of the same register (no copy). */
function low(cx: Cx, x: Scalar): Scalar {
  if (x.c !== undefined) return cx.const("i64", x.c & 0xffffffffn);
  return { ...x, t: "i64", narrow: true, max: 0xffffffffn };
}

/** The high dword of a 64-bit value in a register of its own (narrow i64). */
function high(cx: Cx, x: Scalar): Scalar {
  if (x.c !== undefined) return cx.const("i64", BigInt.asUintN(64, x.c) >> 32n);
  if (cx.hiZero(x)) return cx.const("i64", 0n);
  const d = cx.vreg(cx.isS(x) ? "s" : "v", 1);
  cx.emit(d.cls === "s" ? "s_mov_b32" : "v_mov_b32", [part(d), cx.hi(x)]);
  return cx.sval("i64", d, { narrow: true, max: 0xffffffffn });
}

/** a·b + 0 for dwords a, b: the full 64-bit product (`v_mad_u64_u32`). */
function wideProduct(cx: Cx, a: Scalar, b: Scalar): Scalar {
  const d = cx.vreg("v", 2);
  madU64(cx, d, cx.lo(a), cx.lo(b), imm(0));
  return cx.sval("i64", d);
}

/** ⌊a·b / 2⁶⁴⌋ on u64 from the four dword products (each partial sum fits 64 bits). */
function mulHiU64(cx: Cx, a: Scalar, b: Scalar): Scalar {
  const [a0, a1, b0, b1] = [low(cx, a), high(cx, a), low(cx, b), high(cx, b)];
  const t = add64(cx, wideProduct(cx, a0, b1), high(cx, wideProduct(cx, a0, b0)));
  const u = add64(cx, wideProduct(cx, a1, b0), low(cx, t));
  return add64(cx, add64(cx, wideProduct(cx, a1, b1), high(cx, t)), high(cx, u));
}

/** z ≈ 2⁶⁴ / y from the float reciprocal (below it, so the refinements only add). */
function reciprocal(cx: Cx, y: Scalar): Scalar {
  const f = fma(cx, vunary(cx, "v_cvt_f32_u32", high(cx, y)), F32(cx, TWO_POW_32), vunary(cx, "v_cvt_f32_u32", low(cx, y)));
  const r = vfloat(cx, "v_mul_f32", F32(cx, TWO_POW_64_SCALED), vunary(cx, "v_rcp_f32", f), true);
  const hiF = vunary(cx, "v_trunc_f32", vfloat(cx, "v_mul_f32", F32(cx, TWO_POW_M32), r, true));
  const loF = fma(cx, hiF, F32(cx, MINUS_TWO_POW_32), r);
  const d = cx.vreg("v", 2);
  cx.emit("v_cvt_u32_f32", [part(d, 0, 1), cx.lo(loF)]);
  cx.emit("v_cvt_u32_f32", [part(d, 1, 1), cx.lo(hiF)]);
  return cx.sval("i64", d);
}

function divRem64(cx: Cx, x: Scalar, y: Scalar): [Scalar, Scalar] {
  const negY = sub64(cx, cx.const("i64", 0n), y);
  let z = reciprocal(cx, y);
  for (let i = 0; i < 2; i++) z = add64(cx, z, mulHiU64(cx, z, mul64(cx, negY, z)));
  let q = mulHiU64(cx, x, z);
  let r = sub64(cx, x, mul64(cx, q, y));
  for (let i = 0; i < 2; i++) {
    const over = compareInt(cx, "uge", r, y, 64);
    q = select(cx, over, add64(cx, q, cx.const("i64", 1n)), q);
    r = select(cx, over, sub64(cx, r, y), r);
  }
  return [q, r];
}

/** `c ? 0 − v : v` on i64. */
const negateWhere = (cx: Cx, c: Scalar, v: Scalar) => (c.c === 0n ? v : select(cx, c, sub64(cx, cx.const("i64", 0n), v), v));

/** `divide32` on i64 (through `divRem64`; negative operands through their magnitudes). */
export function divide64(cx: Cx, x: Scalar, y: Scalar, signed: boolean, kind: "trunc" | "ceil" | "floor"): [Scalar, Scalar] {
  // x / y and x % y of one pair share one sequence.
  const q = cx.memo(`divide64.${signed ? "s" : "u"}.${kind}`, [x, y], () => {
    const [quotient, remainder] = divide64Uncached(cx, x, y, signed, kind);
    REMAINDERS.set(quotient, remainder);
    return quotient;
  });
  return [q, REMAINDERS.get(q) ?? q];
}

/** The remainder computed with each 64-bit quotient. */
const REMAINDERS = new WeakMap<Scalar, Scalar>();

function divide64Uncached(cx: Cx, x: Scalar, y: Scalar, signed: boolean, kind: "trunc" | "ceil" | "floor"): [Scalar, Scalar] {
  const zero = cx.const("i64", 0n);
  const negative = (v: Scalar) => (signed && v.max === undefined ? compareInt(cx, "slt", v, zero, 64) : cx.const("i1", 0n));
  const nx = negative(x), ny = negative(y);
  const [uq, ur] = divRem64(cx, negateWhere(cx, nx, x), negateWhere(cx, ny, y));
  const flip = boolOp(cx, "xor", nx, ny);
  const q = negateWhere(cx, flip, uq), r = negateWhere(cx, nx, ur);
  if (kind === "trunc") return [q, r];
  // An inexact quotient's remainder has x's sign: ceil moves up when x and y agree, floor down when they differ.
  const move = boolOp(cx, "and", compareInt(cx, "ne", r, zero, 64), kind === "ceil" ? boolOp(cx, "xor", flip, cx.const("i1", 1n)) : flip);
  return [select(cx, move, add64(cx, q, cx.const("i64", kind === "ceil" ? 1n : -1n)), q), r];
}
