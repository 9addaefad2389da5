/**
 * The instruction decoder for gfx11 (RDNA3) and gfx9 (gfx90a / gfx94x) machine code: format
 * from the prefix bits, fields per format (AMD's RDNA3 and CDNA3 ISA guides, "Microcode
 * formats"), instruction length (64-bit encodings, a trailing 32-bit literal for source 255,
 * the DPP / SDWA dword), and the opcode's name from OPCODE_TABLES. A word no format or table
 * knows is a LoomError naming the word and its address, never skipped.
 */
import { LoomError } from "../../core/errors.js";
import type { IsaFamily } from "./code-object.js";
import { OPCODE_TABLES } from "./opcodes.js";

/** The encoding family of a decoded instruction (the names of the ISA manuals). */
export type Format =
  | "SOP1"
  | "SOP2"
  | "SOPK"
  | "SOPC"
  | "SOPP"
  | "SMEM"
  | "VOP1"
  | "VOP2"
  | "VOPC"
  | "VOP3"
  | "VOP3P"
  | "VOPD"
  | "DS"
  | "FLAT"
  | "SCRATCH"
  | "GLOBAL"
  | "MUBUF";

/** Source operand code of the literal constant. */
export const LITERAL = 255;
const SDWA = 0xf9;
const DPP16 = 0xfa;
const DPP8 = 0xe9;
const DPP8_FI = 0xea;

/**
 * One decoded machine instruction: where it is, how long it is, its encoding and opcode, and
 * LLVM's mnemonic for it.
 */
export interface Instruction {
  readonly address: number;
  /** Bytes, literal and DPP/SDWA dword included. */
  readonly size: number;
  readonly format: Format;
  readonly opcode: number;
  /** LLVM's base mnemonic (no _e32/_e64). */
  readonly name: string;
  /** VOP3 only: the 32-bit encoding this opcode is a promotion of. */
  readonly promotedFrom?: "VOP1" | "VOP2" | "VOPC";
  /** Raw dwords of the instruction. */
  readonly words: readonly number[];
  /** Operand fields; which are meaningful depends on the format (see decodeFields). */
  readonly f: Fields;
}

export interface Fields {
  sdst: number;
  ssrc0: number;
  ssrc1: number;
  simm16: number;
  vdst: number;
  src0: number;
  src1: number;
  src2: number;
  abs: number;
  neg: number;
  negHi: number;
  opsel: number;
  opselHi: number;
  clamp: number;
  omod: number;
  literal: number;
  /** DPP / SDWA control dword, or -1. */
  extra: number;
  extraKind: "" | "sdwa" | "dpp16" | "dpp8";
  // DS
  offset0: number;
  offset1: number;
  gds: number;
  addr: number;
  data0: number;
  data1: number;
  // FLAT / SMEM / MUBUF
  offset: number;
  saddr: number;
  /** SCRATCH: the VGPR address is used (gfx11 word 1 bit 23, gfx940+ word 0 bit 13). */
  sve: number;
  glc: number;
  slc: number;
  sbase: number;
  sdata: number;
  soffset: number;
  // VOPD
  opx: string;
  opy: string;
  vdstx: number;
  vdsty: number;
  src0x: number;
  vsrc1x: number;
  src0y: number;
  vsrc1y: number;
}

function emptyFields(): Fields {
  return {
    sdst: -1, ssrc0: -1, ssrc1: -1, simm16: 0, vdst: -1, src0: -1, src1: -1, src2: -1, abs: 0, neg: 0, negHi: 0, opsel: 0, opselHi: 0, clamp: 0, omod: 0, literal: 0,
    extra: -1, extraKind: "", offset0: 0, offset1: 0, gds: 0, addr: -1, data0: -1, data1: -1, offset: 0, saddr: -1, sve: 0, glc: 0, slc: 0, sbase: -1, sdata: -1, soffset: -1,
    opx: "", opy: "", vdstx: -1, vdsty: -1, src0x: -1, vsrc1x: -1, src0y: -1, vsrc1y: -1,
  };
}

type Tables = { readonly [format: string]: readonly string[] };
const TABLES: Record<IsaFamily, Tables> = {
  gfx11: Object.fromEntries(Object.entries(OPCODE_TABLES.gfx11).map(([k, v]) => [k, v.split(" ").map((n) => (n === "-" ? "" : n))])),
  gfx9: Object.fromEntries(Object.entries(OPCODE_TABLES.gfx9).map(([k, v]) => [k, v.split(" ").map((n) => (n === "-" ? "" : n))])),
};

/** VOP2 opcodes that always carry a literal (the K constant). */
const K_CONSTANT_OPS = new Set(["v_fmamk_f32", "v_fmaak_f32", "v_madmk_f32", "v_madak_f32", "v_fmamk_f16", "v_fmaak_f16", "v_madmk_f16", "v_madak_f16"]);
/** VOP3 opcodes with a scalar destination in bits [14:8] (VOP3b / VOP3SD). */
const VOP3B_OPS = new Set([
  "v_add_co_u32", "v_sub_co_u32", "v_subrev_co_u32", "v_add_co_ci_u32", "v_sub_co_ci_u32", "v_subrev_co_ci_u32",
  "v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32", "v_div_scale_f32", "v_div_scale_f64", "v_mad_u64_u32", "v_mad_i64_i32",
]);

export type WordFetch = (address: number) => number;

function unknown(word: number, address: number, why: string): never {
  throw new LoomError("unimplemented", `cannot decode the instruction word 0x${word.toString(16).padStart(8, "0")} at 0x${address.toString(16)}: ${why}`);
}

const sext = (v: number, bits: number): number => (v << (32 - bits)) >> (32 - bits);

function nameOf(family: IsaFamily, format: string, op: number, word: number, address: number): string {
  const name = TABLES[family][format]?.[op];
  if (!name) unknown(word, address, `${format} opcode ${op} is not a ${family} instruction`);
  return name;
}

/** Decodes the instruction at `address`. */
export function decodeInstruction(family: IsaFamily, fetch: WordFetch, address: number): Instruction {
  const w0 = fetch(address) >>> 0;
  const f = emptyFields();
  let format: Format;
  let opcode: number;
  let size = 4;
  let name: string;
  let promotedFrom: Instruction["promotedFrom"];
  const words: number[] = [w0];
  const word = (i: number): number => {
    while (words.length <= i) words.push(fetch(address + words.length * 4) >>> 0);
    return words[i]!;
  };
  const top9 = w0 >>> 23;
  const top6 = w0 >>> 26;

  if (top9 === 0x17d) {
    format = "SOP1";
    opcode = (w0 >>> 8) & 0xff;
    f.sdst = (w0 >>> 16) & 0x7f;
    f.ssrc0 = w0 & 0xff;
  } else if (top9 === 0x17e) {
    format = "SOPC";
    opcode = (w0 >>> 16) & 0x7f;
    f.ssrc1 = (w0 >>> 8) & 0xff;
    f.ssrc0 = w0 & 0xff;
  } else if (top9 === 0x17f) {
    format = "SOPP";
    opcode = (w0 >>> 16) & 0x7f;
    f.simm16 = w0 & 0xffff;
  } else if (w0 >>> 28 === 0xb) {
    format = "SOPK";
    opcode = (w0 >>> 23) & 0x1f;
    f.sdst = (w0 >>> 16) & 0x7f;
    f.simm16 = w0 & 0xffff;
  } else if (w0 >>> 30 === 2) {
    format = "SOP2";
    opcode = (w0 >>> 23) & 0x7f;
    f.sdst = (w0 >>> 16) & 0x7f;
    f.ssrc1 = (w0 >>> 8) & 0xff;
    f.ssrc0 = w0 & 0xff;
  } else if (w0 >>> 25 === 0x3f) {
    format = "VOP1";
    opcode = (w0 >>> 9) & 0xff;
    f.vdst = (w0 >>> 17) & 0xff;
    f.src0 = w0 & 0x1ff;
  } else if (w0 >>> 25 === 0x3e) {
    format = "VOPC";
    opcode = (w0 >>> 17) & 0xff;
    f.src1 = 256 + ((w0 >>> 9) & 0xff);
    f.src0 = w0 & 0x1ff;
  } else if (w0 >>> 31 === 0) {
    format = "VOP2";
    opcode = (w0 >>> 25) & 0x3f;
    f.vdst = (w0 >>> 17) & 0xff;
    f.src1 = 256 + ((w0 >>> 9) & 0xff);
    f.src0 = w0 & 0x1ff;
  } else if (family === "gfx9" && top9 === 0x1a7) {
    format = "VOP3P";
    opcode = (w0 >>> 16) & 0x7f;
    vop3p(f, w0, word(1));
    size = 8;
  } else if ((family === "gfx11" && top6 === 0x35) || (family === "gfx9" && top6 === 0x34)) {
    format = "VOP3";
    opcode = (w0 >>> 16) & 0x3ff;
    const w1 = word(1);
    size = 8;
    f.vdst = w0 & 0xff;
    f.clamp = (w0 >>> 15) & 1;
    f.src0 = w1 & 0x1ff;
    f.src1 = (w1 >>> 9) & 0x1ff;
    f.src2 = (w1 >>> 18) & 0x1ff;
    f.omod = (w1 >>> 27) & 3;
    f.neg = (w1 >>> 29) & 7;
    name = nameOf(family, "VOP3", opcode, w0, address);
    if (VOP3B_OPS.has(name)) f.sdst = (w0 >>> 8) & 0x7f;
    else {
      f.abs = (w0 >>> 8) & 7;
      f.opsel = (w0 >>> 11) & 0xf;
    }
    const [vopc, vop2, vop1] = family === "gfx11" ? [256, 384, 512] : [256, 320, 448];
    promotedFrom = opcode < vopc ? "VOPC" : opcode < vop2 ? "VOP2" : opcode < vop1 ? "VOP1" : undefined;
  } else if (family === "gfx11" && top6 === 0x33) {
    format = "VOP3P";
    opcode = (w0 >>> 16) & 0x7f;
    vop3p(f, w0, word(1));
    size = 8;
  } else if (family === "gfx11" && top6 === 0x32) {
    format = "VOPD";
    const w1 = word(1);
    size = 8;
    opcode = (w0 >>> 17) & 0x1ff;
    f.opx = nameOf(family, "VOPDX", (w0 >>> 22) & 0xf, w0, address);
    f.opy = nameOf(family, "VOPDY", (w0 >>> 17) & 0x1f, w0, address);
    f.src0x = w0 & 0x1ff;
    f.vsrc1x = 256 + ((w0 >>> 9) & 0xff);
    f.vdstx = (w1 >>> 24) & 0xff;
    f.vdsty = ((((w1 >>> 17) & 0x7f) << 1) | (~f.vdstx & 1)) & 0xff;
    f.src0y = w1 & 0x1ff;
    f.vsrc1y = 256 + ((w1 >>> 9) & 0xff);
    name = `v_dual_${f.opx}`;
    const needsK = (n: string) => n === "fmaak_f32" || n === "fmamk_f32";
    if (f.src0x === LITERAL || f.src0y === LITERAL || needsK(f.opx) || needsK(f.opy)) {
      f.literal = word(2);
      size = 12;
    }
  } else if (top6 === 0x36) {
    format = "DS";
    const w1 = word(1);
    size = 8;
    if (family === "gfx11") {
      opcode = (w0 >>> 18) & 0xff;
      f.gds = (w0 >>> 17) & 1;
    } else {
      opcode = (w0 >>> 17) & 0xff;
      f.gds = (w0 >>> 16) & 1;
    }
    f.offset0 = w0 & 0xff;
    f.offset1 = (w0 >>> 8) & 0xff;
    f.addr = w1 & 0xff;
    f.data0 = (w1 >>> 8) & 0xff;
    f.data1 = (w1 >>> 16) & 0xff;
    f.vdst = (w1 >>> 24) & 0xff;
  } else if (top6 === 0x37) {
    const w1 = word(1);
    size = 8;
    opcode = (w0 >>> 18) & 0x7f;
    const seg = family === "gfx11" ? (w0 >>> 16) & 3 : (w0 >>> 14) & 3;
    format = seg === 0 ? "FLAT" : seg === 1 ? "SCRATCH" : seg === 2 ? "GLOBAL" : unknown(w0, address, "FLAT segment 3 is reserved");
    f.offset = format === "FLAT" && family === "gfx9" ? w0 & 0xfff : sext(w0 & 0x1fff, 13);
    if (family === "gfx11") {
      f.glc = (w0 >>> 14) & 1;
      f.slc = (w0 >>> 15) & 1;
    } else {
      f.glc = (w0 >>> 16) & 1;
      f.slc = (w0 >>> 17) & 1;
    }
    f.addr = w1 & 0xff;
    f.data0 = (w1 >>> 8) & 0xff;
    f.saddr = (w1 >>> 16) & 0x7f;
    if (format === "SCRATCH") f.sve = family === "gfx11" ? (w1 >>> 23) & 1 : (w0 >>> 13) & 1;
    f.vdst = (w1 >>> 24) & 0xff;
  } else if ((family === "gfx11" && top6 === 0x3d) || (family === "gfx9" && top6 === 0x30)) {
    format = "SMEM";
    const w1 = word(1);
    size = 8;
    opcode = (w0 >>> 18) & 0xff;
    f.sbase = (w0 & 0x3f) << 1;
    f.sdata = (w0 >>> 6) & 0x7f;
    if (family === "gfx11") {
      f.glc = (w0 >>> 14) & 1;
      f.offset = sext(w1 & 0x1fffff, 21);
      f.soffset = (w1 >>> 25) & 0x7f;
    } else {
      f.glc = (w0 >>> 16) & 1;
      const imm = (w0 >>> 17) & 1;
      const soe = (w0 >>> 14) & 1;
      if (imm) f.offset = sext(w1 & 0x1fffff, 21);
      if (soe) f.soffset = (w1 >>> 25) & 0x7f;
      else if (!imm) f.soffset = w1 & 0xff;
    }
  } else if (top6 === 0x38) {
    format = "MUBUF";
    const w1 = word(1);
    size = 8;
    opcode = family === "gfx11" ? (w0 >>> 18) & 0xff : (w0 >>> 18) & 0x7f;
    f.offset = w0 & 0xfff;
    f.addr = w1 & 0xff;
    f.data0 = (w1 >>> 8) & 0xff;
    f.sbase = ((w1 >>> 16) & 0x1f) << 2;
    f.soffset = (w1 >>> 24) & 0xff;
  } else {
    return unknown(w0, address, `no ${family} encoding has this prefix`);
  }

  name ??= nameOf(family, format, opcode, w0, address);

  // Literal constants and DPP / SDWA dwords of the 32-bit VALU encodings.
  if (format === "SOP1" || format === "SOP2" || format === "SOPC") {
    if (f.ssrc0 === LITERAL || f.ssrc1 === LITERAL) {
      f.literal = word(1);
      size = 8;
    }
  } else if (format === "SOPK" && name === "s_setreg_imm32_b32") {
    f.literal = word(1);
    size = 8;
  } else if (format === "VOP1" || format === "VOP2" || format === "VOPC") {
    if (format === "VOP2" && K_CONSTANT_OPS.has(name)) {
      f.literal = word(1);
      size = 8;
    } else if (f.src0 === LITERAL) {
      f.literal = word(1);
      size = 8;
    } else if (f.src0 === SDWA && family === "gfx9") {
      f.extra = word(1);
      f.extraKind = "sdwa";
      size = 8;
    } else if (f.src0 === DPP16) {
      f.extra = word(1);
      f.extraKind = "dpp16";
      size = 8;
    } else if ((f.src0 === DPP8 || f.src0 === DPP8_FI) && family === "gfx11") {
      f.extra = word(1);
      f.extraKind = "dpp8";
      size = 8;
    }
  } else if ((format === "VOP3" || format === "VOP3P") && family === "gfx11") {
    if (f.src0 === LITERAL || f.src1 === LITERAL || f.src2 === LITERAL) {
      f.literal = word(2);
      size = 12;
    } else if (f.src0 === DPP16) {
      f.extra = word(2);
      f.extraKind = "dpp16";
      size = 12;
    } else if (f.src0 === DPP8 || f.src0 === DPP8_FI) {
      f.extra = word(2);
      f.extraKind = "dpp8";
      size = 12;
    }
  }
  while (words.length * 4 < size) word(words.length);
  return { address, size, format, opcode, name, words, f, ...(promotedFrom ? { promotedFrom } : {}) };
}

function vop3p(f: Fields, w0: number, w1: number): void {
  f.vdst = w0 & 0xff;
  f.negHi = (w0 >>> 8) & 7;
  f.opsel = (w0 >>> 11) & 7;
  f.opselHi = ((w0 >>> 14) & 1) << 2;
  f.clamp = (w0 >>> 15) & 1;
  f.src0 = w1 & 0x1ff;
  f.src1 = (w1 >>> 9) & 0x1ff;
  f.src2 = (w1 >>> 18) & 0x1ff;
  f.opselHi |= (w1 >>> 27) & 3;
  f.neg = (w1 >>> 29) & 7;
}

/** Decodes every instruction of [start, end) in order (for listings and the LLVM cross-check). */
export function decodeRange(family: IsaFamily, fetch: WordFetch, start: number, end: number): Instruction[] {
  const out: Instruction[] = [];
  for (let pc = start; pc < end; ) {
    const inst = decodeInstruction(family, fetch, pc);
    out.push(inst);
    pc += inst.size;
  }
  return out;
}
