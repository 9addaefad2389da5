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
 *   SCRATCH loads vdst, vaddr|off, off / stores vaddr|off, vdata, off (+offset; SVE = vaddr used)
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
  /** GLOBAL atomics: return the old value (glc / sc0); gfx94x loads/stores, MUBUF cache ops: SC0. */
  readonly glc?: boolean;
  /** gfx94x SC1 (GLOBAL word 0 bit 25, MUBUF bit 15). */
  readonly sc1?: boolean;
  /** The table row of `mnemonic`, when whoever built the instruction looked it up (each pass would otherwise look it up again). */
  readonly def?: InstructionDef | undefined;
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

/** The table row of an instruction (the one it carries, else looked up). */
export function defOf(inst: { readonly mnemonic: string; readonly def?: InstructionDef | undefined }): InstructionDef {
  return inst.def ?? lookup(inst.mnemonic);
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
  const out: number[] = [];
  encodeInto(inst, family, out);
  return out;
}

function operandAt(inst: Instruction, i: number): Operand {
  return inst.operands[i] ?? internal(`${inst.mnemonic} lacks operand ${i}`);
}

function expectCount(inst: Instruction, a: number, b = a): void {
  const n = inst.operands.length;
  if (n !== a && n !== b) internal(`${inst.mnemonic} takes ${a === b ? a : `${a} or ${b}`} operand(s), got ${n}`);
}

/** The literal dword of an instruction (at most one distinct value), or -1 for none. */
function literalOf(inst: Instruction): number {
  let literal = -1;
  for (const x of inst.operands) {
    if (x.k !== "imm" || !isLiteral(x)) continue;
    const v = x.v >>> 0;
    if (literal !== -1 && literal !== v) internal(`${inst.mnemonic} has two literals`);
    literal = v;
  }
  return literal;
}

function scalarAt(inst: Instruction, i: number, family: IsaFamily): number {
  return scalarField(operandAt(inst, i), family);
}

function sourceAt(inst: Instruction, i: number, family: IsaFamily): number {
  return i < inst.operands.length ? sourceField(operandAt(inst, i), family) : 0;
}

/** Appends the words of one instruction (the literal, if any, last) to `out` (no closures: this runs for every instruction of every compile). */
export function encodeInto(inst: Instruction, family: IsaFamily, out: number[]): void {
  const d = defOf(inst);
  const fo = d.opcodes[family] ?? internal(`${inst.mnemonic} does not exist on ${family}`);
  const op = fo.opcode;
  const o = inst.operands;
  const gfx9 = family === "gfx9";
  const literal = literalOf(inst);
  let word: number;
  let second = -1;
  switch (d.format) {
    case "SOPP":
      expectCount(inst, 0);
      if (literal !== -1) internal("SOPP takes no literal");
      out.push((0xbf800000 | (op << 16) | checkSimm(inst)) >>> 0);
      return;
    case "SOPK":
      expectCount(inst, 1);
      out.push((0xb0000000 | (op << 23) | (scalarAt(inst, 0, family) << 16) | checkSimm(inst)) >>> 0);
      return;
    case "SOP1":
      expectCount(inst, 2);
      word = 0xbe800000 | (scalarAt(inst, 0, family) << 16) | (op << 8) | scalarAt(inst, 1, family);
      break;
    case "SOP2":
      expectCount(inst, 3);
      word = 0x80000000 | (op << 23) | (scalarAt(inst, 0, family) << 16) | (scalarAt(inst, 2, family) << 8) | scalarAt(inst, 1, family);
      break;
    case "SOPC":
      expectCount(inst, 2);
      word = 0xbf000000 | (op << 16) | (scalarAt(inst, 1, family) << 8) | scalarAt(inst, 0, family);
      break;
    case "SMEM": {
      expectCount(inst, 2);
      const base = operandAt(inst, 1);
      if (base.k !== "s" || base.n !== 2 || base.i % 2 !== 0) internal("SMEM base must be an aligned SGPR pair");
      const offset = inst.offset ?? 0;
      if (offset < 0 || offset > 0xfffff) internal(`SMEM offset ${offset} out of range`);
      if (literal !== -1) internal("SMEM takes no literal");
      if (gfx9) out.push((0xc0000000 | (op << 18) | (1 << 17) | (scalarAt(inst, 0, family) << 6) | (base.i >> 1)) >>> 0, offset);
      else out.push((0xf4000000 | (op << 18) | (scalarAt(inst, 0, family) << 6) | (base.i >> 1)) >>> 0, ((0x7c << 25) | offset) >>> 0);
      return;
    }
    case "VOP1": {
      expectCount(inst, 2);
      // v_readfirstlane_b32 writes an SGPR through the VGPR destination field.
      const dst = operandAt(inst, 0);
      word = 0x7e000000 | ((dst.k === "s" ? scalarAt(inst, 0, family) : vgprField(dst)) << 17) | (op << 9) | sourceAt(inst, 1, family);
      break;
    }
    case "VOP2": {
      // vdst, [vcc,] src0, vsrc1[, vcc]: the registers without VCC.
      let vdst: Operand | undefined, src0: Operand | undefined, vsrc1: Operand | undefined;
      let regs = 0;
      for (const x of o) {
        if (x.k === "special" && x.name === "vcc") continue;
        if (regs === 0) vdst = x;
        else if (regs === 1) src0 = x;
        else vsrc1 = x;
        regs++;
      }
      if (regs !== 3 || !vdst || !src0 || !vsrc1) internal(`${inst.mnemonic} takes vdst, src0, vsrc1`);
      word = (op << 25) | (vgprField(vdst) << 17) | (vgprField(vsrc1) << 9) | sourceField(src0, family);
      break;
    }
    case "VOP3":
    case "VOP3B": {
      const b = d.format === "VOP3B";
      if (b) expectCount(inst, 4, 5);
      else expectCount(inst, 3, 4);
      if (gfx9 && literal !== -1) internal(`${inst.mnemonic}: gfx9 VOP3 takes no literal`);
      const dst = operandAt(inst, 0);
      const vdst = dst.k === "v" ? vgprField(dst) : scalarAt(inst, 0, family);
      const first = b ? 2 : 1;
      const sdst = b ? scalarAt(inst, 1, family) << 8 : 0;
      word = (gfx9 ? 0xd0000000 : 0xd4000000) | (op << 16) | sdst | vdst;
      second = (sourceAt(inst, first + 2, family) << 18) | (sourceAt(inst, first + 1, family) << 9) | sourceAt(inst, first, family);
      break;
    }
    case "DS": {
      const offset = inst.offset ?? 0;
      if (offset < 0 || offset > 0xffff) internal(`DS offset ${offset} out of range`);
      const def = dsDefines(inst.mnemonic) ? 1 : 0;
      const vdst = def ? vgprField(operandAt(inst, 0)) : 0;
      const rest = o.length - def;
      const f = (i: number) => (i < rest ? vgprField(operandAt(inst, def + i)) : 0);
      if (rest < 1 || rest > 3) internal(`${inst.mnemonic}: bad DS operands`);
      const w0 = gfx9 ? 0xd8000000 | (op << 17) | offset : 0xd8000000 | (op << 18) | offset;
      out.push(w0 >>> 0, ((vdst << 24) | (f(2) << 16) | (f(1) << 8) | f(0)) >>> 0);
      return;
    }
    case "GLOBAL": {
      const offset = inst.offset ?? 0;
      if (offset < -4096 || offset > 4095) internal(`GLOBAL offset ${offset} out of range`);
      const def = globalDefines(inst);
      const load = inst.mnemonic.startsWith("global_load");
      expectCount(inst, def ? (load ? 3 : 4) : 3);
      if (o.at(-1)?.k !== "off") internal(`${inst.mnemonic}: loom addresses global memory with 64-bit VGPR addresses ('off')`);
      const vdst = def ? vgprField(operandAt(inst, 0)) : 0;
      const addr = vgprField(operandAt(inst, def ? 1 : 0));
      const data = load ? 0 : vgprField(operandAt(inst, def ? 2 : 1));
      const glc = inst.glc ? 1 : 0;
      const w0 = gfx9 ? 0xdc000000 | (inst.sc1 ? 1 << 25 : 0) | (op << 18) | (glc << 16) | (2 << 14) | (offset & 0x1fff) : 0xdc000000 | (op << 18) | (2 << 16) | (glc << 14) | (offset & 0x1fff);
      out.push(w0 >>> 0, ((vdst << 24) | ((gfx9 ? 0x7f : 0x7c) << 16) | (data << 8) | addr) >>> 0);
      return;
    }
    case "SCRATCH": {
      const offset = inst.offset ?? 0;
      if (offset < -4096 || offset > 4095) internal(`SCRATCH offset ${offset} out of range`);
      const load = inst.mnemonic.startsWith("scratch_load");
      expectCount(inst, 3);
      if (o[2]?.k !== "off") internal(`${inst.mnemonic}: loom addresses scratch with a VGPR or the offset alone (saddr 'off')`);
      const at = o[load ? 1 : 0];
      const sve = at?.k === "off" ? 0 : 1;
      const addr = sve ? vgprField(operandAt(inst, load ? 1 : 0)) : 0;
      const vdst = load ? vgprField(operandAt(inst, 0)) : 0;
      const data = load ? 0 : vgprField(operandAt(inst, 1));
      const w0 = gfx9 ? 0xdc000000 | (op << 18) | (1 << 14) | (sve << 13) | (offset & 0x1fff) : 0xdc000000 | (op << 18) | (1 << 16) | (offset & 0x1fff);
      out.push(w0 >>> 0, ((vdst << 24) | ((gfx9 ? 0x7f : 0x7c | (sve << 7)) << 16) | (data << 8) | addr) >>> 0);
      return;
    }
    case "MUBUF":
      expectCount(inst, 0);
      out.push((0xe0000000 | (op << 18) | (inst.glc ? 1 << 14 : 0) | (inst.sc1 ? 1 << 15 : 0)) >>> 0, 0);
      return;
  }
  out.push(word >>> 0);
  if (second !== -1) out.push(second >>> 0);
  if (literal !== -1) out.push(literal);
}

/** Whether a DS instruction writes a VGPR (loads, returning atomics, permutes). */
export function dsDefines(mnemonic: string): boolean {
  return mnemonic.startsWith("ds_load") || mnemonic.includes("_rtn_") || mnemonic === "ds_swizzle_b32" || mnemonic === "ds_bpermute_b32";
}

/** Whether a GLOBAL instruction writes a VGPR (loads, atomics with glc; a store's glc/sc0 is a cache policy). */
export function globalDefines(inst: { readonly mnemonic: string; readonly glc?: boolean }): boolean {
  return inst.mnemonic.startsWith("global_load") || (inst.glc === true && inst.mnemonic.startsWith("global_atomic"));
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
    case "GLOBAL":
    case "SCRATCH": {
      let text = ops.length ? `${name} ${ops.join(", ")}` : name;
      if (inst.offset) text += ` offset:${inst.offset}`;
      if (inst.glc) text += ` ${syntax.glc}`;
      return inst.sc1 ? `${text} sc1` : text;
    }
    case "MUBUF":
      return `${name}${inst.glc ? " sc0" : ""}${inst.sc1 ? " sc1" : ""}`;
    default:
      return ops.length ? `${name} ${ops.join(", ")}` : name;
  }
}

/** A straight-line program's words. */
export function encodeWords(program: readonly Instruction[], family: IsaFamily): number[] {
  const words: number[] = [];
  for (const i of program) encodeInto(i, family, words);
  return words;
}

/** A straight-line program as little-endian bytes. */
export function encodeProgram(program: readonly Instruction[], family: IsaFamily): Uint8Array {
  return wordsToBytes(encodeWords(program, family));
}

const LITTLE_ENDIAN_HOST = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** Little-endian bytes of 32-bit words. */
export function wordsToBytes(words: readonly number[]): Uint8Array {
  // A little-endian host's Uint32Array already holds the bytes in file order.
  if (LITTLE_ENDIAN_HOST) return new Uint8Array(Uint32Array.from(words).buffer);
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < words.length; i++) view.setUint32(i * 4, words[i] ?? 0, true);
  return bytes;
}
