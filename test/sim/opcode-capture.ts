/**
 * Captures the simulator's opcode → mnemonic tables from LLVM 19: for each encoding format of
 * each family, one instruction word per opcode with fixed, valid operands goes through
 * `llvm-mc-19 -disassemble -show-encoding`, and the mnemonic it prints (without the _e32 /
 * _e64 / _sdwa / _dpp encoding suffix) is that opcode's name. The simulator's decoder owns
 * the formats, operand fields and instruction lengths; only the names come from here.
 */
import { runTool } from "../util/tools.js";

export type Family = "gfx11" | "gfx9";

interface FormatProbe {
  /** Format name as the simulator's tables use it. */
  readonly format: string;
  readonly count: number;
  /** Candidate instruction words for opcode `op` (LLVM rejects nonzero unused fields, so several operand shapes are tried). */
  readonly words: (op: number) => readonly (readonly number[])[];
}

const u = (w: number): number => w >>> 0;
/** VOP3-style second dwords: src0 v6, src1 v8, src2 v10 or none. */
const VOP3_SOURCES = [u(0x106 | (0x108 << 9)), u(0x106 | (0x108 << 9) | (0x10a << 18)), 0x106];
/** DS second dwords (vdst [31:24], data1 [23:16], data0 [15:8], addr [7:0]). */
const DS_OPERANDS = [u((2 << 24) | 8), u((6 << 8) | 8), u((2 << 24) | (6 << 8) | 8), u((2 << 24) | (4 << 16) | (6 << 8) | 8), u((4 << 16) | (6 << 8) | 8), 8];
/** FLAT second dwords with saddr `off` (vdst [31:24], data [15:8], addr [7:0]). */
const flatOperands = (off: number): number[] => [u((2 << 24) | (off << 16) | 6), u((off << 16) | (4 << 8) | 6), u((2 << 24) | (off << 16) | (4 << 8) | 6)];
/**
 * VOPD (gfx11 dual issue) with the other half v_dual_mov_b32 (opcode 8): X sources v4 / v5, Y
 * sources v6 / v7 (other banks), vdstX v2, vdstY v3; a half without a src1 needs vsrc1 = 0.
 */
const vopd = (opx: number, opy: number): number[][] =>
  [
    [0, 0],
    [5, 0],
    [0, 7],
    [5, 7],
  ].map(([x1, y1]) => [u(0xc8000000 | (opx << 22) | (opy << 17) | (x1! << 9) | 0x104), u((2 << 24) | (1 << 17) | (y1! << 9) | 0x106)]);
/** MUBUF second dwords: none (cache controls such as buffer_gl0_inv), or soffset 0, srsrc s[4:7], vdata v4, vaddr v6. */
const MUBUF_OPERANDS = [0, u((0x80 << 24) | (1 << 16) | (4 << 8) | 6)];
const each = (first: number, seconds: readonly number[]): number[][] => seconds.map((s) => [u(first), s]);

const SCALAR_PROBES: readonly FormatProbe[] = [
  // SOP2 opcodes at 0x60 and up, SOPK at 0x1c and up, overlap the next formats' prefixes.
  { format: "SOP2", count: 96, words: (op) => [[u(0x80000000 | (op << 23) | (4 << 16) | (2 << 8))]] },
  { format: "SOPK", count: 28, words: (op) => [[u(0xb0000000 | (op << 23) | (4 << 16) | 0x10)]] },
  { format: "SOP1", count: 256, words: (op) => [[u(0xbe800000 | (4 << 16) | (op << 8))]] },
  { format: "SOPC", count: 128, words: (op) => [[u(0xbf000000 | (op << 16) | (2 << 8))]] },
  { format: "SOPP", count: 128, words: (op) => [[u(0xbf800000 | (op << 16))]] },
  { format: "VOP1", count: 256, words: (op) => [[u(0x7e000000 | (2 << 17) | (op << 9) | 0x106)]] },
  { format: "VOP2", count: 64, words: (op) => [[u((op << 25) | (2 << 17) | (4 << 9) | 0x106)]] },
  { format: "VOPC", count: 256, words: (op) => [[u(0x7c000000 | (op << 17) | (4 << 9) | 0x106)]] },
];

const GFX11_PROBES: readonly FormatProbe[] = [
  ...SCALAR_PROBES,
  { format: "SMEM", count: 256, words: (op) => [[u(0xf4000000 | (op << 18) | (4 << 6)), 0xf8000000]] },
  // v_cmpx_*_e64 must name exec_lo (0x7e) as its destination.
  { format: "VOP3", count: 1024, words: (op) => [...each(0xd4000000 | (op << 16) | 2, VOP3_SOURCES), ...each(0xd4000000 | (op << 16) | 0x7e, VOP3_SOURCES)] },
  { format: "VOP3P", count: 128, words: (op) => [...each(0xcc000000 | (op << 16) | 2, VOP3_SOURCES), ...each(0xcc004000 | (op << 16) | 2, VOP3_SOURCES.map((w) => u(w | (3 << 27))))] },
  // VOPD: OPX in [25:22] with OPY = v_dual_mov_b32 (8), OPY in [21:17] with OPX = v_dual_mov_b32;
  // X sources v4, v5, Y sources v6, v7 (other banks), vdstX v2, vdstY v3.
  { format: "VOPDX", count: 16, words: (op) => vopd(op, 8) },
  { format: "VOPDY", count: 32, words: (op) => vopd(8, op) },
  { format: "DS", count: 256, words: (op) => each(0xd8000000 | (op << 18), DS_OPERANDS) },
  { format: "FLAT", count: 128, words: (op) => each(0xdc000000 | (op << 18), flatOperands(0x7c)) },
  { format: "SCRATCH", count: 128, words: (op) => each(0xdc000000 | (op << 18) | (1 << 16), flatOperands(0x7c)) },
  { format: "GLOBAL", count: 128, words: (op) => each(0xdc000000 | (op << 18) | (2 << 16), flatOperands(0x7c)) },
  { format: "MUBUF", count: 256, words: (op) => each(0xe0000000 | (op << 18), MUBUF_OPERANDS) },
];

const GFX9_PROBES: readonly FormatProbe[] = [
  ...SCALAR_PROBES,
  { format: "SMEM", count: 256, words: (op) => [[u(0xc0020000 | (op << 18) | (4 << 6)), 0]] },
  { format: "VOP3", count: 1024, words: (op) => each(0xd0000000 | (op << 16) | 2, VOP3_SOURCES) },
  // Packed f32 ops decode only with op_sel_hi set (their default).
  { format: "VOP3P", count: 128, words: (op) => [...each(0xd3800000 | (op << 16) | 2, VOP3_SOURCES), ...each(0xd3804000 | (op << 16) | 2, VOP3_SOURCES.map((w) => u(w | (3 << 27))))] },
  { format: "DS", count: 256, words: (op) => each(0xd8000000 | (op << 17), DS_OPERANDS) },
  { format: "FLAT", count: 128, words: (op) => each(0xdc000000 | (op << 18), flatOperands(0)) },
  { format: "SCRATCH", count: 128, words: (op) => each(0xdc000000 | (op << 18) | (1 << 14), flatOperands(0x7f)) },
  { format: "GLOBAL", count: 128, words: (op) => each(0xdc000000 | (op << 18) | (2 << 14), flatOperands(0x7f)) },
  { format: "MUBUF", count: 128, words: (op) => each(0xe0000000 | (op << 18), MUBUF_OPERANDS) },
];

/** The processor LLVM decodes each family's tables with. */
export const CAPTURE_MCPU: Record<Family, string> = { gfx11: "gfx1100", gfx9: "gfx942" };

const bytesOf = (words: readonly number[]): string =>
  words.map((w) => [0, 8, 16, 24].map((s) => `0x${((w >>> s) & 0xff).toString(16).padStart(2, "0")}`).join(",")).join(",");

/** LLVM's mnemonic without the encoding suffix (the simulator names ops by their base name). */
export function baseMnemonic(m: string): string {
  return m.replace(/_(e32|e64|sdwa|dpp|dpp8)$/, "");
}

/** `s_nop 0` in both families: pads each probe so a literal or a failed decode cannot reach the next one. */
const S_NOP = 0xbf800000;

/** Format → names by opcode ("" where LLVM decodes nothing). */
export function captureOpcodeTables(family: Family): Record<string, string[]> {
  const probes = family === "gfx11" ? GFX11_PROBES : GFX9_PROBES;
  const out: Record<string, string[]> = {};
  for (const probe of probes) {
    // llvm-mc reads its input as one byte stream; an output instruction is a probe's when its
    // first dword is that probe's (the operand dwords come back normalized, the first does not).
    const opOfFirst = new Map<string, number>();
    const text: string[] = [];
    for (let op = 0; op < probe.count; op++) {
      for (const words of probe.words(op)) {
        opOfFirst.set(bytesOf(words.slice(0, 1)), op);
        text.push(bytesOf([...words, S_NOP, S_NOP]));
      }
    }
    const r = runTool("llvm-mc-19", ["-triple=amdgcn-amd-amdhsa", `-mcpu=${CAPTURE_MCPU[family]}`, "-disassemble", "-show-encoding"], text.join("\n") + "\n");
    if (r.status !== 0) throw new Error(`llvm-mc-19 failed on ${family} ${probe.format}: ${r.stderr}`);
    const names = new Array<string>(probe.count).fill("");
    for (const m of r.stdout.matchAll(/^\s+(\S+)(.*?);\s*encoding: \[([^\]]+)\]/gm)) {
      const op = opOfFirst.get(m[3]!.split(",").slice(0, 4).join(","));
      if (op === undefined || names[op] !== "") continue;
      let name = baseMnemonic(m[1]!);
      if (probe.format === "VOPDX") name = name.replace(/^v_dual_/, "");
      if (probe.format === "VOPDY") name = baseMnemonic(/::\s*(\S+)/.exec(m[2]!)?.[1] ?? "").replace(/^v_dual_/, "");
      names[op] = name;
    }
    out[probe.format] = names;
  }
  return out;
}

/** The generated TypeScript module (src/runtime/sim/opcodes.ts). */
export function renderOpcodeModule(tables: Record<Family, Record<string, string[]>>): string {
  const lines = [
    "/**",
    " * Opcode → mnemonic per encoding format, as llvm-mc-19 -disassemble names them (base names,",
    " * without _e32/_e64/_sdwa/_dpp). GENERATED by test/sim/opcode-tables.test.ts (UPDATE=1 with",
    " * llvm-mc-19 installed); that test also checks it live. Each string lists the names by",
    " * opcode, space-separated, '-' where the opcode is not decoded. VOPDX / VOPDY are gfx11's",
    " * dual-issue halves (names without the v_dual_ prefix).",
    " */",
    "export const OPCODE_TABLES = {",
  ];
  for (const family of ["gfx11", "gfx9"] as const) {
    lines.push(`  ${family}: {`);
    for (const [format, names] of Object.entries(tables[family])) {
      lines.push(`    ${format}: ${JSON.stringify(names.map((n) => n || "-").join(" "))},`);
    }
    lines.push("  },");
  }
  lines.push("} as const;", "");
  return lines.join("\n");
}
