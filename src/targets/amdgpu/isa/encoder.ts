/**
 * The instruction encoder: an `Instruction` (a table key, physical operands and the
 * format's fields) becomes little-endian machine words for one ISA family, and prints as
 * the LLVM assembly that `llvm-mc-19` assembles to the same words. Asking for an
 * instruction a family lacks, an operand a field cannot hold, or a second literal is a
 * compiler bug (the lowering chose it), so it throws `LoomError("internal")`.
 *
 * Operand order is the printed order: destinations first, then sources. Layouts per format
 * (AMD ISA guides "Microcode formats"):
 *   SOP1 sdst, ssrc0 | SOP2 sdst, ssrc0, ssrc1 | SOPC ssrc0, ssrc1 | SOPK sdst (+simm)
 *   SOPP (simm) | SMEM sdata, sbase (+offset) | VOP1 vdst, src0
 *   VOP2 vdst, [vcc,] src0, vsrc1[, vcc] | VOP3 vdst, src0, src1[, src2]
 *   VOP3B vdst, sdst, src0, src1[, src2] | DS [vdst,] addr[, data0[, data1]] (+offset)
 *   GLOBAL loads [vdst,] vaddr, off / stores and atomics vaddr, vdata, off (+offset, glc)
 */
import { LoomError } from "../../../core/errors.js";
import type { IsaFamily } from "./family.js";
import { INSTRUCTIONS, type FormatName, type InstructionDef } from "./opcodes.js";
import { formatOperand, isLiteral, scalarField, sourceField, vgprField, type Operand } from "./operands.js";

export interface Instruction {
  /** Table key (opcodes.ts). */
  readonly mnemonic: string;
  readonly operands: readonly Operand[];
  /** SOPP/SOPK immediate (branch offsets in words, wait counts, nop states). */
  readonly simm?: number;
  /** SMEM/DS/GLOBAL byte offset (DS swizzle: the pattern). */
  readonly offset?: number;
  /** GLOBAL atomics: return the old value (glc / sc0). */
  readonly glc?: boolean;
}

/** `instruction("s_nop", 3)`: an instruction whose only operand is its SOPP immediate. */
export function instruction(mnemonic: string, simm?: number): Instruction {
  return simm === undefined ? { mnemonic, operands: [] } : { mnemonic, operands: [], simm };
}

function internal(msg: string): never {
  throw new LoomError("internal", `AMDGPU encoder: ${msg}`);
}

function lookup(mnemonic: string): InstructionDef {
  return INSTRUCTIONS.get(mnemonic) ?? internal(`unknown instruction '${mnemonic}'`);
}

export function isAvailable(mnemonic: string, family: IsaFamily): boolean {
  return INSTRUCTIONS.get(mnemonic)?.opcodes[family] !== undefined;
}

export function formatOf(mnemonic: string): FormatName {
  return lookup(mnemonic).format;
}

/** SOPP immediates loom accepts per instruction (anything else is a lowering bug). */
function checkSimm(inst: Instruction): number {
  const v = inst.simm;
  switch (inst.mnemonic) {
    case "s_endpgm": case "s_code_end": case "s_barrier":
      if (v !== undefined) internal(`${inst.mnemonic} takes no operand`);
      return 0;
    case "s_nop":
      if (v === undefined || !Number.isInteger(v) || v < 0 || v > 15) internal(`s_nop operand ${String(v)} is outside 0..15`);
      return v;
    default:
      if (v === undefined || !Number.isInteger(v) || v < -32768 || v > 65535) internal(`${inst.mnemonic} immediate ${String(v)} does not fit 16 bits`);
      return v & 0xffff;
  }
}

/** Words of one instruction (the literal, if any, last). */
export function encodeInstruction(inst: Instruction, family: IsaFamily): number[] {
  const d = lookup(inst.mnemonic);
  const fo = d.opcodes[family] ?? internal(`${inst.mnemonic} does not exist on ${family}`);
  const op = fo.opcode;
  const o = inst.operands;
  const at = (i: number): Operand => o[i] ?? internal(`${inst.mnemonic} lacks operand ${i}`);
  const expect = (...counts: number[]) => {
    if (!counts.includes(o.length)) internal(`${inst.mnemonic} takes ${counts.join(" or ")} operand(s), got ${o.length}`);
  };
  const gfx9 = family === "gfx9";
  let literal: number | undefined;
  for (const x of o) {
    if (x.k !== "imm" || !isLiteral(x)) continue;
    if (literal !== undefined && literal !== x.v >>> 0) internal(`${inst.mnemonic} has two literals`);
    literal = x.v >>> 0;
  }
  const lit = literal === undefined ? [] : [literal];
  const s = (i: number) => scalarField(at(i), family);
  const src = (i: number) => (i < o.length ? sourceField(at(i), family) : 0);
  let words: number[];
  switch (d.format) {
    case "SOPP":
      expect(0);
      if (lit.length) internal("SOPP takes no literal");
      return [(0xbf800000 | (op << 16) | checkSimm(inst)) >>> 0];
    case "SOPK":
      expect(1);
      return [(0xb0000000 | (op << 23) | (s(0) << 16) | checkSimm(inst)) >>> 0];
    case "SOP1":
      expect(2);
      words = [0xbe800000 | (s(0) << 16) | (op << 8) | s(1)];
      break;
    case "SOP2":
      expect(3);
      words = [0x80000000 | (op << 23) | (s(0) << 16) | (s(2) << 8) | s(1)];
      break;
    case "SOPC":
      expect(2);
      words = [0xbf000000 | (op << 16) | (s(1) << 8) | s(0)];
      break;
    case "SMEM": {
      expect(2);
      const base = at(1);
      if (base.k !== "s" || base.n !== 2 || base.i % 2 !== 0) internal("SMEM base must be an aligned SGPR pair");
      const offset = inst.offset ?? 0;
      if (offset < 0 || offset > 0xfffff) internal(`SMEM offset ${offset} out of range`);
      if (lit.length) internal("SMEM takes no literal");
      return gfx9
        ? [(0xc0000000 | (op << 18) | (1 << 17) | (s(0) << 6) | (base.i >> 1)) >>> 0, offset]
        : [(0xf4000000 | (op << 18) | (s(0) << 6) | (base.i >> 1)) >>> 0, ((0x7c << 25) | offset) >>> 0];
    }
    case "VOP1":
      expect(2);
      // v_readfirstlane_b32 writes an SGPR through the VGPR destination field.
      words = [0x7e000000 | ((at(0).k === "s" ? s(0) : vgprField(at(0))) << 17) | (op << 9) | src(1)];
      break;
    case "VOP2": {
      const regs = o.filter((x) => !(x.k === "special" && x.name === "vcc"));
      if (regs.length !== 3) internal(`${inst.mnemonic} takes vdst, src0, vsrc1`);
      words = [(op << 25) | (vgprField(regs[0]!) << 17) | (vgprField(regs[2]!) << 9) | sourceField(regs[1]!, family)];
      break;
    }
    case "VOP3":
    case "VOP3B": {
      const b = d.format === "VOP3B";
      expect(...(b ? [4, 5] : [3, 4]));
      if (gfx9 && lit.length) internal(`${inst.mnemonic}: gfx9 VOP3 takes no literal`);
      const dst = at(0);
      const vdst = dst.k === "v" ? vgprField(dst) : s(0);
      const first = b ? 2 : 1;
      const sdst = b ? s(1) << 8 : 0;
      words = [(gfx9 ? 0xd0000000 : 0xd4000000) | (op << 16) | sdst | vdst, (src(first + 2) << 18) | (src(first + 1) << 9) | src(first)];
      break;
    }
    case "DS": {
      const offset = inst.offset ?? 0;
      if (offset < 0 || offset > 0xffff) internal(`DS offset ${offset} out of range`);
      const def = dsDefines(inst.mnemonic);
      const vdst = def ? vgprField(at(0)) : 0;
      const rest = o.slice(def ? 1 : 0);
      const f = (i: number) => (rest[i] ? vgprField(rest[i]!) : 0);
      if (rest.length < 1 || rest.length > 3) internal(`${inst.mnemonic}: bad DS operands`);
      const w0 = gfx9 ? 0xd8000000 | (op << 17) | offset : 0xd8000000 | (op << 18) | offset;
      return [w0 >>> 0, ((vdst << 24) | (f(2) << 16) | (f(1) << 8) | f(0)) >>> 0];
    }
    case "GLOBAL": {
      const offset = inst.offset ?? 0;
      if (offset < -4096 || offset > 4095) internal(`GLOBAL offset ${offset} out of range`);
      const def = globalDefines(inst);
      expect(def ? (inst.mnemonic.startsWith("global_load") ? 3 : 4) : 3);
      if (o.at(-1)?.k !== "off") internal(`${inst.mnemonic}: loom addresses global memory with 64-bit VGPR addresses ('off')`);
      const vdst = def ? vgprField(at(0)) : 0;
      const addr = vgprField(at(def ? 1 : 0));
      const data = inst.mnemonic.startsWith("global_load") ? 0 : vgprField(at(def ? 2 : 1));
      const glc = inst.glc ? 1 : 0;
      const w0 = gfx9 ? 0xdc000000 | (op << 18) | (glc << 16) | (2 << 14) | (offset & 0x1fff) : 0xdc000000 | (op << 18) | (2 << 16) | (glc << 14) | (offset & 0x1fff);
      return [w0 >>> 0, ((vdst << 24) | ((gfx9 ? 0x7f : 0x7c) << 16) | (data << 8) | addr) >>> 0];
    }
    case "MUBUF":
      expect(0);
      return [(0xe0000000 | (op << 18)) >>> 0, 0];
  }
  return [...words.map((w) => w >>> 0), ...lit];
}

/** Whether a DS instruction writes a VGPR (loads, returning atomics, permutes). */
export function dsDefines(mnemonic: string): boolean {
  return mnemonic.startsWith("ds_load") || mnemonic.includes("_rtn_") || mnemonic === "ds_swizzle_b32" || mnemonic === "ds_bpermute_b32";
}

/** Whether a GLOBAL instruction writes a VGPR (loads, atomics with glc). */
export function globalDefines(inst: { readonly mnemonic: string; readonly glc?: boolean }): boolean {
  return inst.mnemonic.startsWith("global_load") || inst.glc === true;
}

/** Spelling differences between processors of one family. */
export interface Syntax {
  /** gfx940+ calls the GLC bit `sc0`. */
  readonly glc: "glc" | "sc0";
}

const WAIT_FIELDS = ["vmcnt", "expcnt", "lgkmcnt"] as const;

/** `s_waitcnt` immediate fields per family (AMD ISA guides, "S_WAITCNT"). */
export function waitcntImmediate(family: IsaFamily, vm: number, lgkm: number, exp = 7): number {
  return family === "gfx9" ? (vm & 0xf) | ((exp & 7) << 4) | ((lgkm & 0xf) << 8) | (((vm >> 4) & 3) << 14) : (exp & 7) | ((lgkm & 0x3f) << 4) | ((vm & 0x3f) << 10);
}

export function waitcntMaxima(family: IsaFamily): { vm: number; lgkm: number; exp: number } {
  return family === "gfx9" ? { vm: 63, lgkm: 15, exp: 7 } : { vm: 63, lgkm: 63, exp: 7 };
}

function waitcntText(family: IsaFamily, simm: number): string {
  const v = family === "gfx9" ? { vmcnt: (simm & 0xf) | (((simm >> 14) & 3) << 4), expcnt: (simm >> 4) & 7, lgkmcnt: (simm >> 8) & 0xf } : { vmcnt: (simm >> 10) & 0x3f, expcnt: simm & 7, lgkmcnt: (simm >> 4) & 0x3f };
  const max = waitcntMaxima(family);
  const limit = { vmcnt: max.vm, expcnt: max.exp, lgkmcnt: max.lgkm };
  const parts = WAIT_FIELDS.filter((f) => v[f] !== limit[f]).map((f) => `${f}(${v[f]})`);
  return parts.length ? parts.join(" ") : "0";
}

/** Assembly text as LLVM prints it (`s_nop 7`, `v_add_f32_e32 v0, s1, v2`). */
export function formatInstruction(inst: Instruction, family: IsaFamily, syntax: Syntax = { glc: "glc" }): string {
  const d = lookup(inst.mnemonic);
  const name = d.opcodes[family]?.mnemonic ?? inst.mnemonic;
  const ops = inst.operands.map(formatOperand);
  switch (d.format) {
    case "SOPP":
      if (inst.mnemonic === "s_waitcnt") return `${name} ${waitcntText(family, inst.simm ?? 0)}`;
      return inst.simm === undefined ? name : `${name} ${inst.simm}`;
    case "SOPK":
      return `${name} ${ops[0]}, 0x${(inst.simm ?? 0).toString(16)}`;
    case "SMEM":
      return `${name} ${ops.join(", ")}, 0x${(inst.offset ?? 0).toString(16)}`;
    case "DS":
    case "GLOBAL": {
      let text = ops.length ? `${name} ${ops.join(", ")}` : name;
      if (inst.offset) text += ` offset:${inst.offset}`;
      if (inst.glc) text += ` ${syntax.glc}`;
      return text;
    }
    default:
      return ops.length ? `${name} ${ops.join(", ")}` : name;
  }
}

/** A straight-line program as little-endian bytes. */
export function encodeProgram(program: readonly Instruction[], family: IsaFamily): Uint8Array {
  const words = program.flatMap((i) => encodeInstruction(i, family));
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  words.forEach((w, i) => view.setUint32(i * 4, w, true));
  return bytes;
}
