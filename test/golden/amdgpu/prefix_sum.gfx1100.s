prefix_sum:
	s_load_b64 s[2:3], s[0:1], 0x0
	s_load_b64 s[4:5], s[0:1], 0x8
	s_load_b64 s[0:1], s[0:1], 0x18
	s_waitcnt lgkmcnt(0)
	s_add_u32 s6, s2, 0xff
	s_addc_u32 s7, s3, 0
	s_ashr_i64 s[8:9], s[6:7], 63
	s_lshr_b64 s[8:9], s[8:9], 56
	s_add_u32 s6, s6, s8
	s_addc_u32 s7, s7, s9
	s_ashr_i64 s[6:7], s[6:7], 8
	s_mov_b32 s8, 0
	s_mov_b32 s9, 0
	s_mov_b32 s10, 0
.LBB0:
	s_xor_b32 s11, s9, 0x80000000
	s_xor_b32 s12, s7, 0x80000000
	s_sub_u32 s13, s8, s6
	s_subb_u32 s11, s11, s12
	s_cbranch_scc0 .LBB9
	s_lshl_b64 s[12:13], s[8:9], 8
	v_mad_u64_u32 v[1:2], null, v0, 1, s[12:13]
	v_cmp_lt_u64_e64 s11, v[1:2], s[2:3]
	v_lshlrev_b64 v[1:2], 2, v[1:2]
	v_add_co_u32 v3, vcc_lo, s4, v1
	v_add_co_ci_u32_e32 v4, vcc_lo, s5, v2, vcc_lo
	s_and_saveexec_b32 s12, s11
	s_cbranch_execz .LBB1
	global_load_b32 v3, v[3:4], off
.LBB1:
	s_and_not1_b32 exec_lo, s12, s11
	s_cbranch_execz .LBB2
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v3, 0
.LBB2:
	s_mov_b32 exec_lo, s12
	v_lshlrev_b32_e32 v4, 2, v0
	s_waitcnt vmcnt(0)
	ds_store_b32 v4, v3
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	buffer_gl0_inv
	s_mov_b32 s12, 0
.LBB3:
	s_cmp_lt_u32 s12, 8
	s_cbranch_scc0 .LBB6
	s_mov_b64 s[14:15], 1
	s_lshl_b64 s[14:15], s[14:15], s12
	v_mov_b32_e32 v5, v0
	v_mov_b32_e32 v6, 0
	v_cmp_ge_u64_e64 s13, v[5:6], s[14:15]
	s_and_saveexec_b32 s16, s13
	s_cbranch_execz .LBB4
	v_mov_b32_e32 v3, s14
	v_mov_b32_e32 v5, s15
	v_sub_co_u32 v6, vcc_lo, v0, v3
	v_sub_co_ci_u32_e32 v7, vcc_lo, 0, v5, vcc_lo
	v_lshlrev_b32_e32 v3, 2, v6
	ds_load_b32 v3, v3
.LBB4:
	s_and_not1_b32 exec_lo, s16, s13
	s_cbranch_execz .LBB5
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v3, 0
.LBB5:
	s_mov_b32 exec_lo, s16
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	buffer_gl0_inv
	ds_load_b32 v5, v4
	s_waitcnt lgkmcnt(0)
	v_add_nc_u32_e32 v3, v5, v3
	ds_store_b32 v4, v3
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	buffer_gl0_inv
	s_add_u32 s12, s12, 1
	s_branch .LBB3
.LBB6:
	ds_load_b32 v3, v4
	s_waitcnt lgkmcnt(0)
	v_add_nc_u32_e32 v3, s10, v3
	v_add_co_u32 v1, vcc_lo, s0, v1
	v_add_co_ci_u32_e32 v2, vcc_lo, s1, v2, vcc_lo
	s_and_saveexec_b32 s11, s11
	s_cbranch_execz .LBB7
	global_store_b32 v[1:2], v3, off
.LBB7:
.LBB8:
	s_mov_b32 exec_lo, s11
	v_mov_b32_e32 v1, 0
	ds_load_b32 v1, v1 offset:1020
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	buffer_gl0_inv
	v_add_nc_u32_e32 v1, s10, v1
	v_readfirstlane_b32 s10, v1
	s_add_u32 s8, s8, 1
	s_addc_u32 s9, s9, 0
	s_branch .LBB0
.LBB9:
	s_endpgm
