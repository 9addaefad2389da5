reduce_sum:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dwordx2 s[6:7], s[0:1], 0x8
	s_load_dwordx2 s[8:9], s[0:1], 0x18
	s_mov_b32 s3, 0
	s_lshl_b64 s[2:3], s[2:3], 8
	v_mad_u64_u32 v[2:3], vcc, v0, 1, s[2:3]
	s_load_dword s0, s[0:1], 0x28
	s_mov_b32 s1, 0
	s_waitcnt lgkmcnt(0)
	s_lshl_b64 s[0:1], s[0:1], 8
	v_mbcnt_lo_u32_b32 v0, -1, 0
	v_mbcnt_hi_u32_b32 v0, -1, v0
	v_mov_b32_e32 v1, 0
	s_mov_b64 s[2:3], exec
.LBB0:
	s_nop 1
	v_cmp_lt_i64_e64 s[10:11], v[2:3], s[4:5]
	s_and_b64 exec, exec, s[10:11]
	s_cbranch_execz .LBB1
	v_lshl_add_u64 v[4:5], v[2:3], 2, s[6:7]
	global_load_dword v4, v[4:5], off
	s_waitcnt vmcnt(0)
	v_add_u32_e32 v1, v1, v4
	v_lshl_add_u64 v[2:3], v[2:3], 0, s[0:1]
	s_branch .LBB0
.LBB1:
	s_mov_b64 exec, s[2:3]
	v_mbcnt_lo_u32_b32 v2, -1, 0
	v_mbcnt_hi_u32_b32 v2, -1, v2
	v_xor_b32_e32 v3, 32, v2
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v1
	s_waitcnt lgkmcnt(0)
	v_add_u32_e32 v1, v1, v3
	v_xor_b32_e32 v3, 16, v2
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v1
	s_waitcnt lgkmcnt(0)
	v_add_u32_e32 v1, v1, v3
	v_xor_b32_e32 v3, 8, v2
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v1
	s_waitcnt lgkmcnt(0)
	v_add_u32_e32 v1, v1, v3
	v_xor_b32_e32 v3, 4, v2
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v1
	s_waitcnt lgkmcnt(0)
	v_add_u32_e32 v1, v1, v3
	v_xor_b32_e32 v3, 2, v2
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v1
	s_waitcnt lgkmcnt(0)
	v_add_u32_e32 v1, v1, v3
	v_xor_b32_e32 v2, 1, v2
	v_lshlrev_b32_e32 v2, 2, v2
	ds_bpermute_b32 v2, v2, v1
	s_waitcnt lgkmcnt(0)
	v_add_u32_e32 v1, v1, v2
	v_cmp_eq_u32_e64 s[0:1], v0, 0
	s_and_saveexec_b64 s[0:1], s[0:1]
	s_cbranch_execz .LBB2
	v_mov_b32_e32 v2, s8
	v_mov_b32_e32 v3, s9
	global_atomic_add v[2:3], v1, off
.LBB2:
.LBB3:
	s_endpgm
