saxpy:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dword s3, s[0:1], 0x8
	s_load_dwordx2 s[6:7], s[0:1], 0x10
	s_load_dwordx2 s[0:1], s[0:1], 0x20
	s_mov_b32 s8, s2
	s_mov_b32 s9, 0
	s_lshl_b64 s[8:9], s[8:9], 7
	v_mov_b32_e32 v1, 0
	v_lshl_add_u64 v[0:1], s[8:9], 0, v[0:1]
	s_waitcnt lgkmcnt(0)
	v_cmp_lt_u64_e64 s[4:5], v[0:1], s[4:5]
	s_and_saveexec_b64 s[4:5], s[4:5]
	s_cbranch_execz .LBB0
	v_lshl_add_u64 v[2:3], v[0:1], 2, s[6:7]
	global_load_dword v2, v[2:3], off
	v_lshl_add_u64 v[0:1], v[0:1], 2, s[0:1]
	global_load_dword v3, v[0:1], off
	s_waitcnt vmcnt(0)
	v_fma_f32 v2, s3, v2, v3
	global_store_dword v[0:1], v2, off
.LBB0:
.LBB1:
	s_mov_b64 exec, s[4:5]
	s_endpgm
