vector_add_tail:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dwordx2 s[6:7], s[0:1], 0x8
	s_load_dwordx2 s[8:9], s[0:1], 0x18
	s_load_dwordx2 s[10:11], s[0:1], 0x28
	s_mov_b32 s0, s2
	s_mov_b32 s1, 0
	s_lshl_b64 s[2:3], s[0:1], 6
	v_mov_b32_e32 v1, 0
	v_add_co_u32_e32 v2, vcc, s2, v0
	v_mov_b32_e32 v0, s3
	v_addc_co_u32_e32 v3, vcc, v0, v1, vcc
	v_lshlrev_b64 v[0:1], 2, v[2:3]
	v_add_co_u32_e32 v2, vcc, 4, v0
	v_addc_co_u32_e32 v3, vcc, 0, v1, vcc
	s_waitcnt lgkmcnt(0)
	v_cmp_le_i64_e64 s[0:1], v[2:3], s[4:5]
	s_and_saveexec_b64 s[2:3], s[0:1]
	s_cbranch_execz .LBB0
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s6, v4
	v_mov_b32_e32 v8, s7
	v_addc_co_u32_e32 v7, vcc, v8, v5, vcc
	global_load_dwordx4 v[8:11], v[6:7], off
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v6, v8
	v_mov_b32_e32 v7, v9
	v_mov_b32_e32 v12, v10
	v_mov_b32_e32 v13, v11
	v_add_co_u32_e32 v8, vcc, s8, v4
	v_mov_b32_e32 v10, s9
	v_addc_co_u32_e32 v9, vcc, v10, v5, vcc
	global_load_dwordx4 v[14:17], v[8:9], off
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v8, v14
	v_mov_b32_e32 v9, v15
	v_mov_b32_e32 v10, v16
	v_mov_b32_e32 v11, v17
	v_add_f32_e32 v14, v6, v8
	v_add_f32_e32 v6, v7, v9
	v_add_f32_e32 v7, v12, v10
	v_add_f32_e32 v8, v13, v11
	v_mov_b32_e32 v10, v14
	v_mov_b32_e32 v11, v6
	v_mov_b32_e32 v12, v7
	v_mov_b32_e32 v13, v8
	v_add_co_u32_e32 v6, vcc, s10, v4
	v_mov_b32_e32 v8, s11
	v_addc_co_u32_e32 v7, vcc, v8, v5, vcc
	global_store_dwordx4 v[6:7], v[10:13], off
.LBB0:
	s_andn2_b64 exec, s[2:3], s[0:1]
	s_cbranch_execz .LBB3
	v_cmp_lt_i64_e64 s[0:1], v[2:3], s[4:5]
	v_mov_b32_e32 v4, s4
	v_cndmask_b32_e64 v5, v4, v2, s[0:1]
	v_mov_b32_e32 v4, s5
	v_cndmask_b32_e64 v6, v4, v3, s[0:1]
	v_mov_b32_e32 v2, v5
	v_mov_b32_e32 v3, v6
	v_cmp_lt_i64_e64 s[0:1], v[0:1], s[4:5]
	v_mov_b32_e32 v4, s4
	v_cndmask_b32_e64 v5, v4, v0, s[0:1]
	v_mov_b32_e32 v4, s5
	v_cndmask_b32_e64 v6, v4, v1, s[0:1]
	v_mov_b32_e32 v0, v5
	v_mov_b32_e32 v1, v6
	v_mov_b32_e32 v4, v0
	v_mov_b32_e32 v5, v1
	s_mov_b64 s[0:1], exec
.LBB1:
	v_cmp_lt_i64_e64 s[4:5], v[4:5], v[2:3]
	s_and_b64 exec, exec, s[4:5]
	s_cbranch_execz .LBB2
	v_lshlrev_b64 v[0:1], 2, v[4:5]
	v_add_co_u32_e32 v6, vcc, s6, v0
	v_mov_b32_e32 v8, s7
	v_addc_co_u32_e32 v7, vcc, v8, v1, vcc
	global_load_dword v0, v[6:7], off
	v_lshlrev_b64 v[6:7], 2, v[4:5]
	v_add_co_u32_e32 v8, vcc, s8, v6
	v_mov_b32_e32 v1, s9
	v_addc_co_u32_e32 v9, vcc, v1, v7, vcc
	global_load_dword v1, v[8:9], off
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v6, v0, v1
	v_lshlrev_b64 v[0:1], 2, v[4:5]
	v_add_co_u32_e32 v8, vcc, s10, v0
	v_mov_b32_e32 v7, s11
	v_addc_co_u32_e32 v9, vcc, v7, v1, vcc
	global_store_dword v[8:9], v6, off
	v_add_co_u32_e32 v0, vcc, 1, v4
	v_addc_co_u32_e32 v1, vcc, 0, v5, vcc
	v_mov_b32_e32 v4, v0
	v_mov_b32_e32 v5, v1
	s_branch .LBB1
.LBB2:
	s_mov_b64 exec, s[0:1]
.LBB3:
	s_mov_b64 exec, s[2:3]
	s_endpgm
