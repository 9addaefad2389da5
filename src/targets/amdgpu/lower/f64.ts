/**
 * f64 selection: a register pair (low dword first), as i64 but never narrow. Arithmetic is
 * the native VOP3 instructions (`v_add/mul/fma/min/max_f64`, one rounding each, IEEE mode),
 * compares `v_cmp_*_f64`, sign operations on the high dword; constants other than +0 go to a
 * VGPR pair first (a 64-bit float operand reads inline integers and literals differently
 * from their bits). Division, square root and the math functions are TARGET/001 (they need
 * LLVM's `v_div_scale/fmas/fixup_f64` and `v_rsq_f64` refinement sequences).
 */
import { imm } from "../isa/operands.js";
import { part, type MOperand } from "../machine/program.js";
import { FLOAT_PREDICATES, maskToBool, select, vop2 } from "./arith.js";
import type { KernelLowering, Scalar } from "./context.js";

type Cx = KernelLowering;

const SIGN = 0x80000000n;

/** A VOP3 source of an f64: +0 inline, other constants and narrow values as a VGPR pair. */
function source(cx: Cx, x: Scalar, allowSgpr: boolean): MOperand {
  if (x.c === 0n) return imm(0);
  if (allowSgpr && x.c === undefined && cx.isS(x) && x.reg!.n === 2 && !x.narrow) return part(x.reg!);
  return part(cx.vpair(x));
}

/** One f64 VOP3 op: at most one SGPR pair among the sources (gfx9's constant bus). */
function op3(cx: Cx, mnemonic: string, xs: readonly Scalar[]): Scalar {
  const d = cx.vreg("v", 2);
  let sgpr = true;
  const srcs = xs.map((x) => {
    const o = source(cx, x, sgpr);
    if (o.k === "vreg" && o.r.cls === "s") sgpr = false;
    return o;
  });
  cx.emit(mnemonic, [part(d), ...srcs]);
  return cx.sval("f64", d);
}

/** A pair whose high dword is `hi` applied to x's (sign operations). */
function withHigh(cx: Cx, x: Scalar, hi: (h: MOperand) => MOperand): Scalar {
  const d = cx.vreg("v", 2);
  cx.emit("v_mov_b32", [part(d, 0, 1), cx.lo(x)]);
  cx.emit("v_mov_b32", [part(d, 1, 1), hi(cx.hi(x))]);
  return cx.sval("f64", d);
}

function bitOp(cx: Cx, mnemonic: string, mask: bigint, h: MOperand): MOperand {
  const r = cx.vreg("v", 1);
  vop2(cx, mnemonic, part(r), imm(Number(mask)), h, true);
  return part(r);
}

export function negate64(cx: Cx, x: Scalar): Scalar {
  if (x.c !== undefined) return cx.const("f64", x.c ^ (SIGN << 32n));
  return withHigh(cx, x, (h) => bitOp(cx, "v_xor_b32", SIGN, h));
}

export function abs64(cx: Cx, x: Scalar): Scalar {
  if (x.c !== undefined) return cx.const("f64", x.c & ~(SIGN << 32n));
  return withHigh(cx, x, (h) => bitOp(cx, "v_and_b32", SIGN - 1n, h));
}

export function copySign64(cx: Cx, x: Scalar, y: Scalar): Scalar {
  const sign = bitOp(cx, "v_and_b32", SIGN, cx.hi(y));
  return withHigh(cx, x, (h) => {
    const r = cx.vreg("v", 1);
    vop2(cx, "v_or_b32", part(r), sign, bitOp(cx, "v_and_b32", SIGN - 1n, h), true);
    return part(r);
  });
}

export function compareF64(cx: Cx, pred: string, a: Scalar, b: Scalar): Scalar | undefined {
  const suffix = FLOAT_PREDICATES[pred];
  if (!suffix) return undefined;
  const m = cx.vreg("s", cx.maskDwords);
  const sa = source(cx, a, true);
  const sb = source(cx, b, !(sa.k === "vreg" && sa.r.cls === "s"));
  cx.emit(`v_cmp_${suffix}_f64`, [part(m), sa, sb]);
  const mask = cx.sval("i1", m, { mask: true });
  const uniform = (x: Scalar) => x.c !== undefined || cx.isS(x);
  return uniform(a) && uniform(b) ? maskToBool(cx, mask) : mask;
}

const F64_NAN = 0x7ff8000000000000n;

/** The f64 lane functions, by scalar op name (undefined: not selected on f64). */
export const F64_LANES: Readonly<Record<string, (cx: Cx, args: readonly Scalar[]) => Scalar>> = {
  ...Object.fromEntries(Object.entries({ addf: "add", mulf: "mul", fmaf: "fma", minnumf: "min", maxnumf: "max" }).map(([n, m]) => [n, (cx: Cx, args: readonly Scalar[]) => op3(cx, `v_${m}_f64`, args)])),
  ...Object.fromEntries(Object.entries({ floorf: "floor", ceilf: "ceil", truncf: "trunc", roundevenf: "rndne" }).map(([n, m]) => [n, (cx: Cx, [a]: readonly Scalar[]) => unary(cx, `v_${m}_f64`, a!)])),
  subf: (cx, [a, b]) => op3(cx, "v_add_f64", [a!, negate64(cx, b!)]),
  minimumf: (cx, [a, b]) => nanOr(cx, a!, b!, "min"),
  maximumf: (cx, [a, b]) => nanOr(cx, a!, b!, "max"),
  negf: (cx, [a]) => negate64(cx, a!),
  absf: (cx, [a]) => abs64(cx, a!),
  copysignf: (cx, [a, b]) => copySign64(cx, a!, b!),
};

/** IEEE minimum/maximum: NaN when either operand is (v_min/max_f64 return the other). */
function nanOr(cx: Cx, a: Scalar, b: Scalar, which: "min" | "max"): Scalar {
  return select(cx, compareF64(cx, "uno", a, b)!, cx.const("f64", F64_NAN), op3(cx, `v_${which}_f64`, [a, b]));
}

/** A VOP1 f64 → f64 op. */
function unary(cx: Cx, mnemonic: string, x: Scalar): Scalar {
  const d = cx.vreg("v", 2);
  cx.emit(mnemonic, [part(d), source(cx, x, true)]);
  return cx.sval("f64", d);
}

/** f32 (or i32 by `mnemonic`) → f64, exact. */
export function toF64(cx: Cx, mnemonic: "v_cvt_f64_f32" | "v_cvt_f64_i32" | "v_cvt_f64_u32", x: Scalar): Scalar {
  const d = cx.vreg("v", 2);
  cx.emit(mnemonic, [part(d), cx.lo(x)]);
  return cx.sval("f64", d);
}

/** f64 → f32 (nearest even) or i32/u32 (toward zero). */
export function fromF64(cx: Cx, mnemonic: "v_cvt_f32_f64" | "v_cvt_i32_f64" | "v_cvt_u32_f64", x: Scalar): Scalar {
  const d = cx.vreg("v", 1);
  cx.emit(mnemonic, [part(d), source(cx, x, true)]);
  return cx.sval(mnemonic === "v_cvt_f32_f64" ? "f32" : "i32", d);
}
