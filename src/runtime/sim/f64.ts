/**
 * f64 VALU ops (VOP1 and VOP3): a VGPR pair or 64-bit scalar source per operand, the IEEE
 * result in the destination pair. + and × round once in double already; fma is computed
 * exactly in BigInt and rounded once (subnormal results included); conversions to f32 round
 * to nearest even, to integers truncate and saturate (NaN → 0), as the hardware does.
 */
import { LoomError } from "../../core/errors.js";
import type { Instruction } from "./decode.js";
import { scalarRead32, scalarRead64, sourceRegisters } from "./operands.js";
import type { Wave } from "./wave.js";
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
};

export function isF64Op(name: string): boolean {
  return name in OPS;
}

function fail(inst: Instruction, ctx: CompileContext, why: string): never {
  throw new LoomError("unimplemented", `the simulator does not implement ${inst.name}${why} (${inst.format} at 0x${inst.address.toString(16)}) in kernel '${ctx.kernel.name}'`);
}

type Reader = (w: Wave, lane: number) => number;

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
  const fn = spec.fn;
  const dst = spec.dst;
  return {
    inst, sregs, vregs,
    exec: (w) => {
      const W = w.width;
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        const r = fn(r0!(w, lane), r1 ? r1(w, lane) : 0, r2 ? r2(w, lane) : 0);
        if (pairOut) {
          F64[0] = r;
          w.vu[vdst * W + lane] = U64[0]!;
          w.vu[(vdst + 1) * W + lane] = U64[1]!;
        } else if (dst === "f32") w.vf[vdst * W + lane] = r;
        else w.vu[vdst * W + lane] = r >>> 0;
      }
    },
  };
}
