vector_add_tail:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dwordx2 s[6:7], s[0:1], 0x8
	s_load_dwordx2 s[8:9], s[0:1], 0x18
	s_load_dwordx2 s[10:11], s[0:1], 0x28
	s_mov_b32 s0, s2
	s_mov_b32 s1, 0
	s_lshl_b64 s[2:3], s[0:1], 6
	v_mov_b32_e32 v2, v0
	v_mov_b32_e32 v3, 0
	v_lshl_add_u64 v[0:1], s[2:3], 0, v[2:3]
	v_lshlrev_b64 v[2:3], 2, v[0:1]
	v_lshl_add_u64 v[0:1], v[2:3], 0, 4
	s_waitcnt lgkmcnt(0)
	v_cmp_le_i64_e64 s[0:1], v[0:1], s[4:5]
	s_and_saveexec_b64 s[2:3], s[0:1]
	s_cbranch_execz .LBB0
	v_lshl_add_u64 v[4:5], v[2:3], 2, s[6:7]
	global_load_dwordx4 v[6:9], v[4:5], off
	v_lshl_add_u64 v[4:5], v[2:3], 2, s[8:9]
	global_load_dwordx4 v[10:13], v[4:5], off
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v14, v6, v10
	v_add_f32_e32 v15, v7, v11
	v_add_f32_e32 v16, v8, v12
	v_add_f32_e32 v17, v9, v13
	v_lshl_add_u64 v[4:5], v[2:3], 2, s[10:11]
	global_store_dwordx4 v[4:5], v[14:17], off
.LBB0:
	s_andn2_b64 exec, s[2:3], s[0:1]
	s_cbranch_execz .LBB3
	v_cmp_lt_i64_e64 s[0:1], v[0:1], s[4:5]
	v_mov_b32_e32 v4, s4
	s_nop 0
	v_cndmask_b32_e64 v6, v4, v0, s[0:1]
	v_mov_b32_e32 v4, s5
	v_cndmask_b32_e64 v7, v4, v1, s[0:1]
	v_cmp_lt_i64_e64 s[0:1], v[2:3], s[4:5]
	v_mov_b32_e32 v0, s4
	s_nop 0
	v_cndmask_b32_e64 v4, v0, v2, s[0:1]
	v_mov_b32_e32 v0, s5
	v_cndmask_b32_e64 v5, v0, v3, s[0:1]
	v_mov_b32_e32 v0, v4
	v_mov_b32_e32 v1, v5
	s_mov_b64 s[0:1], exec
.LBB1:
	v_cmp_lt_i64_e64 s[4:5], v[0:1], v[6:7]
	s_and_b64 exec, exec, s[4:5]
	s_cbranch_execz .LBB2
	v_lshl_add_u64 v[2:3], v[0:1], 2, s[6:7]
	global_load_dword v4, v[2:3], off
	v_lshl_add_u64 v[2:3], v[0:1], 2, s[8:9]
	global_load_dword v5, v[2:3], off
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v2, v4, v5
	v_lshl_add_u64 v[4:5], v[0:1], 2, s[10:11]
	global_store_dword v[4:5], v2, off
	v_lshl_add_u64 v[2:3], v[0:1], 0, 1
	v_mov_b32_e32 v0, v2
	v_mov_b32_e32 v1, v3
	s_branch .LBB1
.LBB2:
	s_mov_b64 exec, s[0:1]
.LBB3:
	s_mov_b64 exec, s[2:3]
	s_endpgm
