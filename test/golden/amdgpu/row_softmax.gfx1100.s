row_softmax:
	s_load_b64 s[2:3], s[0:1], 0x8
	s_load_b64 s[4:5], s[0:1], 0x10
	s_load_b64 s[0:1], s[0:1], 0x20
	v_mov_b32_e32 v1, v0
	v_mov_b32_e32 v2, 0
	v_mov_b32_e32 v3, 0xff800000
	s_mov_b32 s6, exec_lo
.LBB0:
	s_waitcnt lgkmcnt(0)
	v_cmp_lt_i64_e64 s7, v[1:2], s[2:3]
	s_and_b32 exec_lo, exec_lo, s7
	s_cbranch_execz .LBB1
	s_mul_i32 s8, s15, s2
	s_mul_hi_u32 s7, s15, s2
	s_mul_i32 s9, s3, s15
	s_add_u32 s7, s7, s9
	s_mov_b32 s9, s7
	v_add_co_u32 v4, vcc_lo, s8, v1
	v_add_co_ci_u32_e32 v5, vcc_lo, s9, v2, vcc_lo
	v_lshlrev_b64 v[4:5], 2, v[4:5]
	v_add_co_u32 v4, vcc_lo, s4, v4
	v_add_co_ci_u32_e32 v5, vcc_lo, s5, v5, vcc_lo
	global_load_b32 v4, v[4:5], off
	s_waitcnt vmcnt(0)
	v_max_f32_e32 v5, v3, v4
	v_cmp_u_f32_e64 s7, v3, v4
	v_cndmask_b32_e64 v3, v5, 0x7fc00000, s7
	v_add_co_u32 v1, vcc_lo, 64, v1
	v_add_co_ci_u32_e32 v2, vcc_lo, 0, v2, vcc_lo
	s_branch .LBB0
.LBB1:
	s_mov_b32 exec_lo, s6
	v_mbcnt_lo_u32_b32 v1, -1, 0
	v_xor_b32_e32 v2, 16, v1
	v_lshlrev_b32_e32 v2, 2, v2
	ds_bpermute_b32 v2, v2, v3
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s6, v3, v2
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s6
	v_xor_b32_e32 v3, 8, v1
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v2
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s6, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s6
	v_xor_b32_e32 v3, 4, v1
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v2
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s6, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s6
	v_xor_b32_e32 v3, 2, v1
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v2
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s6, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s6
	v_xor_b32_e32 v1, 1, v1
	v_lshlrev_b32_e32 v1, 2, v1
	ds_bpermute_b32 v1, v1, v2
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v3, v2, v1
	v_cmp_u_f32_e64 s6, v2, v1
	v_cndmask_b32_e64 v1, v3, 0x7fc00000, s6
	v_lshrrev_b32_e32 v2, 5, v0
	v_lshlrev_b32_e32 v2, 2, v2
	ds_store_b32 v2, v1
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	v_mov_b32_e32 v1, 0
	ds_load_b32 v2, v1
	ds_load_b32 v1, v1 offset:4
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v3, v2, v1
	v_cmp_u_f32_e64 s6, v2, v1
	v_cndmask_b32_e64 v1, v3, 0x7fc00000, s6
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	v_mov_b32_e32 v2, v0
	v_mov_b32_e32 v3, 0
	v_mov_b32_e32 v4, 0
	s_mov_b32 s6, exec_lo
.LBB2:
	v_cmp_lt_i64_e64 s7, v[2:3], s[2:3]
	s_and_b32 exec_lo, exec_lo, s7
	s_cbranch_execz .LBB3
	s_mul_i32 s8, s15, s2
	s_mul_hi_u32 s7, s15, s2
	s_mul_i32 s9, s3, s15
	s_add_u32 s7, s7, s9
	s_mov_b32 s9, s7
	v_add_co_u32 v5, vcc_lo, s8, v2
	v_add_co_ci_u32_e32 v6, vcc_lo, s9, v3, vcc_lo
	v_lshlrev_b64 v[5:6], 2, v[5:6]
	v_add_co_u32 v5, vcc_lo, s4, v5
	v_add_co_ci_u32_e32 v6, vcc_lo, s5, v6, vcc_lo
	global_load_b32 v5, v[5:6], off
	s_waitcnt vmcnt(0)
	v_sub_f32_e32 v5, v5, v1
	v_mul_f32_e32 v5, 0x3fb8aa3b, v5
	v_exp_f32_e32 v5, v5
	s_waitcnt_depctr 4095
	v_add_f32_e32 v4, v4, v5
	v_add_co_u32 v2, vcc_lo, 64, v2
	v_add_co_ci_u32_e32 v3, vcc_lo, 0, v3, vcc_lo
	s_branch .LBB2
.LBB3:
	s_mov_b32 exec_lo, s6
	v_mbcnt_lo_u32_b32 v2, -1, 0
	v_xor_b32_e32 v3, 16, v2
	v_lshlrev_b32_e32 v3, 2, v3
	ds_bpermute_b32 v3, v3, v4
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v3, v4, v3
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
	v_lshrrev_b32_e32 v3, 5, v0
	v_lshlrev_b32_e32 v3, 2, v3
	ds_store_b32 v3, v2 offset:256
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	v_mov_b32_e32 v2, 0
	ds_load_b32 v3, v2 offset:256
	ds_load_b32 v2, v2 offset:260
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v2, v3, v2
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	v_mov_b32_e32 v3, v0
	v_mov_b32_e32 v4, 0
	s_mov_b32 s6, exec_lo
.LBB4:
	v_cmp_lt_i64_e64 s6, v[3:4], s[2:3]
	s_and_b32 exec_lo, exec_lo, s6
	s_cbranch_execz .LBB5
	s_mul_i32 s6, s15, s2
	s_mul_hi_u32 s7, s15, s2
	s_mul_i32 s8, s3, s15
	s_add_u32 s7, s7, s8
	v_add_co_u32 v5, vcc_lo, s6, v3
	v_add_co_ci_u32_e32 v6, vcc_lo, s7, v4, vcc_lo
	v_lshlrev_b64 v[5:6], 2, v[5:6]
	v_add_co_u32 v7, vcc_lo, s4, v5
	v_add_co_ci_u32_e32 v8, vcc_lo, s5, v6, vcc_lo
	global_load_b32 v0, v[7:8], off
	s_waitcnt vmcnt(0)
	v_sub_f32_e32 v0, v0, v1
	v_mul_f32_e32 v0, 0x3fb8aa3b, v0
	v_exp_f32_e32 v0, v0
	s_waitcnt_depctr 4095
	v_rcp_f32_e32 v7, v2
	s_waitcnt_depctr 4095
	v_mul_f32_e32 v0, v0, v7
	v_add_co_u32 v5, vcc_lo, s0, v5
	v_add_co_ci_u32_e32 v6, vcc_lo, s1, v6, vcc_lo
	global_store_b32 v[5:6], v0, off
	v_add_co_u32 v3, vcc_lo, 64, v3
	v_add_co_ci_u32_e32 v4, vcc_lo, 0, v4, vcc_lo
	s_branch .LBB4
.LBB5:
	s_endpgm
