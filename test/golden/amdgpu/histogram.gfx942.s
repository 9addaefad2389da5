histogram:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dwordx2 s[6:7], s[0:1], 0x8
	s_load_dwordx2 s[0:1], s[0:1], 0x18
	s_mov_b32 s3, 0
	s_lshl_b64 s[2:3], s[2:3], 8
	v_mad_u64_u32 v[2:3], vcc, v0, 1, s[2:3]
	v_lshlrev_b32_e32 v1, 2, v0
	v_mov_b32_e32 v4, 0
	ds_write_b32 v1, v4
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	v_cmp_lt_u64_e64 s[2:3], v[2:3], s[4:5]
	v_lshl_add_u64 v[2:3], v[2:3], 2, s[6:7]
	s_and_saveexec_b64 s[2:3], s[2:3]
	s_cbranch_execz .LBB0
	global_load_dword v2, v[2:3], off
	s_waitcnt vmcnt(0)
	v_and_b32_e32 v2, 0xff, v2
	v_lshlrev_b32_e32 v2, 2, v2
	v_mov_b32_e32 v3, 1
	ds_add_u32 v2, v3
.LBB0:
.LBB1:
	s_mov_b64 exec, s[2:3]
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	ds_read_b32 v1, v1
	v_lshlrev_b32_e32 v0, 2, v0
	v_mad_u64_u32 v[2:3], vcc, v0, 1, s[0:1]
	s_waitcnt lgkmcnt(0)
	global_atomic_add v[2:3], v1, off
	s_endpgm
