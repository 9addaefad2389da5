/**
 * Vector ALU (VOP1, VOP2, VOPC, VOP3 / VOP3b, VOP3P, gfx11 VOPD, gfx9 SDWA): per-lane
 * semantics under EXEC. VGPR v of lane l is element v·W + l of the wave's register file, read
 * through u32 / i32 / f32 views of the same bytes. f32 results round to nearest even through the
 * Float32Array store; transcendental ops compute in double and round once (at least as accurate
 * as the hardware's ~1 ulp).
 */
import { LoomError } from "../../core/errors.js";
import type { Instruction } from "./decode.js";
import { scalarRead32, scalarRead64, sgprIndex, sourceRegisters, type Read32 } from "./operands.js";
import { mulHi, shift64 } from "./scalar.js";
import { EXEC_LO, NULL_CODE, NULL_SINK, VCC_LO, type Wave } from "./wave.js";
import type { CompileContext, Compiled } from "./compiled.js";
import { compileHalf, isHalfOp } from "./half.js";
import { compileF64, isF64Op } from "./f64.js";

type T = "u" | "i" | "f";
type LaneFn = (a: number, b: number, c: number, lane: number) => number;
interface Simple {
  readonly src: readonly T[];
  readonly dst: T;
  readonly fn: LaneFn;
}

const TWO32 = 4294967296;
const F = new Float32Array(1);
const U = new Uint32Array(F.buffer);
const bitsToF32 = (b: number): number => {
  U[0] = b;
  return F[0]!;
};
const fround = Math.fround;

/** f32 fused multiply-add: the double product of two f32 is exact, so one more rounding step remains (double rounding is possible but rare). */
const fma = (a: number, b: number, c: number): number => fround(a * b + c);
/** IEEE maxNum / minNum: a NaN operand yields the other; +0 is above -0. */
const maxNum = (a: number, b: number): number => (a !== a ? b : b !== b ? a : a > b ? a : b > a ? b : Object.is(a, -0) ? b : a);
const minNum = (a: number, b: number): number => (a !== a ? b : b !== b ? a : a < b ? a : b < a ? b : Object.is(a, -0) ? a : b);
const med3 = (a: number, b: number, c: number): number => Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
const popcount = (v: number): number => {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
};
const RCP_F = new Float32Array(1);
const RCP_U = new Uint32Array(RCP_F.buffer);
/**
 * The hardware's v_rcp_f32 / v_rcp_iflag_f32 are accurate to 1 ulp, not correctly rounded:
 * modelled as 1/a rounded toward zero (error < 1 ulp, below the exact value in magnitude), so
 * code that relies on a correctly rounded reciprocal (a division missing a correction step)
 * fails here as it would on a GPU.
 */
function rcpTowardZero(a: number): number {
  const exact = 1 / a;
  RCP_F[0] = exact;
  const r = RCP_F[0];
  if (!Number.isFinite(exact) || Math.abs(r) <= Math.abs(exact)) return r;
  RCP_U[0] = RCP_U[0]! - 1;
  return RCP_F[0];
}

const roundEven = (x: number): number => {
  if (!Number.isFinite(x)) return x;
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : r;
};
const cvtI32 = (x: number): number => (x !== x ? 0 : x >= 2147483647 ? 2147483647 : x <= -2147483648 ? -2147483648 : Math.trunc(x));
const cvtU32 = (x: number): number => (x !== x ? 0 : x >= 4294967295 ? 4294967295 : x <= 0 ? 0 : Math.trunc(x));
const ldexp = (x: number, e: number): number => {
  const k = Math.max(-400, Math.min(400, e | 0));
  // Two steps keep 2^k finite in double for |k| ≤ 400.
  return x * 2 ** Math.trunc(k / 2) * 2 ** (k - Math.trunc(k / 2));
};
/** The exponent e with x = m·2^e, 0.5 ≤ |m| < 1 (0 for 0, infinities and NaN). */
const frexpExp = (x: number): number => {
  if (x === 0 || !Number.isFinite(x)) return 0;
  let e = Math.floor(Math.log2(Math.abs(x))) + 1;
  const m = Math.abs(x) / 2 ** e;
  if (m >= 1) e++;
  else if (m < 0.5) e--;
  return e;
};
const frexpMant = (x: number): number => (x === 0 || !Number.isFinite(x) ? x : x / 2 ** frexpExp(x));
const bfe = (v: number, off: number, width: number, signed: boolean): number => {
  const o = off & 31;
  const wdt = width & 31;
  if (wdt === 0) return 0;
  const field = (v >>> o) & (wdt === 32 ? 0xffffffff : (1 << wdt) - 1);
  return signed ? (field << (32 - wdt)) >> (32 - wdt) : field;
};

/** v_perm_b32: each result byte chosen by a selector byte of S2 from {S0, S1} (S1 the low dword), a sign, 0x00 or 0xff. */
function permBytes(s0: number, s1: number, sel: number): number {
  let out = 0;
  for (let i = 0; i < 4; i++) {
    const k = (sel >>> (8 * i)) & 0xff;
    let byte: number;
    if (k < 4) byte = (s1 >>> (8 * k)) & 0xff;
    else if (k < 8) byte = (s0 >>> (8 * (k - 4))) & 0xff;
    else if (k < 12) byte = ((k === 8 ? s1 >>> 15 : k === 9 ? s1 >>> 31 : k === 10 ? s0 >>> 15 : s0 >>> 31) & 1) * 0xff;
    else byte = k === 12 ? 0 : 0xff;
    out |= byte << (8 * i);
  }
  return out >>> 0;
}

/** The 32-bit per-lane ops: source types, result type, function. */
const SIMPLE: Record<string, Simple> = {
  v_mov_b32: { src: ["u"], dst: "u", fn: (a) => a },
  v_not_b32: { src: ["u"], dst: "u", fn: (a) => ~a },
  v_bfrev_b32: { src: ["u"], dst: "u", fn: (a) => {
    let v = a;
    let out = 0;
    for (let i = 0; i < 32; i++) {
      out = (out << 1) | (v & 1);
      v >>>= 1;
    }
    return out;
  } },
  v_ffbl_b32: { src: ["u"], dst: "i", fn: (a) => (a === 0 ? -1 : 31 - Math.clz32(a & -a)) },
  v_ctz_i32_b32: { src: ["u"], dst: "i", fn: (a) => (a === 0 ? -1 : 31 - Math.clz32(a & -a)) },
  v_ffbh_u32: { src: ["u"], dst: "i", fn: (a) => (a === 0 ? -1 : Math.clz32(a)) },
  v_clz_i32_u32: { src: ["u"], dst: "i", fn: (a) => (a === 0 ? -1 : Math.clz32(a)) },
  v_bcnt_u32_b32: { src: ["u", "u"], dst: "u", fn: (a, b) => popcount(a) + b },
  v_add_f32: { src: ["f", "f"], dst: "f", fn: (a, b) => a + b },
  v_sub_f32: { src: ["f", "f"], dst: "f", fn: (a, b) => a - b },
  v_subrev_f32: { src: ["f", "f"], dst: "f", fn: (a, b) => b - a },
  v_mul_f32: { src: ["f", "f"], dst: "f", fn: (a, b) => a * b },
  v_mul_legacy_f32: { src: ["f", "f"], dst: "f", fn: (a, b) => (a === 0 || b === 0 ? 0 : a * b) },
  v_mul_dx9_zero_f32: { src: ["f", "f"], dst: "f", fn: (a, b) => (a === 0 || b === 0 ? 0 : a * b) },
  v_fma_f32: { src: ["f", "f", "f"], dst: "f", fn: fma },
  v_mad_f32: { src: ["f", "f", "f"], dst: "f", fn: (a, b, c) => fround(fround(a * b) + c) },
  v_max_f32: { src: ["f", "f"], dst: "f", fn: maxNum },
  v_min_f32: { src: ["f", "f"], dst: "f", fn: minNum },
  v_max3_f32: { src: ["f", "f", "f"], dst: "f", fn: (a, b, c) => maxNum(maxNum(a, b), c) },
  v_min3_f32: { src: ["f", "f", "f"], dst: "f", fn: (a, b, c) => minNum(minNum(a, b), c) },
  v_med3_f32: { src: ["f", "f", "f"], dst: "f", fn: med3 },
  v_max_i32: { src: ["i", "i"], dst: "i", fn: (a, b) => (a > b ? a : b) },
  v_min_i32: { src: ["i", "i"], dst: "i", fn: (a, b) => (a < b ? a : b) },
  v_max_u32: { src: ["u", "u"], dst: "u", fn: (a, b) => (a > b ? a : b) },
  v_min_u32: { src: ["u", "u"], dst: "u", fn: (a, b) => (a < b ? a : b) },
  v_max3_i32: { src: ["i", "i", "i"], dst: "i", fn: (a, b, c) => Math.max(a, b, c) },
  v_min3_i32: { src: ["i", "i", "i"], dst: "i", fn: (a, b, c) => Math.min(a, b, c) },
  v_max3_u32: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => Math.max(a, b, c) },
  v_min3_u32: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => Math.min(a, b, c) },
  v_med3_i32: { src: ["i", "i", "i"], dst: "i", fn: med3 },
  v_med3_u32: { src: ["u", "u", "u"], dst: "u", fn: med3 },
  v_add_nc_u32: { src: ["u", "u"], dst: "u", fn: (a, b) => a + b },
  v_sub_nc_u32: { src: ["u", "u"], dst: "u", fn: (a, b) => a - b },
  v_subrev_nc_u32: { src: ["u", "u"], dst: "u", fn: (a, b) => b - a },
  v_and_b32: { src: ["u", "u"], dst: "u", fn: (a, b) => a & b },
  v_or_b32: { src: ["u", "u"], dst: "u", fn: (a, b) => a | b },
  v_xor_b32: { src: ["u", "u"], dst: "u", fn: (a, b) => a ^ b },
  v_xnor_b32: { src: ["u", "u"], dst: "u", fn: (a, b) => ~(a ^ b) },
  v_lshlrev_b32: { src: ["u", "u"], dst: "u", fn: (a, b) => b << (a & 31) },
  v_lshrrev_b32: { src: ["u", "u"], dst: "u", fn: (a, b) => b >>> (a & 31) },
  v_ashrrev_i32: { src: ["u", "i"], dst: "i", fn: (a, b) => b >> (a & 31) },
  v_lshl_add_u32: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => (a << (b & 31)) + c },
  v_add_lshl_u32: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => (a + b) << (c & 31) },
  v_lshl_or_b32: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => (a << (b & 31)) | c },
  v_and_or_b32: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => (a & b) | c },
  v_or3_b32: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => a | b | c },
  v_xor3_b32: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => a ^ b ^ c },
  v_add3_u32: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => a + b + c },
  v_xad_u32: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => (a ^ b) + c },
  v_mul_lo_u32: { src: ["u", "u"], dst: "u", fn: (a, b) => Math.imul(a, b) },
  v_mul_hi_u32: { src: ["u", "u"], dst: "u", fn: (a, b) => mulHi(a, b, false) },
  v_mul_hi_i32: { src: ["u", "u"], dst: "u", fn: (a, b) => mulHi(a, b, true) },
  v_mul_u32_u24: { src: ["u", "u"], dst: "u", fn: (a, b) => Math.imul(a & 0xffffff, b & 0xffffff) },
  v_mul_i32_i24: { src: ["u", "u"], dst: "u", fn: (a, b) => Math.imul((a << 8) >> 8, (b << 8) >> 8) },
  v_mul_hi_u32_u24: { src: ["u", "u"], dst: "u", fn: (a, b) => Math.floor(((a & 0xffffff) * (b & 0xffffff)) / TWO32) },
  v_mad_u32_u24: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => Math.imul(a & 0xffffff, b & 0xffffff) + c },
  v_mad_i32_i24: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => Math.imul((a << 8) >> 8, (b << 8) >> 8) + c },
  v_bfe_u32: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => bfe(a, b, c, false) },
  v_bfe_i32: { src: ["u", "u", "u"], dst: "i", fn: (a, b, c) => bfe(a, b, c, true) },
  v_bfi_b32: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => (a & b) | (~a & c) },
  v_bfm_b32: { src: ["u", "u"], dst: "u", fn: (a, b) => (((1 << (a & 31)) - 1) << (b & 31)) },
  v_alignbit_b32: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => ((c & 31) === 0 ? b : (b >>> (c & 31)) | (a << (32 - (c & 31)))) },
  v_alignbyte_b32: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => ((c & 3) === 0 ? b : (b >>> ((c & 3) * 8)) | (a << (32 - (c & 3) * 8))) },
  v_cvt_f32_i32: { src: ["i"], dst: "f", fn: (a) => a },
  v_cvt_f32_u32: { src: ["u"], dst: "f", fn: (a) => a },
  v_cvt_i32_f32: { src: ["f"], dst: "i", fn: cvtI32 },
  v_cvt_u32_f32: { src: ["f"], dst: "u", fn: cvtU32 },
  v_cvt_f32_ubyte0: { src: ["u"], dst: "f", fn: (a) => a & 0xff },
  v_cvt_f32_ubyte1: { src: ["u"], dst: "f", fn: (a) => (a >>> 8) & 0xff },
  v_cvt_f32_ubyte2: { src: ["u"], dst: "f", fn: (a) => (a >>> 16) & 0xff },
  v_cvt_f32_ubyte3: { src: ["u"], dst: "f", fn: (a) => a >>> 24 },
  v_rndne_f32: { src: ["f"], dst: "f", fn: roundEven },
  v_floor_f32: { src: ["f"], dst: "f", fn: Math.floor },
  v_ceil_f32: { src: ["f"], dst: "f", fn: Math.ceil },
  v_trunc_f32: { src: ["f"], dst: "f", fn: Math.trunc },
  v_fract_f32: { src: ["f"], dst: "f", fn: (a) => (Number.isFinite(a) ? Math.min(a - Math.floor(a), 0.99999994) : a !== a ? a : 0) },
  v_exp_f32: { src: ["f"], dst: "f", fn: (a) => 2 ** a },
  v_log_f32: { src: ["f"], dst: "f", fn: (a) => Math.log2(a) },
  v_rcp_f32: { src: ["f"], dst: "f", fn: rcpTowardZero },
  v_rcp_iflag_f32: { src: ["f"], dst: "f", fn: rcpTowardZero },
  v_rsq_f32: { src: ["f"], dst: "f", fn: (a) => 1 / Math.sqrt(a) },
  v_sqrt_f32: { src: ["f"], dst: "f", fn: Math.sqrt },
  v_sin_f32: { src: ["f"], dst: "f", fn: (a) => Math.sin(a * 2 * Math.PI) },
  v_cos_f32: { src: ["f"], dst: "f", fn: (a) => Math.cos(a * 2 * Math.PI) },
  v_ldexp_f32: { src: ["f", "i"], dst: "f", fn: ldexp },
  v_frexp_mant_f32: { src: ["f"], dst: "f", fn: frexpMant },
  v_frexp_exp_i32_f32: { src: ["f"], dst: "i", fn: frexpExp },
  // Division helpers, without the scaling the hardware applies only near the exponent range ends
  // (v_div_scale leaves VCC clear, so v_div_fmas does not rescale): exact enough for f32 in range.
  v_div_fixup_f32: { src: ["f", "f", "f"], dst: "f", fn: (q, d, n) => (d === 0 || !Number.isFinite(d) || !Number.isFinite(n) || n !== n || d !== d ? n / d : q) },
  v_mbcnt_lo_u32_b32: { src: ["u", "u"], dst: "u", fn: (a, b, _c, lane) => popcount(lane >= 32 ? a : a & ((1 << lane) - 1)) + b },
  v_mbcnt_hi_u32_b32: { src: ["u", "u"], dst: "u", fn: (a, b, _c, lane) => popcount(lane < 32 ? 0 : a & ((2 ** (lane - 32) - 1) >>> 0)) + b },
  v_sad_u32: { src: ["u", "u", "u"], dst: "u", fn: (a, b, c) => Math.abs(a - b) + c },
  // 16-bit integer ops clang-19 uses around byte/short memory: the low half, high half zeroed
  // (gfx9; gfx11 keeps it, which LLVM's non-true16 code never reads).
  v_add_u16: { src: ["u", "u"], dst: "u", fn: (a, b) => (a + b) & 0xffff },
  v_add_nc_u16: { src: ["u", "u"], dst: "u", fn: (a, b) => (a + b) & 0xffff },
  v_sub_u16: { src: ["u", "u"], dst: "u", fn: (a, b) => (a - b) & 0xffff },
  v_sub_nc_u16: { src: ["u", "u"], dst: "u", fn: (a, b) => (a - b) & 0xffff },
  v_lshlrev_b16: { src: ["u", "u"], dst: "u", fn: (a, b) => (b << (a & 15)) & 0xffff },
  v_perm_b32: { src: ["u", "u", "u"], dst: "u", fn: permBytes },
  v_cvt_pk_rtz_f16_f32: { src: ["f", "f"], dst: "u", fn: () => {
    throw new LoomError("unimplemented", "v_cvt_pk_rtz_f16_f32 is not simulated");
  } },
};

/** Ops whose VOP2 form accumulates into vdst (vdst is their third source). */
const ACCUMULATING = new Set(["v_fmac_f32", "v_mac_f32"]);
const ACCUMULATOR_OPS: Record<string, Simple> = {
  v_fmac_f32: { src: ["f", "f", "f"], dst: "f", fn: fma },
  v_mac_f32: { src: ["f", "f", "f"], dst: "f", fn: (a, b, c) => fround(fround(a * b) + c) },
};

function unimplemented(inst: Instruction, ctx: CompileContext, why = ""): never {
  throw new LoomError("unimplemented", `the simulator does not implement ${inst.name}${why} (${inst.format} opcode ${inst.opcode}, word 0x${inst.words[0]!.toString(16).padStart(8, "0")} at 0x${inst.address.toString(16)}) in kernel '${ctx.kernel.name}'`);
}

/** One source of a VALU op: a VGPR (read per lane) or a uniform value. */
interface Src {
  readonly vreg: number;
  readonly uniform: Read32 | undefined;
}

function source(code: number, inst: Instruction, ctx: CompileContext, float: "f32" | "f16" | "none"): Src {
  if (code >= 256) return { vreg: code - 256, uniform: undefined };
  return { vreg: -1, uniform: scalarRead32(code, inst.f.literal, ctx.family, float, `${inst.name} at 0x${inst.address.toString(16)}`) };
}

const typed = (w: Wave, t: T): Uint32Array | Int32Array | Float32Array => (t === "f" ? w.vf : t === "i" ? w.vi : w.vu);
const fromBits = (bits: number, t: T): number => (t === "f" ? bitsToF32(bits) : t === "i" ? bits | 0 : bits >>> 0);

interface Modifiers {
  readonly abs: number;
  readonly neg: number;
  readonly clamp: number;
  readonly omod: number;
}

/** Runs a 32-bit op over the active lanes. */
function simpleExec(spec: Simple, srcs: readonly Src[], vdst: number, mods: Modifiers): (w: Wave) => void {
  const n = spec.src.length;
  const fn = spec.fn;
  const hasMods = mods.abs !== 0 || mods.neg !== 0;
  const post = spec.dst === "f" && (mods.clamp !== 0 || mods.omod !== 0);
  const omulti = mods.omod === 1 ? 2 : mods.omod === 2 ? 4 : mods.omod === 3 ? 0.5 : 1;
  const modify = (x: number, i: number): number => {
    if (spec.src[i] !== "f") return x;
    let v = x;
    if ((mods.abs >> i) & 1) v = Math.abs(v);
    if ((mods.neg >> i) & 1) v = -v;
    return v;
  };
  const s0 = srcs[0]!;
  const s1 = srcs[1];
  const s2 = srcs[2];
  const t0 = spec.src[0]!;
  const t1 = spec.src[1] ?? "u";
  const t2 = spec.src[2] ?? "u";
  return (w) => {
    const W = w.width;
    const A = typed(w, t0);
    const B = typed(w, t1);
    const C = typed(w, t2);
    const D = typed(w, spec.dst);
    const a0 = s0.vreg * W;
    const b0 = n > 1 && s1!.vreg >= 0 ? s1!.vreg * W : -1;
    const c0 = n > 2 && s2!.vreg >= 0 ? s2!.vreg * W : -1;
    const ua = s0.vreg < 0 ? fromBits(s0.uniform!(w), t0) : 0;
    const ub = n > 1 && s1!.vreg < 0 ? fromBits(s1!.uniform!(w), t1) : 0;
    const uc = n > 2 && s2!.vreg < 0 ? fromBits(s2!.uniform!(w), t2) : 0;
    const d0 = vdst * W;
    const lo = w.s[EXEC_LO]!;
    const hi = W === 64 ? w.s[EXEC_LO + 1]! : 0;
    for (let lane = 0; lane < W; lane++) {
      if (((lane < 32 ? lo >>> lane : hi >>> (lane - 32)) & 1) === 0) continue;
      let a = a0 >= 0 ? A[a0 + lane]! : ua;
      let b = b0 >= 0 ? B[b0 + lane]! : ub;
      let c = c0 >= 0 ? C[c0 + lane]! : uc;
      if (hasMods) {
        a = modify(a, 0);
        b = modify(b, 1);
        c = modify(c, 2);
      }
      let r = fn(a, b, c, lane);
      if (post) {
        r *= omulti;
        if (mods.clamp) r = r !== r ? 0 : Math.min(1, Math.max(0, r));
      }
      D[d0 + lane] = r;
    }
  };
}

/** Mask bit of lane in the SGPR (pair) at index s. */
const maskBit = (w: Wave, s: number, lane: number): number => (lane < 32 ? (w.s[s]! >>> lane) & 1 : (w.s[s + 1]! >>> (lane - 32)) & 1);

function writeMask(w: Wave, s: number, lo: number, hi: number): void {
  w.s[s] = lo >>> 0;
  if (w.width === 64) w.s[s + 1] = hi >>> 0;
}

function floatCompare(cond: string): ((a: number, b: number) => boolean) | undefined {
  switch (cond) {
    case "f": return () => false;
    case "lt": return (a, b) => a < b;
    case "eq": return (a, b) => a === b;
    case "le": return (a, b) => a <= b;
    case "gt": return (a, b) => a > b;
    case "lg": return (a, b) => a < b || a > b;
    case "ge": return (a, b) => a >= b;
    case "o": return (a, b) => a === a && b === b;
    case "u": return (a, b) => a !== a || b !== b;
    case "nge": return (a, b) => !(a >= b);
    case "nlg": return (a, b) => !(a < b || a > b);
    case "ngt": return (a, b) => !(a > b);
    case "nle": return (a, b) => !(a <= b);
    case "neq": return (a, b) => !(a === b);
    case "nlt": return (a, b) => !(a < b);
    case "tru":
    case "t": return () => true;
  }
  return undefined;
}

function intCompare(cond: string): ((a: number, b: number) => boolean) | undefined {
  switch (cond) {
    case "f": return () => false;
    case "lt": return (a, b) => a < b;
    case "eq": return (a, b) => a === b;
    case "le": return (a, b) => a <= b;
    case "gt": return (a, b) => a > b;
    case "ne":
    case "lg": return (a, b) => a !== b;
    case "ge": return (a, b) => a >= b;
    case "t": return () => true;
  }
  return undefined;
}

/** v_cmp_class's bit of x; `minNormal` is the format's (2^-126 for f32, 2^-1022 for f64). */
function classOf(x: number, minNormal = 2 ** -126): number {
  if (x !== x) return 1 << 1; // quiet NaN (signaling NaNs are not distinguished)
  if (x === -Infinity) return 1 << 2;
  if (x === Infinity) return 1 << 9;
  if (x === 0) return Object.is(x, -0) ? 1 << 5 : 1 << 6;
  const denorm = Math.abs(x) < minNormal;
  if (x < 0) return denorm ? 1 << 4 : 1 << 3;
  return denorm ? 1 << 7 : 1 << 8;
}

/** Per-lane 64-bit source reads into (lo, hi). */
interface Src64 {
  readonly vreg: number;
  readonly uniform: ((w: Wave, out: Uint32Array) => void) | undefined;
}
function source64(code: number, inst: Instruction, ctx: CompileContext, float64: boolean, signed: boolean): Src64 {
  if (code >= 256) return { vreg: code - 256, uniform: undefined };
  return { vreg: -1, uniform: scalarRead64(code, inst.f.literal, ctx.family, float64, signed, `${inst.name} at 0x${inst.address.toString(16)}`) };
}
const PAIR = new Uint32Array(2);
function read64(w: Wave, s: Src64, lane: number, uniform: Uint32Array, out: Uint32Array): void {
  if (s.vreg >= 0) {
    out[0] = w.vu[s.vreg * w.width + lane]!;
    out[1] = w.vu[(s.vreg + 1) * w.width + lane]!;
  } else {
    out[0] = uniform[0]!;
    out[1] = uniform[1]!;
  }
}
const F64 = new Float64Array(1);
const U64 = new Uint32Array(F64.buffer);
const toF64 = (lo: number, hi: number): number => {
  U64[0] = lo;
  U64[1] = hi;
  return F64[0]!;
};

/** Destination SGPR index of a VOP3 scalar destination (null → sink). */
/** The SGPRs of a lane mask at `r`: a pair in wave64, one register in wave32 (for the missing-wait and .sgpr_count checks). */
function laneMask(ctx: CompileContext, r: number): number[] {
  return ctx.width === 64 ? [r, r + 1] : [r];
}

function sdest(code: number, ctx: CompileContext, inst: Instruction): number {
  const s = sgprIndex(code, ctx.family);
  if (s === NULL_CODE) return NULL_SINK;
  if (s < 0) throw new LoomError("data-loss", `${inst.name} at 0x${inst.address.toString(16)}: scalar destination code ${code} is not a register`);
  return s;
}

export function compileVector(inst: Instruction, name: string, ctx: CompileContext): Compiled {
  const f = inst.f;
  const fam = ctx.family;
  const sregs: number[] = [];
  const vregs: number[] = [];
  const done = (exec: (w: Wave) => void): Compiled => ({ inst, exec, sregs, vregs });
  const vop3 = inst.format === "VOP3";
  const mods: Modifiers = vop3 ? { abs: f.abs, neg: f.neg, clamp: f.clamp, omod: f.omod } : { abs: 0, neg: 0, clamp: 0, omod: 0 };
  const srcCodes = inst.format === "VOP1" ? [f.src0] : [f.src0, f.src1, f.src2];

  if (f.extraKind === "dpp16" || f.extraKind === "dpp8") return unimplemented(inst, ctx, " with DPP");
  if (inst.format === "VOPD") return compileVopd(inst, ctx);
  if (inst.format === "VOP3P") return compileVop3p(inst, name, ctx);
  if (isHalfOp(name)) return compileHalf(inst, name, ctx);
  if (isF64Op(name)) return compileF64(inst, name, ctx);

  const reads = (count: number, dwords: readonly number[] = []) => {
    for (let i = 0; i < count; i++) sourceRegisters(srcCodes[i]!, dwords[i] ?? 1, fam, sregs, vregs);
  };
  const writesV = (reg: number, dwords = 1) => {
    for (let i = 0; i < dwords; i++) vregs.push(reg + i);
  };

  // Compares (VOPC and its VOP3 form).
  let m = /^v_cmp(x?)_(\w+?)_([fiu])(16|32|64)$/.exec(name) ?? /^v_cmp(x?)_(class)_f(32|64|16)$/.exec(name);
  if (m) {
    const isClass = m[2] === "class";
    const x = m[1] === "x";
    const kind = isClass ? "f" : m[3]!;
    const bits = isClass ? Number(m[3]) : Number(m[4]);
    if (bits === 16) return unimplemented(inst, ctx, " (16-bit compares)");
    const cond = m[2]!;
    const cmp = isClass ? undefined : kind === "f" ? floatCompare(cond) : intCompare(cond);
    if (!isClass && !cmp) return unimplemented(inst, ctx);
    // Destination: VCC for VOPC (and gfx9 v_cmpx), the VOP3 sdst field, EXEC for v_cmpx.
    const sd = inst.format === "VOPC" ? (x && fam === "gfx11" ? -1 : VCC_LO) : x && fam === "gfx11" ? -1 : sdest(f.vdst, ctx, inst);
    reads(2, bits === 64 && !isClass ? [2, 2] : isClass && bits === 64 ? [2, 1] : [1, 1]);
    if (sd >= 0) sregs.push(...laneMask(ctx, sd));
    if (x) sregs.push(...laneMask(ctx, EXEC_LO));
    const mabs = mods.abs;
    const mneg = mods.neg;
    const fmod = (v: number, i: number) => {
      let r = v;
      if ((mabs >> i) & 1) r = Math.abs(r);
      if ((mneg >> i) & 1) r = -r;
      return r;
    };
    const finish = (w: Wave, lo: number, hi: number) => {
      if (sd >= 0) writeMask(w, sd, lo, hi);
      if (x) writeMask(w, EXEC_LO, lo, hi);
    };
    if (bits === 32) {
      const s0 = source(f.src0, inst, ctx, "f32");
      const s1 = source(f.src1, inst, ctx, "f32");
      const t: T = kind === "f" ? "f" : kind === "i" ? "i" : "u";
      const tb: T = isClass ? "u" : t;
      return done((w) => {
        const W = w.width;
        const A = typed(w, t);
        const B = typed(w, tb);
        const ua = s0.vreg < 0 ? fromBits(s0.uniform!(w), t) : 0;
        const ub = s1.vreg < 0 ? fromBits(s1.uniform!(w), tb) : 0;
        const elo = w.s[EXEC_LO]!;
        const ehi = W === 64 ? w.s[EXEC_LO + 1]! : 0;
        let lo = 0;
        let hi = 0;
        for (let lane = 0; lane < W; lane++) {
          if (((lane < 32 ? elo >>> lane : ehi >>> (lane - 32)) & 1) === 0) continue;
          let a = s0.vreg >= 0 ? A[s0.vreg * W + lane]! : ua;
          let b = s1.vreg >= 0 ? B[s1.vreg * W + lane]! : ub;
          if (t === "f") {
            a = fmod(a, 0);
            if (!isClass) b = fmod(b, 1);
          }
          const bit = isClass ? (classOf(a) & b) !== 0 : cmp!(a, b);
          if (bit) {
            if (lane < 32) lo |= 1 << lane;
            else hi |= 1 << (lane - 32);
          }
        }
        finish(w, lo, hi);
      });
    }
    // 64-bit compares.
    const s0 = source64(f.src0, inst, ctx, kind === "f", kind === "i");
    const s1 = isClass ? undefined : source64(f.src1, inst, ctx, kind === "f", kind === "i");
    const classMask = isClass ? source(f.src1, inst, ctx, "none") : undefined;
    const ua = new Uint32Array(2);
    const ub = new Uint32Array(2);
    const B2 = new Uint32Array(2);
    return done((w) => {
      const W = w.width;
      if (s0.uniform) s0.uniform(w, ua);
      if (s1?.uniform) s1.uniform(w, ub);
      let lo = 0;
      let hi = 0;
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        read64(w, s0, lane, ua, PAIR);
        let bit: boolean;
        if (isClass) {
          const mask = classMask!.vreg >= 0 ? w.vu[classMask!.vreg * W + lane]! : classMask!.uniform!(w);
          bit = (classOf(fmod(toF64(PAIR[0]!, PAIR[1]!), 0), 2 ** -1022) & mask) !== 0;
        } else {
          read64(w, s1!, lane, ub, B2);
          if (kind === "f") bit = cmp!(fmod(toF64(PAIR[0]!, PAIR[1]!), 0), fmod(toF64(B2[0]!, B2[1]!), 1));
          else {
            // Compare high words (as i32 when signed), then low words unsigned: exact, unlike a double.
            const ha = kind === "i" ? PAIR[1]! | 0 : PAIR[1]!;
            const hb = kind === "i" ? B2[1]! | 0 : B2[1]!;
            bit = cmp!(ha !== hb ? ha - hb : PAIR[0]! - B2[0]!, 0);
          }
        }
        if (bit) {
          if (lane < 32) lo |= 1 << lane;
          else hi |= 1 << (lane - 32);
        }
      }
      finish(w, lo, hi);
    });
  }

  // Cross-lane moves to and from SGPRs.
  if (name === "v_readfirstlane_b32" || name === "v_readlane_b32") {
    const sd = sdest(f.vdst, ctx, inst);
    sregs.push(sd);
    reads(name === "v_readlane_b32" ? 2 : 1);
    const s0 = source(f.src0, inst, ctx, "none");
    const laneSel = name === "v_readlane_b32" ? source(f.src1, inst, ctx, "none") : undefined;
    return done((w) => {
      const W = w.width;
      let lane = 0;
      if (laneSel) lane = (laneSel.uniform ? laneSel.uniform(w) : 0) & (W - 1);
      else {
        // First active lane (lane 0 when EXEC is zero).
        for (let l = 0; l < W; l++)
          if (w.laneActive(l)) {
            lane = l;
            break;
          }
      }
      w.s[sd] = s0.vreg >= 0 ? w.vu[s0.vreg * W + lane]! : s0.uniform!(w);
    });
  }
  if (name === "v_writelane_b32") {
    reads(2);
    writesV(f.vdst);
    const s0 = source(f.src0, inst, ctx, "none");
    const laneSel = source(f.src1, inst, ctx, "none");
    return done((w) => {
      const lane = (laneSel.uniform ? laneSel.uniform(w) : 0) & (w.width - 1);
      w.vu[f.vdst * w.width + lane] = s0.uniform ? s0.uniform(w) : w.vu[s0.vreg * w.width]!;
    });
  }

  // v_cndmask_b32: D = mask ? src1 : src0, mask = VCC (VOP2) or the src2 SGPR (VOP3).
  if (name === "v_cndmask_b32") {
    const maskReg = vop3 ? sgprIndex(f.src2, fam) : VCC_LO;
    if (maskReg < 0) return unimplemented(inst, ctx, " with a non-register mask");
    reads(2);
    sregs.push(...laneMask(ctx, maskReg));
    writesV(f.vdst);
    const float = mods.abs !== 0 || mods.neg !== 0;
    const spec: Simple = { src: float ? ["f", "f"] : ["u", "u"], dst: float ? "f" : "u", fn: (a, b, _c, lane) => (maskBit(CURRENT.w!, maskReg, lane) ? b : a) };
    const inner = simpleExec(spec, [source(f.src0, inst, ctx, "f32"), source(f.src1, inst, ctx, "f32")], f.vdst, mods);
    return done((w) => {
      CURRENT.w = w;
      inner(w);
    });
  }

  // Add / subtract with carry out (and in).
  m = /^v_(add|sub|subrev)_co(_ci)?_u32$/.exec(name);
  if (m) {
    const op = m[1]!;
    const ci = m[2] !== undefined;
    const carryOut = vop3 ? sdest(f.sdst, ctx, inst) : VCC_LO;
    const carryIn = ci ? (vop3 ? sgprIndex(f.src2, fam) : VCC_LO) : -1;
    reads(2);
    writesV(f.vdst);
    sregs.push(...laneMask(ctx, carryOut));
    if (ci) sregs.push(...laneMask(ctx, carryIn));
    const s0 = source(f.src0, inst, ctx, "none");
    const s1 = source(f.src1, inst, ctx, "none");
    const vdst = f.vdst;
    return done((w) => {
      const W = w.width;
      const V = w.vu;
      const ua = s0.vreg < 0 ? s0.uniform!(w) : 0;
      const ub = s1.vreg < 0 ? s1.uniform!(w) : 0;
      let lo = 0;
      let hi = 0;
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        const a = s0.vreg >= 0 ? V[s0.vreg * W + lane]! : ua;
        const b = s1.vreg >= 0 ? V[s1.vreg * W + lane]! : ub;
        const c = ci ? maskBit(w, carryIn, lane) : 0;
        const r = op === "add" ? a + b + c : op === "sub" ? a - b - c : b - a - c;
        V[vdst * W + lane] = r >>> 0;
        if (r < 0 || r >= TWO32) {
          if (lane < 32) lo |= 1 << lane;
          else hi |= 1 << (lane - 32);
        }
      }
      if (carryOut !== NULL_SINK) writeMask(w, carryOut, lo, hi);
    });
  }

  if (name === "v_div_scale_f32") {
    // No scaling (see v_div_fixup_f32): D = src0, VCC = 0.
    const sd = sdest(f.sdst, ctx, inst);
    reads(3);
    writesV(f.vdst);
    sregs.push(...laneMask(ctx, sd));
    const inner = simpleExec({ src: ["f", "f", "f"], dst: "f", fn: (a) => a }, [source(f.src0, inst, ctx, "f32"), source(f.src1, inst, ctx, "f32"), source(f.src2, inst, ctx, "f32")], f.vdst, { ...mods, abs: 0, neg: f.neg });
    return done((w) => {
      inner(w);
      writeMask(w, sd, 0, 0);
    });
  }
  if (name === "v_div_fmas_f32") {
    reads(3);
    writesV(f.vdst);
    sregs.push(...laneMask(ctx, VCC_LO));
    const inner = simpleExec({ src: ["f", "f", "f"], dst: "f", fn: (a, b, c, lane) => fma(a, b, c) * (maskBit(CURRENT.w!, VCC_LO, lane) ? 2 ** 32 : 1) }, [0, 1, 2].map((i) => source(srcCodes[i]!, inst, ctx, "f32")), f.vdst, mods);
    return done((w) => {
      CURRENT.w = w;
      inner(w);
    });
  }

  // 64-bit integer ops.
  if (name === "v_lshlrev_b64" || name === "v_lshrrev_b64" || name === "v_ashrrev_i64") {
    reads(2, [1, 2]);
    writesV(f.vdst, 2);
    const sh = source(f.src0, inst, ctx, "none");
    const val = source64(f.src1, inst, ctx, false, name === "v_ashrrev_i64");
    const op = name === "v_lshlrev_b64" ? "lshl" : name === "v_lshrrev_b64" ? "lshr" : "ashr";
    const u = new Uint32Array(2);
    const out = new Uint32Array(2);
    const d = f.vdst;
    return done((w) => {
      const W = w.width;
      if (val.uniform) val.uniform(w, u);
      const ush = sh.vreg < 0 ? sh.uniform!(w) : 0;
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        read64(w, val, lane, u, PAIR);
        const s = (sh.vreg >= 0 ? w.vu[sh.vreg * W + lane]! : ush) & 63;
        shift64(op, PAIR[0]!, PAIR[1]!, s, out);
        w.vu[d * W + lane] = out[0]!;
        w.vu[(d + 1) * W + lane] = out[1]!;
      }
    });
  }
  if (name === "v_lshl_add_u64") {
    reads(3, [2, 1, 2]);
    writesV(f.vdst, 2);
    const a = source64(f.src0, inst, ctx, false, false);
    const sh = source(f.src1, inst, ctx, "none");
    const c = source64(f.src2, inst, ctx, false, false);
    const ua = new Uint32Array(2);
    const uc = new Uint32Array(2);
    const C2 = new Uint32Array(2);
    const out = new Uint32Array(2);
    const d = f.vdst;
    return done((w) => {
      const W = w.width;
      if (a.uniform) a.uniform(w, ua);
      if (c.uniform) c.uniform(w, uc);
      const ush = sh.vreg < 0 ? sh.uniform!(w) : 0;
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        read64(w, a, lane, ua, PAIR);
        read64(w, c, lane, uc, C2);
        shift64("lshl", PAIR[0]!, PAIR[1]!, (sh.vreg >= 0 ? w.vu[sh.vreg * W + lane]! : ush) & 63, out);
        const lo = out[0]! + C2[0]!;
        w.vu[d * W + lane] = lo >>> 0;
        w.vu[(d + 1) * W + lane] = (out[1]! + C2[1]! + (lo >= TWO32 ? 1 : 0)) >>> 0;
      }
    });
  }
  if (name === "v_mad_u64_u32" || name === "v_mad_i64_i32") {
    const sd = sdest(f.sdst, ctx, inst);
    reads(3, [1, 1, 2]);
    writesV(f.vdst, 2);
    sregs.push(...laneMask(ctx, sd));
    const a = source(f.src0, inst, ctx, "none");
    const b = source(f.src1, inst, ctx, "none");
    const c = source64(f.src2, inst, ctx, false, name === "v_mad_i64_i32");
    const uc = new Uint32Array(2);
    const signed = name === "v_mad_i64_i32";
    const d = f.vdst;
    return done((w) => {
      const W = w.width;
      if (c.uniform) c.uniform(w, uc);
      const ua = a.vreg < 0 ? a.uniform!(w) : 0;
      const ub = b.vreg < 0 ? b.uniform!(w) : 0;
      let lo = 0;
      let hi = 0;
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        const x = a.vreg >= 0 ? w.vu[a.vreg * W + lane]! : ua;
        const y = b.vreg >= 0 ? w.vu[b.vreg * W + lane]! : ub;
        read64(w, c, lane, uc, PAIR);
        let rlo: number;
        let rhi: number;
        let carry: boolean;
        if (signed) {
          const sum = BigInt(x | 0) * BigInt(y | 0) + BigInt.asIntN(64, (BigInt(PAIR[1]!) << 32n) | BigInt(PAIR[0]!));
          const u64 = BigInt.asUintN(64, sum);
          rlo = Number(u64 & 0xffffffffn);
          rhi = Number(u64 >> 32n);
          carry = sum !== BigInt.asIntN(64, sum);
        } else {
          const x1 = x >>> 16;
          const x0 = x & 0xffff;
          const p0 = x0 * y;
          const p1 = x1 * y;
          const low = (p0 % TWO32) + (p1 % 65536) * 65536;
          const plo = low % TWO32;
          const phi = Math.floor(p0 / TWO32) + Math.floor(p1 / 65536) + Math.floor(low / TWO32);
          const l = plo + PAIR[0]!;
          const h = phi + PAIR[1]! + (l >= TWO32 ? 1 : 0);
          rlo = l % TWO32;
          rhi = h % TWO32;
          carry = h >= TWO32;
        }
        w.vu[d * W + lane] = rlo;
        w.vu[(d + 1) * W + lane] = rhi;
        if (carry) {
          if (lane < 32) lo |= 1 << lane;
          else hi |= 1 << (lane - 32);
        }
      }
      if (sd !== NULL_SINK) writeMask(w, sd, lo, hi);
    });
  }
  if (name === "v_mov_b64") {
    reads(1, [2]);
    writesV(f.vdst, 2);
    const a = source64(f.src0, inst, ctx, false, false);
    const ua = new Uint32Array(2);
    const d = f.vdst;
    return done((w) => {
      const W = w.width;
      if (a.uniform) a.uniform(w, ua);
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        read64(w, a, lane, ua, PAIR);
        w.vu[d * W + lane] = PAIR[0]!;
        w.vu[(d + 1) * W + lane] = PAIR[1]!;
      }
    });
  }

  // The 32-bit table (VOP2 accumulators read vdst as their third source).
  const acc = ACCUMULATING.has(name);
  const spec = acc ? ACCUMULATOR_OPS[name] : SIMPLE[name];
  if (name === "v_fmaak_f32" || name === "v_fmamk_f32" || name === "v_madak_f32" || name === "v_madmk_f32") {
    const k = bitsToF32(f.literal);
    const ak = name.endsWith("ak_f32");
    const fused = name.startsWith("v_fma");
    reads(2);
    writesV(f.vdst);
    // fmaak: D = S0 * S1 + K; fmamk: D = S0 * K + S1.
    const s = { src: ["f", "f"] as T[], dst: "f" as T, fn: ak ? (a: number, b: number) => (fused ? fma(a, b, k) : fround(fround(a * b) + k)) : (a: number, b: number) => (fused ? fma(a, k, b) : fround(fround(a * k) + b)) };
    return done(simpleExec(s, [source(f.src0, inst, ctx, "f32"), source(f.src1, inst, ctx, "f32")], f.vdst, mods));
  }
  if (!spec) return unimplemented(inst, ctx);
  if (vop3 && f.opsel !== 0 && /_[bui]16$/.test(name)) return unimplemented(inst, ctx, " with op_sel");
  if (f.extraKind === "sdwa") return compileSdwa(inst, spec, ctx, sregs, vregs);
  const n = spec.src.length;
  if (inst.format === "VOP1" && n !== 1) return unimplemented(inst, ctx, " as VOP1");
  if (spec.dst !== "f" && (mods.clamp !== 0 || mods.omod !== 0)) {
    // Integer add/sub with clamp saturate to the type's range (LLVM's 64-bit ctlz/cttz use it).
    const m = mods.omod === 0 ? /^v_(add|sub|subrev)_(?:nc_|co_)?([ui])32$/.exec(name) : null;
    if (!m) return unimplemented(inst, ctx, " with clamp or omod on an integer result");
    const [min, max] = m[2] === "u" ? [0, 0xffffffff] : [-(2 ** 31), 2 ** 31 - 1];
    const exact = m[1] === "add" ? (a: number, b: number) => a + b : m[1] === "sub" ? (a: number, b: number) => a - b : (a: number, b: number) => b - a;
    const saturated: Simple = { ...spec, fn: (a, b) => Math.min(max, Math.max(min, exact(a, b))) };
    const srcs2 = [source(srcCodes[0]!, inst, ctx, "f32"), source(srcCodes[1]!, inst, ctx, "f32")];
    reads(2);
    writesV(f.vdst);
    return done(simpleExec(saturated, srcs2, f.vdst, { ...mods, clamp: 0 }));
  }
  const srcs = Array.from({ length: n }, (_, i) => {
    if (acc && i === 2 && !vop3) return { vreg: f.vdst, uniform: undefined } as Src;
    if (acc && i === 2 && vop3) return { vreg: f.vdst, uniform: undefined } as Src;
    return source(srcCodes[i]!, inst, ctx, "f32");
  });
  reads(acc ? 2 : n);
  if (acc) vregs.push(f.vdst);
  writesV(f.vdst);
  if (f.vdst < 0) return unimplemented(inst, ctx, " (no destination)");
  return done(simpleExec(spec, srcs, f.vdst, mods));
}

/** The wave a per-lane function that reads masks runs on (set just before the lane loop). */
const CURRENT: { w: Wave | undefined } = { w: undefined };

function compileVop3p(inst: Instruction, name: string, ctx: CompileContext): Compiled {
  const f = inst.f;
  const ops: Record<string, number> = { v_pk_add_f32: 2, v_pk_mul_f32: 2, v_pk_fma_f32: 3, v_pk_mov_b32: 2 };
  const n = ops[name];
  if (n === undefined || ctx.family !== "gfx9") return unimplemented(inst, ctx);
  const sregs: number[] = [];
  const vregs: number[] = [];
  const codes = [f.src0, f.src1, f.src2].slice(0, n);
  codes.forEach((c) => sourceRegisters(c, 2, ctx.family, sregs, vregs));
  vregs.push(f.vdst, f.vdst + 1);
  const srcs = codes.map((c) => source64(c, inst, ctx, false, false));
  const uni = codes.map(() => new Uint32Array(2));
  const vals = codes.map(() => new Uint32Array(2));
  const d = f.vdst;
  const pick = (i: number, hiHalf: boolean): number => {
    const sel = hiHalf ? (f.opselHi >> i) & 1 : (f.opsel >> i) & 1;
    let v = bitsToF32(vals[i]![sel]!);
    if (((hiHalf ? f.negHi : f.neg) >> i) & 1) v = -v;
    return v;
  };
  return {
    inst,
    sregs,
    vregs,
    exec: (w) => {
      const W = w.width;
      srcs.forEach((s, i) => s.uniform?.(w, uni[i]!));
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        srcs.forEach((s, i) => read64(w, s, lane, uni[i]!, vals[i]!));
        let lo: number;
        let hi: number;
        if (name === "v_pk_mov_b32") {
          // D.lo = S0[op_sel[0]], D.hi = S1[op_sel[1]].
          lo = vals[0]![f.opsel & 1]!;
          hi = vals[1]![(f.opsel >> 1) & 1]!;
          w.vu[d * W + lane] = lo;
          w.vu[(d + 1) * W + lane] = hi;
          continue;
        }
        const half = (h: boolean) => (name === "v_pk_add_f32" ? pick(0, h) + pick(1, h) : name === "v_pk_mul_f32" ? pick(0, h) * pick(1, h) : fma(pick(0, h), pick(1, h), pick(2, h)));
        w.vf[d * W + lane] = half(false);
        w.vf[(d + 1) * W + lane] = half(true);
      }
    },
  };
}

/** gfx11 dual issue: both halves read their sources before either writes. */
function compileVopd(inst: Instruction, ctx: CompileContext): Compiled {
  const f = inst.f;
  const k = bitsToF32(f.literal);
  const sregs: number[] = [];
  const vregs: number[] = [];
  const half = (op: string, vdst: number, src0: number, vsrc1: number) => {
    sourceRegisters(src0, 1, ctx.family, sregs, vregs);
    const s0 = source(src0, inst, ctx, "f32");
    const s1: Src = { vreg: vsrc1 - 256, uniform: undefined };
    vregs.push(vdst);
    let fn: (a: number, b: number, d: number, lane: number, w: Wave) => number;
    let t: T = "f";
    let usesSrc1 = true;
    switch (op) {
      case "fmac_f32": fn = (a, b, d) => fma(a, b, d); break;
      case "fmaak_f32": fn = (a, b) => fma(a, b, k); break;
      case "fmamk_f32": fn = (a, b) => fma(a, k, b); break;
      case "mul_f32": fn = (a, b) => a * b; break;
      case "add_f32": fn = (a, b) => a + b; break;
      case "sub_f32": fn = (a, b) => a - b; break;
      case "subrev_f32": fn = (a, b) => b - a; break;
      case "mul_dx9_zero_f32": fn = (a, b) => (a === 0 || b === 0 ? 0 : a * b); break;
      case "max_f32": fn = maxNum; break;
      case "min_f32": fn = minNum; break;
      case "mov_b32": fn = (a) => a; t = "u"; usesSrc1 = false; break;
      case "cndmask_b32": fn = (a, b, _d, lane, w) => (maskBit(w, VCC_LO, lane) ? b : a); t = "u"; sregs.push(VCC_LO); break;
      case "add_nc_u32": fn = (a, b) => a + b; t = "u"; break;
      case "lshlrev_b32": fn = (a, b) => b << (a & 31); t = "u"; break;
      case "and_b32": fn = (a, b) => a & b; t = "u"; break;
      default: return unimplemented(inst, ctx, ` (VOPD half v_dual_${op})`);
    }
    if (usesSrc1) vregs.push(s1.vreg);
    if (op === "fmac_f32") vregs.push(vdst);
    return { fn, t, s0, s1, vdst, usesSrc1 };
  };
  const x = half(f.opx, f.vdstx, f.src0x, f.vsrc1x);
  const y = half(f.opy, f.vdsty, f.src0y, f.vsrc1y);
  const rx = new Float64Array(64);
  const ry = new Float64Array(64);
  const run = (w: Wave, h: typeof x, out: Float64Array) => {
    const W = w.width;
    const V = typed(w, h.t);
    const ua = h.s0.vreg < 0 ? fromBits(h.s0.uniform!(w), h.t) : 0;
    for (let lane = 0; lane < W; lane++) {
      if (!w.laneActive(lane)) continue;
      const a = h.s0.vreg >= 0 ? V[h.s0.vreg * W + lane]! : ua;
      const b = h.usesSrc1 ? V[h.s1.vreg * W + lane]! : 0;
      out[lane] = h.fn(a, b, V[h.vdst * W + lane]!, lane, w);
    }
  };
  const write = (w: Wave, h: typeof x, out: Float64Array) => {
    const W = w.width;
    const V = typed(w, h.t);
    for (let lane = 0; lane < W; lane++) if (w.laneActive(lane)) V[h.vdst * W + lane] = out[lane]!;
  };
  return {
    inst,
    sregs,
    vregs,
    exec: (w) => {
      run(w, x, rx);
      run(w, y, ry);
      write(w, x, rx);
      write(w, y, ry);
    },
  };
}

/** gfx9 SDWA on integer VOP1 / VOP2 ops: sub-dword source selects and destination select. */
function compileSdwa(inst: Instruction, spec: Simple, ctx: CompileContext, sregs: number[], vregs: number[]): Compiled {
  const f = inst.f;
  if (spec.src.some((t) => t === "f") || spec.dst === "f") return unimplemented(inst, ctx, " with SDWA on floats");
  const e = f.extra;
  const src0Code = e & 0xff;
  const dstSel = (e >>> 8) & 7;
  const dstUnused = (e >>> 11) & 3;
  const sel0 = (e >>> 16) & 7;
  const sext0 = (e >>> 19) & 1;
  const s0sgpr = (e >>> 23) & 1;
  const sel1 = (e >>> 24) & 7;
  const sext1 = (e >>> 27) & 1;
  const s1sgpr = (e >>> 31) & 1;
  const code0 = s0sgpr ? src0Code : 256 + src0Code;
  const code1 = inst.format === "VOP2" ? (s1sgpr ? f.src1 - 256 : f.src1) : -1;
  sourceRegisters(code0, 1, ctx.family, sregs, vregs);
  if (code1 >= 0) sourceRegisters(code1, 1, ctx.family, sregs, vregs);
  vregs.push(f.vdst);
  const select = (v: number, sel: number, sx: number): number => {
    if (sel === 6) return v;
    const bits = sel <= 3 ? 8 : 16;
    const shift = sel <= 3 ? sel * 8 : (sel - 4) * 16;
    const field = (v >>> shift) & ((1 << bits) - 1);
    return sx ? (field << (32 - bits)) >> (32 - bits) : field;
  };
  const s0 = source(code0, inst, ctx, "none");
  const s1 = code1 >= 0 ? source(code1, inst, ctx, "none") : undefined;
  const d = f.vdst;
  return {
    inst,
    sregs,
    vregs,
    exec: (w) => {
      const W = w.width;
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        const a = select(s0.vreg >= 0 ? w.vu[s0.vreg * W + lane]! : s0.uniform!(w), sel0, sext0);
        const b = s1 ? select(s1.vreg >= 0 ? w.vu[s1.vreg * W + lane]! : s1.uniform!(w), sel1, sext1) : 0;
        let r = spec.fn(a, b, 0, lane) >>> 0;
        if (dstSel !== 6) {
          const bits = dstSel <= 3 ? 8 : 16;
          const shift = dstSel <= 3 ? dstSel * 8 : (dstSel - 4) * 16;
          const mask = (((1 << bits) - 1) << shift) >>> 0;
          const old = w.vu[d * W + lane]!;
          const field = ((r << shift) & mask) >>> 0;
          if (dstUnused === 2) r = ((old & ~mask) | field) >>> 0;
          else if (dstUnused === 1) {
            const top = (field >>> (shift + bits - 1)) & 1;
            const above = shift + bits >= 32 ? 0 : (0xffffffff << (shift + bits)) >>> 0;
            r = (field | (top ? above : 0)) >>> 0;
          } else r = field;
        }
        w.vu[d * W + lane] = r;
      }
    },
  };
}
