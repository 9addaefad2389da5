reduce_sum:
	s_load_b64 s[2:3], s[0:1], 0x0
	s_load_b64 s[4:5], s[0:1], 0x8
	s_load_b64 s[6:7], s[0:1], 0x18
	s_mov_b32 s8, s15
	s_mov_b32 s9, 0
	s_lshl_b64 s[8:9], s[8:9], 8
	v_mad_u64_u32 v[1:2], null, v0, 1, s[8:9]
	s_load_b32 s0, s[0:1], 0x28
	s_mov_b32 s1, 0
	s_waitcnt lgkmcnt(0)
	s_lshl_b64 s[0:1], s[0:1], 8
	v_mbcnt_lo_u32_b32 v0, -1, 0
	v_mov_b32_e32 v3, 0
	s_mov_b32 s8, exec_lo
.LBB0:
	v_cmp_lt_i64_e64 s9, v[1:2], s[2:3]
	s_and_b32 exec_lo, exec_lo, s9
	s_cbranch_execz .LBB1
	v_lshlrev_b64 v[4:5], 2, v[1:2]
	v_add_co_u32 v4, vcc_lo, s4, v4
	v_add_co_ci_u32_e32 v5, vcc_lo, s5, v5, vcc_lo
	global_load_b32 v4, v[4:5], off
	s_waitcnt vmcnt(0)
	v_add_nc_u32_e32 v3, v3, v4
	v_add_co_u32 v1, vcc_lo, s0, v1
	v_add_co_ci_u32_e32 v2, vcc_lo, s1, v2, vcc_lo
	s_branch .LBB0
.LBB1:
	s_mov_b32 exec_lo, s8
	v_mbcnt_lo_u32_b32 v1, -1, 0
	v_xor_b32_e32 v2, 16, v1
	v_lshlrev_b32_e32 v2, 2, v2
	ds_bpermute_b32 v2, v2, v3
	s_waitcnt lgkmcnt(0)
	v_add_nc_u32_e32 v2, v3, v2
	v_xor_b32_e32 v3, 8, v1
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v2
	s_waitcnt lgkmcnt(0)
	v_add_nc_u32_e32 v2, v2, v3
	v_xor_b32_e32 v3, 4, v1
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v2
	s_waitcnt lgkmcnt(0)
	v_add_nc_u32_e32 v2, v2, v3
	v_xor_b32_e32 v3, 2, v1
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v2
	s_waitcnt lgkmcnt(0)
	v_add_nc_u32_e32 v2, v2, v3
	v_xor_b32_e32 v1, 1, v1
	v_lshlrev_b32_e32 v1, 2, v1
	ds_bpermute_b32 v1, v1, v2
	s_waitcnt lgkmcnt(0)
	v_add_nc_u32_e32 v1, v2, v1
	v_cmp_eq_u32_e64 s0, v0, 0
	s_and_saveexec_b32 s0, s0
	s_cbranch_execz .LBB2
	v_mov_b32_e32 v2, s6
	v_mov_b32_e32 v3, s7
	global_atomic_add_u32 v[2:3], v1, off
.LBB2:
.LBB3:
	s_endpgm
