vector_add_tail:
	s_load_b64 s[2:3], s[0:1], 0x0
	s_load_b64 s[4:5], s[0:1], 0x8
	s_load_b64 s[6:7], s[0:1], 0x18
	s_load_b64 s[0:1], s[0:1], 0x28
	s_mov_b32 s8, s15
	s_mov_b32 s9, 0
	s_lshl_b64 s[8:9], s[8:9], 6
	v_mad_u64_u32 v[1:2], null, v0, 1, s[8:9]
	v_lshlrev_b64 v[0:1], 2, v[1:2]
	v_add_co_u32 v2, vcc_lo, 4, v0
	v_add_co_ci_u32_e32 v3, vcc_lo, 0, v1, vcc_lo
	s_waitcnt lgkmcnt(0)
	v_cmp_le_i64_e64 s8, v[2:3], s[2:3]
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32 v6, vcc_lo, s4, v4
	v_add_co_ci_u32_e32 v7, vcc_lo, s5, v5, vcc_lo
	v_add_co_u32 v8, vcc_lo, s6, v4
	v_add_co_ci_u32_e32 v9, vcc_lo, s7, v5, vcc_lo
	v_add_co_u32 v4, vcc_lo, s0, v4
	v_add_co_ci_u32_e32 v5, vcc_lo, s1, v5, vcc_lo
	s_and_saveexec_b32 s9, s8
	s_cbranch_execz .LBB0
	global_load_b128 v[0:3], v[6:7], off
	global_load_b128 v[6:9], v[8:9], off
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v0, v0, v6
	v_add_f32_e32 v1, v1, v7
	v_add_f32_e32 v2, v2, v8
	v_add_f32_e32 v3, v3, v9
	global_store_b128 v[4:5], v[0:3], off
.LBB0:
	s_and_not1_b32 exec_lo, s9, s8
	s_cbranch_execz .LBB3
	v_cmp_lt_i64_e64 s8, v[2:3], s[2:3]
	v_cndmask_b32_e64 v2, s2, v2, s8
	v_cndmask_b32_e64 v3, s3, v3, s8
	v_cmp_lt_i64_e64 s8, v[0:1], s[2:3]
	v_cndmask_b32_e64 v0, s2, v0, s8
	v_cndmask_b32_e64 v1, s3, v1, s8
	s_mov_b32 s2, exec_lo
.LBB1:
	v_cmp_lt_i64_e64 s2, v[0:1], v[2:3]
	s_and_b32 exec_lo, exec_lo, s2
	s_cbranch_execz .LBB2
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32 v6, vcc_lo, s4, v4
	v_add_co_ci_u32_e32 v7, vcc_lo, s5, v5, vcc_lo
	global_load_b32 v6, v[6:7], off
	v_add_co_u32 v7, vcc_lo, s6, v4
	v_add_co_ci_u32_e32 v8, vcc_lo, s7, v5, vcc_lo
	global_load_b32 v7, v[7:8], off
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v6, v6, v7
	v_add_co_u32 v4, vcc_lo, s0, v4
	v_add_co_ci_u32_e32 v5, vcc_lo, s1, v5, vcc_lo
	global_store_b32 v[4:5], v6, off
	v_add_co_u32 v0, vcc_lo, 1, v0
	v_add_co_ci_u32_e32 v1, vcc_lo, 0, v1, vcc_lo
	s_branch .LBB1
.LBB2:
.LBB3:
	s_endpgm
