block_sum:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dwordx2 s[6:7], s[0:1], 0x8
	s_load_dwordx2 s[0:1], s[0:1], 0x18
	s_mov_b32 s8, s2
	s_mov_b32 s9, 0
	s_lshl_b64 s[8:9], s[8:9], 8
	v_mad_u64_u32 v[2:3], vcc, v0, 1, s[8:9]
	s_waitcnt lgkmcnt(0)
	v_cmp_lt_u64_e64 s[4:5], v[2:3], s[4:5]
	v_lshl_add_u64 v[2:3], v[2:3], 2, s[6:7]
	s_and_saveexec_b64 s[6:7], s[4:5]
	s_cbranch_execz .LBB0
	global_load_dword v1, v[2:3], off
.LBB0:
	s_andn2_b64 exec, s[6:7], s[4:5]
	s_cbranch_execz .LBB1
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v1, 0
.LBB1:
	s_mov_b64 exec, s[6:7]
	v_lshlrev_b32_e32 v2, 2, v0
	s_waitcnt vmcnt(0)
	ds_write_b32 v2, v1
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	s_mov_b32 s3, 0
.LBB2:
	s_cmp_lt_u32 s3, 8
	s_cbranch_scc0 .LBB5
	s_lshr_b32 s4, 0x80, s3
	v_cmp_lt_u32_e64 s[6:7], v0, s4
	s_and_saveexec_b64 s[6:7], s[6:7]
	s_cbranch_execz .LBB3
	v_add_u32_e32 v1, s4, v0
	ds_read_b32 v3, v2
	v_lshlrev_b32_e32 v1, 2, v1
	ds_read_b32 v1, v1
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v1, v3, v1
	ds_write_b32 v2, v1
.LBB3:
.LBB4:
	s_mov_b64 exec, s[6:7]
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	s_add_u32 s3, s3, 1
	s_branch .LBB2
.LBB5:
	v_cmp_eq_u32_e64 s[4:5], v0, 0
	s_mov_b32 s3, 0
	v_mov_b32_e32 v0, s0
	v_mov_b32_e32 v1, s1
	v_lshl_add_u64 v[0:1], s[2:3], 2, v[0:1]
	s_and_saveexec_b64 s[0:1], s[4:5]
	s_cbranch_execz .LBB6
	v_mov_b32_e32 v2, 0
	ds_read_b32 v2, v2
	s_waitcnt lgkmcnt(0)
	global_store_dword v[0:1], v2, off
.LBB6:
.LBB7:
	s_endpgm
