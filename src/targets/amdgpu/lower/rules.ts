/**
 * The AMDGPU lowering table: one entry per op name (dialects/lowering.ts), a rule or
 * `unsupported(reason)` (TARGET/001 at the op). Rules are small: they read lowered
 * operands, call the selection helpers of arith.ts / memory.ts / control.ts and record
 * results.
 */
import type { Op } from "../../../ir/core.js";
import { NEVER_LOWERED, numericLiteral, unsupported, type LoweringTable, passOperandsThrough } from "../../../dialects/lowering.js";
import { namesWithPrefix, propOf, type OpName } from "../../../dialects/registry.js";
import { part } from "../machine/program.js";
import { erfF32, powF32, remF32, tanhF32, add64, boolOp, divide32, popcount64, rotate64, zeroCount64, nanPropagating, compareFloat, compareInt, floatBits, fma, int32, madd64, minmax64, mul64, select, shl64, shr64, sub64, vfloat, vop2, vop3, vunary, type IntPredicate } from "./arith.js";
import { divide64 } from "./divide64.js";
import { operandOf, resultOf, type KernelLowering, type Lowered, type Rule, type Scalar } from "./context.js";
import { assertRule } from "./assert.js";
import { CONTROL_RULES } from "./control.js";
import { compareF64, F64_LANES, f64ToInt64, fromF64, int64ToF64, toF64 } from "./f64.js";
import { F64_MATH } from "./f64-math.js";
import { floatToBits } from "../../../dialects/scalar/semantics.js";
import { fmaHalf, halfBits, isHalf, narrow, nativeHalf, widen } from "./half.js";
import { asNarrow, extendTo32, isNarrowInt, narrowBinary, narrowCompare, narrowDivide, signExtend, widthOf } from "./narrow.js";
import { kernelRules } from "./kernel-rules.js";
import { INDEX_LANE_RULES, laneOf } from "../../../dialects/lanewise.js";
import { MEMORY_RULES } from "./memory.js";

type Cx = KernelLowering;

const constantRule: Rule = (cx, op) => {
  const r = resultOf(op);
  const t = cx.carrier(r.type)!;
  const v = numericLiteral(op, "AMDGPU");
  const c = t === "f32" ? cx.const("f32", floatBits(Number(v))) : t === "f64" ? cx.const("f64", floatToBits(Number(v), "f64")) : isHalf(t) ? cx.const(t, halfBits(Number(v), t)) : cx.const(t, typeof v === "boolean" ? (v ? 1n : 0n) : typeof v === "bigint" ? v : BigInt(Math.trunc(v)));
  if (r.type.kind === "vector") {
    const n = r.type.shape.reduce((a, x) => a * x, 1);
    return cx.set(r, { kind: "vector", lanes: new Array<Scalar>(n).fill(c), t });
  }
  cx.set(r, c);
};


/** A binary lane operation on scalars or lane by lane on vectors. */
type Lane = (cx: Cx, op: Op, args: readonly Scalar[]) => Scalar | undefined;

function lanewiseUnsupported(cx: Cx, op: Op): void {
  cx.unsupported(op, `'${op.name}' on these operand types`, "not selected by the AMDGPU back end yet");
  cx.poison(op);
}

function lanewise(fn: Lane): Rule {
  // Runs once per selected op: no closures, and scalar operands are handed over as they are.
  return (cx, op) => {
    const operands = op.operands;
    const inputs = new Array<Lowered>(operands.length);
    let invalid = false, vectors = false;
    let at = 0;
    for (const v of operands) {
      const l = cx.get(v);
      if (l.kind === "invalid") invalid = true;
      else if (l.kind === "vector") vectors = true;
      inputs[at++] = l;
    }
    if (invalid) return cx.poison(op);
    const result = resultOf(op);
    if (result.type.kind === "vector") {
      const n = result.type.shape.reduce((a, x) => a * x, 1);
      const lanes: Scalar[] = [];
      for (let i = 0; i < n; i++) {
        const r = fn(cx, op, laneOf<Scalar>(inputs, i));
        if (!r) return lanewiseUnsupported(cx, op);
        lanes.push(r);
      }
      return cx.set(result, { kind: "vector", lanes, t: lanes[0]!.t });
    }
    const r = fn(cx, op, vectors ? laneOf<Scalar>(inputs, 0) : (inputs as Scalar[]));
    if (!r) return lanewiseUnsupported(cx, op);
    cx.set(result, r);
  };
}

const carrierOfOperand = (cx: Cx, op: Op, i = 0) => cx.carrier(operandOf(op, i).type);

/** Integer binary ops on i32, i64 (index) and i1. */
function intBinary(kind: "add" | "sub" | "mul" | "and" | "or" | "xor" | "shl" | "shru" | "shrs" | "mins" | "maxs" | "minu" | "maxu"): Lane {
  return (cx, op, [a, b]) => {
    const t = carrierOfOperand(cx, op);
    if (t === "i1") {
      if (kind === "and" || kind === "or" || kind === "xor") return boolOp(cx, kind, a!, b!);
      return undefined;
    }
    if (isNarrowInt(t)) return narrowBinary(cx, kind, t, a!, b!);
    if (t === "i32") {
      const max = kind === "and" && (a!.c !== undefined || b!.c !== undefined) ? BigInt.asUintN(32, (a!.c ?? b!.c)!) : kind === "shru" && a!.max !== undefined ? a!.max : undefined;
      return int32(cx, kind, a!, b!, "i32", max !== undefined && max < 1n << 31n ? max : undefined);
    }
    if (t !== "i64") return undefined;
    switch (kind) {
      case "add": return add64(cx, a!, b!);
      case "sub": return sub64(cx, a!, b!);
      case "mul": return mul64(cx, a!, b!);
      case "shl": return b!.c !== undefined ? shl64(cx, a!, Number(b!.c & 63n)) : shlVariable(cx, a!, b!);
      case "shru": return shr64(cx, a!, b!, false);
      case "shrs": return shr64(cx, a!, b!, true);
      case "mins": case "minu": return minmax64(cx, "min", kind === "mins", a!, b!);
      case "maxs": case "maxu": return minmax64(cx, "max", kind === "maxs", a!, b!);
      default: return bitwise64(cx, kind, a!, b!);
    }
  };
}

function shlVariable(cx: Cx, x: Scalar, amount: Scalar): Scalar {
  const uniformAll = (cx.isS(x) || x.c !== undefined) && (cx.isS(amount) || amount.c !== undefined);
  if (uniformAll) {
    const d = cx.vreg("s", 2);
    cx.emit("s_lshl_b64", [part(d), part(cx.spair(x)), cx.lo(amount)]);
    return cx.sval("i64", d);
  }
  const d = cx.vreg("v", 2);
  vop3(cx, "v_lshlrev_b64", part(d), [cx.lo(amount), part(cx.vpair(x))]);
  return cx.sval("i64", d);
}

function bitwise64(cx: Cx, kind: "and" | "or" | "xor", a: Scalar, b: Scalar): Scalar {
  if (a.c !== undefined && b.c !== undefined) return cx.const("i64", kind === "and" ? a.c & b.c : kind === "or" ? a.c | b.c : a.c ^ b.c);
  // A zero high dword on one side (and) or both (or, xor) gives a zero high dword: 32 bits.
  const aNarrow = cx.hiZero(a), bNarrow = cx.hiZero(b);
  if (kind === "and" ? aNarrow || bNarrow : aNarrow && bNarrow) {
    const bound = (x: Scalar, narrow: boolean) => (narrow ? (x.max ?? 0xffffffffn) : undefined);
    const ma = bound(a, aNarrow), mb = bound(b, bNarrow);
    const max = kind === "and" ? (ma === undefined ? mb : mb === undefined || ma < mb ? ma : mb) : undefined;
    return { ...int32(cx, kind, a, b, "i64", max), narrow: true };
  }
  const vector = cx.isV(a) || cx.isV(b);
  const d = cx.vreg(vector ? "v" : "s", 2);
  const halves: [number, ReturnType<Cx["lo"]>, ReturnType<Cx["lo"]>][] = [[0, cx.lo(a), cx.lo(b)], [1, cx.hi(a), cx.hi(b)]];
  for (const [i, x, y] of halves) {
    if (vector) vop2(cx, `v_${kind}_b32`, part(d, i, 1), x, y, true);
    else cx.emit(`s_${kind}_b32`, [part(d, i, 1), x, y]);
  }
  return cx.sval("i64", d);
}

const cmpi: Lane = (cx, op, [a, b]) => {
  const t = carrierOfOperand(cx, op);
  const p = String(op.props.predicate) as IntPredicate;
  if (t === "i32") return compareInt(cx, p, a!, b!, 32);
  if (t === "i64") return compareInt(cx, p, a!, b!, 64);
  if (isNarrowInt(t)) return narrowCompare(cx, p, t, a!, b!);
  // i1 compares as its bit pattern: true is 1 unsigned, −1 signed.
  if (t === "i1") return compareInt(cx, p, boolAsInt(cx, a!, p.startsWith("s")), boolAsInt(cx, b!, p.startsWith("s")), 32);
  return undefined;
};

/** An i1 as an i32: true is 1, or −1 read as signed. */
function boolAsInt(cx: Cx, x: Scalar, signed: boolean): Scalar {
  return select(cx, x, cx.const("i32", signed ? 0xffffffffn : 1n), cx.const("i32", 0n));
}

const cmpf: Lane = (cx, op, [a, b]) => {
  const t = carrierOfOperand(cx, op);
  if (t === "f32") return compareFloat(cx, String(op.props.predicate), a!, b!);
  if (t === "f64") return compareF64(cx, String(op.props.predicate), a!, b!);
  // f16/bf16 widen exactly, so the f32 compare is theirs.
  return isHalf(t) ? compareFloat(cx, String(op.props.predicate), widen(cx, a!), widen(cx, b!)) : undefined;
};

/**
 * A float op selected on f32; f16 and bf16 compute in f32 and round once (half.ts: exact for
 * the basic operations; the math functions keep their f32 bounds plus the final rounding).
 */
const f32Only = (fn: Lane): Lane => (cx, op, args) => {
  const t = cx.carrier(resultOf(op).type);
  if (t === "f32") return fn(cx, op, args);
  if (!isHalf(t)) return undefined;
  const r = fn(cx, op, args.map((a) => widen(cx, a)));
  return r && narrow(cx, r, t);
};

/** The op on f64 results through F64_LANES (f64.ts; ops it lacks are not selected on f64), on f16 natively where half.ts has the instruction. */
function withF64(name: string, lane: Lane): Lane {
  const f64 = F64_LANES[name] ?? F64_MATH[name];
  const f16 = nativeHalf(name);
  return (cx, op, args) => {
    const t = cx.carrier(resultOf(op).type);
    if (t === "f64") return f64?.(cx, args);
    return t === "f16" && f16 ? f16(cx, args) : lane(cx, op, args);
  };
}

const LOG2_E = 0x3fb8aa3b;
const LN_2 = 0x3f317218;
const INV_TWO_PI = 0x3e22f983;

const FLOAT_LANES: Record<string, Lane> = {
  addf: f32Only((cx, _op, [a, b]) => vfloat(cx, "v_add_f32", a!, b!, true)),
  subf: f32Only((cx, _op, [a, b]) => vfloat(cx, "v_sub_f32", a!, b!, false)),
  mulf: f32Only((cx, _op, [a, b]) => vfloat(cx, "v_mul_f32", a!, b!, true)),
  minnumf: f32Only((cx, _op, [a, b]) => vfloat(cx, "v_min_f32", a!, b!, true)),
  maxnumf: f32Only((cx, _op, [a, b]) => vfloat(cx, "v_max_f32", a!, b!, true)),
  maximumf: f32Only((cx, _op, [a, b]) => nanPropagating(cx, vfloat(cx, "v_max_f32", a!, b!, true), a!, b!)),
  minimumf: f32Only((cx, _op, [a, b]) => nanPropagating(cx, vfloat(cx, "v_min_f32", a!, b!, true), a!, b!)),
  // a / b = a · (1/b): v_rcp_f32 is within 1 ulp, the product within 2.5 ulp (docs/amdgpu.md).
  divf: f32Only((cx, _op, [a, b]) => vfloat(cx, "v_mul_f32", a!, vunary(cx, "v_rcp_f32", b!), true)),
  // f16 has its own fused op; bf16 through f32 would round twice (refused).
  fmaf: (cx, op, [a, b, c]) => {
    const t = cx.carrier(resultOf(op).type);
    return t === "f32" ? fma(cx, a!, b!, c!) : t === "f16" ? fmaHalf(cx, a!, b!, c!) : undefined;
  },
  negf: f32Only((cx, _op, [a]) => vfloat(cx, "v_xor_b32", cx.const("i32", 0x80000000n), a!, true)),
  absf: f32Only((cx, _op, [a]) => vfloat(cx, "v_and_b32", cx.const("i32", 0x7fffffffn), a!, true)),
  expf: f32Only((cx, _op, [a]) => vunary(cx, "v_exp_f32", vfloat(cx, "v_mul_f32", cx.const("f32", BigInt(LOG2_E)), a!, true))),
  exp2f: f32Only((cx, _op, [a]) => vunary(cx, "v_exp_f32", a!)),
  logf: f32Only((cx, _op, [a]) => vfloat(cx, "v_mul_f32", cx.const("f32", BigInt(LN_2)), vunary(cx, "v_log_f32", a!), true)),
  log2f: f32Only((cx, _op, [a]) => vunary(cx, "v_log_f32", a!)),
  sqrtf: f32Only((cx, _op, [a]) => vunary(cx, "v_sqrt_f32", a!)),
  rsqrtf: f32Only((cx, _op, [a]) => vunary(cx, "v_rsq_f32", a!)),
  sinf: f32Only((cx, _op, [a]) => vunary(cx, "v_sin_f32", vfloat(cx, "v_mul_f32", cx.const("f32", BigInt(INV_TWO_PI)), a!, true))),
  cosf: f32Only((cx, _op, [a]) => vunary(cx, "v_cos_f32", vfloat(cx, "v_mul_f32", cx.const("f32", BigInt(INV_TWO_PI)), a!, true))),
  floorf: f32Only((cx, _op, [a]) => vunary(cx, "v_floor_f32", a!)),
  ceilf: f32Only((cx, _op, [a]) => vunary(cx, "v_ceil_f32", a!)),
  truncf: f32Only((cx, _op, [a]) => vunary(cx, "v_trunc_f32", a!)),
  roundevenf: f32Only((cx, _op, [a]) => vunary(cx, "v_rndne_f32", a!)),
  roundf: f32Only((cx, _op, [a]) => roundHalfAway(cx, a!)),
  tanhf: f32Only((cx, _op, [a]) => tanhF32(cx, a!)),
  erff: f32Only((cx, _op, [a]) => erfF32(cx, a!)),
  powf: f32Only((cx, _op, [a, b]) => powF32(cx, a!, b!)),
  remf: f32Only((cx, _op, [a, b]) => remF32(cx, a!, b!)),
};

/**
 * Round half away from zero (language.md `roundf`): t = trunc(x) plus copysign(1, x) where
 * |x − t| ≥ 0.5 (x − t is exact; infinities give NaN there, so they stay themselves; −0.3
 * gives −0 + −0 = −0).
 */
function roundHalfAway(cx: Cx, x: Scalar): Scalar {
  const t = vunary(cx, "v_trunc_f32", x);
  const fraction = vfloat(cx, "v_and_b32", cx.const("i32", SIGN - 1n), vfloat(cx, "v_sub_f32", x, t, false), true);
  const half = compareFloat(cx, "oge", fraction, cx.const("f32", 0x3f000000n))!;
  const step = copySign(cx, select(cx, half, cx.const("f32", 0x3f800000n), cx.const("f32", 0n)), x);
  return vfloat(cx, "v_add_f32", t, step, true);
}

const CONVERSIONS: Record<string, Lane> = {
  sitofp: intToFloat("v_cvt_f32_i32"),
  uitofp: intToFloat("v_cvt_f32_u32"),
  fptosi: floatToInt("v_cvt_i32_f32"),
  fptoui: floatToInt("v_cvt_u32_f32"),
  extf: (cx, op, [a]) => {
    const from = carrierOfOperand(cx, op), to = cx.carrier(resultOf(op).type);
    if (to === "f64" && (from === "f32" || isHalf(from))) return toF64(cx, "v_cvt_f64_f32", widen(cx, a!));
    return isHalf(from) && to === "f32" ? widen(cx, a!) : undefined;
  },
  // f64 → f16/bf16 through f32 would round twice (not selected).
  fptrunc: (cx, op, [a]) => {
    const from = carrierOfOperand(cx, op), to = cx.carrier(resultOf(op).type);
    if (from === "f64" && to === "f32") return fromF64(cx, "v_cvt_f32_f64", a!);
    return from === "f32" && isHalf(to) ? narrow(cx, a!, to) : undefined;
  },
  bitcast: (cx, op, [a]) => {
    const from = carrierOfOperand(cx, op), to = cx.carrier(resultOf(op).type);
    if ((from === "i32" || from === "f32") && (to === "i32" || to === "f32")) return { ...a!, t: to, max: undefined } as Scalar;
    if ((from === "i64" || from === "f64") && (to === "i64" || to === "f64")) return to === "f64" ? ({ ...a!, t: to, max: undefined } as Scalar) : { ...a!, t: to };
    // i16 ↔ f16/bf16: the same low half.
    if ((from === "i16" || isHalf(from)) && (to === "i16" || isHalf(to)) && to !== undefined) return { ...a!, t: to, max: undefined } as Scalar;
    return undefined;
  },
};

/**
 * i32 → f32, and i32 → f16 through f32: below 2^24 the f32 step is exact, above it both
 * roundings overflow to infinity, so the result is rounded once. bf16 would round twice.
 */
function intToFloat(mnemonic: string): Lane {
  return (cx, op, [a]) => {
    const to = cx.carrier(resultOf(op).type);
    const from = carrierOfOperand(cx, op);
    if (from === "i64" && to === "f64") return int64ToF64(cx, a!, mnemonic === "v_cvt_f32_i32");
    if ((from !== "i32" && from !== "i1" && !isNarrowInt(from)) || (to !== "f32" && to !== "f16" && to !== "f64")) return undefined;
    const signed = mnemonic === "v_cvt_f32_i32";
    const x = isNarrowInt(from) ? extendTo32(cx, a!, from, signed) : from === "i1" ? boolAsInt(cx, a!, signed) : a!;
    if (to === "f64") return toF64(cx, signed ? "v_cvt_f64_i32" : "v_cvt_f64_u32", x);
    const f = vunary(cx, mnemonic, x);
    return to === "f16" ? narrow(cx, f, to) : f;
  };
}

/** f32 → i32 (truncating), f16/bf16 through their exact f32 value. */
function floatToInt(mnemonic: string): Lane {
  return (cx, op, [a]) => {
    const from = carrierOfOperand(cx, op);
    const to = cx.carrier(resultOf(op).type);
    if (from === "f64" && to === "i64") return f64ToInt64(cx, a!, mnemonic === "v_cvt_i32_f32");
    if ((from !== "f32" && from !== "f64" && !isHalf(from)) || (to !== "i32" && to !== "i1" && !isNarrowInt(to))) return undefined;
    // Out-of-range results are undefined in the language: the low bits of the i32 do (i1: 0 or ±1 in range).
    const r = from === "f64" ? fromF64(cx, mnemonic === "v_cvt_i32_f32" ? "v_cvt_i32_f64" : "v_cvt_u32_f64", a!) : vunary(cx, mnemonic, widen(cx, a!), "i32");
    if (to === "i1") return compareInt(cx, "ne", r, cx.const("i32", 0n), 32);
    return isNarrowInt(to) ? asNarrow(r, to, cx) : r;
  };
}

/** index.cast / scalar.cast between i32 and i64 (sign-extending, language.md), and same-width. */
const cast: Lane = (cx, op, [a]) => {
  const from = carrierOfOperand(cx, op), to = cx.carrier(resultOf(op).type);
  if (from === to) return a;
  if (from === "i32" && to === "i64") return signExtend64(cx, a!);
  if (from === "i64" && to === "i32") return { kind: "scalar", t: "i32", ...(a!.c !== undefined ? { c: BigInt.asUintN(32, a!.c) } : { reg: a!.reg! }) } as Scalar;
  return undefined;
};

/** An i32 sign-extended to i64. */
function signExtend64(cx: Cx, a: Scalar): Scalar {
  if (a.c !== undefined) return cx.const("i64", BigInt.asIntN(32, a.c));
  if (a.max !== undefined && a.max < 1n << 31n) return { ...a, t: "i64", narrow: true };
  const hi = int32(cx, "shrs", a, cx.const("i32", 31n));
  const d = cx.vreg(hi.reg!.cls, 2);
  const mov = hi.reg!.cls === "s" ? "s_mov_b32" : "v_mov_b32";
  cx.emit(mov, [part(d, 0, 1), cx.lo(a)]);
  cx.emit(mov, [part(d, 1, 1), part(hi.reg!)]);
  return cx.sval("i64", d);
}

/** 0 − a (i32, i64, i8/i16 wrapping). */
const negi: Lane = (cx, op, [a]) => {
  const t = carrierOfOperand(cx, op);
  if (t === "i32") return int32(cx, "sub", cx.const("i32", 0n), a!);
  if (t === "i64") return sub64(cx, cx.const("i64", 0n), a!);
  if (isNarrowInt(t)) return asNarrow(int32(cx, "sub", cx.const("i32", 0n), { ...a!, t: "i32" }), t, cx);
  return undefined;
};

/** |a| with wrapping (the minimum stays itself): max(a, −a) on i32, a < 0 ? −a : a on i64. */
const absi: Lane = (cx, op, [a]) => {
  const t = carrierOfOperand(cx, op);
  if (a!.max !== undefined) return a;
  const neg = negi(cx, op, [a!]);
  if (!neg) return undefined;
  if (t === "i32") return int32(cx, "maxs", a!, neg);
  if (isNarrowInt(t)) return asNarrow(int32(cx, "maxs", signExtend(cx, a!, widthOf(t)), signExtend(cx, neg, widthOf(t))), t, cx);
  return select(cx, compareInt(cx, "slt", a!, cx.const("i64", 0n), 64), neg, a!);
};

/** The i1 → i32/i64 widenings (0 / 1 or 0 / −1), i32 → i64 and the truncations. */
function integerConversion(kind: "extsi" | "extui" | "trunci"): Lane {
  return (cx, op, [a]) => {
    const from = carrierOfOperand(cx, op), to = cx.carrier(resultOf(op).type);
    if (from === undefined || to === undefined || from === "f32" || to === "f32" || isHalf(from) || isHalf(to)) return undefined;
    if (from === to) return a;
    if (from === "i1") {
      const ones = kind === "extsi" ? -1n : 1n;
      return select(cx, a!, cx.const(to, ones), cx.const(to, 0n));
    }
    if (kind === "trunci" && isNarrowInt(to)) return asNarrow(a!, to, cx);
    if (kind === "trunci" && isNarrowInt(from)) return compareInt(cx, "ne", int32(cx, "and", { ...a!, t: "i32" }, cx.const("i32", 1n)), cx.const("i32", 0n), 32);
    if (isNarrowInt(from)) {
      // Extended to 32 bits (the bits above the width become defined), then as from i32.
      const wide = extendTo32(cx, a!, from, kind === "extsi");
      if (to === "i32") return wide;
      if (isNarrowInt(to)) return wide.c !== undefined ? cx.const(to, wide.c) : { ...wide, t: to };
      if (kind === "extui") return wide.c !== undefined ? cx.const("i64", wide.c) : { kind: "scalar", t: "i64", reg: wide.reg!, narrow: true, max: wide.max ?? (1n << BigInt(widthOf(from))) - 1n };
      return signExtend64(cx, wide);
    }
    if (kind === "trunci") {
      const low: Scalar = a!.c !== undefined ? cx.const("i32", BigInt.asUintN(32, a!.c)) : { kind: "scalar", t: "i32", reg: a!.reg!, ...(a!.max !== undefined && a!.max <= 0xffffffffn ? { max: a!.max } : {}) };
      if (to === "i32") return low;
      if (to === "i1") return compareInt(cx, "ne", int32(cx, "and", low, cx.const("i32", 1n)), cx.const("i32", 0n), 32);
      return undefined;
    }
    if (from === "i32" && to === "i64") {
      if (kind === "extsi") return cast(cx, op, [a!]);
      if (a!.c !== undefined) return cx.const("i64", a!.c);
      return { kind: "scalar", t: "i64", reg: a!.reg!, narrow: true, max: a!.max ?? 0xffffffffn };
    }
    return undefined;
  };
}

const SIGN = 0x80000000n;

/** copysign(a, b): a's magnitude bits with b's sign bit. */
function copySign(cx: Cx, a: Scalar, b: Scalar): Scalar {
  const magnitude = vfloat(cx, "v_and_b32", cx.const("i32", SIGN - 1n), a, true);
  const sign = vfloat(cx, "v_and_b32", cx.const("i32", SIGN), b, true);
  return vfloat(cx, "v_or_b32", magnitude, sign, true);
}

const INT_LANES: Record<string, Lane> = {
  negi, absi, extsi: integerConversion("extsi"), extui: integerConversion("extui"), trunci: integerConversion("trunci"),
  copysignf: withF64("copysignf", f32Only((cx, _op, [a, b]) => copySign(cx, a!, b!))),
  addi: intBinary("add"), subi: intBinary("sub"), muli: intBinary("mul"), andi: intBinary("and"), ori: intBinary("or"), xori: intBinary("xor"),
  shli: intBinary("shl"), shrui: intBinary("shru"), shrsi: intBinary("shrs"), minsi: intBinary("mins"), maxsi: intBinary("maxs"),
  minui: intBinary("minu"), maxui: intBinary("maxu"), cmpi, cmpf, cast,
  select: (cx, _op, [c, a, b]) => select(cx, c!, a!, b!),
  madd: (cx, op, [a, b, c]) => {
    const t = carrierOfOperand(cx, op);
    if (t === "i64") return madd64(cx, a!, b!, c!);
    const r = int32(cx, "add", int32(cx, "mul", a!, b!), c!);
    return isNarrowInt(t) ? asNarrow(r, t, cx) : r;
  },
  divsi: divide(true), divui: divide(false),
  remsi: remainder(true), remui: remainder(false),
  ceildivsi: roundedDivision(true, "ceil"), ceildivui: roundedDivision(false, "ceil"), floordivsi: roundedDivision(true, "floor"),
  ...Object.fromEntries(Object.entries(FLOAT_LANES).map(([n, l]) => [n, withF64(n, l)])), ...CONVERSIONS,
};

/**
 * The remainder: one `and` with 2^k − 1 for a power-of-two constant and a dividend known
 * non-negative below 2^32, a − (a / 2^k) · 2^k for other dividends, else `divide32`'s.
 */
function remainder(signed: boolean): Lane {
  const div = divide(signed);
  return (cx, op, [a, b]) => {
    const t = carrierOfOperand(cx, op);
    if (isNarrowInt(t)) return narrowDivide(cx, t, a!, b!, signed, "trunc", 1);
    const c = b!.c;
    const small = t === "i64" ? cx.hiZero(a!) : !signed || (a!.max !== undefined && a!.max < 1n << 31n);
    if (c === undefined || c <= 0n || (c & (c - 1n)) !== 0n || (signed && t === "i32" && !(a!.max !== undefined && a!.max < 1n << 31n))) return general(cx, op, a!, b!, signed, "trunc", 1);
    if (a!.c === undefined && small && (t === "i32" || t === "i64")) {
      const low = int32(cx, "and", a!, cx.const("i32", c - 1n), "i32", c - 1n);
      return t === "i32" ? low : { kind: "scalar", t: "i64", reg: low.reg!, narrow: true, max: c - 1n };
    }
    const q = div(cx, op, [a!, b!]);
    if (q === undefined) return undefined;
    const k = c.toString(2).length - 1;
    if (t === "i64") return sub64(cx, a!, shl64(cx, q, k));
    if (t === "i32") return int32(cx, "sub", a!, int32(cx, "shl", q, cx.const("i32", BigInt(k))));
    return undefined;
  };
}

/**
 * Quotient (`which` 0) or remainder (1) by `divide32`: i32, and i64 whose operands are both
 * narrow (non-negative below 2^32, so signed and unsigned agree and floor is trunc); other
 * i64 operands by `divide64`'s 64-bit reciprocal sequence (lower/divide64.ts).
 */
function general(cx: Cx, op: Op, a: Scalar, b: Scalar, signed: boolean, kind: "trunc" | "ceil" | "floor", which: 0 | 1): Scalar | undefined {
  const t = carrierOfOperand(cx, op);
  if (t === "i32") return divide32(cx, a, b, signed, kind)[which];
  if (t !== "i64") return undefined;
  if (!cx.hiZero(a) || !cx.hiZero(b)) return divide64(cx, a, b, signed, kind)[which];
  const v = divide32(cx, a, b, false, kind === "floor" ? "trunc" : kind)[which];
  return v.c !== undefined ? cx.const("i64", v.c) : { kind: "scalar", t: "i64", reg: v.reg!, narrow: true, max: which === 1 ? b.max : a.max };
}

function roundedDivision(signed: boolean, kind: "ceil" | "floor"): Lane {
  return (cx, op, [a, b]) => {
    const t = carrierOfOperand(cx, op);
    return isNarrowInt(t) ? narrowDivide(cx, t, a!, b!, signed, kind, 0) : general(cx, op, a!, b!, signed, kind, 0);
  };
}

/** `vector.dotf %a, %b, %acc`: acc = fma(a[i], b[i], acc) in lane order (one `v_fma_f32` per lane). */
const dotfRule: Rule = (cx, op) => {
  const [a, b, init] = op.operands.map((v) => cx.get(v));
  if (a?.kind !== "vector" || b?.kind !== "vector" || init?.kind !== "scalar" || cx.carrier(resultOf(op).type) !== "f32") {
    cx.unsupported(op, `'${op.name}' on these operand types`, "vector.dotf is selected on f32");
    return cx.poison(op);
  }
  cx.set(resultOf(op), a.lanes.reduce((acc, x, i) => fma(cx, x, b.lanes[i]!, acc), init));
};

const indexOnly = (fn: (cx: Cx, a: Scalar, b: Scalar) => Scalar): Lane => (cx, op, [a, b]) => (carrierOfOperand(cx, op) === "i64" ? fn(cx, a!, b!) : undefined);

/** Every lane is the scalar operand (vectors are lists of lane values). */
const splatRule: Rule = (cx, op) => {
  const x = cx.get(operandOf(op, 0));
  const r = resultOf(op);
  if (x.kind === "invalid" || x.kind === "vector" || r.type.kind !== "vector") return cx.poison(op);
  const n = r.type.shape.reduce((a, d) => a * d, 1);
  cx.set(r, { kind: "vector", lanes: new Array<Scalar>(n).fill(x as Scalar), t: (x as Scalar).t });
};

/**
 * The lanes `op.props.indices` name in a vector of `shape` (row-major lanes): a block of
 * `count` lanes, the first at `first` when the indices are constants; a dynamic index gives
 * the block number as an i32 (`block`, one of `blocks`), which the rules turn into selects
 * over every block (an index out of range is undefined behaviour: it picks one).
 */
function indexedLanes(cx: Parameters<Rule>[0], op: Parameters<Rule>[1], shape: readonly number[]): { first: number; count: number; block?: Scalar; blocks: number } | undefined {
  const indices = (op.props.indices ?? []) as readonly unknown[];
  let first = 0;
  let block: Scalar | undefined;
  for (const [d, ix] of indices.entries()) {
    const x = typeof ix === "bigint" || typeof ix === "number" ? undefined : ix && typeof ix === "object" && "type" in ix ? cx.scalar(ix as Parameters<typeof cx.scalar>[0]) : undefined;
    const c = typeof ix === "bigint" ? ix : typeof ix === "number" ? BigInt(ix) : x?.c;
    const extent = shape[d];
    if (extent === undefined || (c === undefined && !x?.reg) || (c !== undefined && (c < 0n || c >= BigInt(extent)))) {
      cx.unsupported(op, `'${op.name}' with a lane index outside the vector`);
      return undefined;
    }
    if (c !== undefined && !block) {
      first = first * extent + Number(c);
      continue;
    }
    const term = c !== undefined ? cx.const("i32", c) : ({ kind: "scalar", t: "i32", reg: x!.reg! } as Scalar);
    block = int32(cx, "add", int32(cx, "mul", block ?? cx.const("i32", BigInt(first)), cx.const("i32", BigInt(extent))), term);
  }
  const count = shape.slice(indices.length).reduce((a, d) => a * d, 1);
  const blocks = shape.slice(0, indices.length).reduce((a, d) => a * d, 1);
  return block ? { first: 0, count, block, blocks } : { first: first * count, count, blocks };
}

/** Whether each block of a dynamic `indexedLanes` is the one named (one compare per block). */
function blockIs(cx: Parameters<Rule>[0], block: Scalar, blocks: number): Scalar[] {
  return Array.from({ length: blocks }, (_, b) => compareInt(cx, "eq", block, cx.const("i32", BigInt(b)), 32));
}

const extractRule: Rule = (cx, op) => {
  const v = cx.get(operandOf(op, 0));
  const vt = operandOf(op, 0).type;
  if (v.kind !== "vector" || vt.kind !== "vector") return cx.poison(op);
  const at = indexedLanes(cx, op, vt.shape);
  if (!at) return cx.poison(op);
  let lanes = v.lanes.slice(at.first, at.first + at.count);
  if (at.block) {
    const is = blockIs(cx, at.block, at.blocks);
    lanes = lanes.map((lane, j) => is.reduce((acc, cond, b) => (b === 0 ? acc : select(cx, cond, v.lanes[b * at.count + j]!, acc)), lane));
  }
  cx.set(resultOf(op), resultOf(op).type.kind === "vector" ? { kind: "vector", lanes, t: v.t } : lanes[0]!);
};

const insertRule: Rule = (cx, op) => {
  const x = cx.get(operandOf(op, 0));
  const v = cx.get(operandOf(op, 1));
  const vt = operandOf(op, 1).type;
  if (v.kind !== "vector" || vt.kind !== "vector" || (x.kind !== "scalar" && x.kind !== "vector")) return cx.poison(op);
  const at = indexedLanes(cx, op, vt.shape);
  if (!at) return cx.poison(op);
  const lanes = [...v.lanes];
  const parts = x.kind === "vector" ? x.lanes : [x];
  if (at.block) {
    const is = blockIs(cx, at.block, at.blocks);
    is.forEach((cond, b) => parts.forEach((l, j) => (lanes[b * at.count + j] = select(cx, cond, l, lanes[b * at.count + j]!))));
  } else parts.forEach((l, i) => (lanes[at.first + i] = l));
  cx.set(resultOf(op), { kind: "vector", lanes, t: v.t });
};

/** `vector.reduce<kind> %v, %init`: the in-order fold of the lanes through the scalar rule of `kind`. */
const vectorReduceRule: Rule = (cx, op) => {
  const v = cx.get(operandOf(op, 0));
  const init = cx.get(operandOf(op, 1));
  if (v.kind === "invalid" || init.kind === "invalid") return cx.poison(op);
  const kind = String(op.props.kind);
  const combine = INT_LANES[kind];
  let acc: Scalar | undefined = init as Scalar;
  if (v.kind === "vector" && combine) for (const lane of v.lanes) acc = acc && combine(cx, op, [acc, lane]);
  if (!acc || v.kind !== "vector" || !combine) {
    cx.unsupported(op, `'vector.reduce<${kind}>' on these operand types`, "not selected by the AMDGPU back end yet");
    return cx.poison(op);
  }
  cx.set(resultOf(op), acc);
};

const fromElementsRule: Rule = (cx, op) => {
  const lanes = op.operands.map((v) => cx.get(v));
  if (lanes.some((l) => l.kind !== "scalar")) return cx.poison(op);
  const scalars = lanes as Scalar[];
  cx.set(resultOf(op), { kind: "vector", lanes: scalars, t: cx.carrier(resultOf(op).type) ?? "i32" });
};

/** Lane i = base + i·step (wrapping), computed by the scalar rules (folded for constants). */
const iotaRule: Rule = (cx, op) => {
  const base = cx.get(operandOf(op, 0)), step = cx.get(operandOf(op, 1));
  const r = resultOf(op);
  const t = cx.carrier(r.type);
  if (base.kind !== "scalar" || step.kind !== "scalar" || r.type.kind !== "vector" || (t !== "i32" && t !== "i64")) return cx.poison(op);
  const n = r.type.shape.reduce((a, d) => a * d, 1);
  const lanes: Scalar[] = [];
  for (let i = 0; i < n; i++) {
    const k = cx.const(t, BigInt(i));
    lanes.push(t === "i32" ? int32(cx, "add", base, int32(cx, "mul", k, step)) : add64(cx, base, mul64(cx, k, step)));
  }
  cx.set(r, { kind: "vector", lanes, t });
};

/** Division: a shift by a positive power-of-two constant (rounding negative dividends toward zero), else `general`. */
function divide(signed: boolean): Lane {
  return (cx, op, [a, b]) => {
    const t = carrierOfOperand(cx, op);
    if (isNarrowInt(t)) return narrowDivide(cx, t, a!, b!, signed, "trunc", 0);
    if (b!.c === undefined || b!.c <= 0n || (b!.c & (b!.c - 1n)) !== 0n || (signed && t === "i32" && !(a!.max !== undefined && a!.max < 1n << 31n))) return general(cx, op, a!, b!, signed, "trunc", 0);
    const k = BigInt(b!.c.toString(2).length - 1);
    if (t === "i64" && signed && a!.max === undefined && a!.c === undefined) {
      // Round toward zero: add 2^k − 1 to negative dividends before the arithmetic shift.
      const sign = shr64(cx, a!, cx.const("i64", 63n), true);
      const bias = shr64(cx, sign, cx.const("i64", 64n - k), false);
      return shr64(cx, add64(cx, a!, bias), cx.const("i64", k), true);
    }
    if (t === "i64") return shr64(cx, a!, cx.const("i64", k), false);
    if (t === "i32") return int32(cx, "shru", a!, cx.const("i32", k));
    return undefined;
  };
}

/** `index.<op>` → its lane rule (dialects/lanewise.ts's names; `scale` multiplies; rotations and bit counts are the index-only rules below). */
const INDEX_NAMES: Record<string, string> = { ...INDEX_LANE_RULES, scale: "muli" };

/** What an op of the table's dialects gets when no rule or reason below names it (the registry-coverage test forbids it for device ops). */
export const UNREVIEWED = unsupported("not selected by the AMDGPU back end yet (docs/amdgpu.md lists what is)");

function dialect(prefix: string): Record<string, Rule | ReturnType<typeof unsupported>> {
  return Object.fromEntries(namesWithPrefix(prefix).map((n) => [n, UNREVIEWED]));
}

// Short reasons (the browser bundle's budget); docs/amdgpu.md "Not selected" explains each.

/** The device ops the back end refuses, each with its reason (docs/amdgpu.md lists them; test/amdgpu/selection.test.ts holds the list to the registry). None today. */
const NOT_SELECTED: Record<string, ReturnType<typeof unsupported>> = {};

export const AMDGPU_RULES: Partial<LoweringTable<Rule>> = {
  ...dialect("kernel."), ...dialect("index."), ...dialect("scalar."), ...dialect("scf."), ...dialect("buffer."), ...dialect("encoding."),
  ...dialect("view."), ...dialect("vector."), ...dialect("amdgpu."), ...dialect("spirv."),
  ...NEVER_LOWERED,
  ...NOT_SELECTED,
  "index.constant": constantRule,
  "scalar.constant": constantRule,
  "vector.constant": constantRule,
  "index.assume": passOperandsThrough,
  "scalar.assume": passOperandsThrough,
  ...Object.fromEntries(Object.entries(INT_LANES).map(([n, l]) => [`scalar.${n}`, lanewise(l)])),
  ...Object.fromEntries(Object.entries(INDEX_NAMES).flatMap(([n, l]) => (INT_LANES[l] ? [[`index.${n}`, lanewise(INT_LANES[l])]] : []))),
  ...Object.fromEntries(Object.entries(INT_LANES).filter(([n]) => !["madd", "cast", "ceildivsi", "ceildivui", "floordivsi"].includes(n)).map(([n, l]) => [`vector.${n}`, lanewise(l)])),
  "index.rotli": lanewise(indexOnly((cx, a, b) => rotate64(cx, a, b, true))),
  "index.rotri": lanewise(indexOnly((cx, a, b) => rotate64(cx, a, b, false))),
  "index.ctlzi": lanewise(indexOnly((cx, a) => zeroCount64(cx, a, true))),
  "index.cttzi": lanewise(indexOnly((cx, a) => zeroCount64(cx, a, false))),
  "index.ctpopi": lanewise(indexOnly((cx, a) => popcount64(cx, a))),
  "vector.dotf": dotfRule,
  "vector.splat": splatRule,
  "vector.from_elements": fromElementsRule,
  "vector.iota": iotaRule,
  "vector.extract": extractRule,
  "vector.insert": insertRule,
  "vector.reduce": vectorReduceRule,
  ...CONTROL_RULES,
  ...MEMORY_RULES,
  ...kernelRules((cx, op, a, b) => INT_LANES[String(op.props.kind)]?.(cx, op, [a, b])),
  "kernel.assert": assertRule,
} as Partial<LoweringTable<Rule>>;

