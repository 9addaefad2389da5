/**
 * The instruction table: one row per instruction loom emits, with its encoding format and,
 * per ISA family that has it, the mnemonic LLVM prints and the opcode. Opcodes follow the
 * AMD ISA guides (CDNA3 for gfx9, RDNA3 for gfx11); every row is checked against
 * `llvm-mc-19 -show-encoding` on real processors (test/amdgpu/isa.test.ts, rows in
 * test/amdgpu/data/llvm-mc-encodings.tsv). The key is the name the lowering uses; a
 * missing family means the instruction does not exist there. Extend by adding rows.
 */
import type { IsaFamily } from "./family.js";

export type FormatName = "SOP1" | "SOP2" | "SOPC" | "SOPK" | "SOPP" | "SMEM" | "VOP1" | "VOP2" | "VOP3" | "VOP3B" | "DS" | "GLOBAL" | "MUBUF";

export interface FamilyOpcode {
  /** The mnemonic LLVM prints on this family (gfx11 renamed many memory instructions). */
  readonly mnemonic: string;
  readonly opcode: number;
}

export interface InstructionDef {
  readonly key: string;
  readonly format: FormatName;
  readonly opcodes: Readonly<Partial<Record<IsaFamily, FamilyOpcode>>>;
}

/**
 * One row per instruction: `key FORMAT family[=mnemonic]:opcode ...`, the family as its gfx
 * number and the opcode in hex. The mnemonic LLVM prints is the key (with `_e32` for VOP1 and
 * VOP2) unless a family names its own. Rows are text, parsed once at load, because the table is
 * a large part of the browser bundle (test/browser/entry.test.ts) and text compresses better
 * than an object literal per row.
 */
const ROWS: readonly string[] = [
  // SOPP on every family (the empty kernel and the code-end padding need gfx10 and gfx12 too).
  "s_nop SOPP 9:00 10:00 11:00 12:00",
  "s_endpgm SOPP 9:01 10:01 11:30 12:30",
  "s_code_end SOPP 10:1f 11:1f 12:1f",
  // Instruction selection (gfx9 = CDNA3 gfx942/gfx90a, gfx11 = RDNA3).
  "v_mbcnt_lo_u32_b32 VOP3 9:28c 11:31f",
  "v_mbcnt_hi_u32_b32 VOP3 9:28d 11:320",
  // gfx940+ only (not gfx90a): the lowering checks the processor (KernelLowering.hasLshlAdd64).
  "v_lshl_add_u64 VOP3 9:208",
  "s_waitcnt_depctr SOPP 11:08",
  "s_mov_b32 SOP1 9:0 11:0",
  "s_mov_b64 SOP1 9:1 11:1",
  "s_not_b32 SOP1 9:4 11:1e",
  "s_and_saveexec_b64 SOP1 9:20 11:21",
  "s_bcnt1_i32_b32 SOP1 9:c 11:18",
  "s_bcnt1_i32_b64 SOP1 9:d 11:19",
  "s_add_u32 SOP2 9:0 11:0",
  "s_addc_u32 SOP2 9:4 11:4",
  "s_sub_u32 SOP2 9:1 11:1",
  "s_subb_u32 SOP2 9:5 11:5",
  "s_mul_i32 SOP2 9:24 11:2c",
  "s_mul_hi_u32 SOP2 9:2c 11:2d",
  "s_and_b32 SOP2 9:c 11:16",
  "s_and_b64 SOP2 9:d 11:17",
  "s_or_b32 SOP2 9:e 11:18",
  "s_or_b64 SOP2 9:f 11:19",
  "s_xor_b32 SOP2 9:10 11:1a",
  "s_xor_b64 SOP2 9:11 11:1b",
  "s_andn2_b32 SOP2 9:12 11=s_and_not1_b32:22",
  "s_andn2_b64 SOP2 9:13 11=s_and_not1_b64:23",
  "s_lshl_b32 SOP2 9:1c 11:8",
  "s_lshl_b64 SOP2 9:1d 11:9",
  "s_lshr_b32 SOP2 9:1e 11:a",
  "s_lshr_b64 SOP2 9:1f 11:b",
  "s_ashr_i32 SOP2 9:20 11:c",
  "s_ashr_i64 SOP2 9:21 11:d",
  "s_min_u32 SOP2 9:7 11:13",
  "s_max_u32 SOP2 9:9 11:15",
  "s_min_i32 SOP2 9:6 11:12",
  "s_max_i32 SOP2 9:8 11:14",
  "s_cselect_b32 SOP2 9:a 11:30",
  "s_cselect_b64 SOP2 9:b 11:31",
  "s_cmp_eq_u32 SOPC 9:6 11:6",
  "s_cmp_lg_u32 SOPC 9:7 11:7",
  "s_cmp_lt_u32 SOPC 9:a 11:a",
  "s_cmp_le_u32 SOPC 9:b 11:b",
  "s_cmp_gt_u32 SOPC 9:8 11:8",
  "s_cmp_ge_u32 SOPC 9:9 11:9",
  "s_cmp_eq_i32 SOPC 9:0 11:0",
  "s_cmp_lg_i32 SOPC 9:1 11:1",
  "s_cmp_lt_i32 SOPC 9:4 11:4",
  "s_cmp_le_i32 SOPC 9:5 11:5",
  "s_cmp_gt_i32 SOPC 9:2 11:2",
  "s_cmp_ge_i32 SOPC 9:3 11:3",
  "s_cmp_eq_u64 SOPC 9:12 11:10",
  "s_cmp_lg_u64 SOPC 9:13 11:11",
  "s_waitcnt SOPP 9:c 11:9",
  "s_barrier SOPP 9:a 11:3d",
  "s_branch SOPP 9:2 11:20",
  "s_cbranch_scc0 SOPP 9:4 11:21",
  "s_cbranch_scc1 SOPP 9:5 11:22",
  "s_cbranch_execz SOPP 9:8 11:25",
  "s_cbranch_execnz SOPP 9:9 11:26",
  "s_trap SOPP 9:12 11:10",
  "s_load_b32 SMEM 9=s_load_dword:0 11:0",
  "s_load_b64 SMEM 9=s_load_dwordx2:1 11:1",
  "s_load_b128 SMEM 9=s_load_dwordx4:2 11:2",
  "v_mov_b32 VOP1 9:1 11:1",
  "v_readfirstlane_b32 VOP1 9=v_readfirstlane_b32:2 11=v_readfirstlane_b32:2",
  "v_not_b32 VOP1 9:2b 11:37",
  "v_cvt_f32_u32 VOP1 9:6 11:6",
  "v_cvt_f32_i32 VOP1 9:5 11:5",
  "v_cvt_u32_f32 VOP1 9:7 11:7",
  "v_cvt_i32_f32 VOP1 9:8 11:8",
  "v_exp_f32 VOP1 9:20 11:25",
  "v_log_f32 VOP1 9:21 11:27",
  "v_ffbh_u32 VOP1 9:2d 11=v_clz_i32_u32_e32:39",
  "v_ffbl_b32 VOP1 9:2e 11=v_ctz_i32_b32_e32:3a",
  "v_bcnt_u32_b32 VOP3 9:28b 11:31e",
  "v_alignbit_b32 VOP3 9:1ce 11:216",
  "v_bfi_b32 VOP3 9:1ca 11:212",
  "v_rcp_f32 VOP1 9:22 11:2a",
  "v_sqrt_f32 VOP1 9:27 11:33",
  "v_rsq_f32 VOP1 9:24 11:2e",
  "v_floor_f32 VOP1 9:1f 11:24",
  "v_ceil_f32 VOP1 9:1d 11:22",
  "v_trunc_f32 VOP1 9:1c 11:21",
  "v_rndne_f32 VOP1 9:1e 11:23",
  "v_sin_f32 VOP1 9:29 11:35",
  "v_cos_f32 VOP1 9:2a 11:36",
  "v_add_f32 VOP2 9:1 11:3",
  "v_sub_f32 VOP2 9:2 11:4",
  "v_mul_f32 VOP2 9:5 11:8",
  "v_max_f32 VOP2 9:b 11:10",
  "v_min_f32 VOP2 9:a 11:f",
  "v_fmac_f32 VOP2 9:3b 11:2b",
  "v_add_u32 VOP2 9:34 11=v_add_nc_u32_e32:25",
  "v_sub_u32 VOP2 9:35 11=v_sub_nc_u32_e32:26",
  "v_subrev_u32 VOP2 9:36 11=v_subrev_nc_u32_e32:27",
  "v_and_b32 VOP2 9:13 11:1b",
  "v_or_b32 VOP2 9:14 11:1c",
  "v_xor_b32 VOP2 9:15 11:1d",
  "v_lshlrev_b32 VOP2 9:12 11:18",
  "v_lshrrev_b32 VOP2 9:10 11:19",
  "v_ashrrev_i32 VOP2 9:11 11:1a",
  "v_min_u32 VOP2 9:e 11:13",
  "v_max_u32 VOP2 9:f 11:14",
  "v_min_i32 VOP2 9:c 11:11",
  "v_max_i32 VOP2 9:d 11:12",
  "v_cndmask_b32 VOP2 9:0 11:1",
  "v_add_co_u32 VOP2 9:19",
  "v_sub_co_u32 VOP2 9:1a",
  "v_addc_co_u32 VOP2 9:1c 11=v_add_co_ci_u32_e32:20",
  "v_subb_co_u32 VOP2 9:1d 11=v_sub_co_ci_u32_e32:21",
  "v_mul_u32_u24 VOP2 9:8 11:b",
  "v_fma_f32 VOP3 9:1cb 11:213",
  "v_mul_lo_u32 VOP3 9:285 11:32c",
  "v_mul_hi_u32 VOP3 9:286 11:32d",
  "v_lshlrev_b64 VOP3 9:28f 11:33c",
  "v_lshrrev_b64 VOP3 9:290 11:33d",
  "v_ashrrev_i64 VOP3 9:291 11:33e",
  "v_bfe_u32 VOP3 9:1c8 11:210",
  "v_add3_u32 VOP3 9:1ff 11:255",
  "v_lshl_add_u32 VOP3 9:1fd 11:246",
  "v_mad_u32_u24 VOP3 9:1c3 11:20b",
  "v_cndmask_b32_e64 VOP3 9:100 11:101",
  "v_mad_u64_u32 VOP3B 9:1e8 11:2fe",
  "v_add_co_u32_e64 VOP3B 9:119 11=v_add_co_u32:300",
  "v_sub_co_u32_e64 VOP3B 9:11a 11=v_sub_co_u32:301",
  "global_load_b32 GLOBAL 9=global_load_dword:14 11:14",
  "global_load_b64 GLOBAL 9=global_load_dwordx2:15 11:15",
  "global_load_b128 GLOBAL 9=global_load_dwordx4:17 11:17",
  "global_store_b32 GLOBAL 9=global_store_dword:1c 11:1a",
  "global_store_b64 GLOBAL 9=global_store_dwordx2:1d 11:1b",
  "global_store_b128 GLOBAL 9=global_store_dwordx4:1f 11:1d",
  "global_atomic_add_u32 GLOBAL 9=global_atomic_add:42 11:35",
  "global_atomic_sub_u32 GLOBAL 9=global_atomic_sub:43 11:36",
  "global_atomic_and_b32 GLOBAL 9=global_atomic_and:48 11:3c",
  "global_atomic_or_b32 GLOBAL 9=global_atomic_or:49 11:3d",
  "global_atomic_xor_b32 GLOBAL 9=global_atomic_xor:4a 11:3e",
  "global_atomic_min_i32 GLOBAL 9=global_atomic_smin:44 11:38",
  "global_atomic_max_i32 GLOBAL 9=global_atomic_smax:46 11:3a",
  "global_atomic_min_u32 GLOBAL 9=global_atomic_umin:45 11:39",
  "global_atomic_max_u32 GLOBAL 9=global_atomic_umax:47 11:3b",
  "global_atomic_swap_b32 GLOBAL 9=global_atomic_swap:40 11:33",
  "global_atomic_add_f32 GLOBAL 9:4d 11:56",
  "global_atomic_cmpswap_b32 GLOBAL 9=global_atomic_cmpswap:41 11:34",
  "ds_load_b32 DS 9=ds_read_b32:36 11:36",
  "ds_load_b64 DS 9=ds_read_b64:76 11:76",
  "ds_load_b128 DS 9=ds_read_b128:ff 11:ff",
  "ds_store_b32 DS 9=ds_write_b32:d 11:d",
  "ds_store_b64 DS 9=ds_write_b64:4d 11:4d",
  "ds_store_b128 DS 9=ds_write_b128:df 11:df",
  "ds_add_u32 DS 9:0 11:0",
  "ds_sub_u32 DS 9:1 11:1",
  "ds_and_b32 DS 9:9 11:9",
  "ds_or_b32 DS 9:a 11:a",
  "ds_xor_b32 DS 9:b 11:b",
  "ds_min_i32 DS 9:5 11:5",
  "ds_max_i32 DS 9:6 11:6",
  "ds_min_u32 DS 9:7 11:7",
  "ds_max_u32 DS 9:8 11:8",
  "ds_add_f32 DS 9:15 11:15",
  "ds_add_rtn_u32 DS 9:20 11:20",
  "ds_sub_rtn_u32 DS 9:21 11:21",
  "ds_and_rtn_b32 DS 9:29 11:29",
  "ds_or_rtn_b32 DS 9:2a 11:2a",
  "ds_xor_rtn_b32 DS 9:2b 11:2b",
  "ds_min_rtn_i32 DS 9:25 11:25",
  "ds_max_rtn_i32 DS 9:26 11:26",
  "ds_min_rtn_u32 DS 9:27 11:27",
  "ds_max_rtn_u32 DS 9:28 11:28",
  "ds_add_rtn_f32 DS 9:35 11:79",
  "ds_swap_rtn_b32 DS 9=ds_wrxchg_rtn_b32:2d 11=ds_storexchg_rtn_b32:2d",
  "ds_cmpswap_rtn_b32 DS 9=ds_cmpst_rtn_b32:30 11=ds_cmpstore_rtn_b32:30",
  "ds_swizzle_b32 DS 9:3d 11:35",
  "ds_bpermute_b32 DS 9:3f 11:b3",
  "v_cmp_eq_u32 VOP3 9=v_cmp_eq_u32_e64:ca 11=v_cmp_eq_u32_e64:4a",
  "v_cmp_ne_u32 VOP3 9=v_cmp_ne_u32_e64:cd 11=v_cmp_ne_u32_e64:4d",
  "v_cmp_lt_u32 VOP3 9=v_cmp_lt_u32_e64:c9 11=v_cmp_lt_u32_e64:49",
  "v_cmp_le_u32 VOP3 9=v_cmp_le_u32_e64:cb 11=v_cmp_le_u32_e64:4b",
  "v_cmp_gt_u32 VOP3 9=v_cmp_gt_u32_e64:cc 11=v_cmp_gt_u32_e64:4c",
  "v_cmp_ge_u32 VOP3 9=v_cmp_ge_u32_e64:ce 11=v_cmp_ge_u32_e64:4e",
  "v_cmp_eq_i32 VOP3 9=v_cmp_eq_i32_e64:c2 11=v_cmp_eq_i32_e64:42",
  "v_cmp_ne_i32 VOP3 9=v_cmp_ne_i32_e64:c5 11=v_cmp_ne_i32_e64:45",
  "v_cmp_lt_i32 VOP3 9=v_cmp_lt_i32_e64:c1 11=v_cmp_lt_i32_e64:41",
  "v_cmp_le_i32 VOP3 9=v_cmp_le_i32_e64:c3 11=v_cmp_le_i32_e64:43",
  "v_cmp_gt_i32 VOP3 9=v_cmp_gt_i32_e64:c4 11=v_cmp_gt_i32_e64:44",
  "v_cmp_ge_i32 VOP3 9=v_cmp_ge_i32_e64:c6 11=v_cmp_ge_i32_e64:46",
  "v_cmp_eq_u64 VOP3 9=v_cmp_eq_u64_e64:ea 11=v_cmp_eq_u64_e64:5a",
  "v_cmp_ne_u64 VOP3 9=v_cmp_ne_u64_e64:ed 11=v_cmp_ne_u64_e64:5d",
  "v_cmp_lt_u64 VOP3 9=v_cmp_lt_u64_e64:e9 11=v_cmp_lt_u64_e64:59",
  "v_cmp_le_u64 VOP3 9=v_cmp_le_u64_e64:eb 11=v_cmp_le_u64_e64:5b",
  "v_cmp_gt_u64 VOP3 9=v_cmp_gt_u64_e64:ec 11=v_cmp_gt_u64_e64:5c",
  "v_cmp_ge_u64 VOP3 9=v_cmp_ge_u64_e64:ee 11=v_cmp_ge_u64_e64:5e",
  "v_cmp_eq_i64 VOP3 9=v_cmp_eq_i64_e64:e2 11=v_cmp_eq_i64_e64:52",
  "v_cmp_ne_i64 VOP3 9=v_cmp_ne_i64_e64:e5 11=v_cmp_ne_i64_e64:55",
  "v_cmp_lt_i64 VOP3 9=v_cmp_lt_i64_e64:e1 11=v_cmp_lt_i64_e64:51",
  "v_cmp_le_i64 VOP3 9=v_cmp_le_i64_e64:e3 11=v_cmp_le_i64_e64:53",
  "v_cmp_gt_i64 VOP3 9=v_cmp_gt_i64_e64:e4 11=v_cmp_gt_i64_e64:54",
  "v_cmp_ge_i64 VOP3 9=v_cmp_ge_i64_e64:e6 11=v_cmp_ge_i64_e64:56",
  "v_cmp_eq_f32 VOP3 9=v_cmp_eq_f32_e64:42 11=v_cmp_eq_f32_e64:12",
  "v_cmp_lg_f32 VOP3 9=v_cmp_lg_f32_e64:45 11=v_cmp_lg_f32_e64:15",
  "v_cmp_lt_f32 VOP3 9=v_cmp_lt_f32_e64:41 11=v_cmp_lt_f32_e64:11",
  "v_cmp_le_f32 VOP3 9=v_cmp_le_f32_e64:43 11=v_cmp_le_f32_e64:13",
  "v_cmp_gt_f32 VOP3 9=v_cmp_gt_f32_e64:44 11=v_cmp_gt_f32_e64:14",
  "v_cmp_ge_f32 VOP3 9=v_cmp_ge_f32_e64:46 11=v_cmp_ge_f32_e64:16",
  "v_cmp_o_f32 VOP3 9=v_cmp_o_f32_e64:47 11=v_cmp_o_f32_e64:17",
  "v_cmp_u_f32 VOP3 9=v_cmp_u_f32_e64:48 11=v_cmp_u_f32_e64:18",
  "v_cmp_neq_f32 VOP3 9=v_cmp_neq_f32_e64:4d 11=v_cmp_neq_f32_e64:1d",
  "v_cmp_nlg_f32 VOP3 9=v_cmp_nlg_f32_e64:4a 11=v_cmp_nlg_f32_e64:1a",
  "v_cmp_nlt_f32 VOP3 9=v_cmp_nlt_f32_e64:4e 11=v_cmp_nlt_f32_e64:1e",
  "v_cmp_nle_f32 VOP3 9=v_cmp_nle_f32_e64:4c 11=v_cmp_nle_f32_e64:1c",
  "v_cmp_ngt_f32 VOP3 9=v_cmp_ngt_f32_e64:4b 11=v_cmp_ngt_f32_e64:1b",
  "v_cmp_nge_f32 VOP3 9=v_cmp_nge_f32_e64:49 11=v_cmp_nge_f32_e64:19",
  "s_and_saveexec_b32 SOP1 11:20",
  "s_waitcnt_vscnt SOPK 11:18",
  "buffer_gl0_inv MUBUF 11:2b",
  "buffer_gl1_inv MUBUF 11:2c",
  // gfx940+ (the lowering emits them only on gfx94x: KernelLowering.hasLshlAdd64 marks the same processors).
  "buffer_wbl2 MUBUF 9:28",
  "buffer_inv MUBUF 9:29",
];

const FAMILY_BY_NUMBER: Readonly<Record<string, IsaFamily>> = { 9: "gfx9", 10: "gfx10", 11: "gfx11", 12: "gfx12" };
/** Every format (a record, so that tsc asks for a format added to `FormatName`). */
const FORMATS: Readonly<Record<FormatName, true>> = {
  SOP1: true, SOP2: true, SOPC: true, SOPK: true, SOPP: true, SMEM: true, VOP1: true, VOP2: true, VOP3: true, VOP3B: true, DS: true, GLOBAL: true, MUBUF: true,
};

function isFormat(name: string | undefined): name is FormatName {
  return name !== undefined && Object.hasOwn(FORMATS, name);
}

function parseRow(row: string): [string, InstructionDef] {
  const [key = "", format, ...families] = row.split(" ");
  // A malformed row is a bug in this file: test/amdgpu/isa.test.ts loads every row.
  if (!isFormat(format)) throw new Error(`opcodes.ts: bad format in '${row}'`);
  const opcodes: Partial<Record<IsaFamily, FamilyOpcode>> = {};
  for (const entry of families) {
    const [, number = "", named, opcode = ""] = /^(\d+)(?:=(\w+))?:([0-9a-f]+)$/.exec(entry) ?? [];
    const family = FAMILY_BY_NUMBER[number];
    if (family === undefined) throw new Error(`opcodes.ts: bad family in '${row}'`);
    const mnemonic = named ?? (format === "VOP1" || format === "VOP2" ? `${key}_e32` : key);
    opcodes[family] = Object.freeze({ mnemonic, opcode: parseInt(opcode, 16) });
  }
  return [key, Object.freeze({ key, format, opcodes: Object.freeze(opcodes) })];
}

export const INSTRUCTIONS: ReadonlyMap<string, InstructionDef> = new Map(ROWS.map(parseRow));
