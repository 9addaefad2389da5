vector_add_tail:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dwordx2 s[6:7], s[0:1], 0x8
	s_load_dwordx2 s[8:9], s[0:1], 0x18
	s_load_dwordx2 s[0:1], s[0:1], 0x28
	s_mov_b32 s3, 0
	s_lshl_b64 s[2:3], s[2:3], 6
	v_mad_u64_u32 v[2:3], vcc, v0, 1, s[2:3]
	v_lshlrev_b64 v[0:1], 2, v[2:3]
	v_lshl_add_u64 v[2:3], v[0:1], 0, 4
	s_waitcnt lgkmcnt(0)
	v_cmp_le_i64_e64 s[2:3], v[2:3], s[4:5]
	v_lshl_add_u64 v[4:5], v[0:1], 2, s[6:7]
	v_lshl_add_u64 v[6:7], v[0:1], 2, s[8:9]
	v_lshl_add_u64 v[8:9], v[0:1], 2, s[0:1]
	s_and_saveexec_b64 s[10:11], s[2:3]
	s_cbranch_execz .LBB0
	global_load_dwordx4 v[0:3], v[4:5], off
	global_load_dwordx4 v[4:7], v[6:7], off
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v0, v0, v4
	v_add_f32_e32 v1, v1, v5
	v_add_f32_e32 v2, v2, v6
	v_add_f32_e32 v3, v3, v7
	global_store_dwordx4 v[8:9], v[0:3], off
.LBB0:
	s_andn2_b64 exec, s[10:11], s[2:3]
	s_cbranch_execz .LBB3
	v_cmp_lt_i64_e64 s[2:3], v[2:3], s[4:5]
	v_mov_b32_e32 v4, s4
	s_nop 0
	v_cndmask_b32_e64 v2, v4, v2, s[2:3]
	v_mov_b32_e32 v4, s5
	v_cndmask_b32_e64 v3, v4, v3, s[2:3]
	v_cmp_lt_i64_e64 s[2:3], v[0:1], s[4:5]
	v_mov_b32_e32 v4, s4
	s_nop 0
	v_cndmask_b32_e64 v0, v4, v0, s[2:3]
	v_mov_b32_e32 v4, s5
	v_cndmask_b32_e64 v1, v4, v1, s[2:3]
	s_mov_b64 s[2:3], exec
.LBB1:
	v_cmp_lt_i64_e64 s[2:3], v[0:1], v[2:3]
	s_and_b64 exec, exec, s[2:3]
	s_cbranch_execz .LBB2
	v_lshl_add_u64 v[4:5], v[0:1], 2, s[6:7]
	global_load_dword v4, v[4:5], off
	v_lshl_add_u64 v[6:7], v[0:1], 2, s[8:9]
	global_load_dword v5, v[6:7], off
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v4, v4, v5
	v_lshl_add_u64 v[6:7], v[0:1], 2, s[0:1]
	global_store_dword v[6:7], v4, off
	v_lshl_add_u64 v[0:1], v[0:1], 0, 1
	s_branch .LBB1
.LBB2:
.LBB3:
	s_endpgm
