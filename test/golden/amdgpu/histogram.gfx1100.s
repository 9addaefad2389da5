histogram:
	s_load_b64 s[2:3], s[0:1], 0x0
	s_load_b64 s[4:5], s[0:1], 0x8
	s_load_b64 s[0:1], s[0:1], 0x18
	s_mov_b32 s6, s15
	s_mov_b32 s7, 0
	s_lshl_b64 s[6:7], s[6:7], 8
	v_mad_u64_u32 v[1:2], null, v0, 1, s[6:7]
	v_lshlrev_b32_e32 v3, 2, v0
	v_mov_b32_e32 v4, 0
	ds_store_b32 v3, v4
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	buffer_gl0_inv
	v_cmp_lt_u64_e64 s2, v[1:2], s[2:3]
	v_lshlrev_b64 v[1:2], 2, v[1:2]
	v_add_co_u32 v1, vcc_lo, s4, v1
	v_add_co_ci_u32_e32 v2, vcc_lo, s5, v2, vcc_lo
	s_and_saveexec_b32 s2, s2
	s_cbranch_execz .LBB0
	global_load_b32 v1, v[1:2], off
	s_waitcnt vmcnt(0)
	v_and_b32_e32 v1, 0xff, v1
	v_lshlrev_b32_e32 v1, 2, v1
	v_mov_b32_e32 v2, 1
	ds_add_u32 v1, v2
.LBB0:
.LBB1:
	s_mov_b32 exec_lo, s2
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	buffer_gl0_inv
	ds_load_b32 v1, v3
	v_lshlrev_b32_e32 v0, 2, v0
	v_mad_u64_u32 v[2:3], null, v0, 1, s[0:1]
	s_waitcnt lgkmcnt(0)
	global_atomic_add_u32 v[2:3], v1, off
	s_endpgm
