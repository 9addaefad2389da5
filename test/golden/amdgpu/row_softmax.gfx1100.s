row_softmax:
	s_load_b64 s[2:3], s[0:1], 0x8
	s_load_b64 s[4:5], s[0:1], 0x10
	s_load_b64 s[6:7], s[0:1], 0x20
	v_mov_b32_e32 v1, v0
	v_mov_b32_e32 v2, 0
	v_mov_b32_e32 v3, 0xff800000
	s_mov_b32 s0, exec_lo
.LBB0:
	s_waitcnt lgkmcnt(0)
	v_cmp_lt_i64_e64 s1, v[1:2], s[2:3]
	s_and_b32 exec_lo, exec_lo, s1
	s_cbranch_execz .LBB1
	s_mul_i32 s8, s15, s2
	s_mul_hi_u32 s1, s15, s2
	s_mul_i32 s10, s3, s15
	s_add_u32 s11, s1, s10
	s_mov_b32 s9, s11
	v_add_co_u32 v4, vcc_lo, s8, v1
	v_add_co_ci_u32_e32 v5, vcc_lo, s9, v2, vcc_lo
	v_lshlrev_b64 v[6:7], 2, v[4:5]
	v_add_co_u32 v4, vcc_lo, s4, v6
	v_add_co_ci_u32_e32 v5, vcc_lo, s5, v7, vcc_lo
	global_load_b32 v6, v[4:5], off
	s_waitcnt vmcnt(0)
	v_max_f32_e32 v4, v3, v6
	v_cmp_u_f32_e64 s1, v3, v6
	v_cndmask_b32_e64 v5, v4, 0x7fc00000, s1
	v_mov_b32_e32 v3, v5
	v_add_co_u32 v4, vcc_lo, 64, v1
	v_add_co_ci_u32_e32 v5, vcc_lo, 0, v2, vcc_lo
	v_mov_b32_e32 v1, v4
	v_mov_b32_e32 v2, v5
	s_branch .LBB0
.LBB1:
	s_mov_b32 exec_lo, s0
	v_lshlrev_b32_e32 v1, 2, v0
	ds_store_b32 v1, v3
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	v_mov_b32_e32 v1, 0
	ds_load_b32 v2, v1
	ds_load_b32 v3, v1 offset:4
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:8
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:12
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:16
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:20
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:24
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:28
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:32
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:36
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:40
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:44
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:48
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:52
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:56
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:60
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:64
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:68
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:72
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:76
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:80
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:84
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:88
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:92
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:96
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:100
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:104
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:108
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:112
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:116
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:120
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:124
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:128
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:132
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:136
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:140
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:144
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:148
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:152
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:156
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:160
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:164
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:168
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:172
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:176
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:180
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:184
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:188
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:192
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:196
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:200
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:204
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:208
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:212
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:216
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:220
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:224
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:228
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:232
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:236
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:240
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:244
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:248
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v4, 0x7fc00000, s0
	ds_load_b32 v3, v1 offset:252
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v1, v2, v3
	v_cmp_u_f32_e64 s0, v2, v3
	v_cndmask_b32_e64 v2, v1, 0x7fc00000, s0
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	v_mov_b32_e32 v3, v0
	v_mov_b32_e32 v4, 0
	v_mov_b32_e32 v1, 0
	s_mov_b32 s0, exec_lo
.LBB2:
	v_cmp_lt_i64_e64 s1, v[3:4], s[2:3]
	s_and_b32 exec_lo, exec_lo, s1
	s_cbranch_execz .LBB3
	s_mul_i32 s8, s15, s2
	s_mul_hi_u32 s1, s15, s2
	s_mul_i32 s10, s3, s15
	s_add_u32 s11, s1, s10
	s_mov_b32 s9, s11
	v_add_co_u32 v5, vcc_lo, s8, v3
	v_add_co_ci_u32_e32 v6, vcc_lo, s9, v4, vcc_lo
	v_lshlrev_b64 v[7:8], 2, v[5:6]
	v_add_co_u32 v5, vcc_lo, s4, v7
	v_add_co_ci_u32_e32 v6, vcc_lo, s5, v8, vcc_lo
	global_load_b32 v7, v[5:6], off
	s_waitcnt vmcnt(0)
	v_sub_f32_e32 v5, v7, v2
	v_mul_f32_e32 v6, 0x3fb8aa3b, v5
	v_exp_f32_e32 v5, v6
	s_waitcnt_depctr 4095
	v_add_f32_e32 v6, v1, v5
	v_mov_b32_e32 v1, v6
	v_add_co_u32 v5, vcc_lo, 64, v3
	v_add_co_ci_u32_e32 v6, vcc_lo, 0, v4, vcc_lo
	v_mov_b32_e32 v3, v5
	v_mov_b32_e32 v4, v6
	s_branch .LBB2
.LBB3:
	s_mov_b32 exec_lo, s0
	v_lshlrev_b32_e32 v3, 2, v0
	ds_store_b32 v3, v1 offset:256
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	v_mov_b32_e32 v1, 0
	ds_load_b32 v3, v1 offset:256
	ds_load_b32 v4, v1 offset:260
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v3, v4
	ds_load_b32 v3, v1 offset:264
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:268
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:272
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:276
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:280
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:284
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:288
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:292
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:296
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:300
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:304
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:308
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:312
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:316
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:320
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:324
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:328
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:332
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:336
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:340
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:344
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:348
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:352
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:356
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:360
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:364
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:368
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:372
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:376
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:380
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:384
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:388
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:392
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:396
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:400
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:404
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:408
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:412
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:416
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:420
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:424
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:428
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:432
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:436
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:440
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:444
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:448
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:452
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:456
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:460
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:464
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:468
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:472
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:476
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:480
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:484
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:488
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:492
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:496
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:500
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v3
	ds_load_b32 v3, v1 offset:504
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v3
	ds_load_b32 v3, v1 offset:508
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v1, v4, v3
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	v_mov_b32_e32 v3, v0
	v_mov_b32_e32 v4, 0
	s_mov_b32 s0, exec_lo
.LBB4:
	v_cmp_lt_i64_e64 s1, v[3:4], s[2:3]
	s_and_b32 exec_lo, exec_lo, s1
	s_cbranch_execz .LBB5
	s_mul_i32 s8, s15, s2
	s_mul_hi_u32 s1, s15, s2
	s_mul_i32 s10, s3, s15
	s_add_u32 s11, s1, s10
	s_mov_b32 s9, s11
	v_add_co_u32 v5, vcc_lo, s8, v3
	v_add_co_ci_u32_e32 v6, vcc_lo, s9, v4, vcc_lo
	v_lshlrev_b64 v[7:8], 2, v[5:6]
	v_add_co_u32 v5, vcc_lo, s4, v7
	v_add_co_ci_u32_e32 v6, vcc_lo, s5, v8, vcc_lo
	global_load_b32 v0, v[5:6], off
	s_waitcnt vmcnt(0)
	v_sub_f32_e32 v5, v0, v2
	v_mul_f32_e32 v0, 0x3fb8aa3b, v5
	v_exp_f32_e32 v5, v0
	s_waitcnt_depctr 4095
	v_rcp_f32_e32 v0, v1
	s_waitcnt_depctr 4095
	v_mul_f32_e32 v6, v5, v0
	v_add_co_u32 v7, vcc_lo, s8, v3
	v_add_co_ci_u32_e32 v8, vcc_lo, s9, v4, vcc_lo
	v_lshlrev_b64 v[9:10], 2, v[7:8]
	v_add_co_u32 v7, vcc_lo, s6, v9
	v_add_co_ci_u32_e32 v8, vcc_lo, s7, v10, vcc_lo
	global_store_b32 v[7:8], v6, off
	v_add_co_u32 v5, vcc_lo, 64, v3
	v_add_co_ci_u32_e32 v6, vcc_lo, 0, v4, vcc_lo
	v_mov_b32_e32 v3, v5
	v_mov_b32_e32 v4, v6
	s_branch .LBB4
.LBB5:
	s_mov_b32 exec_lo, s0
	s_endpgm
