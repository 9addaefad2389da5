/**
 * gfx9 and gfx11 name many identical operations differently (gfx11 renamed andn2 → and_not1,
 * dword → b32, v_add_u32 → v_add_nc_u32, ...). The simulator's semantics are keyed by the
 * gfx11 spelling; this maps a gfx9 mnemonic onto it.
 */
const GFX9_RENAMES: Record<string, string> = {
  s_andn2_b32: "s_and_not1_b32",
  s_andn2_b64: "s_and_not1_b64",
  s_orn2_b32: "s_or_not1_b32",
  s_orn2_b64: "s_or_not1_b64",
  s_andn1_saveexec_b64: "s_and_not0_saveexec_b64",
  s_andn2_saveexec_b64: "s_and_not1_saveexec_b64",
  s_orn1_saveexec_b64: "s_or_not0_saveexec_b64",
  s_orn2_saveexec_b64: "s_or_not1_saveexec_b64",
  s_andn1_wrexec_b64: "s_and_not0_wrexec_b64",
  s_andn2_wrexec_b64: "s_and_not1_wrexec_b64",
  s_ff1_i32_b32: "s_ctz_i32_b32",
  s_ff1_i32_b64: "s_ctz_i32_b64",
  s_flbit_i32_b32: "s_clz_i32_u32",
  s_flbit_i32_b64: "s_clz_i32_u64",
  v_add_u32: "v_add_nc_u32",
  v_sub_u32: "v_sub_nc_u32",
  v_subrev_u32: "v_subrev_nc_u32",
  v_addc_co_u32: "v_add_co_ci_u32",
  v_subb_co_u32: "v_sub_co_ci_u32",
  v_subbrev_co_u32: "v_subrev_co_ci_u32",
  ds_write_b32: "ds_store_b32",
  ds_write_b64: "ds_store_b64",
  ds_write_b96: "ds_store_b96",
  ds_write_b128: "ds_store_b128",
  ds_write_b8: "ds_store_b8",
  ds_write_b16: "ds_store_b16",
  ds_write2_b32: "ds_store_2addr_b32",
  ds_write2st64_b32: "ds_store_2addr_stride64_b32",
  ds_write2_b64: "ds_store_2addr_b64",
  ds_write2st64_b64: "ds_store_2addr_stride64_b64",
  ds_read_b32: "ds_load_b32",
  ds_read_b64: "ds_load_b64",
  ds_read_b96: "ds_load_b96",
  ds_read_b128: "ds_load_b128",
  ds_read_u8: "ds_load_u8",
  ds_read_i8: "ds_load_i8",
  ds_read_u16: "ds_load_u16",
  ds_read_i16: "ds_load_i16",
  ds_read2_b32: "ds_load_2addr_b32",
  ds_read2st64_b32: "ds_load_2addr_stride64_b32",
  ds_read2_b64: "ds_load_2addr_b64",
  ds_read2st64_b64: "ds_load_2addr_stride64_b64",
};

const MEMORY_TYPES: Record<string, string> = { dword: "b32", dwordx2: "b64", dwordx3: "b96", dwordx4: "b128", dwordx8: "b256", dwordx16: "b512", ubyte: "u8", sbyte: "i8", ushort: "u16", sshort: "i16", byte: "b8", short: "b16" };
const ATOMIC_TYPES: Record<string, string> = {
  add: "add_u32", sub: "sub_u32", smin: "min_i32", umin: "min_u32", smax: "max_i32", umax: "max_u32", and: "and_b32", or: "or_b32", xor: "xor_b32", inc: "inc_u32", dec: "dec_u32", swap: "swap_b32", cmpswap: "cmpswap_b32",
  add_x2: "add_u64", sub_x2: "sub_u64", smin_x2: "min_i64", umin_x2: "min_u64", smax_x2: "max_i64", umax_x2: "max_u64", and_x2: "and_b64", or_x2: "or_b64", xor_x2: "xor_b64", swap_x2: "swap_b64", cmpswap_x2: "cmpswap_b64",
};

/** The gfx11 spelling of a mnemonic (gfx11 names are returned unchanged). */
export function canonicalName(name: string, family: "gfx11" | "gfx9"): string {
  if (family === "gfx11") return name;
  const renamed = GFX9_RENAMES[name];
  if (renamed) return renamed;
  let m = /^(s_load|s_buffer_load|global_load|global_store|flat_load|flat_store|scratch_load|scratch_store)_(\w+)$/.exec(name);
  if (m && MEMORY_TYPES[m[2]!]) return `${m[1]}_${MEMORY_TYPES[m[2]!]}`;
  m = /^(global|flat)_atomic_(\w+)$/.exec(name);
  if (m && ATOMIC_TYPES[m[2]!]) return `${m[1]}_atomic_${ATOMIC_TYPES[m[2]!]}`;
  return name;
}
