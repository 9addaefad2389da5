transpose_tile:
	s_load_b64 s[2:3], s[0:1], 0x0
	s_load_b64 s[4:5], s[0:1], 0x8
	s_load_b64 s[6:7], s[0:1], 0x10
	s_load_b64 s[0:1], s[0:1], 0x20
	v_and_b32_e32 v1, 0x3ff, v0
	v_bfe_u32 v0, v0, 10, 10
	s_mov_b32 s8, s15
	s_mov_b32 s9, 0
	s_lshl_b64 s[8:9], s[8:9], 4
	v_mad_u64_u32 v[2:3], null, v0, 1, s[8:9]
	s_mov_b32 s10, s14
	s_mov_b32 s11, 0
	s_lshl_b64 s[10:11], s[10:11], 4
	v_mad_u64_u32 v[4:5], null, v1, 1, s[10:11]
	s_waitcnt lgkmcnt(0)
	v_cmp_lt_u64_e64 s12, v[2:3], s[2:3]
	v_cmp_lt_u64_e64 s13, v[4:5], s[4:5]
	s_and_b32 s12, s12, s13
	v_mad_u64_u32 v[6:7], null, v2, s4, 0
	v_mul_lo_u32 v3, v3, s4
	v_mul_lo_u32 v2, s5, v2
	v_add3_u32 v7, v7, v3, v2
	v_add_co_u32 v2, vcc_lo, v6, v4
	v_add_co_ci_u32_e32 v3, vcc_lo, v7, v5, vcc_lo
	v_lshlrev_b64 v[2:3], 2, v[2:3]
	v_add_co_u32 v2, vcc_lo, s6, v2
	v_add_co_ci_u32_e32 v3, vcc_lo, s7, v3, vcc_lo
	v_mul_u32_u24_e32 v4, 0x44, v0
	v_lshl_add_u32 v4, v1, 2, v4
	s_and_saveexec_b32 s6, s12
	s_cbranch_execz .LBB0
	global_load_b32 v2, v[2:3], off
	s_waitcnt vmcnt(0)
	ds_store_b32 v4, v2
.LBB0:
.LBB1:
	s_mov_b32 exec_lo, s6
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	buffer_gl0_inv
	v_mad_u64_u32 v[2:3], null, v0, 1, s[10:11]
	v_mad_u64_u32 v[4:5], null, v1, 1, s[8:9]
	v_cmp_lt_u64_e64 s4, v[2:3], s[4:5]
	v_cmp_lt_u64_e64 s5, v[4:5], s[2:3]
	s_and_b32 s4, s4, s5
	v_mul_u32_u24_e32 v1, 0x44, v1
	v_lshl_add_u32 v0, v0, 2, v1
	v_mad_u64_u32 v[6:7], null, v2, s2, 0
	v_mul_lo_u32 v1, v3, s2
	v_mul_lo_u32 v2, s3, v2
	v_add3_u32 v7, v7, v1, v2
	v_add_co_u32 v1, vcc_lo, v6, v4
	v_add_co_ci_u32_e32 v2, vcc_lo, v7, v5, vcc_lo
	v_lshlrev_b64 v[1:2], 2, v[1:2]
	v_add_co_u32 v1, vcc_lo, s0, v1
	v_add_co_ci_u32_e32 v2, vcc_lo, s1, v2, vcc_lo
	s_and_saveexec_b32 s0, s4
	s_cbranch_execz .LBB2
	ds_load_b32 v0, v0
	s_waitcnt lgkmcnt(0)
	global_store_b32 v[1:2], v0, off
.LBB2:
.LBB3:
	s_endpgm
