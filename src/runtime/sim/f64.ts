/**
 * f64 VALU ops (VOP1 and VOP3): a VGPR pair or 64-bit scalar source per operand, the IEEE
 * result in the destination pair. + and × round once in double already; fma is computed
 * exactly in BigInt and rounded once (subnormal results included); conversions to f32 round
 * to nearest even, to integers truncate and saturate (NaN → 0), as the hardware does.
 *
 * Division and square root helpers follow the ISA guides' pseudocode (RDNA3 / CDNA3):
 * `v_div_scale_f64` (scaled operand and the VCC bit), `v_div_fmas_f64` (the fma scaled by
 * 2^±128 under VCC before its one rounding), `v_div_fixup_f64` (the IEEE special cases),
 * `v_ldexp_f64` (one rounding). `v_rcp_f64` and `v_rsq_f64` are approximations on hardware
 * (2^29 ulp, about 2^-23 relative): modelled as the double result with its low 29 fraction
 * bits cleared, so that a division or square root missing a refinement step fails here as
 * on a GPU instead of being rescued by an exact seed.
 */
import { LoomError } from "../../core/errors.js";
import type { Instruction } from "./decode.js";
import { scalarRead32, scalarRead64, sgprIndex, sourceRegisters } from "./operands.js";
import { NULL_CODE, VCC_LO, type Wave } from "./wave.js";
import type { CompileContext, Compiled } from "./compiled.js";

const F64 = new Float64Array(1);
const U64 = new Uint32Array(F64.buffer);
const B64 = new BigUint64Array(F64.buffer);
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** x = m · 2^e with m an integer (x finite, nonzero). */
function decompose(x: number): [bigint, number] {
  F64[0] = x;
  const bits = B64[0]!;
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const m = exponent === 0 ? fraction : fraction | (1n << 52n);
  return [x < 0 ? -m : m, (exponent === 0 ? 1 : exponent) - 1075];
}

const bitLength = (m: bigint): number => m.toString(2).length;

/** s · 2^e rounded to the nearest double, ties to even. */
function roundToDouble(s: bigint, e: number): number {
  if (s === 0n) return 0;
  const negative = s < 0n;
  let m = negative ? -s : s;
  const q = Math.max(bitLength(m) + e - 53, -1074);
  if (q > e) {
    const shift = BigInt(q - e);
    const rest = m & ((1n << shift) - 1n);
    const half = 1n << (shift - 1n);
    m >>= shift;
    if (rest > half || (rest === half && (m & 1n) === 1n)) m += 1n;
    e = q;
  }
  const v = Number(m) * 2 ** e;
  return negative ? -v : v;
}

/** a · b + c with one rounding. */
export function fmaF64(a: number, b: number, c: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(c) || a === 0 || b === 0) return a * b + c;
  const [ma, ea] = decompose(a);
  const [mb, eb] = decompose(b);
  if (c === 0) return roundToDouble(ma * mb, ea + eb);
  const [mc, ec] = decompose(c);
  const e = Math.min(ea + eb, ec);
  const sum = ((ma * mb) << BigInt(ea + eb - e)) + (mc << BigInt(ec - e));
  return roundToDouble(sum, e);
}

/** x · 2^k with one rounding (subnormal results included). */
function ldexpF64(x: number, k: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const [m, e] = decompose(x);
  // Beyond ±2200 the result is 0 or ∞ whatever x is.
  return roundToDouble(m, e + Math.max(-2200, Math.min(2200, k | 0)));
}

/** The approximate seeds: the double result with its low 29 fraction bits cleared (toward zero). */
function approximate(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  F64[0] = x;
  U64[0] = (U64[0]! & 0xe0000000) >>> 0;
  return F64[0]!;
}

/**
 * The reciprocal seed: approximate, except where a's significand is all ones. There 1/a lies
 * just above a rounding tie that Newton steps from any seed coarser than 2^-53 cannot resolve
 * (Markstein's exception), so LLVM's division, which passes the OpenCL conformance tests on
 * hardware, implies the hardware's seed is the correctly rounded one for those inputs.
 */
function rcpF64(a: number): number {
  F64[0] = a;
  const allOnes = U64[0] === 0xffffffff && (U64[1]! & 0xfffff) === 0xfffff;
  return allOnes ? 1 / a : approximate(1 / a);
}
const rsqF64 = (a: number): number => (a !== a || a < 0 ? NaN : a === 0 ? (Object.is(a, -0) ? -Infinity : Infinity) : approximate(1 / Math.sqrt(a)));

/** The biased exponent field. */
function exponentOf(x: number): number {
  F64[0] = x;
  return (U64[1]! >>> 20) & 0x7ff;
}
const signOf = (x: number): number => {
  F64[0] = x;
  return U64[1]! >>> 31;
};
const MIN_NORMAL = 2 ** -1022;
const isDenormal = (x: number): boolean => x !== 0 && Math.abs(x) < MIN_NORMAL;
/** Whether the exact quotient n / d is nonzero and below the normal range (the rounded one may already be 0). */
function quotientDenormal(n: number, d: number): boolean {
  if (n === 0 || !Number.isFinite(n) || !Number.isFinite(d)) return false;
  return Math.abs(n / d) < MIN_NORMAL;
}

/**
 * v_div_scale_f64 S0, S1 = denominator, S2 = numerator (S0 is one of them): the guide's cases
 * in order. Where the guide scales a huge denominator (1/S1 subnormal) together with a
 * subnormal quotient by +128, which would overflow it, the denominator is scaled by −128
 * as in the case below it; VCC then tells v_div_fmas to scale the quotient down.
 */
function divScale(s0: number, s1: number, s2: number): [number, boolean] {
  if (s2 === 0 || s1 === 0) return [NaN, false];
  const denominator = Object.is(s0, s1);
  if (exponentOf(s2) - exponentOf(s1) >= 768) return [denominator ? ldexpF64(s0, 128) : s0, true];
  if (isDenormal(s1)) return [ldexpF64(s0, 128), false];
  const reciprocalDenormal = Number.isFinite(s1) && Math.abs(s1) > 2 ** 1022;
  if (reciprocalDenormal && quotientDenormal(s2, s1)) return [denominator ? ldexpF64(s0, -128) : s0, true];
  if (reciprocalDenormal) return [ldexpF64(s0, -128), false];
  if (quotientDenormal(s2, s1)) return [denominator ? s0 : ldexpF64(s0, 128), true];
  if (exponentOf(s2) <= 53) return [ldexpF64(s0, 128), false];
  return [s0, false];
}

/** v_div_fmas_f64: S0 · S1 + S2, under VCC scaled by 2^128 when S2 ≥ 2 and by 2^-128 otherwise, rounded once. */
function divFmas(a: number, b: number, c: number, vcc: boolean): number {
  if (!vcc) return fmaF64(a, b, c);
  const k = exponentOf(c) > 1023 ? 128 : -128;
  if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(c) || a === 0 || b === 0 || c === 0) return ldexpF64(fmaF64(a, b, c), k);
  const [ma, ea] = decompose(a);
  const [mb, eb] = decompose(b);
  const [mc, ec] = decompose(c);
  const e = Math.min(ea + eb, ec);
  return roundToDouble(((ma * mb) << BigInt(ea + eb - e)) + (mc << BigInt(ec - e)), e + k);
}

/** v_div_fixup_f64 S0 = quotient, S1 = denominator, S2 = numerator: IEEE results of the special cases, else ±|S0|. */
function divFixup(q: number, d: number, n: number): number {
  const negative = signOf(d) !== signOf(n);
  if (n !== n) return n;
  if (d !== d) return d;
  const dInf = !Number.isFinite(d), nInf = !Number.isFinite(n);
  if ((d === 0 && n === 0) || (dInf && nInf)) return NaN;
  if (d === 0 || nInf) return negative ? -Infinity : Infinity;
  if (dInf || n === 0) return negative ? -0 : 0;
  if (exponentOf(n) - exponentOf(d) < -1075) return negative ? -0 : 0;
  // Operands past the special cases that still give a NaN quotient overflowed the scaled steps
  // (∞ − ∞ in the residual): the result is the overflow, ±∞ (the guide's pseudocode omits it).
  if (q !== q) return negative ? -Infinity : Infinity;
  return negative ? -Math.abs(q) : Math.abs(q);
}

const maxNum = (a: number, b: number): number => (a !== a ? b : b !== b ? a : a > b ? a : b > a ? b : Object.is(a, -0) ? b : a);
const minNum = (a: number, b: number): number => (a !== a ? b : b !== b ? a : a < b ? a : b < a ? b : Object.is(a, -0) ? a : b);
const roundEven = (x: number): number => {
  if (!Number.isFinite(x) || Math.abs(x) >= 2 ** 52) return x;
  let r = Math.floor(x);
  const d = x - r;
  if (d > 0.5 || (d === 0.5 && r % 2 !== 0)) r += 1;
  return r === 0 ? (x < 0 || Object.is(x, -0) ? -0 : 0) : r;
};
const saturate = (x: number, lo: number, hi: number): number => (x !== x ? 0 : x <= lo ? lo : x >= hi ? hi : Math.trunc(x));

type Kind = "f64" | "f32" | "i32" | "u32";
interface Spec {
  readonly src: readonly Kind[];
  readonly dst: Kind;
  readonly fn: (a: number, b: number, c: number) => number;
}

const OPS: Record<string, Spec> = {
  v_add_f64: { src: ["f64", "f64"], dst: "f64", fn: (a, b) => a + b },
  v_mul_f64: { src: ["f64", "f64"], dst: "f64", fn: (a, b) => a * b },
  v_fma_f64: { src: ["f64", "f64", "f64"], dst: "f64", fn: fmaF64 },
  // VOP2 (gfx90a+): D = S0 · S1 + D.
  v_fmac_f64: { src: ["f64", "f64"], dst: "f64", fn: fmaF64 },
  v_min_f64: { src: ["f64", "f64"], dst: "f64", fn: minNum },
  v_max_f64: { src: ["f64", "f64"], dst: "f64", fn: maxNum },
  v_cvt_f64_f32: { src: ["f32"], dst: "f64", fn: (a) => a },
  v_cvt_f64_i32: { src: ["i32"], dst: "f64", fn: (a) => a },
  v_cvt_f64_u32: { src: ["u32"], dst: "f64", fn: (a) => a },
  v_cvt_f32_f64: { src: ["f64"], dst: "f32", fn: (a) => a },
  v_cvt_i32_f64: { src: ["f64"], dst: "i32", fn: (a) => saturate(a, -2147483648, 2147483647) },
  v_cvt_u32_f64: { src: ["f64"], dst: "u32", fn: (a) => saturate(a, 0, 4294967295) },
  v_trunc_f64: { src: ["f64"], dst: "f64", fn: Math.trunc },
  v_ceil_f64: { src: ["f64"], dst: "f64", fn: Math.ceil },
  v_floor_f64: { src: ["f64"], dst: "f64", fn: Math.floor },
  v_rndne_f64: { src: ["f64"], dst: "f64", fn: roundEven },
  v_rcp_f64: { src: ["f64"], dst: "f64", fn: rcpF64 },
  v_rsq_f64: { src: ["f64"], dst: "f64", fn: rsqF64 },
  v_ldexp_f64: { src: ["f64", "i32"], dst: "f64", fn: ldexpF64 },
  v_div_fixup_f64: { src: ["f64", "f64", "f64"], dst: "f64", fn: divFixup },
  // Their VCC output and input are handled in compileF64.
  v_div_scale_f64: { src: ["f64", "f64", "f64"], dst: "f64", fn: (a) => a },
  v_div_fmas_f64: { src: ["f64", "f64", "f64"], dst: "f64", fn: fmaF64 },
};

export function isF64Op(name: string): boolean {
  return name in OPS;
}

function fail(inst: Instruction, ctx: CompileContext, why: string): never {
  throw new LoomError("unimplemented", `the simulator does not implement ${inst.name}${why} (${inst.format} at 0x${inst.address.toString(16)}) in kernel '${ctx.kernel.name}'`);
}

type Reader = (w: Wave, lane: number) => number;

/** The wave and lane an op's function runs for (the VCC bits of the division helpers). */
let WAVE: Wave | undefined;
let LANE = 0;

export function compileF64(inst: Instruction, name: string, ctx: CompileContext): Compiled {
  const f = inst.f;
  const fam = ctx.family;
  const spec = OPS[name]!;
  if (f.extraKind !== "") fail(inst, ctx, ` with ${f.extraKind}`);
  if (f.clamp !== 0 || f.omod !== 0 || f.opsel !== 0) fail(inst, ctx, " with clamp, omod or op_sel");
  if (inst.format === "VOP1" && spec.src.length !== 1) fail(inst, ctx, " as VOP1");
  const accumulate = name === "v_fmac_f64";
  const vop3 = inst.format === "VOP3";
  const abs = vop3 ? f.abs : 0;
  const neg = vop3 ? f.neg : 0;
  const codes = [f.src0, f.src1, f.src2];
  const sregs: number[] = [];
  const vregs: number[] = [];
  const where = `${inst.name} at 0x${inst.address.toString(16)}`;
  const readers: Reader[] = spec.src.map((kind, i) => {
    const code = codes[i]!;
    const wide = kind === "f64";
    sourceRegisters(code, wide ? 2 : 1, fam, sregs, vregs);
    let raw: Reader;
    if (wide) {
      if (code >= 256) {
        const v = code - 256;
        raw = (w, lane) => ((U64[0] = w.vu[v * w.width + lane]!), (U64[1] = w.vu[(v + 1) * w.width + lane]!), F64[0]!);
      } else {
        const read = scalarRead64(code, f.literal, fam, true, false, where);
        const pair = new Uint32Array(2);
        raw = (w) => (read(w, pair), (U64[0] = pair[0]!), (U64[1] = pair[1]!), F64[0]!);
      }
    } else {
      const bits: Reader = code >= 256 ? (w, lane) => w.vu[(code - 256) * w.width + lane]! : ((r) => (w: Wave) => r(w))(scalarRead32(code, f.literal, fam, kind === "f32" ? "f32" : "none", where));
      raw = kind === "f32" ? (w, lane) => ((U32[0] = bits(w, lane)), F32[0]!) : kind === "i32" ? (w, lane) => bits(w, lane) | 0 : (w, lane) => bits(w, lane) >>> 0;
    }
    const isFloat = kind === "f64" || kind === "f32";
    if (!isFloat || (((abs | neg) >> i) & 1) === 0) return raw;
    const a = (abs >> i) & 1, n = (neg >> i) & 1;
    return (w, lane) => {
      let x = raw(w, lane);
      if (a) x = Math.abs(x);
      return n ? -x : x;
    };
  });
  const vdst = f.vdst;
  if (vdst < 0) fail(inst, ctx, " (no destination)");
  if (accumulate) {
    vregs.push(vdst, vdst + 1);
    readers.push((w, lane) => ((U64[0] = w.vu[vdst * w.width + lane]!), (U64[1] = w.vu[(vdst + 1) * w.width + lane]!), F64[0]!));
  }
  const pairOut = spec.dst === "f64";
  vregs.push(vdst);
  if (pairOut) vregs.push(vdst + 1);
  const [r0, r1, r2] = readers;
  const dst = spec.dst;
  const mask = ctx.width === 64 ? [VCC_LO, VCC_LO + 1] : [VCC_LO];
  // v_div_scale_f64 writes its lane mask to the VOP3b sdst (null: nowhere); v_div_fmas_f64 reads VCC.
  const scale = name === "v_div_scale_f64";
  const sd = scale ? sgprIndex(f.sdst, fam) : -1;
  if (scale && sd !== NULL_CODE && sd < 0) fail(inst, ctx, ` with scalar destination code ${f.sdst}`);
  if (scale && sd >= 0) sregs.push(sd, ...(ctx.width === 64 ? [sd + 1] : []));
  if (name === "v_div_fmas_f64") sregs.push(...mask);
  let flags = [0, 0];
  const fn: Spec["fn"] = scale
    ? (a, b, c) => {
        const [v, flag] = divScale(a, b, c);
        if (flag) flags[LANE >>> 5] = (flags[LANE >>> 5]! | (1 << (LANE & 31))) >>> 0;
        return v;
      }
    : name === "v_div_fmas_f64"
      ? (a, b, c) => divFmas(a, b, c, ((WAVE!.s[VCC_LO + (LANE >>> 5)]! >>> (LANE & 31)) & 1) === 1)
      : spec.fn;
  return {
    inst, sregs, vregs,
    exec: (w) => {
      const W = w.width;
      WAVE = w;
      flags = [0, 0];
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        LANE = lane;
        const r = fn(r0!(w, lane), r1 ? r1(w, lane) : 0, r2 ? r2(w, lane) : 0);
        if (pairOut) {
          F64[0] = r;
          w.vu[vdst * W + lane] = U64[0]!;
          w.vu[(vdst + 1) * W + lane] = U64[1]!;
        } else if (dst === "f32") w.vf[vdst * W + lane] = r;
        else w.vu[vdst * W + lane] = r >>> 0;
      }
      if (sd >= 0) {
        w.s[sd] = flags[0]!;
        if (W === 64) w.s[sd + 1] = flags[1]!;
      }
    },
  };
}
