saxpy:
	s_load_b64 s[2:3], s[0:1], 0x0
	s_load_b32 s4, s[0:1], 0x8
	s_load_b64 s[6:7], s[0:1], 0x10
	s_load_b64 s[8:9], s[0:1], 0x20
	s_mov_b32 s0, s15
	s_mov_b32 s1, 0
	s_lshl_b64 s[10:11], s[0:1], 7
	v_mov_b32_e32 v1, 0
	v_add_co_u32 v2, vcc_lo, s10, v0
	v_add_co_ci_u32_e32 v3, vcc_lo, s11, v1, vcc_lo
	s_waitcnt lgkmcnt(0)
	v_cmp_lt_u64_e64 s0, v[2:3], s[2:3]
	s_and_saveexec_b32 s1, s0
	s_cbranch_execz .LBB0
	v_lshlrev_b64 v[0:1], 2, v[2:3]
	v_add_co_u32 v2, vcc_lo, s6, v0
	v_add_co_ci_u32_e32 v3, vcc_lo, s7, v1, vcc_lo
	global_load_b32 v4, v[2:3], off
	v_add_co_u32 v2, vcc_lo, s8, v0
	v_add_co_ci_u32_e32 v3, vcc_lo, s9, v1, vcc_lo
	global_load_b32 v0, v[2:3], off
	s_waitcnt vmcnt(0)
	v_fma_f32 v1, s4, v4, v0
	global_store_b32 v[2:3], v1, off
.LBB0:
.LBB1:
	s_mov_b32 exec_lo, s1
	s_endpgm
