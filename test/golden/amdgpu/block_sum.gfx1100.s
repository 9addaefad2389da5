block_sum:
	s_load_b64 s[2:3], s[0:1], 0x0
	s_load_b64 s[4:5], s[0:1], 0x8
	s_load_b64 s[0:1], s[0:1], 0x18
	s_mov_b32 s6, s15
	s_mov_b32 s7, 0
	s_lshl_b64 s[6:7], s[6:7], 8
	v_mad_u64_u32 v[1:2], null, v0, 1, s[6:7]
	s_waitcnt lgkmcnt(0)
	v_cmp_lt_u64_e64 s2, v[1:2], s[2:3]
	v_lshlrev_b64 v[1:2], 2, v[1:2]
	v_add_co_u32 v1, vcc_lo, s4, v1
	v_add_co_ci_u32_e32 v2, vcc_lo, s5, v2, vcc_lo
	s_and_saveexec_b32 s3, s2
	s_cbranch_execz .LBB0
	global_load_b32 v1, v[1:2], off
.LBB0:
	s_and_not1_b32 exec_lo, s3, s2
	s_cbranch_execz .LBB1
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v1, 0
.LBB1:
	s_mov_b32 exec_lo, s3
	v_lshlrev_b32_e32 v2, 2, v0
	s_waitcnt vmcnt(0)
	ds_store_b32 v2, v1
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	buffer_gl0_inv
	s_mov_b32 s2, 0
.LBB2:
	s_cmp_lt_u32 s2, 8
	s_cbranch_scc0 .LBB5
	s_lshr_b32 s3, 0x80, s2
	v_cmp_lt_u32_e64 s4, v0, s3
	s_and_saveexec_b32 s4, s4
	s_cbranch_execz .LBB3
	v_add_nc_u32_e32 v1, s3, v0
	ds_load_b32 v3, v2
	v_lshlrev_b32_e32 v1, 2, v1
	ds_load_b32 v1, v1
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v1, v3, v1
	ds_store_b32 v2, v1
.LBB3:
.LBB4:
	s_mov_b32 exec_lo, s4
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	buffer_gl0_inv
	s_add_u32 s2, s2, 1
	s_branch .LBB2
.LBB5:
	v_cmp_eq_u32_e64 s3, v0, 0
	s_mov_b32 s4, s15
	s_mov_b32 s5, 0
	s_lshl_b64 s[4:5], s[4:5], 2
	s_add_u32 s0, s0, s4
	s_addc_u32 s1, s1, s5
	s_and_saveexec_b32 s2, s3
	s_cbranch_execz .LBB6
	v_mov_b32_e32 v0, 0
	ds_load_b32 v0, v0
	v_mov_b32_e32 v1, s0
	v_mov_b32_e32 v2, s1
	s_waitcnt lgkmcnt(0)
	global_store_b32 v[1:2], v0, off
.LBB6:
.LBB7:
	s_endpgm
