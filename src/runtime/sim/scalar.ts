/**
 * Scalar ALU, program control and scalar memory (SOP1, SOP2, SOPK, SOPC, SOPP, SMEM): each
 * instruction becomes a closure over its decoded operands. Semantics from the RDNA3 / CDNA3
 * ISA guides; SCC as they define it per opcode.
 */
import { LoomError } from "../../core/errors.js";
import type { Instruction } from "./decode.js";
import { scalarRead32, scalarRead64, sgprIndex, sourceRegisters } from "./operands.js";
import { EXEC_LO, NULL_CODE, NULL_SINK, VCC_LO, type Wave } from "./wave.js";
import type { CompileContext, Compiled } from "./compiled.js";

const TWO32 = 4294967296;
const P = new Uint32Array(2);
const Q = new Uint32Array(2);

function unimplemented(inst: Instruction, ctx: CompileContext): never {
  throw new LoomError("unimplemented", `the simulator does not implement ${inst.name} (${inst.format} opcode ${inst.opcode}, word 0x${inst.words[0]!.toString(16).padStart(8, "0")} at 0x${inst.address.toString(16)}) in kernel '${ctx.kernel.name}'`);
}

/** Destination SGPR index (null → the sink). */
function dest(code: number, ctx: CompileContext, inst: Instruction): number {
  const s = sgprIndex(code, ctx.family);
  if (s === NULL_CODE) return NULL_SINK;
  if (s < 0) throw new LoomError("data-loss", `${inst.name} at 0x${inst.address.toString(16)}: destination code ${code} is not a scalar register`);
  return s;
}

const sext16 = (v: number): number => (v << 16) >> 16;
const popcount = (v: number): number => {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
};
const ctz = (v: number): number => (v === 0 ? -1 : 31 - Math.clz32(v & -v));

function bitwise(op: string): ((a: number, b: number) => number) | undefined {
  switch (op) {
    case "and": return (a, b) => a & b;
    case "or": return (a, b) => a | b;
    case "xor": return (a, b) => a ^ b;
    case "nand": return (a, b) => ~(a & b);
    case "nor": return (a, b) => ~(a | b);
    case "xnor": return (a, b) => ~(a ^ b);
    case "and_not1": return (a, b) => a & ~b;
    case "or_not1": return (a, b) => a | ~b;
    case "and_not0": return (a, b) => ~a & b;
    case "or_not0": return (a, b) => ~a | b;
  }
  return undefined;
}

function compare(cond: string, signed: boolean): (a: number, b: number) => boolean {
  const c = signed ? (x: number) => x | 0 : (x: number) => x >>> 0;
  switch (cond) {
    case "eq": return (a, b) => c(a) === c(b);
    case "lg": return (a, b) => c(a) !== c(b);
    case "gt": return (a, b) => c(a) > c(b);
    case "ge": return (a, b) => c(a) >= c(b);
    case "lt": return (a, b) => c(a) < c(b);
    case "le": return (a, b) => c(a) <= c(b);
  }
  throw new LoomError("internal", `unknown comparison ${cond}`);
}

export function compileScalar(inst: Instruction, name: string, ctx: CompileContext): Compiled {
  const f = inst.f;
  const fam = ctx.family;
  const where = `${inst.name} at 0x${inst.address.toString(16)}`;
  const sregs: number[] = [];
  const vregs: number[] = [];
  const done = (exec: (w: Wave) => void): Compiled => ({ inst, exec, sregs, vregs });

  if (inst.format === "SOPP") return compileSopp(inst, name, ctx, done);
  if (inst.format === "SMEM") return compileSmem(inst, name, ctx);

  // 64-bit forms of the common ALU ops.
  const is64 = /_b64$|_u64$|_i64$/.test(name) && !/^s_(bcnt|ctz|clz|ff1|flbit|cls)/.test(name);
  const src0Dwords = is64 && name !== "s_bfm_b64" ? 2 : 1;
  const src1Dwords = is64 && /^s_(and|or|xor|nand|nor|xnor|and_not1|or_not1|cselect|cmp)_/.test(name) ? 2 : 1;

  if (inst.format === "SOPK") {
    const imm = f.simm16;
    const d = () => dest(f.sdst, ctx, inst);
    if (name === "s_movk_i32") {
      const r = d();
      sregs.push(r);
      const v = sext16(imm) >>> 0;
      return done((w) => void (w.s[r] = v));
    }
    if (name === "s_cmovk_i32") {
      const r = d();
      sregs.push(r);
      const v = sext16(imm) >>> 0;
      return done((w) => {
        if (w.scc) w.s[r] = v;
      });
    }
    let m = /^s_cmpk_(\w+)_([iu])32$/.exec(name);
    if (m) {
      const r = d();
      sregs.push(r);
      const signed = m[2] === "i";
      const cmp = compare(m[1]!, signed);
      const k = signed ? sext16(imm) : imm;
      return done((w) => void (w.scc = cmp(w.s[r]!, k) ? 1 : 0));
    }
    if (name === "s_addk_i32") {
      const r = d();
      sregs.push(r);
      const k = sext16(imm);
      return done((w) => {
        const a = w.s[r]! | 0;
        const sum = a + k;
        w.s[r] = sum >>> 0;
        w.scc = sum > 0x7fffffff || sum < -0x80000000 ? 1 : 0;
      });
    }
    if (name === "s_mulk_i32") {
      const r = d();
      sregs.push(r);
      const k = sext16(imm);
      return done((w) => void (w.s[r] = Math.imul(w.s[r]!, k) >>> 0));
    }
    m = /^s_waitcnt_(vscnt|vmcnt|lgkmcnt|expcnt)$/.exec(name);
    if (m) {
      const counter = m[1] === "vscnt" ? "vs" : m[1] === "vmcnt" ? "vm" : m[1] === "lgkmcnt" ? "lgkm" : undefined;
      const reg = scalarRead32(f.sdst, 0, fam, "none", where);
      return done((w) => {
        if (counter) w.wait(counter, reg(w) + imm);
      });
    }
    if (name === "s_getreg_b32") {
      const r = d();
      sregs.push(r);
      // HW_REG reads (MODE, STATUS, HW_ID...): the simulator reports zero.
      return done((w) => void (w.s[r] = 0));
    }
    if (name === "s_setreg_b32" || name === "s_setreg_imm32_b32") {
      // Mode changes (rounding, denormals) are not modeled: the simulator rounds to nearest even and keeps denormals.
      return done(() => {});
    }
    if (name === "s_version") return done(() => {});
    return unimplemented(inst, ctx);
  }

  if (inst.format === "SOPC") {
    let m = /^s_cmp_(eq|lg|gt|ge|lt|le)_([iu])32$/.exec(name);
    if (m) {
      const a = scalarRead32(f.ssrc0, f.literal, fam, "none", where);
      const b = scalarRead32(f.ssrc1, f.literal, fam, "none", where);
      sourceRegisters(f.ssrc0, 1, fam, sregs, vregs);
      sourceRegisters(f.ssrc1, 1, fam, sregs, vregs);
      const cmp = compare(m[1]!, m[2] === "i");
      return done((w) => void (w.scc = cmp(a(w), b(w)) ? 1 : 0));
    }
    m = /^s_cmp_(eq|lg)_u64$/.exec(name);
    if (m) {
      const a = scalarRead64(f.ssrc0, f.literal, fam, false, false, where);
      const b = scalarRead64(f.ssrc1, f.literal, fam, false, false, where);
      sourceRegisters(f.ssrc0, 2, fam, sregs, vregs);
      sourceRegisters(f.ssrc1, 2, fam, sregs, vregs);
      const eq = m[1] === "eq";
      return done((w) => {
        a(w, P);
        b(w, Q);
        const same = P[0] === Q[0] && P[1] === Q[1];
        w.scc = same === eq ? 1 : 0;
      });
    }
    m = /^s_bitcmp([01])_b32$/.exec(name);
    if (m) {
      const a = scalarRead32(f.ssrc0, f.literal, fam, "none", where);
      const b = scalarRead32(f.ssrc1, f.literal, fam, "none", where);
      sourceRegisters(f.ssrc0, 1, fam, sregs, vregs);
      sourceRegisters(f.ssrc1, 1, fam, sregs, vregs);
      const want = Number(m[1]);
      return done((w) => void (w.scc = ((a(w) >>> (b(w) & 31)) & 1) === want ? 1 : 0));
    }
    return unimplemented(inst, ctx);
  }

  // SOP1 / SOP2.
  const r = dest(f.sdst, ctx, inst);
  const two = inst.format === "SOP2";
  sourceRegisters(f.ssrc0, src0Dwords, fam, sregs, vregs);
  if (two) sourceRegisters(f.ssrc1, src1Dwords, fam, sregs, vregs);
  sregs.push(r);
  if (is64 || /_b64$/.test(name)) sregs.push(r + 1);
  const a32 = () => scalarRead32(f.ssrc0, f.literal, fam, "none", where);
  const b32 = () => scalarRead32(f.ssrc1, f.literal, fam, "none", where);
  const a64 = () => scalarRead64(f.ssrc0, f.literal, fam, false, /_i64$/.test(name), where);
  const b64 = () => scalarRead64(f.ssrc1, f.literal, fam, false, /_i64$/.test(name), where);

  // Exec-mask manipulation (s_and_saveexec_b32, ...): D = EXEC, EXEC = op(S0, EXEC), SCC = EXEC != 0.
  let m = /^s_(\w+?)_(saveexec|wrexec)_b(32|64)$/.exec(name);
  if (m) {
    const fn = bitwise(m[1]!);
    if (!fn) return unimplemented(inst, ctx);
    const wr = m[2] === "wrexec";
    sregs.push(EXEC_LO, EXEC_LO + 1);
    if (m[3] === "32") {
      const a = a32();
      return done((w) => {
        const old = w.s[EXEC_LO]!;
        const v = fn(a(w), old) >>> 0;
        w.s[EXEC_LO] = v;
        w.s[r] = wr ? v : old;
        w.scc = v !== 0 ? 1 : 0;
      });
    }
    const a = a64();
    return done((w) => {
      a(w, P);
      const lo = w.s[EXEC_LO]!;
      const hi = w.s[EXEC_LO + 1]!;
      const nlo = fn(P[0]!, lo) >>> 0;
      const nhi = fn(P[1]!, hi) >>> 0;
      w.s[EXEC_LO] = nlo;
      w.s[EXEC_LO + 1] = nhi;
      w.s[r] = wr ? nlo : lo;
      w.s[r + 1] = wr ? nhi : hi;
      w.scc = nlo !== 0 || nhi !== 0 ? 1 : 0;
    });
  }

  m = /^s_(and|or|xor|nand|nor|xnor|and_not1|or_not1)_b(32|64)$/.exec(name);
  if (m) {
    const fn = bitwise(m[1]!)!;
    if (m[2] === "32") {
      const a = a32();
      const b = b32();
      return done((w) => {
        const v = fn(a(w), b(w)) >>> 0;
        w.s[r] = v;
        w.scc = v !== 0 ? 1 : 0;
      });
    }
    const a = a64();
    const b = b64();
    return done((w) => {
      a(w, P);
      b(w, Q);
      const lo = fn(P[0]!, Q[0]!) >>> 0;
      const hi = fn(P[1]!, Q[1]!) >>> 0;
      w.s[r] = lo;
      w.s[r + 1] = hi;
      w.scc = lo !== 0 || hi !== 0 ? 1 : 0;
    });
  }

  switch (name) {
    case "s_mov_b32": {
      const a = a32();
      return done((w) => void (w.s[r] = a(w)));
    }
    case "s_mov_b64": {
      const a = a64();
      return done((w) => {
        a(w, P);
        w.s[r] = P[0]!;
        w.s[r + 1] = P[1]!;
      });
    }
    case "s_cmov_b32": {
      const a = a32();
      return done((w) => {
        if (w.scc) w.s[r] = a(w);
      });
    }
    case "s_cmov_b64": {
      const a = a64();
      return done((w) => {
        if (!w.scc) return;
        a(w, P);
        w.s[r] = P[0]!;
        w.s[r + 1] = P[1]!;
      });
    }
    case "s_not_b32": {
      const a = a32();
      return done((w) => {
        const v = ~a(w) >>> 0;
        w.s[r] = v;
        w.scc = v !== 0 ? 1 : 0;
      });
    }
    case "s_not_b64": {
      const a = a64();
      return done((w) => {
        a(w, P);
        w.s[r] = ~P[0]! >>> 0;
        w.s[r + 1] = ~P[1]! >>> 0;
        w.scc = w.s[r] !== 0 || w.s[r + 1] !== 0 ? 1 : 0;
      });
    }
    case "s_brev_b32": {
      const a = a32();
      return done((w) => {
        let v = a(w);
        let out = 0;
        for (let i = 0; i < 32; i++) {
          out = (out << 1) | (v & 1);
          v >>>= 1;
        }
        w.s[r] = out >>> 0;
      });
    }
    case "s_bcnt1_i32_b32":
    case "s_bcnt0_i32_b32": {
      const a = a32();
      const zeros = name === "s_bcnt0_i32_b32";
      return done((w) => {
        const v = popcount(zeros ? ~a(w) : a(w));
        w.s[r] = v;
        w.scc = v !== 0 ? 1 : 0;
      });
    }
    case "s_bcnt1_i32_b64": {
      const a = scalarRead64(f.ssrc0, f.literal, fam, false, false, where);
      sourceRegisters(f.ssrc0, 2, fam, sregs, vregs);
      return done((w) => {
        a(w, P);
        const v = popcount(P[0]!) + popcount(P[1]!);
        w.s[r] = v;
        w.scc = v !== 0 ? 1 : 0;
      });
    }
    case "s_ctz_i32_b32": {
      const a = a32();
      return done((w) => void (w.s[r] = ctz(a(w)) >>> 0));
    }
    case "s_ctz_i32_b64": {
      const a = scalarRead64(f.ssrc0, f.literal, fam, false, false, where);
      sourceRegisters(f.ssrc0, 2, fam, sregs, vregs);
      return done((w) => {
        a(w, P);
        const v = P[0] !== 0 ? ctz(P[0]!) : P[1] !== 0 ? 32 + ctz(P[1]!) : -1;
        w.s[r] = v >>> 0;
      });
    }
    case "s_clz_i32_u32": {
      const a = a32();
      return done((w) => {
        const v = a(w);
        w.s[r] = (v === 0 ? -1 : Math.clz32(v)) >>> 0;
      });
    }
    case "s_sext_i32_i8": {
      const a = a32();
      return done((w) => void (w.s[r] = ((a(w) << 24) >> 24) >>> 0));
    }
    case "s_sext_i32_i16": {
      const a = a32();
      return done((w) => void (w.s[r] = ((a(w) << 16) >> 16) >>> 0));
    }
    case "s_abs_i32": {
      const a = a32();
      return done((w) => {
        const v = Math.abs(a(w) | 0) >>> 0;
        w.s[r] = v;
        w.scc = v !== 0 ? 1 : 0;
      });
    }
    case "s_bitset0_b32":
    case "s_bitset1_b32": {
      const a = a32();
      const one = name === "s_bitset1_b32";
      return done((w) => {
        const bit = 1 << (a(w) & 31);
        w.s[r] = (one ? w.s[r]! | bit : w.s[r]! & ~bit) >>> 0;
      });
    }
    case "s_getpc_b64":
      return done((w) => {
        w.s[r] = w.pc >>> 0;
        w.s[r + 1] = Math.floor(w.pc / TWO32);
      });
    case "s_add_u32":
    case "s_sub_u32":
    case "s_addc_u32":
    case "s_subb_u32": {
      const a = a32();
      const b = b32();
      const sub = name === "s_sub_u32" || name === "s_subb_u32";
      const carry = name === "s_addc_u32" || name === "s_subb_u32";
      return done((w) => {
        const c = carry ? w.scc : 0;
        const v = sub ? a(w) - b(w) - c : a(w) + b(w) + c;
        w.s[r] = v >>> 0;
        w.scc = v < 0 || v >= TWO32 ? 1 : 0;
      });
    }
    case "s_add_i32":
    case "s_sub_i32": {
      const a = a32();
      const b = b32();
      const sub = name === "s_sub_i32";
      return done((w) => {
        const v = sub ? (a(w) | 0) - (b(w) | 0) : (a(w) | 0) + (b(w) | 0);
        w.s[r] = v >>> 0;
        w.scc = v > 0x7fffffff || v < -0x80000000 ? 1 : 0;
      });
    }
    case "s_absdiff_i32": {
      const a = a32();
      const b = b32();
      return done((w) => {
        const v = Math.abs((a(w) | 0) - (b(w) | 0)) >>> 0;
        w.s[r] = v;
        w.scc = v !== 0 ? 1 : 0;
      });
    }
    case "s_lshl1_add_u32":
    case "s_lshl2_add_u32":
    case "s_lshl3_add_u32":
    case "s_lshl4_add_u32": {
      const a = a32();
      const b = b32();
      const sh = Number(name[6]);
      return done((w) => {
        const v = a(w) * 2 ** sh + b(w);
        w.s[r] = v >>> 0;
        w.scc = v >= TWO32 ? 1 : 0;
      });
    }
    case "s_min_i32":
    case "s_max_i32":
    case "s_min_u32":
    case "s_max_u32": {
      const a = a32();
      const b = b32();
      const signed = name.endsWith("i32");
      const min = name.startsWith("s_min");
      return done((w) => {
        const x = signed ? a(w) | 0 : a(w);
        const y = signed ? b(w) | 0 : b(w);
        const pickA = min ? x < y : x > y;
        w.s[r] = (pickA ? x : y) >>> 0;
        w.scc = pickA ? 1 : 0;
      });
    }
    case "s_cselect_b32": {
      const a = a32();
      const b = b32();
      return done((w) => void (w.s[r] = w.scc ? a(w) : b(w)));
    }
    case "s_cselect_b64": {
      const a = a64();
      const b = b64();
      return done((w) => {
        (w.scc ? a : b)(w, P);
        w.s[r] = P[0]!;
        w.s[r + 1] = P[1]!;
      });
    }
    case "s_lshl_b32":
    case "s_lshr_b32":
    case "s_ashr_i32": {
      const a = a32();
      const b = b32();
      const op = name.slice(2, 6);
      return done((w) => {
        const s = b(w) & 31;
        const v = (op === "lshl" ? a(w) << s : op === "lshr" ? a(w) >>> s : (a(w) | 0) >> s) >>> 0;
        w.s[r] = v;
        w.scc = v !== 0 ? 1 : 0;
      });
    }
    case "s_lshl_b64":
    case "s_lshr_b64":
    case "s_ashr_i64": {
      const a = scalarRead64(f.ssrc0, f.literal, fam, false, name === "s_ashr_i64", where);
      const b = b32();
      const op = name.slice(2, 6);
      return done((w) => {
        a(w, P);
        const s = b(w) & 63;
        shift64(op, P[0]!, P[1]!, s, P);
        w.s[r] = P[0]!;
        w.s[r + 1] = P[1]!;
        w.scc = P[0] !== 0 || P[1] !== 0 ? 1 : 0;
      });
    }
    case "s_bfm_b32": {
      const a = a32();
      const b = b32();
      return done((w) => void (w.s[r] = ((((1 << (a(w) & 31)) - 1) >>> 0) << (b(w) & 31)) >>> 0));
    }
    case "s_mul_i32": {
      const a = a32();
      const b = b32();
      return done((w) => void (w.s[r] = Math.imul(a(w), b(w)) >>> 0));
    }
    case "s_mul_hi_u32":
    case "s_mul_hi_i32": {
      const a = a32();
      const b = b32();
      const signed = name === "s_mul_hi_i32";
      return done((w) => void (w.s[r] = mulHi(a(w), b(w), signed)));
    }
    case "s_bfe_u32":
    case "s_bfe_i32": {
      const a = a32();
      const b = b32();
      const signed = name === "s_bfe_i32";
      return done((w) => {
        const ctl = b(w);
        const off = ctl & 31;
        const width = (ctl >>> 16) & 0x7f;
        let v = width === 0 ? 0 : width >= 32 ? a(w) >>> off : (a(w) >>> off) & ((1 << width) - 1);
        if (signed && width > 0 && width < 32) v = (v << (32 - width)) >> (32 - width);
        w.s[r] = v >>> 0;
        w.scc = v !== 0 ? 1 : 0;
      });
    }
    case "s_pack_ll_b32_b16":
    case "s_pack_lh_b32_b16":
    case "s_pack_hh_b32_b16":
    case "s_pack_hl_b32_b16": {
      const a = a32();
      const b = b32();
      const hiA = name[7] === "h";
      const hiB = name[8] === "h";
      return done((w) => {
        const x = hiA ? a(w) >>> 16 : a(w) & 0xffff;
        const y = hiB ? b(w) >>> 16 : b(w) & 0xffff;
        w.s[r] = (x | (y << 16)) >>> 0;
      });
    }
  }
  return unimplemented(inst, ctx);
}

/** 64-bit shifts on (lo, hi) into out. */
export function shift64(op: string, lo: number, hi: number, s: number, out: Uint32Array): void {
  if (s === 0) {
    out[0] = lo;
    out[1] = hi;
  } else if (op === "lshl") {
    if (s < 32) {
      out[1] = (hi << s) | (lo >>> (32 - s));
      out[0] = lo << s;
    } else {
      out[1] = lo << (s - 32);
      out[0] = 0;
    }
  } else if (op === "lshr") {
    if (s < 32) {
      out[0] = (lo >>> s) | (hi << (32 - s));
      out[1] = hi >>> s;
    } else {
      out[0] = hi >>> (s - 32);
      out[1] = 0;
    }
  } else {
    if (s < 32) {
      out[0] = (lo >>> s) | (hi << (32 - s));
      out[1] = (hi | 0) >> s;
    } else {
      out[0] = (hi | 0) >> (s - 32);
      out[1] = (hi | 0) >> 31;
    }
  }
}

/** High 32 bits of a 32×32 product, exactly (16-bit halves keep every partial product below 2^53). */
export function mulHi(a: number, b: number, signed: boolean): number {
  if (signed) {
    const p = BigInt(a | 0) * BigInt(b | 0);
    return Number(BigInt.asUintN(32, p >> 32n));
  }
  const a1 = a >>> 16;
  const a0 = a & 0xffff;
  const p0 = a0 * b;
  const p1 = a1 * b;
  const low = (p0 % TWO32) + (p1 % 65536) * 65536;
  return (Math.floor(p0 / TWO32) + Math.floor(p1 / 65536) + Math.floor(low / TWO32)) >>> 0;
}

function compileSopp(inst: Instruction, name: string, ctx: CompileContext, done: (exec: (w: Wave) => void) => Compiled): Compiled {
  const target = inst.address + 4 + sext16(inst.f.simm16) * 4;
  const imm = inst.f.simm16;
  switch (name) {
    case "s_nop":
    case "s_delay_alu":
    case "s_clause":
    case "s_waitcnt_depctr":
    case "s_set_inst_prefetch_distance":
    case "s_sleep":
    case "s_setprio":
    case "s_sendmsg":
    case "s_sendmsghalt":
    case "s_icache_inv":
    case "s_ttracedata":
    case "s_wait_idle":
      return done(() => {});
    case "s_endpgm":
      return done((w) => void (w.state = "done"));
    case "s_trap":
      // The HSA trap handler halts the wave and puts the queue into the error state, which
      // ends the dispatch; trap ID 2 is llvm.trap (loom's kernel.assert).
      return done((w) => {
        throw new LoomError("failed-precondition", `s_trap ${imm & 0xff}${(imm & 0xff) === 2 ? " (llvm.trap; loom emits it for a failed kernel.assert)" : ""} stopped the dispatch in ${w.where(inst.address)}`);
      });
    case "s_barrier":
      return done((w) => void (w.state = "barrier"));
    case "s_branch":
      return done((w) => void (w.pc = target));
    case "s_cbranch_scc0":
      return done((w) => void (w.scc === 0 && (w.pc = target)));
    case "s_cbranch_scc1":
      return done((w) => void (w.scc !== 0 && (w.pc = target)));
    case "s_cbranch_vccz":
      return { ...done((w) => void (w.vccZero() && (w.pc = target))), sregs: [VCC_LO, VCC_LO + 1] };
    case "s_cbranch_vccnz":
      return { ...done((w) => void (!w.vccZero() && (w.pc = target))), sregs: [VCC_LO, VCC_LO + 1] };
    case "s_cbranch_execz":
      return done((w) => void (w.execZero() && (w.pc = target)));
    case "s_cbranch_execnz":
      return done((w) => void (!w.execZero() && (w.pc = target)));
    case "s_waitcnt": {
      // gfx11: vmcnt [15:10], lgkmcnt [9:4], expcnt [2:0]; gfx9: vmcnt [3:0] | [15:14] << 4, lgkmcnt [11:8], expcnt [6:4].
      const vm = ctx.family === "gfx11" ? (imm >>> 10) & 0x3f : (imm & 0xf) | (((imm >>> 14) & 3) << 4);
      const lgkm = ctx.family === "gfx11" ? (imm >>> 4) & 0x3f : (imm >>> 8) & 0xf;
      return done((w) => {
        w.wait("vm", vm);
        w.wait("lgkm", lgkm);
        // gfx9 counts stores in vmcnt too (no separate vscnt).
      });
    }
  }
  throw new LoomError("unimplemented", `the simulator does not implement ${inst.name} (SOPP opcode ${inst.opcode} at 0x${inst.address.toString(16)}) in kernel '${ctx.kernel.name}'`);
}

function compileSmem(inst: Instruction, name: string, ctx: CompileContext): Compiled {
  const f = inst.f;
  const m = /^s_load_b(32|64|128|256|512)$/.exec(name);
  if (!m) {
    if (name === "s_dcache_inv" || name === "s_dcache_wb" || name === "s_gl1_inv") return { inst, exec: () => {}, sregs: [], vregs: [] };
    return unimplemented(inst, ctx);
  }
  const dwords = Number(m[1]) / 32;
  const base = f.sbase;
  const data = sgprIndex(f.sdata, ctx.family);
  if (data < 0) throw new LoomError("data-loss", `${inst.name} at 0x${inst.address.toString(16)}: destination is not an SGPR`);
  const soff = f.soffset >= 0 ? sgprIndex(f.soffset, ctx.family) : NULL_CODE;
  const off = f.offset;
  const regs = Array.from({ length: dwords }, (_, i) => data + i);
  const sregs = [base, base + 1, ...(soff >= 0 ? [soff] : []), ...regs];
  return {
    inst,
    sregs,
    vregs: [],
    exec: (w) => {
      // Scalar loads ignore the low two address bits.
      const address = Math.floor((w.s[base]! + w.s[base + 1]! * TWO32 + off + (soff >= 0 ? w.s[soff]! : 0)) / 4) * 4;
      const { region, offset } = w.memory.resolve(address, dwords * 4, () => `${inst.name} (${w.where(inst.address)})`);
      for (let i = 0; i < dwords; i++) w.s[data + i] = region.view.getUint32(offset + i * 4, true);
      w.issue("lgkm", true, inst.address, inst.name, regs);
    },
  };
}
