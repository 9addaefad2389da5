row_softmax:
	s_load_dwordx2 s[4:5], s[0:1], 0x8
	s_load_dwordx2 s[6:7], s[0:1], 0x10
	s_load_dwordx2 s[0:1], s[0:1], 0x20
	v_mov_b32_e32 v2, v0
	v_mov_b32_e32 v3, 0
	v_mov_b32_e32 v1, 0xff800000
	s_mov_b64 s[8:9], exec
.LBB0:
	s_waitcnt lgkmcnt(0)
	s_nop 0
	v_cmp_lt_i64_e64 s[10:11], v[2:3], s[4:5]
	s_and_b64 exec, exec, s[10:11]
	s_cbranch_execz .LBB1
	s_mul_i32 s10, s2, s4
	s_mul_hi_u32 s3, s2, s4
	s_mul_i32 s11, s5, s2
	s_add_u32 s3, s3, s11
	s_mov_b32 s11, s3
	v_lshl_add_u64 v[4:5], s[10:11], 0, v[2:3]
	v_lshl_add_u64 v[4:5], v[4:5], 2, s[6:7]
	global_load_dword v4, v[4:5], off
	s_waitcnt vmcnt(0)
	v_max_f32_e32 v5, v1, v4
	v_cmp_u_f32_e64 s[10:11], v1, v4
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v1, s3
	v_cndmask_b32_e64 v1, v5, v1, s[10:11]
	v_lshl_add_u64 v[2:3], v[2:3], 0, 64
	s_branch .LBB0
.LBB1:
	s_mov_b64 exec, s[8:9]
	v_mbcnt_lo_u32_b32 v2, -1, 0
	v_mbcnt_hi_u32_b32 v2, -1, v2
	v_xor_b32_e32 v3, 32, v2
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v1
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v1, v3
	v_cmp_u_f32_e64 s[8:9], v1, v3
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v1, s3
	v_cndmask_b32_e64 v1, v4, v1, s[8:9]
	v_xor_b32_e32 v3, 16, v2
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v1
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v1, v3
	v_cmp_u_f32_e64 s[8:9], v1, v3
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v1, s3
	v_cndmask_b32_e64 v1, v4, v1, s[8:9]
	v_xor_b32_e32 v3, 8, v2
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v1
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v1, v3
	v_cmp_u_f32_e64 s[8:9], v1, v3
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v1, s3
	v_cndmask_b32_e64 v1, v4, v1, s[8:9]
	v_xor_b32_e32 v3, 4, v2
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v1
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v1, v3
	v_cmp_u_f32_e64 s[8:9], v1, v3
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v1, s3
	v_cndmask_b32_e64 v1, v4, v1, s[8:9]
	v_xor_b32_e32 v3, 2, v2
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v1
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v1, v3
	v_cmp_u_f32_e64 s[8:9], v1, v3
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v1, s3
	v_cndmask_b32_e64 v1, v4, v1, s[8:9]
	v_xor_b32_e32 v2, 1, v2
	v_lshlrev_b32_e32 v2, 2, v2
	ds_bpermute_b32 v2, v2, v1
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v3, v1, v2
	v_cmp_u_f32_e64 s[8:9], v1, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v1, s3
	v_cndmask_b32_e64 v1, v3, v1, s[8:9]
	v_mov_b32_e32 v2, v0
	v_mov_b32_e32 v3, 0
	v_mov_b32_e32 v4, 0
	s_mov_b64 s[8:9], exec
.LBB2:
	s_nop 1
	v_cmp_lt_i64_e64 s[10:11], v[2:3], s[4:5]
	s_and_b64 exec, exec, s[10:11]
	s_cbranch_execz .LBB3
	s_mul_i32 s10, s2, s4
	s_mul_hi_u32 s3, s2, s4
	s_mul_i32 s11, s5, s2
	s_add_u32 s3, s3, s11
	s_mov_b32 s11, s3
	v_lshl_add_u64 v[6:7], s[10:11], 0, v[2:3]
	v_lshl_add_u64 v[6:7], v[6:7], 2, s[6:7]
	global_load_dword v5, v[6:7], off
	s_waitcnt vmcnt(0)
	v_sub_f32_e32 v5, v5, v1
	v_mul_f32_e32 v5, 0x3fb8aa3b, v5
	v_exp_f32_e32 v5, v5
	s_nop 0
	v_add_f32_e32 v4, v4, v5
	v_lshl_add_u64 v[2:3], v[2:3], 0, 64
	s_branch .LBB2
.LBB3:
	s_mov_b64 exec, s[8:9]
	v_mbcnt_lo_u32_b32 v2, -1, 0
	v_mbcnt_hi_u32_b32 v2, -1, v2
	v_xor_b32_e32 v3, 32, v2
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v4
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v3, v4, v3
	v_xor_b32_e32 v4, 16, v2
	v_lshlrev_b32_e32 v4, 2, v4
	ds_bpermute_b32 v4, v4, v3
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v3, v3, v4
	v_xor_b32_e32 v4, 8, v2
	v_lshlrev_b32_e32 v4, 2, v4
	ds_bpermute_b32 v4, v4, v3
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v3, v3, v4
	v_xor_b32_e32 v4, 4, v2
	v_lshlrev_b32_e32 v4, 2, v4
	ds_bpermute_b32 v4, v4, v3
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v3, v3, v4
	v_xor_b32_e32 v4, 2, v2
	v_lshlrev_b32_e32 v4, 2, v4
	ds_bpermute_b32 v4, v4, v3
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v3, v3, v4
	v_xor_b32_e32 v2, 1, v2
	v_lshlrev_b32_e32 v2, 2, v2
	ds_bpermute_b32 v2, v2, v3
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v2, v3, v2
	v_mov_b32_e32 v4, v0
	v_mov_b32_e32 v5, 0
	s_mov_b64 s[8:9], exec
.LBB4:
	s_nop 1
	v_cmp_lt_i64_e64 s[8:9], v[4:5], s[4:5]
	s_and_b64 exec, exec, s[8:9]
	s_cbranch_execz .LBB5
	s_mul_i32 s8, s2, s4
	s_mul_hi_u32 s3, s2, s4
	s_mul_i32 s9, s5, s2
	s_add_u32 s3, s3, s9
	s_mov_b32 s9, s3
	v_lshl_add_u64 v[6:7], s[8:9], 0, v[4:5]
	v_lshl_add_u64 v[8:9], v[6:7], 2, s[6:7]
	global_load_dword v0, v[8:9], off
	s_waitcnt vmcnt(0)
	v_sub_f32_e32 v0, v0, v1
	v_mul_f32_e32 v0, 0x3fb8aa3b, v0
	v_exp_f32_e32 v0, v0
	s_nop 0
	v_rcp_f32_e32 v3, v2
	s_nop 0
	v_mul_f32_e32 v0, v0, v3
	v_lshl_add_u64 v[6:7], v[6:7], 2, s[0:1]
	global_store_dword v[6:7], v0, off
	v_lshl_add_u64 v[4:5], v[4:5], 0, 64
	s_branch .LBB4
.LBB5:
	s_endpgm
