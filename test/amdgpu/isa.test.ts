/**
 * Encoder unit tests (verification.md HSACO step 7): for every instruction form and
 * processor, our bytes equal `llvm-mc-19 -show-encoding`, and `llvm-mc-19 -disassemble`
 * of our bytes prints the same instruction.
 *
 * The rows llvm-mc-19 printed (processor, form, operands, encoding, assembly) are checked
 * in (data/llvm-mc-encodings.tsv), so the encoder is tested without LLVM; where llvm-mc-19
 * exists (always in CI) the live comparison runs too and checks the rows are current.
 * `UPDATE=1` with llvm-mc-19 installed recaptures them.
 */
import { test } from "node:test";
import { readFileSync, writeFileSync } from "node:fs";
import assert from "node:assert/strict";
import { LoomError } from "../../src/core/errors.js";
import { encodeInstruction, encodeProgram, formatInstruction, instruction, isAvailable, type Instruction } from "../../src/targets/amdgpu/isa/encoder.js";
import { AMDGPU_PROCESSORS } from "../../src/targets/amdgpu/profiles.js";
import { codeEndPadding } from "../../src/targets/amdgpu/isa/code-end.js";
import { INSTRUCTIONS } from "../../src/targets/amdgpu/isa/opcodes.js";
import { runTool } from "../util/tools.js";
import { fromRoot } from "../util/paths.js";
import { UPDATING } from "../util/golden.js";
import { requireLlvm } from "./llvm.js";

const PROCESSORS = ["gfx90a", "gfx942", "gfx1100", "gfx1151", "gfx11-generic", "gfx1200", "gfx12-generic"];
/** gfx10 has no loom profile yet; its encodings are still tested through a real processor. */
const EXTRA_MCPUS: Record<string, "gfx10"> = { gfx1030: "gfx10" };

function familyOf(mcpu: string) {
  return AMDGPU_PROCESSORS.get(mcpu)?.family ?? EXTRA_MCPUS[mcpu]!;
}

/**
 * The program-control forms every family has (s_nop at both range ends). The instruction
 * selection rows are checked instruction by instruction on every emitted suite kernel by
 * test/amdgpu/codegen.test.ts (llvm-mc-19 re-assembles our listing to the same bytes).
 */
function forms(): Instruction[] {
  const out: Instruction[] = [instruction("s_nop", 0), instruction("s_nop", 15), instruction("s_endpgm"), instruction("s_code_end"), instruction("s_nop", 7), ...SELECTION_FORMS];
  for (const i of out) if (!INSTRUCTIONS.has(i.mnemonic)) throw new Error(i.mnemonic);
  return out;
}

/** Our listing text on `mcpu` (gfx94x spells GLC `sc0`). */
const asText = (i: Instruction, mcpu: string) => formatInstruction(i, familyOf(mcpu), { glc: mcpu === "gfx942" ? "sc0" : "glc" });

const v = (i: number, n = 1) => ({ k: "v" as const, i, n });
/**
 * Selection instructions added with the division, bit-count, math and scoped-atomic
 * sequences (one form each: the row key is processor and mnemonic), checked here without
 * LLVM; all selection forms are also re-assembled live on the selection kernels.
 */
const SELECTION_FORMS: Instruction[] = [
  { mnemonic: "v_mul_hi_u32", operands: [v(1), v(2), v(3)] },
  { mnemonic: "v_bcnt_u32_b32", operands: [v(1), v(2), v(3)] },
  { mnemonic: "v_ffbh_u32", operands: [v(1), v(2)] },
  { mnemonic: "v_ffbl_b32", operands: [v(1), v(2)] },
  { mnemonic: "v_alignbit_b32", operands: [v(1), v(2), v(3), v(4)] },
  { mnemonic: "v_bfi_b32", operands: [v(1), v(2), v(3), v(4)] },
  { mnemonic: "global_atomic_cmpswap_b32", operands: [v(1), v(2, 2), v(4, 2), { k: "off" }], glc: true },
  { mnemonic: "global_atomic_cmpswap_b64", operands: [v(0, 2), v(2, 2), v(4, 4), { k: "off" }], glc: true },
  { mnemonic: "ds_cmpswap_b32", operands: [v(1), v(2), v(3)] },
  { mnemonic: "ds_cmpswap_rtn_b32", operands: [v(4), v(1), v(2), v(3)] },
  { mnemonic: "ds_cmpswap_b64", operands: [v(1), v(2, 2), v(4, 2)], offset: 64 },
  { mnemonic: "ds_cmpswap_rtn_b64", operands: [v(6, 2), v(1), v(2, 2), v(4, 2)] },
  // 64-bit read-modify-write atomics (lower/memory.ts).
  { mnemonic: "global_atomic_add_u64", operands: [v(0, 2), v(2, 2), v(4, 2), { k: "off" }], glc: true },
  { mnemonic: "global_atomic_min_i64", operands: [v(2, 2), v(4, 2), { k: "off" }], offset: 8 },
  { mnemonic: "global_atomic_swap_b64", operands: [v(0, 2), v(2, 2), v(4, 2), { k: "off" }], glc: true },
  { mnemonic: "ds_add_rtn_u64", operands: [v(2, 2), v(1), v(4, 2)], offset: 16 },
  { mnemonic: "ds_max_u64", operands: [v(1), v(2, 2)] },
  { mnemonic: "ds_swap_rtn_b64", operands: [v(2, 2), v(1), v(4, 2)] },
  { mnemonic: "scratch_load_b32", operands: [v(1), v(2), { k: "off" }] },
  { mnemonic: "scratch_store_b32", operands: [{ k: "off" }, v(3), { k: "off" }], offset: 12 },
  { mnemonic: "scratch_load_b64", operands: [v(4, 2), { k: "off" }, { k: "off" }], offset: 4088 },
  { mnemonic: "scratch_store_b64", operands: [v(1), v(6, 2), { k: "off" }], offset: 160 },
  { mnemonic: "global_store_b32", operands: [v(2, 2), v(1), { k: "off" }], sc1: true },
  { mnemonic: "buffer_wbl2", operands: [], glc: true, sc1: true },
  { mnemonic: "buffer_inv", operands: [], sc1: true },
  { mnemonic: "buffer_invl2", operands: [] },
  { mnemonic: "buffer_wbinvl1_vol", operands: [] },
  { mnemonic: "buffer_gl1_inv", operands: [] },
  // 16- and 8-bit memory and f16 (lower/half.ts, the narrow views of lower/memory.ts).
  ...["global_load_u8", "global_load_i8", "global_load_u16", "global_load_i16"].map((mnemonic): Instruction => ({ mnemonic, operands: [v(1), v(2, 2), { k: "off" }], offset: 6 })),
  ...["global_store_b8", "global_store_b16"].map((mnemonic): Instruction => ({ mnemonic, operands: [v(2, 2), v(1), { k: "off" }], offset: -2 })),
  ...["ds_load_u8", "ds_load_i8", "ds_load_u16", "ds_load_i16"].map((mnemonic): Instruction => ({ mnemonic, operands: [v(1), v(2)], offset: 2 })),
  ...["ds_store_b8", "ds_store_b16"].map((mnemonic): Instruction => ({ mnemonic, operands: [v(1), v(2)], offset: 4 })),
  { mnemonic: "v_cvt_f16_f32", operands: [v(1), v(2)] },
  { mnemonic: "v_cvt_f32_f16", operands: [v(1), { k: "s", i: 4, n: 1 }] },
  { mnemonic: "v_fma_f16", operands: [v(1), v(2), v(3), { k: "s", i: 4, n: 1 }] },
  ...["v_add_f16", "v_sub_f16", "v_mul_f16", "v_max_f16", "v_min_f16"].map((mnemonic): Instruction => ({ mnemonic, operands: [v(1), { k: "s", i: 4, n: 1 }, v(3)] })),
  { mnemonic: "v_bfe_i32", operands: [v(1), v(2), { k: "imm", v: 0 }, { k: "imm", v: 8 }] },
  // f64 (lower/f64.ts); the compares' destination is the wave's mask width (s[4:5] on wave64 processors is written as one pair).
  ...["v_add_f64", "v_mul_f64", "v_min_f64", "v_max_f64"].map((mnemonic): Instruction => ({ mnemonic, operands: [v(0, 2), v(2, 2), { k: "s", i: 4, n: 2 }] })),
  { mnemonic: "v_fma_f64", operands: [v(0, 2), v(2, 2), v(4, 2), v(6, 2)] },
  ...["v_cvt_f64_f32", "v_cvt_f64_i32", "v_cvt_f64_u32"].map((mnemonic): Instruction => ({ mnemonic, operands: [v(0, 2), v(2)] })),
  ...["v_cvt_f32_f64", "v_cvt_i32_f64", "v_cvt_u32_f64"].map((mnemonic): Instruction => ({ mnemonic, operands: [v(0), v(2, 2)] })),
  ...["v_trunc_f64", "v_ceil_f64", "v_floor_f64", "v_rndne_f64"].map((mnemonic): Instruction => ({ mnemonic, operands: [v(0, 2), v(2, 2)] })),
  // f64 division and square root (lower/f64.ts); -0.5 and 1.0 are inline doubles in a 64-bit float operand; lane masks are widened on wave64 processors (`forWave`).
  { mnemonic: "v_div_scale_f64", operands: [v(0, 2), { k: "special", name: "vcc", n: 1 }, v(2, 2), v(4, 2), v(6, 2)] },
  { mnemonic: "v_div_fmas_f64", operands: [v(0, 2), v(2, 2), v(4, 2), v(6, 2)] },
  { mnemonic: "v_div_fixup_f64", operands: [v(0, 2), v(2, 2), { k: "imm", v: 0xbf000000 }, { k: "imm", v: 0x3f800000 }] },
  ...["v_rcp_f64", "v_rsq_f64"].map((mnemonic): Instruction => ({ mnemonic, operands: [v(0, 2), v(2, 2)] })),
  { mnemonic: "v_ldexp_f64", operands: [v(0, 2), v(2, 2), v(4)] },
  { mnemonic: "v_cmp_class_f64", operands: [{ k: "s", i: 4, n: 1 }, v(2, 2), { k: "s", i: 5, n: 1 }] },
];
/** Forms llvm-mc-19 knows only on some processors of their family (gfx940+ cache operations; sc1 is gfx94x). */
const GFX94X_ONLY = new Set(["buffer_wbl2", "buffer_inv", "global_store_b32"]);
/** Architected flat scratch's forms: gfx90a's scratch instructions have no SVE bit (loom selects them on gfx94x and gfx11). */
const NOT_GFX90A = new Set(["scratch_load_b32", "scratch_store_b32", "scratch_load_b64", "scratch_store_b64"]);
/** gfx90a's own cache operations (gfx940 renamed opcode 0x29 buffer_inv and dropped buffer_wbinvl1_vol). */
const GFX90A_ONLY = new Set(["buffer_invl2", "buffer_wbinvl1_vol"]);

const simmOperands = (i: Instruction): number[] => (i.simm === undefined ? [] : [i.simm]);

function hex(words: number[]): string {
  return words.map((w) => [0, 8, 16, 24].map((s) => `0x${((w >>> s) & 0xff).toString(16).padStart(2, "0")}`).join(",")).join(",");
}

const ALL_MCPUS = [...PROCESSORS, ...Object.keys(EXTRA_MCPUS)];
const ROWS_FILE = fromRoot("test", "amdgpu", "data", "llvm-mc-encodings.tsv");
const ROWS_HEADER = [
  "# AMDGPU encodings as llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=PROCESSOR -show-encoding prints them,",
  "# captured by test/amdgpu/isa.test.ts (UPDATE=1 with llvm-mc-19 installed). Tab-separated:",
  "# processor\tmnemonic\toperands (comma list)\tencoding bytes\tassembly",
];

interface Row {
  readonly processor: string;
  readonly mnemonic: string;
  readonly operands: readonly number[];
  readonly encoding: string;
  readonly assembly: string;
}

const rowKey = (r: Pick<Row, "processor" | "mnemonic" | "operands">) => `${r.processor} ${r.mnemonic} ${r.operands.join(",")}`;

function formatRows(rows: readonly Row[]): string {
  return [...ROWS_HEADER, ...rows.map((r) => [r.processor, r.mnemonic, r.operands.join(","), r.encoding, r.assembly].join("\t"))].join("\n") + "\n";
}

function readRows(): Row[] {
  return readFileSync(ROWS_FILE, "utf8").split("\n").filter((l) => l && !l.startsWith("#")).map((line) => {
    const [processor = "", mnemonic = "", operands = "", encoding = "", assembly = ""] = line.split("\t");
    return { processor, mnemonic, operands: operands ? operands.split(",").map(Number) : [], encoding, assembly };
  });
}

/** A form's lane-mask operands (VCC, the v_cmp destination) as a wave64 processor writes them: SGPR pairs. */
function forWave(i: Instruction, mcpu: string): Instruction {
  if (familyOf(mcpu) !== "gfx9") return i;
  const masks = i.mnemonic.startsWith("v_cmp_") ? 1 : 0;
  return { ...i, operands: i.operands.map((o, k) => (o.k === "special" && o.name === "vcc" ? { ...o, n: 2 } : k < masks && o.k === "s" ? { ...o, n: 2 } : o)) };
}

/** The forms tested on `mcpu`, in row order. */
function formsOn(mcpu: string): Instruction[] {
  return forms().map((i) => forWave(i, mcpu)).filter((i) => isAvailable(i.mnemonic, familyOf(mcpu)) && !(GFX94X_ONLY.has(i.mnemonic) && mcpu !== "gfx942") && !(NOT_GFX90A.has(i.mnemonic) && mcpu === "gfx90a") && !(GFX90A_ONLY.has(i.mnemonic) && mcpu !== "gfx90a"));
}

/** What llvm-mc-19 prints today for every form on every processor. */
function liveRows(): Row[] {
  return ALL_MCPUS.flatMap((mcpu) => {
    const available = formsOn(mcpu);
    const enc = runTool("llvm-mc-19", ["-triple=amdgcn-amd-amdhsa", `-mcpu=${mcpu}`, "-show-encoding"], available.map((i) => asText(i, mcpu)).join("\n") + "\n");
    assert.equal(enc.status, 0, enc.stderr);
    const printed = [...enc.stdout.matchAll(/^[ \t]*(\S[^;\n]*?)[ \t]*; encoding: \[([^\]]+)\]/gm)];
    assert.equal(printed.length, available.length, `llvm-mc-19 printed ${printed.length} encodings for ${available.length} forms on ${mcpu}`);
    return available.map((i, k) => ({ processor: mcpu, mnemonic: i.mnemonic, operands: simmOperands(i), assembly: printed[k]?.[1] ?? "", encoding: printed[k]?.[2] ?? "" }));
  });
}

test("the checked-in llvm-mc-19 rows are what llvm-mc-19 prints today", (t) => {
  if (!requireLlvm(t, "llvm-mc-19")) return;
  const live = formatRows(liveRows());
  if (UPDATING) writeFileSync(ROWS_FILE, live);
  else assert.equal(readFileSync(ROWS_FILE, "utf8"), live, "test/amdgpu/data/llvm-mc-encodings.tsv is stale; recapture with UPDATE=1 and review the diff");
});

test("encoder reproduces the checked-in llvm-mc-19 rows (no LLVM needed)", () => {
  const rows = readRows();
  const byKey = new Map(rows.map((r) => [rowKey(r), r]));
  assert.equal(byKey.size, rows.length, "a row appears twice");
  const tested = new Set<string>();
  for (const mcpu of ALL_MCPUS) {
    for (const i of formsOn(mcpu)) {
      const key = rowKey({ processor: mcpu, mnemonic: i.mnemonic, operands: simmOperands(i) });
      const row = byKey.get(key);
      assert.ok(row, `no llvm-mc-19 row for '${key}': capture it with UPDATE=1 (needs llvm-mc-19)`);
      tested.add(key);
      assert.equal(hex(encodeInstruction(i, familyOf(mcpu))), row.encoding, key);
      assert.equal(asText(i, mcpu), row.assembly, `${key}: our assembly text differs from llvm-mc-19's`);
    }
  }
  assert.deepEqual(rows.map(rowKey).filter((k) => !tested.has(k)), [], "rows for forms the encoder no longer has");
});

for (const mcpu of ALL_MCPUS) {
  test(`encoder agrees with llvm-mc-19 on ${mcpu}`, (t) => {
    if (!requireLlvm(t, "llvm-mc-19")) return;
    const family = familyOf(mcpu);
    const available = formsOn(mcpu);
    assert.ok(available.length >= 3);
    const asm = available.map((i) => asText(i, mcpu)).join("\n") + "\n";
    const enc = runTool("llvm-mc-19", ["-triple=amdgcn-amd-amdhsa", `-mcpu=${mcpu}`, "-show-encoding"], asm);
    assert.equal(enc.status, 0, enc.stderr);
    assert.doesNotMatch(enc.stderr, /not a recognized processor|error/);
    const encodings = [...enc.stdout.matchAll(/encoding: \[([^\]]+)\]/g)].map((m) => m[1]);
    assert.deepEqual(encodings, available.map((i) => hex(encodeInstruction(i, family))));

    const bytes = available.map((i) => hex(encodeInstruction(i, family))).join(" ");
    const dis = runTool("llvm-mc-19", ["-triple=amdgcn-amd-amdhsa", `-mcpu=${mcpu}`, "-disassemble"], bytes + "\n");
    assert.equal(dis.status, 0, dis.stderr);
    assert.equal(dis.stderr, "", "every word decodes");
    const printed = dis.stdout.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("."));
    assert.deepEqual(printed, available.map((i) => asText(i, mcpu)));
  });
}

test("instructions a family lacks are rejected by llvm-mc too (s_code_end on gfx9)", (t) => {
  assert.equal(isAvailable("s_code_end", "gfx9"), false);
  if (!requireLlvm(t, "llvm-mc-19")) return;
  const r = runTool("llvm-mc-19", ["-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-show-encoding"], "s_code_end\n");
  assert.match(r.stderr, /not supported on this GPU/);
});

test("encoder misuse is an internal LoomError, never a wrong word", () => {
  const internal = (fn: () => unknown) => assert.throws(fn, (e) => e instanceof LoomError && e.status === "internal");
  internal(() => encodeInstruction(instruction("s_code_end"), "gfx9"));
  internal(() => encodeInstruction(instruction("s_nop", 16), "gfx11"));
  internal(() => encodeInstruction(instruction("s_nop", -1), "gfx11"));
  internal(() => encodeInstruction(instruction("s_nop", 1.5), "gfx11"));
  internal(() => encodeInstruction(instruction("s_nop"), "gfx11"));
  internal(() => encodeInstruction(instruction("s_endpgm", 0), "gfx11"));
  internal(() => encodeInstruction({ mnemonic: "v_fma_f32", operands: [{ k: "v", i: 0, n: 1 }, { k: "imm", v: 0x12345 }, { k: "v", i: 1, n: 1 }, { k: "v", i: 2, n: 1 }] }, "gfx9"));
  internal(() => encodeInstruction({ mnemonic: "s_add_u32", operands: [{ k: "s", i: 0, n: 1 }, { k: "imm", v: 0x12345 }, { k: "imm", v: 0x54321 }] }, "gfx11"));
  internal(() => encodeInstruction(instruction("v_bogus"), "gfx11"));
});

test("programs encode little-endian, word after word", () => {
  assert.deepEqual([...encodeProgram([instruction("s_nop", 3), instruction("s_endpgm")], "gfx11")], [0x03, 0x00, 0x80, 0xbf, 0x00, 0x00, 0xb0, 0xbf]);
});

test("code-end padding follows LLVM's EmitCodeEnd per family", () => {
  assert.deepEqual(codeEndPadding("gfx9", true), { pad: instruction("s_nop", 0), cacheLineBytes: 64, fillBytes: 1024 });
  assert.equal(codeEndPadding("gfx9", false), undefined);
  assert.deepEqual(codeEndPadding("gfx10", false), { pad: instruction("s_code_end"), cacheLineBytes: 64, fillBytes: 192 });
  assert.deepEqual(codeEndPadding("gfx11", false), { pad: instruction("s_code_end"), cacheLineBytes: 128, fillBytes: 384 });
  assert.deepEqual(codeEndPadding("gfx12", false), { pad: instruction("s_code_end"), cacheLineBytes: 128, fillBytes: 384 });
});
