saxpy:
	s_load_b64 s[2:3], s[0:1], 0x0
	s_load_b32 s4, s[0:1], 0x8
	s_load_b64 s[6:7], s[0:1], 0x10
	s_load_b64 s[0:1], s[0:1], 0x20
	s_mov_b32 s8, s15
	s_mov_b32 s9, 0
	s_lshl_b64 s[8:9], s[8:9], 7
	v_mad_u64_u32 v[1:2], null, v0, 1, s[8:9]
	s_waitcnt lgkmcnt(0)
	v_cmp_lt_u64_e64 s2, v[1:2], s[2:3]
	v_lshlrev_b64 v[0:1], 2, v[1:2]
	v_add_co_u32 v2, vcc_lo, s6, v0
	v_add_co_ci_u32_e32 v3, vcc_lo, s7, v1, vcc_lo
	v_add_co_u32 v0, vcc_lo, s0, v0
	v_add_co_ci_u32_e32 v1, vcc_lo, s1, v1, vcc_lo
	s_and_saveexec_b32 s0, s2
	s_cbranch_execz .LBB0
	global_load_b32 v2, v[2:3], off
	global_load_b32 v3, v[0:1], off
	s_waitcnt vmcnt(0)
	v_fma_f32 v2, s4, v2, v3
	global_store_b32 v[0:1], v2, off
.LBB0:
.LBB1:
	s_endpgm
