/**
 * 16-bit float VALU ops (VOP1, VOP2, VOP3, VOPC forms): the low half of each 32-bit source is
 * the IEEE binary16 operand; results round to nearest even (the default mode) and fill the
 * low half. gfx9 zeroes the high half of the destination, gfx10+ keep it (RDNA's 16-bit ops
 * write only their half). Computing in double is exact here: f16 sums and products need at
 * most 80 bits only for fma, which is done in scaled integers.
 */
import { LoomError } from "../../core/errors.js";
import type { Instruction } from "./decode.js";
import { scalarRead32, sgprIndex, sourceRegisters, type Read32 } from "./operands.js";
import { EXEC_LO, NULL_CODE, NULL_SINK, VCC_LO, type Wave } from "./wave.js";
import type { CompileContext, Compiled } from "./compiled.js";

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** binary16 bits → value. */
export function halfToNumber(h: number): number {
  const exponent = (h >>> 10) & 31;
  const fraction = h & 1023;
  const magnitude = exponent === 31 ? (fraction ? NaN : Infinity) : exponent === 0 ? fraction / 16777216 : (1 + fraction / 1024) * 2 ** (exponent - 15);
  return h & 0x8000 ? -magnitude : magnitude;
}

/**
 * value → binary16 bits, nearest even. Works on the scaled integer: |x|·2^24 rounded to an
 * integer is exact for subnormals; normals keep 11 significant bits of it.
 */
export function numberToHalf(x: number): number {
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || (x === 0 && 1 / x < 0) ? 0x8000 : 0;
  let a = Math.abs(x);
  if (a === Infinity) return sign | 0x7c00;
  // Find the binade: the unit in the last place of the result.
  let ulp = 2 ** -24;
  if (a >= 2 ** -14) {
    let e = -14;
    while (e < 16 && a >= 2 ** (e + 1)) e++;
    ulp = 2 ** (e - 10);
  }
  const q = a / ulp; // exact: a power-of-two scaling
  let n = Math.floor(q);
  const rest = q - n;
  if (rest > 0.5 || (rest === 0.5 && (n & 1) === 1)) n++;
  a = n * ulp;
  if (a >= 65536) return sign | 0x7c00;
  if (a < 2 ** -14) return sign | Math.round(a * 2 ** 24);
  const e = Math.floor(Math.log2(a));
  const exponentField = e + 15;
  const fraction = Math.round(a / 2 ** e * 1024) - 1024;
  return sign | (exponentField << 10) | fraction;
}

/** f16 fused multiply-add, one rounding: every f16 is a multiple of 2^-24, so a·b + c·2^24 is an integer in units of 2^-48. */
function fmaHalf(a: number, b: number, c: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(c)) return a * b + c;
  const s = BigInt(a * 2 ** 24) * BigInt(b * 2 ** 24) + BigInt(c * 2 ** 24) * (1n << 24n);
  if (s === 0n) return a * b === 0 && c === 0 && (Object.is(a * b, -0) && Object.is(c, -0)) ? -0 : 0;
  const negative = s < 0n;
  let m = negative ? -s : s;
  // Scale down to ≤ 53 bits with a sticky bit so the final rounding to 11 bits is exact.
  let shift = 0;
  while (m >= 1n << 53n) {
    const sticky = m & 1n;
    m = (m >> 1n) | sticky;
    shift++;
  }
  const v = Number(m) * 2 ** (shift - 48);
  return negative ? -v : v;
}

type Fn = (a: number, b: number, c: number) => number;

const ARITH: Record<string, { n: number; fn: Fn }> = {
  v_add_f16: { n: 2, fn: (a, b) => a + b },
  v_sub_f16: { n: 2, fn: (a, b) => a - b },
  v_subrev_f16: { n: 2, fn: (a, b) => b - a },
  v_mul_f16: { n: 2, fn: (a, b) => a * b },
  v_max_f16: { n: 2, fn: (a, b) => (a !== a ? b : b !== b ? a : a > b ? a : b > a ? b : Object.is(a, -0) ? b : a) },
  v_min_f16: { n: 2, fn: (a, b) => (a !== a ? b : b !== b ? a : a < b ? a : b < a ? b : Object.is(a, -0) ? a : b) },
  v_fma_f16: { n: 3, fn: fmaHalf },
  v_fmac_f16: { n: 3, fn: fmaHalf },
};

const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  f: () => false, lt: (a, b) => a < b, eq: (a, b) => a === b, le: (a, b) => a <= b, gt: (a, b) => a > b, lg: (a, b) => a < b || a > b, ge: (a, b) => a >= b,
  o: (a, b) => a === a && b === b, u: (a, b) => a !== a || b !== b, nge: (a, b) => !(a >= b), nlg: (a, b) => !(a < b || a > b), ngt: (a, b) => !(a > b),
  nle: (a, b) => !(a <= b), neq: (a, b) => a !== b, nlt: (a, b) => !(a < b), t: () => true,
};

/** Whether the simulator's 16-bit float path handles `name`. */
export function isHalfOp(name: string): boolean {
  return name === "v_cvt_f32_f16" || name === "v_cvt_f16_f32" || name === "v_pack_b32_f16" || name === "v_fmaak_f16" || name === "v_fmamk_f16" || name in ARITH || /^v_cmpx?_\w+_f16$/.test(name);
}

function fail(inst: Instruction, ctx: CompileContext, why: string): never {
  throw new LoomError("unimplemented", `the simulator does not implement ${inst.name}${why} (${inst.format} at 0x${inst.address.toString(16)}) in kernel '${ctx.kernel.name}'`);
}

interface Source {
  readonly vreg: number;
  readonly uniform: Read32 | undefined;
}

export function compileHalf(inst: Instruction, name: string, ctx: CompileContext): Compiled {
  const f = inst.f;
  const fam = ctx.family;
  const sregs: number[] = [];
  const vregs: number[] = [];
  if (f.extraKind !== "") fail(inst, ctx, ` with ${f.extraKind}`);
  if (f.opsel !== 0 || f.clamp !== 0 || f.omod !== 0) fail(inst, ctx, " with op_sel, clamp or omod");
  const vop3 = inst.format === "VOP3";
  const abs = vop3 ? f.abs : 0;
  const neg = vop3 ? f.neg : 0;
  const codes = inst.format === "VOP1" ? [f.src0] : [f.src0, f.src1, f.src2];
  const convertFromF32 = name === "v_cvt_f16_f32";
  const source = (i: number): Source => {
    const code = codes[i]!;
    sourceRegisters(code, 1, fam, sregs, vregs);
    if (code >= 256) return { vreg: code - 256, uniform: undefined };
    return { vreg: -1, uniform: scalarRead32(code, f.literal, fam, convertFromF32 ? "f32" : "f16", `${inst.name} at 0x${inst.address.toString(16)}`) };
  };
  const value = (w: Wave, s: Source, lane: number, i: number): number => {
    const bits = s.vreg >= 0 ? w.vu[s.vreg * w.width + lane]! : s.uniform!(w);
    let v: number;
    if (convertFromF32) {
      U32[0] = bits;
      v = F32[0]!;
    } else v = halfToNumber(bits & 0xffff);
    if ((abs >> i) & 1) v = Math.abs(v);
    if ((neg >> i) & 1) v = -v;
    return v;
  };
  const active = (w: Wave, lane: number) => w.laneActive(lane);

  const cmp = /^v_cmp(x?)_(\w+)_f16$/.exec(name);
  if (cmp) {
    const test = COMPARE[cmp[2]!];
    if (!test) fail(inst, ctx, "");
    const x = cmp[1] === "x";
    const a = source(0), b = source(1);
    let sd: number;
    if (inst.format === "VOPC") sd = x && fam === "gfx11" ? -1 : VCC_LO;
    else if (x && fam === "gfx11") sd = -1;
    else {
      const s = sgprIndex(f.vdst, fam);
      sd = s === NULL_CODE ? NULL_SINK : s;
      if (s < 0 && s !== NULL_CODE) fail(inst, ctx, " (scalar destination)");
    }
    if (sd >= 0) sregs.push(sd, sd + 1);
    if (x) sregs.push(EXEC_LO, EXEC_LO + 1);
    return {
      inst, sregs, vregs,
      exec: (w) => {
        let lo = 0, hi = 0;
        for (let lane = 0; lane < w.width; lane++) {
          if (!active(w, lane) || !test(value(w, a, lane, 0), value(w, b, lane, 1))) continue;
          if (lane < 32) lo |= 1 << lane;
          else hi |= 1 << (lane - 32);
        }
        const write = (s: number) => {
          w.s[s] = lo >>> 0;
          if (w.width === 64) w.s[s + 1] = hi >>> 0;
        };
        if (sd >= 0) write(sd);
        if (x) write(EXEC_LO);
      },
    };
  }

  const vdst = f.vdst;
  if (vdst < 0) fail(inst, ctx, " (no destination)");
  vregs.push(vdst);
  const keepHigh = fam !== "gfx9";
  if (name === "v_cvt_f32_f16") {
    const a = source(0);
    return {
      inst, sregs, vregs,
      exec: (w) => {
        for (let lane = 0; lane < w.width; lane++) if (active(w, lane)) w.vf[vdst * w.width + lane] = value(w, a, lane, 0);
      },
    };
  }
  if (name === "v_pack_b32_f16") {
    // D = {S1[15:0], S0[15:0]} (bits moved as they are; no modifiers).
    if (abs !== 0 || neg !== 0) fail(inst, ctx, " with modifiers");
    const a = source(0), b = source(1);
    return {
      inst, sregs, vregs,
      exec: (w) => {
        const W = w.width;
        for (let lane = 0; lane < W; lane++) {
          if (!active(w, lane)) continue;
          const lo = a.vreg >= 0 ? w.vu[a.vreg * W + lane]! : a.uniform!(w);
          const hi = b.vreg >= 0 ? w.vu[b.vreg * W + lane]! : b.uniform!(w);
          w.vu[vdst * W + lane] = ((lo & 0xffff) | ((hi & 0xffff) << 16)) >>> 0;
        }
      },
    };
  }
  if (name === "v_fmaak_f16" || name === "v_fmamk_f16") {
    // fmaak: D = S0·S1 + K; fmamk: D = S0·K + S1 (K: the literal's low half).
    const k = halfToNumber(f.literal & 0xffff);
    const a = source(0), b = source(1);
    const ak = name === "v_fmaak_f16";
    return {
      inst, sregs, vregs,
      exec: (w) => {
        const W = w.width;
        for (let lane = 0; lane < W; lane++) {
          if (!active(w, lane)) continue;
          const x = value(w, a, lane, 0), y = value(w, b, lane, 1);
          const at = vdst * W + lane;
          const bits = numberToHalf(ak ? fmaHalf(x, y, k) : fmaHalf(x, k, y));
          w.vu[at] = keepHigh ? ((w.vu[at]! & 0xffff0000) | bits) >>> 0 : bits;
        }
      },
    };
  }
  const spec = convertFromF32 ? { n: 1, fn: ((a: number) => a) as Fn } : ARITH[name];
  if (!spec) fail(inst, ctx, "");
  const accumulate = name === "v_fmac_f16";
  const srcs = Array.from({ length: accumulate ? 2 : spec.n }, (_, i) => source(i));
  if (accumulate) srcs.push({ vreg: vdst, uniform: undefined });
  if (inst.format === "VOP1" && spec.n !== 1) fail(inst, ctx, " as VOP1");
  return {
    inst, sregs, vregs,
    exec: (w) => {
      const W = w.width;
      for (let lane = 0; lane < W; lane++) {
        if (!active(w, lane)) continue;
        const a = value(w, srcs[0]!, lane, 0);
        const b = spec.n > 1 ? value(w, srcs[1]!, lane, 1) : 0;
        const c = spec.n > 2 ? value(w, srcs[2]!, lane, 2) : 0;
        const bits = numberToHalf(spec.fn(a, b, c));
        const at = vdst * W + lane;
        w.vu[at] = keepHigh ? ((w.vu[at]! & 0xffff0000) | bits) >>> 0 : bits;
      }
    },
  };
}
