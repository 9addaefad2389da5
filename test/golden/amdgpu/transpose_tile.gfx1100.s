transpose_tile:
	s_load_b64 s[2:3], s[0:1], 0x0
	s_load_b64 s[4:5], s[0:1], 0x8
	s_load_b64 s[6:7], s[0:1], 0x10
	s_load_b64 s[8:9], s[0:1], 0x20
	v_and_b32_e32 v1, 0x3ff, v0
	v_bfe_u32 v2, v0, 10, 10
	s_mov_b32 s0, s15
	s_mov_b32 s1, 0
	s_lshl_b64 s[10:11], s[0:1], 4
	v_mov_b32_e32 v0, 0
	v_add_co_u32 v3, vcc_lo, s10, v2
	v_add_co_ci_u32_e32 v4, vcc_lo, s11, v0, vcc_lo
	s_mov_b32 s0, s14
	s_mov_b32 s1, 0
	s_lshl_b64 s[12:13], s[0:1], 4
	v_mov_b32_e32 v0, 0
	v_add_co_u32 v5, vcc_lo, s12, v1
	v_add_co_ci_u32_e32 v6, vcc_lo, s13, v0, vcc_lo
	s_waitcnt lgkmcnt(0)
	v_cmp_lt_u64_e64 s0, v[3:4], s[2:3]
	v_cmp_lt_u64_e64 s1, v[5:6], s[4:5]
	s_and_b32 s14, s0, s1
	s_and_saveexec_b32 s0, s14
	s_cbranch_execz .LBB0
	v_mad_u64_u32 v[7:8], null, v3, s4, 0
	v_mul_lo_u32 v0, v4, s4
	v_mul_lo_u32 v9, s5, v3
	v_mov_b32_e32 v3, v7
	v_add3_u32 v4, v8, v0, v9
	v_add_co_u32 v7, vcc_lo, v3, v5
	v_add_co_ci_u32_e32 v8, vcc_lo, v4, v6, vcc_lo
	v_lshlrev_b64 v[3:4], 2, v[7:8]
	v_add_co_u32 v5, vcc_lo, s6, v3
	v_add_co_ci_u32_e32 v6, vcc_lo, s7, v4, vcc_lo
	global_load_b32 v0, v[5:6], off
	v_mul_u32_u24_e32 v3, 17, v2
	v_add_nc_u32_e32 v4, v3, v1
	v_lshlrev_b32_e32 v3, 2, v4
	s_waitcnt vmcnt(0)
	ds_store_b32 v3, v0
.LBB0:
.LBB1:
	s_mov_b32 exec_lo, s0
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	buffer_gl0_inv
	v_mov_b32_e32 v0, 0
	v_add_co_u32 v3, vcc_lo, s12, v2
	v_add_co_ci_u32_e32 v4, vcc_lo, s13, v0, vcc_lo
	v_mov_b32_e32 v0, 0
	v_add_co_u32 v5, vcc_lo, s10, v1
	v_add_co_ci_u32_e32 v6, vcc_lo, s11, v0, vcc_lo
	v_cmp_lt_u64_e64 s0, v[3:4], s[4:5]
	v_cmp_lt_u64_e64 s1, v[5:6], s[2:3]
	s_and_b32 s4, s0, s1
	s_and_saveexec_b32 s0, s4
	s_cbranch_execz .LBB2
	v_mul_u32_u24_e32 v0, 17, v1
	v_add_nc_u32_e32 v1, v0, v2
	v_lshlrev_b32_e32 v0, 2, v1
	ds_load_b32 v1, v0
	v_mad_u64_u32 v[7:8], null, v3, s2, 0
	v_mul_lo_u32 v0, v4, s2
	v_mul_lo_u32 v2, s3, v3
	v_mov_b32_e32 v3, v7
	v_add3_u32 v4, v8, v0, v2
	v_add_co_u32 v7, vcc_lo, v3, v5
	v_add_co_ci_u32_e32 v8, vcc_lo, v4, v6, vcc_lo
	v_lshlrev_b64 v[2:3], 2, v[7:8]
	v_add_co_u32 v4, vcc_lo, s8, v2
	v_add_co_ci_u32_e32 v5, vcc_lo, s9, v3, vcc_lo
	s_waitcnt lgkmcnt(0)
	global_store_b32 v[4:5], v1, off
.LBB2:
.LBB3:
	s_mov_b32 exec_lo, s0
	s_endpgm
