/**
 * Integer, boolean and float selection. Each helper picks the scalar unit when every
 * operand is uniform (an SGPR or a constant) and the vector unit otherwise, folds
 * constants, and keeps bounded 64-bit values narrow (32-bit arithmetic when the result's
 * proven bound fits). Operand legality is handled here: VOP2's second source is a VGPR,
 * and VOP3 reads at most one SGPR or literal on gfx9 (two on gfx11) and no literal on gfx9.
 */
import { imm, isLiteral } from "../isa/operands.js";
import { part, type MOperand, type VReg } from "../machine/program.js";
import { floatToBits } from "../../../dialects/scalar/semantics.js";
import { fitsU32, I64_SIGN, KernelLowering, type Carrier, type Scalar } from "./context.js";

/** 2²⁴ (the 24-bit multiplier's operand bound), once. */
const U24 = 1n << 24n;

type Cx = KernelLowering;

const uniform = (cx: Cx, ...xs: Scalar[]) => xs.every((x) => x.c !== undefined || (cx.isS(x) && !x.mask));

/** Number of SGPR (or literal) reads a VALU instruction may make. */
const busLimit = (cx: Cx) => (cx.family === "gfx9" ? 1 : 2);

function isScalarRead(o: MOperand): boolean {
  return (o.k === "vreg" && o.r.cls === "s") || o.k === "s" || (o.k === "imm" && isLiteral(o));
}

/** Legal VOP3 sources: literals out on gfx9, SGPR reads within the constant bus. */
export function vop3Sources(cx: Cx, ops: readonly MOperand[], extraReads = 0): MOperand[] {
  const out = ops.map((o) => cx.vop3(o));
  const limit = busLimit(cx);
  for (let i = out.length - 1; i >= 0 && distinctScalarReads(out) + extraReads > limit; i--) if (isScalarRead(out[i]!)) out[i] = cx.toVgpr(out[i]!);
  return out;
}

/** Whether two scalar reads name the same dword(s) or literal (one constant-bus read). */
function sameScalarRead(a: MOperand, b: MOperand): boolean {
  if (a.k === "vreg") return b.k === "vreg" && a.r.id === b.r.id && a.sub === b.sub;
  if (a.k === "s") return b.k === "s" && a.i === b.i && a.n === b.n;
  return a.k === "imm" && b.k === "imm" && a.v === b.v;
}

/** The constant-bus reads of a source list: its distinct SGPRs and literals. */
function distinctScalarReads(ops: readonly MOperand[]): number {
  let n = 0;
  for (let i = 0; i < ops.length; i++) {
    const o = ops[i]!;
    if (!isScalarRead(o)) continue;
    let seen = false;
    for (let j = 0; j < i && !seen; j++) seen = isScalarRead(ops[j]!) && sameScalarRead(ops[j]!, o);
    if (!seen) n++;
  }
  return n;
}

export function vop3(cx: Cx, mnemonic: string, dst: MOperand, ops: readonly MOperand[], extraReads = 0): void {
  cx.emit(mnemonic, [dst, ...vop3Sources(cx, ops, extraReads)]);
}

/** VOP2 `d = a op b`: b must be a VGPR (commutative ops swap, others move b). */
export function vop2(cx: Cx, mnemonic: string, dst: MOperand, a: MOperand, b: MOperand, commutative: boolean): void {
  const isV = (o: MOperand) => o.k === "vreg" && o.r.cls === "v";
  if (!isV(b) && isV(a) && commutative) [a, b] = [b, a];
  if (!isV(b)) b = cx.v32(b);
  cx.emit(mnemonic, [dst, a, b]);
}

const s32 = (cx: Cx, t: Carrier, reg: VReg, extra?: Partial<Scalar>): Scalar => cx.sval(t, reg, extra);

// ---- 32-bit integers ----------------------------------------------------------------------

type Int32Op = "add" | "sub" | "mul" | "and" | "or" | "xor" | "shl" | "shru" | "shrs" | "minu" | "maxu" | "mins" | "maxs";

const SALU32: Record<Int32Op, string> = {
  add: "s_add_u32", sub: "s_sub_u32", mul: "s_mul_i32", and: "s_and_b32", or: "s_or_b32", xor: "s_xor_b32", shl: "s_lshl_b32", shru: "s_lshr_b32",
  shrs: "s_ashr_i32", minu: "s_min_u32", maxu: "s_max_u32", mins: "s_min_i32", maxs: "s_max_i32",
};
/** VALU forms: [mnemonic, commutative, reversed (VOP2 `rev` takes the shift amount first)]. */
const VALU32: Record<Int32Op, [string, boolean, boolean]> = {
  add: ["v_add_u32", true, false], sub: ["v_sub_u32", false, false], mul: ["v_mul_lo_u32", true, false], and: ["v_and_b32", true, false],
  or: ["v_or_b32", true, false], xor: ["v_xor_b32", true, false], shl: ["v_lshlrev_b32", false, true], shru: ["v_lshrrev_b32", false, true],
  shrs: ["v_ashrrev_i32", false, true], minu: ["v_min_u32", true, false], maxu: ["v_max_u32", true, false], mins: ["v_min_i32", true, false], maxs: ["v_max_i32", true, false],
};

function fold32(op: Int32Op, a: bigint, b: bigint): bigint {
  const sa = BigInt.asIntN(32, a), sb = BigInt.asIntN(32, b);
  switch (op) {
    case "add": return a + b;
    case "sub": return a - b;
    case "mul": return a * b;
    case "and": return a & b;
    case "or": return a | b;
    case "xor": return a ^ b;
    case "shl": return a << (b & 31n);
    case "shru": return BigInt.asUintN(32, a) >> (b & 31n);
    case "shrs": return sa >> (b & 31n);
    case "minu": return a < b ? a : b;
    case "maxu": return a > b ? a : b;
    case "mins": return sa < sb ? sa : sb;
    case "maxs": return sa > sb ? sa : sb;
  }
}

/**
 * VGPR i32 values known to be k·x (mod 2³²) for a register x: sums of multiples of one value
 * (an unrolled `acc += x`) become one shift-add of x, and the partial sums no one else reads
 * go (dce.ts), as LLVM's instcombine folds `x·c + x` into `x·(c + 1)`. The facts are the
 * kernel's (KernelLowering.multiples, by result register); k is a u32 number.
 */
function multipleOf(cx: Cx, s: Scalar): { readonly x: Scalar; readonly k: number } {
  return (s.reg && !s.mutable && cx.multiples.get(s.reg)) || { x: s, k: 1 };
}

/** log2(c) when the u32 `c` is a power of two above 1, else -1. */
function shiftOfPower(c: number): number {
  return c > 1 && (c & (c - 1)) === 0 ? 31 - Math.clz32(c) : -1;
}

/** a + b as k·x in one full-rate instruction when both are multiples of x and k is 2ⁿ or 2ⁿ + 1. */
function addMultiples(cx: Cx, a: Scalar, b: Scalar): Scalar | undefined {
  const ma = multipleOf(cx, a), mb = multipleOf(cx, b);
  const x = ma.x;
  if (x.reg !== mb.x.reg || x.mutable || x.reg?.cls !== "v" || x.reg.n !== 1 || x.t !== "i32") return undefined;
  const k = (ma.k + mb.k) >>> 0;
  const d = cx.vreg("v", 1);
  const power = shiftOfPower(k), powerPlusOne = shiftOfPower((k - 1) >>> 0);
  if (power >= 1) vop2(cx, "v_lshlrev_b32", part(d), imm(power), cx.lo(x), false);
  else if (k !== 0 && powerPlusOne >= 1) vop3(cx, "v_lshl_add_u32", part(d), [cx.lo(x), imm(powerPlusOne), cx.lo(x)]);
  else vop2(cx, "v_add_u32", part(d), cx.lo(a), cx.lo(b), true);
  cx.multiples.set(d, { x, k });
  return s32(cx, "i32", d);
}

/**
 * VGPR dwords known to be x << k (k a constant): a shift of a shift is one shift, and a sum
 * with a shift is one `v_lshl_add_u32` (LDS addresses `row·256 + slot·4·4`); the inner shift
 * goes when nothing else reads it.
 */
function shiftOf(cx: Cx, s: Scalar): { readonly x: Scalar; readonly k: number } | undefined {
  const known = s.reg && !s.mutable ? cx.shifts.get(s.reg) : undefined;
  return known && !known.x.mutable ? known : undefined;
}

/** A VALU shift or shift-add folded through KernelLowering.shifts, or undefined. */
function foldShift(cx: Cx, op: Int32Op, a: Scalar, b: Scalar): VReg | undefined {
  if (op === "shl" && b.c !== undefined) {
    const inner = shiftOf(cx, a);
    const k = (inner?.k ?? 0) + Number(BigInt.asUintN(32, b.c));
    if (k > 31) return undefined;
    const x = inner?.x ?? a;
    const d = cx.vreg("v", 1);
    vop2(cx, "v_lshlrev_b32", part(d), imm(k), cx.lo(x), false);
    if (x.reg?.cls === "v") cx.shifts.set(d, { x, k });
    return d;
  }
  if (op === "add") {
    const sa = shiftOf(cx, a), sb = sa ? undefined : shiftOf(cx, b);
    const shifted = sa ?? sb;
    if (!shifted) return undefined;
    const other = sa ? b : a;
    // gfx9's VOP3 takes no literal: the add's VOP2 form keeps it without a move.
    const o = cx.lo(other);
    if (cx.family === "gfx9" && o.k === "imm" && isLiteral(o)) return undefined;
    const d = cx.vreg("v", 1);
    vop3(cx, "v_lshl_add_u32", part(d), [cx.lo(shifted.x), imm(shifted.k), cx.lo(other)]);
    return d;
  }
  return undefined;
}

/** A 32-bit operation on dwords `a`, `b` (operands are 32-bit sources). */
export function int32(cx: Cx, op: Int32Op, a: Scalar, b: Scalar, t: Carrier = "i32", max?: bigint): Scalar {
  if (a.c !== undefined && b.c !== undefined) return cx.const(t === "i64" ? "i32" : t, fold32(op, BigInt.asUintN(32, a.c), BigInt.asUintN(32, b.c)));
  if (op === "add" && t === "i32" && max === undefined && a.t === "i32" && b.t === "i32") {
    const sum = addMultiples(cx, a, b);
    if (sum) return sum;
  }
  const extra: Partial<Scalar> | undefined = max !== undefined ? { max } : undefined;
  if (uniform(cx, a, b)) {
    const d = cx.vreg("s", 1);
    cx.emit(SALU32[op], [part(d), cx.lo(a), cx.lo(b)]);
    return s32(cx, t, d, extra);
  }
  const folded = foldShift(cx, op, a, b);
  if (folded) return s32(cx, t, folded, extra);
  const d = cx.vreg("v", 1);
  const [mnemonic, commutative, reversed] = VALU32[op];
  if (mnemonic === "v_mul_lo_u32") {
    const small = a.max !== undefined && b.max !== undefined && a.max < U24 && b.max < U24;
    if (small) vop2(cx, "v_mul_u32_u24", part(d), cx.lo(a), cx.lo(b), true);
    else vop3(cx, mnemonic, part(d), [cx.lo(a), cx.lo(b)]);
  } else if (reversed) vop2(cx, mnemonic, part(d), cx.lo(b), cx.lo(a), false);
  else vop2(cx, mnemonic, part(d), cx.lo(a), cx.lo(b), commutative);
  return s32(cx, t, d, extra);
}

// ---- 64-bit integers ----------------------------------------------------------------------

const narrowOf = (cx: Cx, x: Scalar, max: bigint | undefined): Scalar => ({ ...x, t: "i64", narrow: true, ...(max !== undefined ? { max } : {}) });

const wrap64 = (c: bigint) => BigInt.asUintN(64, c);

function pairResult(cx: Cx, reg: VReg, max?: bigint): Scalar {
  return cx.sval("i64", reg, max !== undefined ? { max } : undefined);
}

export function add64(cx: Cx, a: Scalar, b: Scalar): Scalar {
  return cx.memo("add64", [a, b], () => {
    const sum = add64Uncached(cx, a, b);
    // x + c, remembered as such so that an access at it can use x's address and put c in the offset field.
    const [x, c] = a.c !== undefined ? [b, a.c] : [a, b.c];
    if (c !== undefined && x.c === undefined && sum.reg && sum.reg !== x.reg) {
      const inner = cx.offsets.get(x.reg!);
      cx.offsets.set(sum.reg, inner ? { v: inner.v, k: BigInt.asIntN(64, inner.k + BigInt.asIntN(64, c)) } : { v: x, k: BigInt.asIntN(64, c) });
    }
    return sum;
  });
}

/**
 * `x` as a register part and a signed constant (`k` = 0 when none is known), from the
 * 64-bit sums add64 recorded (KernelLowering.offsets). A register control flow rewrites (a
 * loop's induction variable) may be the register part: it changes only where the sum's
 * region ends (the back edge), after every access in it.
 */
export function constantOffset(x: Scalar, cx: Cx): { v?: Scalar; k: bigint } {
  if (x.c !== undefined) return { k: BigInt.asIntN(64, x.c) };
  return (x.reg && cx.offsets.get(x.reg)) || { v: x, k: 0n };
}

function add64Uncached(cx: Cx, a: Scalar, b: Scalar): Scalar {
  if (a.c !== undefined && b.c !== undefined) return cx.const("i64", wrap64(a.c + b.c));
  if (a.c === 0n) return b;
  if (b.c === 0n) return a;
  const max = KernelLowering.addMax(a.max, b.max);
  if (cx.hiZero(a) && cx.hiZero(b) && fitsU32(max)) return narrowOf(cx, int32(cx, "add", a, b, "i64"), max);
  const keep = max !== undefined && max < I64_SIGN ? max : undefined;
  // A 32-bit value plus a 64-bit pair: x · 1 + y in one `v_mad_u64_u32` (no zero high dword to build).
  const [x, y] = cx.hiZero(a) ? [a, b] : [b, a];
  if (!uniform(cx, a, b) && cx.hiZero(x) && x.c === undefined && !cx.hiZero(y) && y.reg?.n === 2) {
    const d = cx.vreg("v", 2);
    madU64(cx, d, cx.lo(x), imm(1), part(y.reg));
    return pairResult(cx, d, keep);
  }
  return carryChain(cx, "add", a, b, keep);
}

export function sub64(cx: Cx, a: Scalar, b: Scalar): Scalar {
  return cx.memo("sub64", [a, b], () => sub64Uncached(cx, a, b));
}

function sub64Uncached(cx: Cx, a: Scalar, b: Scalar): Scalar {
  if (a.c !== undefined && b.c !== undefined) return cx.const("i64", wrap64(a.c - b.c));
  if (b.c === 0n) return a;
  return carryChain(cx, "sub", a, b, undefined);
}

function carryChain(cx: Cx, kind: "add" | "sub", a: Scalar, b: Scalar, max: bigint | undefined): Scalar {
  if (uniform(cx, a, b)) {
    const d = cx.vreg("s", 2);
    cx.emit(kind === "add" ? "s_add_u32" : "s_sub_u32", [part(d, 0, 1), cx.lo(a), cx.lo(b)]);
    cx.emit(kind === "add" ? "s_addc_u32" : "s_subb_u32", [part(d, 1, 1), cx.hi(a), cx.hi(b)]);
    return pairResult(cx, d, max);
  }
  if (kind === "add" && cx.hasLshlAdd64) return lshlAdd64(cx, a, 0, b, max);
  // VOP2 carry forms: src0 any, src1 a VGPR; a − b keeps its order, so b becomes the VGPR.
  let [p, q] = [a, b];
  if (kind === "add" && !cx.isV(b)) [p, q] = [b, a];
  const d = cx.vreg("v", 2);
  const vcc = cx.vcc;
  const qlo = cx.v32(cx.lo(q)), qhi = cx.v32(cx.hi(q));
  const lo = kind === "add" ? "v_add_co_u32" : "v_sub_co_u32";
  if (cx.family === "gfx9") cx.emit(lo, [part(d, 0, 1), vcc, cx.lo(p), qlo]);
  else cx.emit(`${lo}_e64`, [part(d, 0, 1), vcc, ...vop3Sources(cx, [cx.lo(p), qlo])]);
  // gfx9's constant bus is spent on VCC: the high source moves to a VGPR unless inline.
  let phi = cx.hi(p);
  if (cx.family === "gfx9" && isScalarRead(phi)) phi = cx.v32(phi);
  cx.emit(kind === "add" ? "v_addc_co_u32" : "v_subb_co_u32", [part(d, 1, 1), vcc, phi, qhi, vcc]);
  return pairResult(cx, d, max);
}

/** (a << k) + b in one `v_lshl_add_u64` (gfx940+); at most one SGPR pair, no literal. */
export function lshlAdd64(cx: Cx, a: Scalar, k: number, b: Scalar, max?: bigint): Scalar {
  const d = cx.vreg("v", 2);
  const pa = cx.isV(a) || a.c !== undefined && !cx.inline64(a.c) ? part(cx.vpair(a)) : cx.src64(a);
  let pb = b.c !== undefined && !cx.inline64(b.c) ? part(cx.vpair(b)) : cx.src64(b);
  if (isScalarRead(pa) && isScalarRead(pb)) pb = part(cx.vpair(b));
  cx.emit("v_lshl_add_u64", [part(d), pa, imm(k), pb]);
  return pairResult(cx, d, max);
}

function log2(c: bigint): number | undefined {
  if (c <= 0n || (c & (c - 1n)) !== 0n) return undefined;
  return c.toString(2).length - 1;
}

export function shl64(cx: Cx, x: Scalar, k: number): Scalar {
  return cx.memo("shl64", [x, k], () => shl64Uncached(cx, x, k));
}

function shl64Uncached(cx: Cx, x: Scalar, k: number): Scalar {
  if (k === 0) return x;
  if (x.c !== undefined) return cx.const("i64", wrap64(x.c << BigInt(k)));
  const max = x.max !== undefined ? x.max << BigInt(k) : undefined;
  if (cx.hiZero(x) && fitsU32(max)) return narrowOf(cx, int32(cx, "shl", x, cx.const("i32", BigInt(k)), "i64"), max);
  if (uniform(cx, x)) {
    const d = cx.vreg("s", 2);
    cx.emit("s_lshl_b64", [part(d), part(cx.spair(x)), imm(k)]);
    return pairResult(cx, d, max !== undefined && max < I64_SIGN ? max : undefined);
  }
  const d = cx.vreg("v", 2);
  cx.emit("v_lshlrev_b64", [part(d), imm(k), part(cx.vpair(x))]);
  return pairResult(cx, d, max !== undefined && max < I64_SIGN ? max : undefined);
}

/** x >> amount (logical or arithmetic); `amount` is an i64 whose low dword is used. */
export function shr64(cx: Cx, x: Scalar, amount: Scalar, arithmetic: boolean): Scalar {
  if (x.c !== undefined && amount.c !== undefined) {
    const k = amount.c & 63n;
    return cx.const("i64", wrap64(arithmetic ? BigInt.asIntN(64, x.c) >> k : x.c >> k));
  }
  if (amount.c === 0n) return x;
  const nonneg = x.max !== undefined;
  if (cx.hiZero(x) && (nonneg || !arithmetic)) {
    // Narrow and non-negative: a 32-bit logical shift (amounts ≥ 32 give 0 only below 64: mask).
    if (amount.c !== undefined && amount.c >= 32n) return cx.const("i64", 0n);
    if (amount.c !== undefined || (amount.max !== undefined && amount.max < 32n)) return narrowOf(cx, int32(cx, "shru", x, amount, "i64"), x.max);
  }
  if (uniform(cx, x, amount)) {
    const d = cx.vreg("s", 2);
    cx.emit(arithmetic ? "s_ashr_i64" : "s_lshr_b64", [part(d), part(cx.spair(x)), cx.lo(amount)]);
    return pairResult(cx, d, x.max);
  }
  const d = cx.vreg("v", 2);
  vop3(cx, arithmetic ? "v_ashrrev_i64" : "v_lshrrev_b64", part(d), [cx.lo(amount), part(cx.vpair(x))]);
  return pairResult(cx, d, x.max);
}

export function mul64(cx: Cx, a: Scalar, b: Scalar): Scalar {
  return cx.memo("mul64", [a, b], () => mul64Uncached(cx, a, b));
}

function mul64Uncached(cx: Cx, a: Scalar, b: Scalar): Scalar {
  if (a.c !== undefined && b.c !== undefined) return cx.const("i64", wrap64(a.c * b.c));
  if (a.c !== undefined) [a, b] = [b, a];
  if (b.c === 0n) return cx.const("i64", 0n);
  if (b.c === 1n) return a;
  const k = b.c !== undefined ? log2(b.c) : undefined;
  if (k !== undefined) return shl64(cx, a, k);
  const max = a.max !== undefined && b.max !== undefined ? a.max * b.max : undefined;
  if (cx.hiZero(a) && cx.hiZero(b) && fitsU32(max)) return narrowOf(cx, int32(cx, "mul", a, b, "i64"), max);
  const keep = max !== undefined && max < I64_SIGN ? max : undefined;
  if (uniform(cx, a, b)) {
    const d = cx.vreg("s", 2);
    cx.emit("s_mul_i32", [part(d, 0, 1), cx.lo(a), cx.lo(b)]);
    const hi = cx.vreg("s", 1);
    cx.emit("s_mul_hi_u32", [part(hi), cx.lo(a), cx.lo(b)]);
    let acc: MOperand = part(hi);
    for (const [x, y] of [[a, b], [b, a]] as const) {
      if (cx.hiZero(x)) continue;
      const t = cx.vreg("s", 1);
      cx.emit("s_mul_i32", [part(t), cx.hi(x), cx.lo(y)]);
      const s = cx.vreg("s", 1);
      cx.emit("s_add_u32", [part(s), acc, part(t)]);
      acc = part(s);
    }
    cx.emit("s_mov_b32", [part(d, 1, 1), acc]);
    return pairResult(cx, d, keep);
  }
  const d = cx.vreg("v", 2);
  madU64(cx, d, cx.lo(a), cx.lo(b), imm(0));
  const cross: MOperand[] = [];
  for (const [x, y] of [[a, b], [b, a]] as const) {
    if (cx.hiZero(x)) continue;
    const t = cx.vreg("v", 1);
    vop3(cx, "v_mul_lo_u32", part(t), [cx.hi(x), cx.lo(y)]);
    cross.push(part(t));
  }
  if (cross.length === 0) return pairResult(cx, d, keep);
  // The cross terms join the high dword in place (d is this product's own pair).
  if (cross.length === 1) vop2(cx, "v_add_u32", part(d, 1, 1), cross[0]!, part(d, 1, 1), true);
  else vop3(cx, "v_add3_u32", part(d, 1, 1), [part(d, 1, 1), cross[0]!, cross[1]!]);
  return pairResult(cx, d, keep);
}

/** d[0:1] = a · b + c (u32 × u32 + u64). */
export function madU64(cx: Cx, d: VReg, a: MOperand, b: MOperand, c: MOperand): void {
  const carry = cx.family === "gfx9" ? cx.vcc : { k: "special" as const, name: "null" as const, n: 1 };
  cx.emit("v_mad_u64_u32", [part(d), carry, ...vop3Sources(cx, [a, b, c])]);
}

export function madd64(cx: Cx, a: Scalar, b: Scalar, c: Scalar): Scalar {
  return add64(cx, mul64(cx, a, b), c);
}

// ---- comparisons, selects, booleans -------------------------------------------------------

export type IntPredicate = "eq" | "ne" | "slt" | "sle" | "sgt" | "sge" | "ult" | "ule" | "ugt" | "uge";

const CMP_SUFFIX: Record<IntPredicate, [string, boolean]> = {
  eq: ["eq", false], ne: ["lg", false], slt: ["lt", true], sle: ["le", true], sgt: ["gt", true], sge: ["ge", true],
  ult: ["lt", false], ule: ["le", false], ugt: ["gt", false], uge: ["ge", false],
};

function foldCmp(p: IntPredicate, a: bigint, b: bigint, bits: number): boolean {
  const sa = BigInt.asIntN(bits, a), sb = BigInt.asIntN(bits, b), ua = BigInt.asUintN(bits, a), ub = BigInt.asUintN(bits, b);
  switch (p) {
    case "eq": return ua === ub;
    case "ne": return ua !== ub;
    case "slt": return sa < sb;
    case "sle": return sa <= sb;
    case "sgt": return sa > sb;
    case "sge": return sa >= sb;
    case "ult": return ua < ub;
    case "ule": return ua <= ub;
    case "ugt": return ua > ub;
    case "uge": return ua >= ub;
  }
}

/**
 * A uniform boolean (SGPR 0/1) from SCC (`invert`: from its complement). A branch that
 * immediately tests it reads SCC instead (control.ts `branchUnless`).
 */
function fromScc(cx: Cx, invert = false): Scalar {
  const d = cx.vreg("s", 1);
  cx.emit("s_cselect_b32", [part(d), imm(invert ? 0 : 1), imm(invert ? 1 : 0)]);
  return cx.sval("i1", d, { max: 1n });
}

/** 64-bit a < b on the scalar unit: SCC = the borrow of a − b (sign bits flipped for signed). */
function scalarLess64(cx: Cx, a: Scalar, b: Scalar, signed: boolean): void {
  let ahi = cx.hi(a), bhi = cx.hi(b);
  if (signed) {
    const flip = (o: MOperand) => {
      if (o.k === "imm") return imm((o.v ^ 0x80000000) >>> 0);
      const t = cx.vreg("s", 1);
      cx.emit("s_xor_b32", [part(t), o, imm(0x80000000)]);
      return part(t);
    };
    ahi = flip(ahi);
    bhi = flip(bhi);
  }
  const lo = cx.vreg("s", 1), hi = cx.vreg("s", 1);
  cx.emit("s_sub_u32", [part(lo), cx.lo(a), cx.lo(b)]);
  cx.emit("s_subb_u32", [part(hi), ahi, bhi]);
}

/** A lane mask → uniform boolean (any active lane set; all active lanes agree). */
export function maskToBool(cx: Cx, m: Scalar): Scalar {
  cx.emit(cx.wave === 64 ? "s_cmp_lg_u64" : "s_cmp_lg_u32", [part(m.reg!), imm(0)]);
  return fromScc(cx);
}

/** An integer comparison; `bits` is 32 or 64. */
/**
 * Integer comparison. A varying one is memoized (an unrolled loop's bound checks repeat across
 * iterations): a lane mask made under a wider EXEC is right for every lane of a narrower one,
 * and nothing reads a mask's inactive lanes. A uniform one is not: its `s_cselect` may be taken
 * back for a branch on SCC (control.ts `branchUnless`), which a second reader would miss.
 */
export function compareInt(cx: Cx, p: IntPredicate, a: Scalar, b: Scalar, bits: 32 | 64): Scalar {
  if (a.c !== undefined && b.c !== undefined) return cx.const("i1", foldCmp(p, a.c, b.c, bits) ? 1n : 0n);
  if (uniform(cx, a, b)) return compareIntUncached(cx, p, a, b, bits);
  return cx.memo(bits === 32 ? `cmp32${p}` : `cmp64${p}`, [a, b], () => compareIntUncached(cx, p, a, b, bits));
}

function compareIntUncached(cx: Cx, p: IntPredicate, a: Scalar, b: Scalar, bits: 32 | 64): Scalar {
  let [suffix, signed] = CMP_SUFFIX[p];
  // Narrow 64-bit values are non-negative: signed and unsigned orders agree on them.
  const narrow = bits === 32 || (cx.hiZero(a) && cx.hiZero(b));
  if (bits === 64 && narrow) signed = false;
  const type = `${signed ? "i" : "u"}${narrow ? 32 : 64}`;
  if (uniform(cx, a, b) && !narrow && suffix !== "eq" && suffix !== "lg") {
    // lt: a < b; gt: b < a; ge: !(a < b); le: !(b < a).
    const swap = suffix === "gt" || suffix === "le";
    scalarLess64(cx, swap ? b : a, swap ? a : b, signed);
    return fromScc(cx, suffix === "ge" || suffix === "le");
  }
  if (uniform(cx, a, b) && (narrow || suffix === "eq" || suffix === "lg")) {
    if (narrow) cx.emit(`s_cmp_${suffix}_${signed ? "i" : "u"}32`, [cx.lo(a), cx.lo(b)]);
    else cx.emit(`s_cmp_${suffix}_u64`, [cx.src64(a), cx.src64(b)]);
    return fromScc(cx);
  }
  const m = cx.vreg("s", cx.maskDwords);
  const srcs = narrow ? [cx.lo(a), cx.lo(b)] : [cx.src64(a), cx.src64(b)];
  vop3(cx, `v_cmp_${suffix === "lg" ? "ne" : suffix}_${type}`, part(m), srcs);
  const mask = cx.sval("i1", m, { mask: true });
  return uniform(cx, a, b) ? maskToBool(cx, mask) : mask;
}

export const FLOAT_PREDICATES: Readonly<Record<string, string>> = {
  oeq: "eq", one: "lg", olt: "lt", ole: "le", ogt: "gt", oge: "ge", ord: "o",
  ueq: "nlg", une: "neq", ult: "nge", ule: "ngt", ugt: "nle", uge: "nlt", uno: "u",
};

export function compareFloat(cx: Cx, pred: string, a: Scalar, b: Scalar): Scalar | undefined {
  const suffix = FLOAT_PREDICATES[pred];
  if (!suffix) return undefined;
  const m = cx.vreg("s", cx.maskDwords);
  vop3(cx, `v_cmp_${suffix}_f32`, part(m), [cx.lo(a), cx.lo(b)]);
  const mask = cx.sval("i1", m, { mask: true });
  return uniform(cx, a, b) ? maskToBool(cx, mask) : mask;
}

/** An i1 as a lane mask. */
export function asMask(cx: Cx, x: Scalar): MOperand {
  if (x.mask) return part(x.reg!);
  if (x.c !== undefined) return imm(x.c !== 0n ? -1 : 0);
  const m = cx.vreg("s", cx.maskDwords);
  cx.emit("s_cmp_lg_u32", [cx.lo(x), imm(0)]);
  cx.emit(cx.wave === 64 ? "s_cselect_b64" : "s_cselect_b32", [part(m), imm(-1), imm(0)]);
  return part(m);
}

export function boolOp(cx: Cx, op: "and" | "or" | "xor", a: Scalar, b: Scalar): Scalar {
  if (a.c !== undefined && b.c !== undefined) return cx.const("i1", fold32(op, a.c, b.c) & 1n);
  if (!a.mask && !b.mask) return { ...int32(cx, op, a, b, "i1"), max: 1n };
  const m = cx.vreg("s", cx.maskDwords);
  cx.emit(cx.maskOp(`s_${op}`), [part(m), asMask(cx, a), asMask(cx, b)]);
  return cx.sval("i1", m, { mask: true });
}

/** `c ? a : b` for one dword. */
function select32(cx: Cx, c: Scalar, a: MOperand, b: MOperand, inVector: boolean): MOperand {
  if (!c.mask && !inVector) {
    const d = cx.vreg("s", 1);
    cx.emit("s_cmp_lg_u32", [cx.lo(c), imm(0)]);
    cx.emit("s_cselect_b32", [part(d), a, b]);
    return part(d);
  }
  const d = cx.vreg("v", 1);
  const mask = asMask(cx, c);
  // v_cndmask_b32 d, false-value, true-value, mask (the mask is one SGPR read).
  cx.emit("v_cndmask_b32_e64", [part(d), ...vop3Sources(cx, [b, a], 1), mask]);
  return part(d);
}

export function select(cx: Cx, c: Scalar, a: Scalar, b: Scalar): Scalar {
  if (c.c !== undefined) return c.c !== 0n ? a : b;
  const t = a.t;
  const vector = c.mask === true || !uniform(cx, a, b);
  if (t === "i1") {
    if (!vector && !a.mask && !b.mask) return { ...cx.sval("i1", (select32(cx, c, cx.lo(a), cx.lo(b), false) as { r: VReg }).r), max: 1n };
    const am = asMask(cx, a), bm = asMask(cx, b), cm = asMask(cx, c);
    const t1 = cx.vreg("s", cx.maskDwords), t2 = cx.vreg("s", cx.maskDwords), m = cx.vreg("s", cx.maskDwords);
    cx.emit(cx.maskOp("s_and"), [part(t1), cm, am]);
    cx.emit(cx.maskOp("s_andn2"), [part(t2), bm, cm]);
    cx.emit(cx.maskOp("s_or"), [part(m), part(t1), part(t2)]);
    return cx.sval("i1", m, { mask: true });
  }
  const max = a.max !== undefined && b.max !== undefined ? (a.max > b.max ? a.max : b.max) : undefined;
  const extra = max !== undefined ? { max } : {};
  if (t === "i64" || t === "f64") {
    if (t === "i64" && cx.hiZero(a) && cx.hiZero(b)) return { ...cx.sval("i64", (select32(cx, c, cx.lo(a), cx.lo(b), vector) as { r: VReg }).r, extra), narrow: true };
    const lo = select32(cx, c, cx.lo(a), cx.lo(b), vector) as { r: VReg };
    const hi = select32(cx, c, cx.hi(a), cx.hi(b), vector) as { r: VReg };
    const d = cx.vreg(lo.r.cls, 2);
    cx.emit(lo.r.cls === "s" ? "s_mov_b32" : "v_mov_b32", [part(d, 0, 1), part(lo.r)]);
    cx.emit(lo.r.cls === "s" ? "s_mov_b32" : "v_mov_b32", [part(d, 1, 1), part(hi.r)]);
    return cx.sval(t, d, t === "i64" ? extra : {});
  }
  return cx.sval(t, (select32(cx, c, cx.lo(a), cx.lo(b), vector || t === "f32") as { r: VReg }).r, extra);
}

/** min/max of 64-bit values through compare + select; 32-bit directly. */
export function minmax64(cx: Cx, which: "min" | "max", signed: boolean, a: Scalar, b: Scalar): Scalar {
  if (cx.hiZero(a) && cx.hiZero(b)) {
    const max = a.max !== undefined && b.max !== undefined ? (which === "min" ? (a.max < b.max ? a.max : b.max) : a.max > b.max ? a.max : b.max) : undefined;
    return narrowOf(cx, int32(cx, which === "min" ? "minu" : "maxu", a, b, "i64"), max);
  }
  const p: IntPredicate = which === "min" ? (signed ? "slt" : "ult") : signed ? "sgt" : "ugt";
  const c = compareInt(cx, p, a, b, 64);
  return select(cx, c, a, b);
}

// ---- floats -------------------------------------------------------------------------------

export function vfloat(cx: Cx, mnemonic: string, a: Scalar, b: Scalar, commutative: boolean): Scalar {
  const d = cx.vreg("v", 1);
  vop2(cx, mnemonic, part(d), cx.lo(a), cx.lo(b), commutative);
  return cx.sval("f32", d);
}

export function vunary(cx: Cx, mnemonic: string, a: Scalar, t: Carrier = "f32"): Scalar {
  const d = cx.vreg("v", 1);
  cx.emit(mnemonic, [part(d), cx.lo(a)]);
  if (TRANSCENDENTAL.has(mnemonic)) transHazard(cx);
  return cx.sval(t, d);
}

const TRANSCENDENTAL = new Set(["v_exp_f32", "v_log_f32", "v_rcp_f32", "v_sqrt_f32", "v_rsq_f32", "v_sin_f32", "v_cos_f32"]);

/**
 * A transcendental's result read by the next VALU instruction: gfx940 needs one wait
 * state (LLVM's TransForwardingHazard), gfx11 a `s_waitcnt_depctr` on va_vdst
 * (VALUTransUseHazard). Always inserting them is conservative and cheap.
 */
export function transHazard(cx: Cx): void {
  if (cx.family === "gfx9") cx.program.emit({ mnemonic: "s_nop", operands: [], simm: 0 });
  else cx.program.emit({ mnemonic: "s_waitcnt_depctr", operands: [], simm: 0x0fff });
}

export function fma(cx: Cx, a: Scalar, b: Scalar, c: Scalar): Scalar {
  const d = cx.vreg("v", 1);
  vop3(cx, "v_fma_f32", part(d), [cx.lo(a), cx.lo(b), cx.lo(c)]);
  return cx.sval("f32", d);
}

export const floatBits = (value: number): bigint => floatToBits(value, "f32");

/** IEEE minimum/maximum: NaN if either operand is NaN (v_min/v_max return the other). */
export function nanPropagating(cx: Cx, r: Scalar, a: Scalar, b: Scalar): Scalar {
  const unordered = compareFloat(cx, "uno", a, b)!;
  return select(cx, unordered, cx.const("f32", 0x7fc00000n), r);
}


// ---- integer division ---------------------------------------------------------------------

/** The high dword of the u32 × u32 product. */
function mulHi32(cx: Cx, a: Scalar, b: Scalar): Scalar {
  if (a.c !== undefined && b.c !== undefined) return cx.const("i32", (BigInt.asUintN(32, a.c) * BigInt.asUintN(32, b.c)) >> 32n);
  const d = cx.vreg(uniform(cx, a, b) ? "s" : "v", 1);
  if (d.cls === "s") cx.emit("s_mul_hi_u32", [part(d), cx.lo(a), cx.lo(b)]);
  else vop3(cx, "v_mul_hi_u32", part(d), [cx.lo(a), cx.lo(b)]);
  return s32(cx, "i32", d);
}

/** `c ? x + k : x` on i32 (the quotient corrections). */
const bump = (cx: Cx, c: Scalar, x: Scalar, k: bigint) => select(cx, c, int32(cx, "add", x, cx.const("i32", k)), x);

/**
 * x / y and x % y on u32 (y ≠ 0), as LLVM's AMDGPUCodeGenPrepare expands them: z ≈ 2³²/y
 * (the float reciprocal scaled by 2³² − 512, one Newton–Raphson step), q = mulhi(x, z)
 * underestimates by at most 2, and two corrections (r ≥ y: q + 1, r − y) finish. A constant
 * divisor takes z = ⌊(2³² − 1)/y⌋ (also at most 2 short).
 */
function divRem32(cx: Cx, x: Scalar, y: Scalar): [Scalar, Scalar] {
  let z: Scalar;
  if (y.c !== undefined) z = cx.const("i32", 0xffffffffn / (BigInt.asUintN(32, y.c) || 1n));
  else {
    const scaled = vfloat(cx, "v_mul_f32", cx.const("f32", 0x4f7ffffen), vunary(cx, "v_rcp_f32", vunary(cx, "v_cvt_f32_u32", y)), true);
    const z0 = vunary(cx, "v_cvt_u32_f32", scaled, "i32");
    z = int32(cx, "add", z0, mulHi32(cx, z0, int32(cx, "mul", int32(cx, "sub", cx.const("i32", 0n), y), z0)));
  }
  let q = mulHi32(cx, x, z);
  let r = int32(cx, "sub", x, int32(cx, "mul", q, y));
  for (let i = 0; i < 2; i++) {
    const over = compareInt(cx, "uge", r, y, 32);
    q = bump(cx, over, q, 1n);
    r = select(cx, over, int32(cx, "sub", r, y), r);
  }
  return [q, r];
}

/** The sign (0 or −1) of an i32 and its magnitude ((x + s) ^ s); a proven non-negative value is itself. */
function signAndMagnitude(cx: Cx, x: Scalar): [Scalar, Scalar] {
  if (x.max !== undefined && x.max < 1n << 31n) return [cx.const("i32", 0n), x];
  const s = int32(cx, "shrs", x, cx.const("i32", 31n));
  return [s, int32(cx, "xor", int32(cx, "add", x, s), s)];
}

/** (v ^ s) − s: v negated where s = −1. */
const applySign = (cx: Cx, v: Scalar, s: Scalar) => (s.c === 0n ? v : int32(cx, "sub", int32(cx, "xor", v, s), s));

/**
 * Division and remainder on i32 with the rounding of `kind` (trunc: divsi/remsi; ceil and
 * floor: the adjustments of ceildivsi/floordivsi/ceildivui); signed through magnitudes.
 */
export function divide32(cx: Cx, x: Scalar, y: Scalar, signed: boolean, kind: "trunc" | "ceil" | "floor"): [Scalar, Scalar] {
  if (!signed) {
    const [q, r] = divRem32(cx, x, y);
    return [kind === "ceil" ? bump(cx, compareInt(cx, "ne", r, cx.const("i32", 0n), 32), q, 1n) : q, r];
  }
  const [sx, ax] = signAndMagnitude(cx, x), [sy, ay] = signAndMagnitude(cx, y);
  const [uq, ur] = divRem32(cx, ax, ay);
  const q = applySign(cx, uq, int32(cx, "xor", sx, sy)), r = applySign(cx, ur, sx);
  if (kind === "trunc") return [q, r];
  // Inexact quotients move up (ceil) when r and y share a sign, down (floor) when they differ.
  const inexact = compareInt(cx, "ne", r, cx.const("i32", 0n), 32);
  const sameSign = compareInt(cx, kind === "ceil" ? "sge" : "slt", int32(cx, "xor", r, y), cx.const("i32", 0n), 32);
  return [bump(cx, boolOp(cx, "and", inexact, sameSign), q, kind === "ceil" ? 1n : -1n), r];
}

// ---- 64-bit bit counts and rotates (index) ------------------------------------------------

const narrowCount = (cx: Cx, x: Scalar): Scalar => ({ ...x, t: "i64", narrow: true, max: 64n });

/** Population count: `s_bcnt1_i32_b64` on uniform values, two `v_bcnt_u32_b32` (the second adds the first). */
export function popcount64(cx: Cx, x: Scalar): Scalar {
  if (uniform(cx, x)) {
    const d = cx.vreg("s", 1);
    cx.emit("s_bcnt1_i32_b64", [part(d), cx.src64(x)]);
    return narrowCount(cx, s32(cx, "i32", d));
  }
  const low = cx.vreg("v", 1), d = cx.vreg("v", 1);
  vop3(cx, "v_bcnt_u32_b32", part(low), [cx.lo(x), imm(0)]);
  vop3(cx, "v_bcnt_u32_b32", part(d), [cx.hi(x), part(low)]);
  return narrowCount(cx, s32(cx, "i32", d));
}

/**
 * Leading (`v_ffbh_u32`) or trailing (`v_ffbl_b32`) zeros of 64 bits: the far half's count
 * (−1 = none found, the largest u32) against 32 + the near half's, capped at 64.
 */
export function zeroCount64(cx: Cx, x: Scalar, leading: boolean): Scalar {
  const find = leading ? "v_ffbh_u32" : "v_ffbl_b32";
  const [first, second] = leading ? [cx.hi(x), cx.lo(x)] : [cx.lo(x), cx.hi(x)];
  const count = (o: MOperand) => {
    const d = cx.vreg("v", 1);
    cx.emit(find, [part(d), o]);
    return s32(cx, "i32", d);
  };
  const near = count(first);
  const far = int32(cx, "add", int32(cx, "minu", count(second), cx.const("i32", 32n)), cx.const("i32", 32n));
  return narrowCount(cx, int32(cx, "minu", near, far));
}

/**
 * Rotate right of 64 bits by k in [0, 63] (left: by (64 − k) & 63): the halves swap when
 * k ≥ 32, then each result half is `v_alignbit_b32` of the pair by k & 31.
 */
export function rotate64(cx: Cx, x: Scalar, k: Scalar, left: boolean): Scalar {
  const amount = left ? int32(cx, "and", int32(cx, "sub", cx.const("i32", 0n), k), cx.const("i32", 63n)) : k;
  const swap = compareInt(cx, "ne", int32(cx, "and", amount, cx.const("i32", 32n)), cx.const("i32", 0n), 32);
  const lo = cx.sval("i32", cx.own32(cx.lo(x))), hi = cx.sval("i32", cx.own32(cx.hi(x)));
  const a = select(cx, swap, lo, hi), b = select(cx, swap, hi, lo);
  const d = cx.vreg("v", 2);
  vop3(cx, "v_alignbit_b32", part(d, 0, 1), [cx.lo(a), cx.lo(b), cx.lo(amount)]);
  vop3(cx, "v_alignbit_b32", part(d, 1, 1), [cx.lo(b), cx.lo(a), cx.lo(amount)]);
  return cx.sval("i64", d);
}

// ---- math sequences (docs/amdgpu.md "Math functions": coefficients fitted in f64 on
// Chebyshev nodes and rounded to f32; the bounds are measured by test/amdgpu/math-accuracy.test.ts)

const f32c = (cx: Cx, v: number) => cx.const("f32", floatBits(v));
const fmul = (cx: Cx, a: Scalar, b: Scalar) => vfloat(cx, "v_mul_f32", a, b, true);
const fabs = (cx: Cx, x: Scalar) => vfloat(cx, "v_and_b32", cx.const("i32", 0x7fffffffn), x, true);
const ordered = (cx: Cx, p: string, a: Scalar, b: Scalar) => compareFloat(cx, p, a, b)!;

/** x's magnitude bits with `sign`'s sign bit (`v_bfi_b32`). */
function withSign(cx: Cx, magnitude: Scalar, sign: Scalar): Scalar {
  const d = cx.vreg("v", 1);
  vop3(cx, "v_bfi_b32", part(d), [imm(0x7fffffff), cx.lo(magnitude), cx.lo(sign)]);
  return cx.sval("f32", d);
}

/** c[0] + s·(c[1] + s·(…)), one `v_fma_f32` per coefficient (the first in a VGPR: one literal per fma). */
function horner(cx: Cx, s: Scalar, c: readonly number[]): Scalar {
  let p = cx.sval("f32", cx.own32(cx.lo(f32c(cx, c[c.length - 1]!))));
  for (let k = c.length - 2; k >= 0; k--) p = fma(cx, p, s, f32c(cx, c[k]!));
  return p;
}

const exp2 = (cx: Cx, x: Scalar) => vunary(cx, "v_exp_f32", x);
const INF = 0x7f800000;

const TANH = [-0.3333333134651184, 0.13333211839199066, -0.053947463631629944, 0.021704038605093956, -0.008184744045138359, 0.002149052917957306];

/** tanh: |x| < 0.625: |x| + |x|³·P(x²); else 1 − 2/(2^(2|x|·log₂e) + 1); x's sign. */
export function tanhF32(cx: Cx, x: Scalar): Scalar {
  const ax = fabs(cx, x), s = fmul(cx, ax, ax);
  const small = fma(cx, fmul(cx, s, ax), horner(cx, s, TANH), ax);
  const e = exp2(cx, fmul(cx, vfloat(cx, "v_add_f32", ax, ax, true), f32c(cx, Math.LOG2E)));
  const large = fma(cx, vunary(cx, "v_rcp_f32", vfloat(cx, "v_add_f32", e, f32c(cx, 1), true)), f32c(cx, -2), f32c(cx, 1));
  return withSign(cx, select(cx, ordered(cx, "olt", ax, f32c(cx, 0.625)), small, large), x);
}

const ERF_SMALL = [0.12837916612625122, -0.3761262893676758, 0.11283612251281738, -0.026854807510972023, 0.0051900530233979225, -0.000802435155492276, 7.898201874922961e-05];
const ERF_LARGE = [0.0004571450117509812, -1.6305674314498901, -0.91154944896698, -0.15880371630191803, 0.03811754286289215, -0.006868272088468075, 0.0008617162238806486, -6.657485937466845e-05, 2.3705363219050923e-06];

/** erf: |x| < 1: |x| + |x|·P(x²); else 1 − 2^Q(min(|x|, 3.925)) (Q ≈ log₂ erfc); x's sign; NaN stays NaN. */
export function erfF32(cx: Cx, x: Scalar): Scalar {
  const ax = fabs(cx, x);
  const small = fma(cx, ax, horner(cx, fmul(cx, ax, ax), ERF_SMALL), ax);
  const large = vfloat(cx, "v_sub_f32", f32c(cx, 1), exp2(cx, horner(cx, vfloat(cx, "v_min_f32", f32c(cx, 3.925), ax, true), ERF_LARGE)), false);
  const r = withSign(cx, select(cx, ordered(cx, "olt", ax, f32c(cx, 1)), small, large), x);
  return select(cx, ordered(cx, "uno", x, x), x, r);
}

/**
 * pow as C defines it: 2^(y·log₂|x|), negated for odd integer y; NaN for finite x < 0 and
 * non-integer y; 1 for y = 0, x = 1 and x = −1 with y = ±∞.
 */
export function powF32(cx: Cx, x: Scalar, y: Scalar): Scalar {
  const ax = fabs(cx, x);
  const r = exp2(cx, fmul(cx, y, vunary(cx, "v_log_f32", ax)));
  const ty = vunary(cx, "v_trunc_f32", y), half = fmul(cx, y, f32c(cx, 0.5));
  const fractional = ordered(cx, "une", ty, y);
  const odd = boolOp(cx, "and", ordered(cx, "oeq", ty, y), ordered(cx, "une", vunary(cx, "v_trunc_f32", half), half));
  const negativeFinite = boolOp(cx, "and", ordered(cx, "olt", x, f32c(cx, 0)), ordered(cx, "ogt", x, cx.const("f32", BigInt(INF) | SIGN_BIT)));
  const one = boolOp(cx, "or", boolOp(cx, "or", ordered(cx, "oeq", y, f32c(cx, 0)), ordered(cx, "oeq", x, f32c(cx, 1))),
    boolOp(cx, "and", ordered(cx, "oeq", ax, f32c(cx, 1)), ordered(cx, "oeq", fabs(cx, y), cx.const("f32", BigInt(INF)))));
  const signed = select(cx, odd, withSign(cx, r, x), r);
  return select(cx, one, f32c(cx, 1), select(cx, boolOp(cx, "and", negativeFinite, fractional), cx.const("f32", 0x7fc00000n), signed));
}

const SIGN_BIT = 0x80000000n;

/**
 * fmod (C, exact while |a/b| < 2^22): q = trunc(|a|·rcp|b|) is within one of the true
 * quotient; r = fma(q, −|b|, |a|) decides the correction, and fma(q ± 1, −|b|, |a|) is exact.
 * |b| = ∞ gives |a|; a's sign (zeros included).
 */
export function remF32(cx: Cx, a: Scalar, b: Scalar): Scalar {
  const ax = fabs(cx, a), ay = fabs(cx, b);
  const negative = vfloat(cx, "v_or_b32", cx.const("i32", SIGN_BIT), b, true);
  const q = vunary(cx, "v_trunc_f32", fmul(cx, ax, vunary(cx, "v_rcp_f32", ay)));
  const r1 = fma(cx, q, negative, ax);
  const up = vfloat(cx, "v_add_f32", q, f32c(cx, 1), true), down = vfloat(cx, "v_add_f32", q, f32c(cx, -1), true);
  const qc = select(cx, ordered(cx, "oge", r1, ay), up, select(cx, ordered(cx, "olt", r1, f32c(cx, 0)), down, q));
  const r = fma(cx, qc, negative, ax);
  const infinite = boolOp(cx, "and", ordered(cx, "oeq", ay, cx.const("f32", BigInt(INF))), ordered(cx, "olt", ax, cx.const("f32", BigInt(INF))));
  return withSign(cx, select(cx, infinite, ax, r), a);
}
