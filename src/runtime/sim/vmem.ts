/**
 * Memory instructions: LDS (DS, incl. the cross-lane ds_bpermute / ds_permute / ds_swizzle),
 * global and flat memory (GLOBAL / FLAT, loads, stores and atomics) and the MUBUF cache
 * controls. Lanes run in order, so same-address atomics of one instruction serialize as the
 * hardware serializes them. Data moves at issue; the destination registers stay pending
 * until s_waitcnt retires the operation (wave.ts).
 */
import { LoomError } from "../../core/errors.js";
import type { Instruction } from "./decode.js";
import { sgprIndex } from "./operands.js";
import { NULL_CODE, SHARED_APERTURE_HI, type Counter, type Wave } from "./wave.js";
import type { CompileContext, Compiled } from "./compiled.js";

const TWO32 = 4294967296;
const F = new Float32Array(1);
const U = new Uint32Array(F.buffer);

function unimplemented(inst: Instruction, ctx: CompileContext, why = ""): never {
  throw new LoomError("unimplemented", `the simulator does not implement ${inst.name}${why} (${inst.format} opcode ${inst.opcode}, word 0x${inst.words[0]!.toString(16).padStart(8, "0")} at 0x${inst.address.toString(16)}) in kernel '${ctx.kernel.name}'`);
}

const HIT: { view: DataView | undefined; offset: number } = { view: undefined, offset: 0 };
const range = (first: number, count: number): number[] => Array.from({ length: count }, (_, i) => first + i);

/** Read-modify-write of one dword: returns the new value from the old one and the operands. */
type Atomic32 = (old: number, data: number, data2: number) => number;
const ATOMICS_32: Record<string, Atomic32> = {
  add: (o, d) => o + d,
  sub: (o, d) => o - d,
  rsub: (o, d) => d - o,
  inc: (o, d) => (o >>> 0 >= d >>> 0 ? 0 : o + 1),
  dec: (o, d) => (o === 0 || o >>> 0 > d >>> 0 ? d : o - 1),
  min_i32: (o, d) => ((o | 0) < (d | 0) ? o : d),
  max_i32: (o, d) => ((o | 0) > (d | 0) ? o : d),
  min_u32: (o, d) => (o >>> 0 < d >>> 0 ? o : d),
  max_u32: (o, d) => (o >>> 0 > d >>> 0 ? o : d),
  and: (o, d) => o & d,
  or: (o, d) => o | d,
  xor: (o, d) => o ^ d,
  swap: (_o, d) => d,
  // Global / flat cmpswap: DATA = {src, cmp}.
  cmpswap: (o, d, d2) => (o >>> 0 === d2 >>> 0 ? d : o),
  add_f32: (o, d) => {
    U[0] = o;
    const a = F[0]!;
    U[0] = d;
    F[0] = a + F[0]!;
    return U[0];
  },
};

/** Read-modify-write of one qword (BigInt, unsigned 64-bit): the new value from the old one and the operands. */
type Atomic64 = (old: bigint, data: bigint, data2: bigint) => bigint;
const s64 = (x: bigint) => BigInt.asIntN(64, x);
const ATOMICS_64: Record<string, Atomic64> = {
  add: (o, d) => o + d,
  sub: (o, d) => o - d,
  inc: (o, d) => (o >= d ? 0n : o + 1n),
  dec: (o, d) => (o === 0n || o > d ? d : o - 1n),
  min_i64: (o, d) => (s64(o) < s64(d) ? o : d),
  max_i64: (o, d) => (s64(o) > s64(d) ? o : d),
  min_u64: (o, d) => (o < d ? o : d),
  max_u64: (o, d) => (o > d ? o : d),
  and: (o, d) => o & d,
  or: (o, d) => o | d,
  xor: (o, d) => o ^ d,
  swap: (_o, d) => d,
  // Global / flat cmpswap: DATA = {src, cmp}, each a dword pair.
  cmpswap: (o, d, d2) => (o === d2 ? d : o),
};

/** The 64-bit atomic of a mnemonic suffix (add_u64, min_i64, cmpswap_b64, ...). */
function atomic64Of(suffix: string): Atomic64 | undefined {
  const m = /^(add|sub|inc|dec|min|max|and|or|xor|swap|cmpswap)_([iub])64$/.exec(suffix);
  if (!m) return undefined;
  if (m[1] === "min" || m[1] === "max") return ATOMICS_64[`${m[1]}_${m[2] === "i" ? "i64" : "u64"}`];
  return ATOMICS_64[m[1]!];
}

const qword = (lo: number, hi: number): bigint => (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);

/** The atomic of a mnemonic suffix (add_u32, max_i32, add_f32, cmpswap_b32, ...). */
function atomicOf(suffix: string): Atomic32 | undefined {
  if (suffix === "add_f32") return ATOMICS_32.add_f32;
  const m = /^(add|sub|rsub|inc|dec|min|max|and|or|xor|swap|cmpswap)_([iub])32$/.exec(suffix);
  if (!m) return undefined;
  if (m[1] === "min" || m[1] === "max") return ATOMICS_32[`${m[1]}_${m[2] === "i" ? "i32" : "u32"}`];
  return ATOMICS_32[m[1]!];
}

/** The LDS byte offset of an access (bounds-checked against the workgroup's allocation). */
function lds(w: Wave, address: number, size: number, inst: Instruction): number {
  if (address < 0 || address + size > w.group.ldsView.byteLength) {
    throw new LoomError("out-of-range", `LDS access out of range: ${inst.name} of ${size} bytes at LDS address 0x${(address >>> 0).toString(16)}, the workgroup has ${w.group.ldsView.byteLength} bytes (${w.where(inst.address)})`);
  }
  return address;
}

function loadValue(view: DataView, at: number, bytes: number, signed: boolean): number {
  if (bytes === 4) return view.getUint32(at, true);
  if (bytes === 1) return signed ? view.getInt8(at) >>> 0 : view.getUint8(at);
  return signed ? view.getInt16(at, true) >>> 0 : view.getUint16(at, true);
}

function storeValue(view: DataView, at: number, bytes: number, v: number): void {
  if (bytes === 4) view.setUint32(at, v >>> 0, true);
  else if (bytes === 1) view.setUint8(at, v & 0xff);
  else view.setUint16(at, v & 0xffff, true);
}

/** Element size in bytes and dword count of a memory type suffix (b32, b128, u8, i16, ...). */
function typeOf(suffix: string): { bytes: number; dwords: number; signed: boolean } | undefined {
  const m = /^([bui])(8|16|32|64|96|128)$/.exec(suffix);
  if (!m) return undefined;
  const bits = Number(m[2]);
  return { bytes: Math.min(4, bits / 8), dwords: Math.max(1, bits / 32), signed: m[1] === "i" };
}

export function compileDs(inst: Instruction, name: string, ctx: CompileContext): Compiled {
  const f = inst.f;
  if (f.gds) return unimplemented(inst, ctx, " on GDS");
  const sregs: number[] = [];
  const vregs: number[] = [f.addr];
  const done = (exec: (w: Wave) => void): Compiled => ({ inst, exec, sregs, vregs });
  const offset = f.offset0 | (f.offset1 << 8);
  const addr = f.addr;
  const data0 = f.data0;
  const data1 = f.data1;
  const vdst = f.vdst;

  // Cross-lane permutes through the LDS crossbar (no LDS memory touched).
  if (name === "ds_bpermute_b32" || name === "ds_permute_b32") {
    vregs.push(data0, vdst);
    const backward = name === "ds_bpermute_b32";
    const tmp = new Uint32Array(64);
    return done((w) => {
      const W = w.width;
      tmp.fill(0);
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        const index = ((w.vu[addr * W + lane]! + offset) >>> 2) & (W - 1);
        if (backward) tmp[lane] = w.laneActive(index) ? w.vu[data0 * W + index]! : 0;
        else tmp[index] = w.vu[data0 * W + lane]!;
      }
      for (let lane = 0; lane < W; lane++) if (w.laneActive(lane)) w.vu[vdst * W + lane] = tmp[lane]!;
      w.issue("lgkm", false, inst.address, inst.name, [1000 + vdst]);
    });
  }
  if (name === "ds_swizzle_b32") {
    vregs.push(data0, vdst);
    const tmp = new Uint32Array(64);
    return done((w) => {
      const W = w.width;
      for (let lane = 0; lane < W; lane++) {
        let src: number;
        if (offset & 0x8000) {
          // Quad permute mode: within groups of 4, lane i reads offset[2i+1:2i].
          src = (lane & ~3) | ((offset >> ((lane & 3) * 2)) & 3);
        } else {
          // Bit-masks mode over groups of 32: and, or, xor masks.
          const andMask = offset & 0x1f;
          const orMask = (offset >> 5) & 0x1f;
          const xorMask = (offset >> 10) & 0x1f;
          src = (lane & ~31) | ((((lane & andMask) | orMask) ^ xorMask) & 31);
        }
        tmp[lane] = w.laneActive(src) ? w.vu[data0 * W + src]! : 0;
      }
      for (let lane = 0; lane < W; lane++) if (w.laneActive(lane)) w.vu[vdst * W + lane] = tmp[lane]!;
      w.issue("lgkm", false, inst.address, inst.name, [1000 + vdst]);
    });
  }

  let m = /^ds_(store|load)_2addr(_stride64)?_b(32|64)$/.exec(name);
  if (m) {
    const store = m[1] === "store";
    const dwords = m[3] === "64" ? 2 : 1;
    const scale = dwords * 4 * (m[2] ? 64 : 1);
    const off0 = f.offset0 * scale;
    const off1 = f.offset1 * scale;
    if (store) vregs.push(...range(data0, dwords), ...range(data1, dwords));
    else vregs.push(...range(vdst, 2 * dwords));
    const results = store ? [] : range(1000 + vdst, 2 * dwords);
    return done((w) => {
      const W = w.width;
      const view = w.group.ldsView;
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        const base = w.vu[addr * W + lane]!;
        for (let i = 0; i < dwords; i++) {
          const a0 = lds(w, base + off0 + i * 4, 4, inst);
          const a1 = lds(w, base + off1 + i * 4, 4, inst);
          if (store) {
            view.setUint32(a0, w.vu[(data0 + i) * W + lane]!, true);
            view.setUint32(a1, w.vu[(data1 + i) * W + lane]!, true);
          } else {
            w.vu[(vdst + i) * W + lane] = view.getUint32(a0, true);
            w.vu[(vdst + dwords + i) * W + lane] = view.getUint32(a1, true);
          }
        }
      }
      w.issue("lgkm", false, inst.address, inst.name, results);
    });
  }

  m = /^ds_(store|load)_(\w+)$/.exec(name);
  const type = m ? typeOf(m[2]!) : undefined;
  if (m && type) {
    const store = m[1] === "store";
    const { bytes, dwords, signed } = type;
    if (store) vregs.push(...range(data0, dwords));
    else vregs.push(...range(vdst, dwords));
    const results = store ? [] : range(1000 + vdst, dwords);
    return done((w) => {
      const W = w.width;
      const view = w.group.ldsView;
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        const base = w.vu[addr * W + lane]! + offset;
        for (let i = 0; i < dwords; i++) {
          const a = lds(w, base + i * 4, bytes, inst);
          if (store) storeValue(view, a, bytes, w.vu[(data0 + i) * W + lane]!);
          else w.vu[(vdst + i) * W + lane] = loadValue(view, a, bytes, signed);
        }
      }
      w.issue("lgkm", false, inst.address, inst.name, results);
    });
  }

  // LDS compare-store: gfx9's ds_cmpst takes {cmp, src} in DATA0/DATA1, gfx11's ds_cmpstore {src, cmp}.
  m = /^ds_(cmpst|cmpstore)(_rtn)?_b(32|64)$/.exec(name);
  if (m) {
    const rtn = m[2] !== undefined;
    const dwords = m[3] === "64" ? 2 : 1;
    const [cmp, src] = m[1] === "cmpst" ? [data0, data1] : [data1, data0];
    vregs.push(...range(data0, dwords), ...range(data1, dwords));
    if (rtn) vregs.push(...range(vdst, dwords));
    const results = rtn ? range(1000 + vdst, dwords) : [];
    return done((w) => {
      const W = w.width;
      const view = w.group.ldsView;
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        const a = lds(w, w.vu[addr * W + lane]! + offset, 4 * dwords, inst);
        let equal = true;
        for (let i = 0; i < dwords; i++) equal &&= view.getUint32(a + 4 * i, true) === w.vu[(cmp + i) * W + lane]!;
        for (let i = 0; i < dwords; i++) {
          const old = view.getUint32(a + 4 * i, true);
          if (equal) view.setUint32(a + 4 * i, w.vu[(src + i) * W + lane]!, true);
          if (rtn) w.vu[(vdst + i) * W + lane] = old;
        }
      }
      w.issue("lgkm", false, inst.address, inst.name, results);
    });
  }

  // LDS atomics: ds_<op>_<type> (no return) and ds_<op>_rtn_<type>, 32- or 64-bit (then DATA0
  // and the return are dword pairs); gfx9's ds_wrxchg and gfx11's ds_storexchg are swaps.
  m = /^ds_(\w+?)(_rtn)?_([iubf])(32|64)$/.exec(name);
  const op = m && !m[1]!.startsWith("cmp") ? (m[1] === "wrxchg" || m[1] === "storexchg" ? "swap" : m[1]) : undefined;
  const wide = m?.[4] === "64";
  const atomic32 = op && !wide ? atomicOf(`${op}_${m![3]}32`) : undefined;
  const atomic64 = op && wide ? atomic64Of(`${op}_${m![3]}64`) : undefined;
  if (atomic32 || atomic64) {
    const dwords = wide ? 2 : 1;
    const rtn = m![2] !== undefined;
    vregs.push(...range(data0, dwords));
    if (rtn) vregs.push(...range(vdst, dwords));
    const results = rtn ? range(1000 + vdst, dwords) : [];
    return done((w) => {
      const W = w.width;
      const view = w.group.ldsView;
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        const a = lds(w, w.vu[addr * W + lane]! + offset, 4 * dwords, inst);
        const lo = view.getUint32(a, true);
        const data = w.vu[data0 * W + lane]!;
        if (atomic64) {
          const hi = view.getUint32(a + 4, true);
          view.setBigUint64(a, BigInt.asUintN(64, atomic64(qword(lo, hi), qword(data, w.vu[(data0 + 1) * W + lane]!), 0n)), true);
          if (rtn) w.vu[(vdst + 1) * W + lane] = hi;
        } else view.setUint32(a, atomic32!(lo, data, 0) >>> 0, true);
        if (rtn) w.vu[vdst * W + lane] = lo;
      }
      w.issue("lgkm", false, inst.address, inst.name, results);
    });
  }
  return unimplemented(inst, ctx);
}

export function compileFlat(inst: Instruction, name: string, ctx: CompileContext): Compiled {
  const f = inst.f;
  if (inst.format === "SCRATCH") return compileScratch(inst, name, ctx);
  const fam = ctx.family;
  const sregs: number[] = [];
  const vregs: number[] = [];
  const done = (exec: (w: Wave) => void): Compiled => ({ inst, exec, sregs, vregs });
  const saddrIndex = inst.format === "GLOBAL" ? (fam === "gfx9" ? (f.saddr === 0x7f ? -1 : sgprIndex(f.saddr, fam)) : sgprIndex(f.saddr, fam)) : -1;
  const saddr = saddrIndex === NULL_CODE ? -1 : saddrIndex;
  if (saddr >= 0) sregs.push(saddr, saddr + 1);
  const addr = f.addr;
  vregs.push(addr);
  if (saddr < 0) vregs.push(addr + 1);
  const offset = f.offset;
  const isFlat = inst.format === "FLAT";
  const what = (w: Wave) => () => `${inst.name} (${w.where(inst.address)})`;

  /** The address of a lane, and whether it is in the LDS aperture (FLAT only). */
  const laneAddress = (w: Wave, lane: number): number => {
    const W = w.width;
    if (saddr >= 0) return w.s[saddr]! + w.s[saddr + 1]! * TWO32 + w.vu[addr * W + lane]! + offset;
    return w.vu[addr * W + lane]! + w.vu[(addr + 1) * W + lane]! * TWO32 + offset;
  };
  // The view and offset of the current lane's access (module-level slots: no allocation per lane).
  const access = (w: Wave, lane: number, size: number): void => {
    const a = laneAddress(w, lane);
    if (isFlat && Math.floor(a / TWO32) === SHARED_APERTURE_HI) {
      HIT.view = w.group.ldsView;
      HIT.offset = lds(w, a % TWO32, size, inst);
      return;
    }
    const region = w.memory.find(a, size) ?? w.memory.resolve(a, size, what(w)).region;
    HIT.view = region.view;
    HIT.offset = a - region.address;
  };
  const prefix = inst.format === "GLOBAL" ? "global" : "flat";
  const loadCounter: Counter = "vm";
  const storeCounter: Counter = fam === "gfx11" ? "vs" : "vm";

  let m = new RegExp(`^${prefix}_(load|store)_(\\w+)$`).exec(name);
  const type = m ? typeOf(m[2]!) : undefined;
  if (m && type) {
    const store = m[1] === "store";
    const { bytes, dwords, signed } = type;
    const data = f.data0;
    const vdst = f.vdst;
    if (store) vregs.push(...range(data, dwords));
    else vregs.push(...range(vdst, dwords));
    const results = range(1000 + vdst, dwords);
    return done((w) => {
      const W = w.width;
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        access(w, lane, bytes * dwords);
        const view = HIT.view!;
        for (let i = 0; i < dwords; i++) {
          if (store) storeValue(view, HIT.offset + i * 4, bytes, w.vu[(data + i) * W + lane]!);
          else w.vu[(vdst + i) * W + lane] = loadValue(view, HIT.offset + i * 4, bytes, signed);
        }
      }
      if (store) w.issue(storeCounter, false, inst.address, inst.name, []);
      else w.issue(loadCounter, false, inst.address, inst.name, results);
    });
  }

  m = new RegExp(`^${prefix}_atomic_(\\w+)$`).exec(name);
  const atomic64 = m ? atomic64Of(m[1]!) : undefined;
  if (m && atomic64) {
    const rtn = f.glc === 1;
    const cmp = m[1]!.startsWith("cmpswap");
    const data = f.data0;
    const vdst = f.vdst;
    vregs.push(...range(data, cmp ? 4 : 2));
    if (rtn) vregs.push(vdst, vdst + 1);
    return done((w) => {
      const W = w.width;
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        access(w, lane, 8);
        const view = HIT.view!;
        const lo = view.getUint32(HIT.offset, true);
        const hi = view.getUint32(HIT.offset + 4, true);
        const operand = (i: number) => qword(w.vu[(data + i) * W + lane]!, w.vu[(data + i + 1) * W + lane]!);
        view.setBigUint64(HIT.offset, BigInt.asUintN(64, atomic64(qword(lo, hi), operand(0), cmp ? operand(2) : 0n)), true);
        if (rtn) {
          w.vu[vdst * W + lane] = lo;
          w.vu[(vdst + 1) * W + lane] = hi;
        }
      }
      if (rtn) w.issue(loadCounter, false, inst.address, inst.name, [1000 + vdst, 1001 + vdst]);
      else w.issue(storeCounter, false, inst.address, inst.name, []);
    });
  }
  const atomic = m ? atomicOf(m[1]!) : undefined;
  if (m && atomic) {
    const rtn = f.glc === 1;
    const cmp = m[1]!.startsWith("cmpswap");
    const data = f.data0;
    const vdst = f.vdst;
    vregs.push(data);
    if (cmp) vregs.push(data + 1);
    if (rtn) vregs.push(vdst);
    return done((w) => {
      const W = w.width;
      for (let lane = 0; lane < W; lane++) {
        if (!w.laneActive(lane)) continue;
        access(w, lane, 4);
        const view = HIT.view!;
        const old = view.getUint32(HIT.offset, true);
        view.setUint32(HIT.offset, atomic(old, w.vu[data * W + lane]!, cmp ? w.vu[(data + 1) * W + lane]! : 0) >>> 0, true);
        if (rtn) w.vu[vdst * W + lane] = old;
      }
      if (rtn) w.issue(loadCounter, false, inst.address, inst.name, [1000 + vdst]);
      else w.issue(storeCounter, false, inst.address, inst.name, []);
    });
  }
  return unimplemented(inst, ctx);
}

/**
 * SCRATCH (architected flat scratch): each lane addresses its own private segment. The
 * lane's address is VGPR addr (when SVE) + SGPR saddr (unless off) + offset; it must lie in
 * the descriptor's private segment, so a too small PRIVATE_SEGMENT_FIXED_SIZE fails here.
 */
function compileScratch(inst: Instruction, name: string, ctx: CompileContext): Compiled {
  const f = inst.f;
  const fam = ctx.family;
  const m = /^scratch_(load|store)_(\w+)$/.exec(name);
  const type = m ? typeOf(m[2]!) : undefined;
  if (!m || !type) return unimplemented(inst, ctx);
  const store = m[1] === "store";
  const { bytes, dwords, signed } = type;
  const sregs: number[] = [];
  const vregs: number[] = [];
  const saddr = f.saddr === (fam === "gfx11" ? 0x7c : 0x7f) ? -1 : sgprIndex(f.saddr, fam);
  if (saddr >= 0) sregs.push(saddr);
  const vaddr = f.sve ? f.addr : -1;
  if (vaddr >= 0) vregs.push(vaddr);
  const data = f.data0;
  const vdst = f.vdst;
  if (store) vregs.push(...range(data, dwords));
  else vregs.push(...range(vdst, dwords));
  const results = store ? [] : range(1000 + vdst, dwords);
  const offset = f.offset;
  const size = bytes * dwords;
  const exec = (w: Wave) => {
    const W = w.width;
    const view = w.scratch;
    if (!view) throw new LoomError("failed-precondition", `${inst.name} in a kernel without a private segment (${w.where(inst.address)})`);
    const uniform = (saddr >= 0 ? w.s[saddr]! : 0) + offset;
    for (let lane = 0; lane < W; lane++) {
      if (!w.laneActive(lane)) continue;
      const a = (uniform + (vaddr >= 0 ? w.vu[vaddr * W + lane]! : 0)) >>> 0;
      if (a + size > w.scratchBytes) {
        throw new LoomError("out-of-range", `scratch access out of range: ${inst.name} of ${size} bytes at private address 0x${a.toString(16)}, the private segment has ${w.scratchBytes} bytes per work-item (${w.where(inst.address)})`);
      }
      const at = lane * w.scratchBytes + a;
      for (let i = 0; i < dwords; i++) {
        if (store) storeValue(view, at + i * 4, bytes, w.vu[(data + i) * W + lane]!);
        else w.vu[(vdst + i) * W + lane] = loadValue(view, at + i * 4, bytes, signed);
      }
    }
    if (store) w.issue(fam === "gfx11" ? "vs" : "vm", false, inst.address, inst.name, []);
    else w.issue("vm", false, inst.address, inst.name, results);
  };
  return { inst, exec, sregs, vregs };
}

/** MUBUF: only the cache maintenance instructions (the simulator has no caches to maintain). */
export function compileMubuf(inst: Instruction, name: string, ctx: CompileContext): Compiled {
  if (/^buffer_(gl0_inv|gl1_inv|wbl2|inv|wbinvl1|wbinvl1_vol)$/.test(name)) return { inst, exec: () => {}, sregs: [], vregs: [] };
  return unimplemented(inst, ctx, " (buffer resources are not simulated)");
}
