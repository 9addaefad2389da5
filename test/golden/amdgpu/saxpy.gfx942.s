saxpy:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dword s3, s[0:1], 0x8
	s_load_dwordx2 s[6:7], s[0:1], 0x10
	s_load_dwordx2 s[0:1], s[0:1], 0x20
	s_mov_b32 s8, s2
	s_mov_b32 s9, 0
	s_lshl_b64 s[8:9], s[8:9], 7
	v_mad_u64_u32 v[2:3], vcc, v0, 1, s[8:9]
	s_waitcnt lgkmcnt(0)
	v_cmp_lt_u64_e64 s[4:5], v[2:3], s[4:5]
	v_lshl_add_u64 v[0:1], v[2:3], 2, s[6:7]
	v_lshl_add_u64 v[2:3], v[2:3], 2, s[0:1]
	s_and_saveexec_b64 s[0:1], s[4:5]
	s_cbranch_execz .LBB0
	global_load_dword v0, v[0:1], off
	global_load_dword v1, v[2:3], off
	s_waitcnt vmcnt(0)
	v_fma_f32 v0, s3, v0, v1
	global_store_dword v[2:3], v0, off
.LBB0:
.LBB1:
	s_endpgm
