row_softmax:
	s_load_dwordx2 s[4:5], s[0:1], 0x8
	s_load_dwordx2 s[6:7], s[0:1], 0x10
	s_load_dwordx2 s[8:9], s[0:1], 0x20
	v_mov_b32_e32 v2, v0
	v_mov_b32_e32 v3, 0
	v_mov_b32_e32 v1, 0xff800000
	s_mov_b64 s[0:1], exec
.LBB0:
	s_waitcnt lgkmcnt(0)
	s_nop 0
	v_cmp_lt_i64_e64 s[10:11], v[2:3], s[4:5]
	s_and_b64 exec, exec, s[10:11]
	s_cbranch_execz .LBB1
	s_mul_i32 s10, s2, s4
	s_mul_hi_u32 s3, s2, s4
	s_mul_i32 s12, s5, s2
	s_add_u32 s13, s3, s12
	s_mov_b32 s11, s13
	v_lshl_add_u64 v[4:5], s[10:11], 0, v[2:3]
	v_lshl_add_u64 v[6:7], v[4:5], 2, s[6:7]
	global_load_dword v4, v[6:7], off
	s_waitcnt vmcnt(0)
	v_max_f32_e32 v5, v1, v4
	v_cmp_u_f32_e64 s[10:11], v1, v4
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v4, s3
	v_cndmask_b32_e64 v6, v5, v4, s[10:11]
	v_mov_b32_e32 v1, v6
	v_lshl_add_u64 v[4:5], v[2:3], 0, 64
	v_mov_b32_e32 v2, v4
	v_mov_b32_e32 v3, v5
	s_branch .LBB0
.LBB1:
	s_mov_b64 exec, s[0:1]
	v_lshlrev_b32_e32 v2, 2, v0
	ds_write_b32 v2, v1
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	v_mov_b32_e32 v1, 0
	ds_read_b32 v2, v1
	ds_read_b32 v3, v1 offset:4
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v2, v3
	v_cmp_u_f32_e64 s[0:1], v2, v3
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:8
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:12
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:16
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:20
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:24
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:28
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:32
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:36
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:40
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:44
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:48
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:52
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:56
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:60
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:64
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:68
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:72
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:76
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:80
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:84
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:88
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:92
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:96
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:100
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:104
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:108
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:112
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:116
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:120
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:124
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:128
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:132
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:136
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:140
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:144
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:148
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:152
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:156
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:160
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:164
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:168
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:172
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:176
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:180
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:184
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:188
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:192
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:196
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:200
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:204
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:208
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:212
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:216
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:220
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:224
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:228
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:232
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:236
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:240
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:244
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:248
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v4, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v4, v2, s[0:1]
	ds_read_b32 v2, v1 offset:252
	s_waitcnt lgkmcnt(0)
	v_max_f32_e32 v1, v3, v2
	v_cmp_u_f32_e64 s[0:1], v3, v2
	s_mov_b32 s3, 0x7fc00000
	v_mov_b32_e32 v2, s3
	v_cndmask_b32_e64 v3, v1, v2, s[0:1]
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	v_mov_b32_e32 v4, v0
	v_mov_b32_e32 v5, 0
	v_mov_b32_e32 v1, 0
	s_mov_b64 s[0:1], exec
.LBB2:
	s_nop 1
	v_cmp_lt_i64_e64 s[10:11], v[4:5], s[4:5]
	s_and_b64 exec, exec, s[10:11]
	s_cbranch_execz .LBB3
	s_mul_i32 s10, s2, s4
	s_mul_hi_u32 s3, s2, s4
	s_mul_i32 s12, s5, s2
	s_add_u32 s13, s3, s12
	s_mov_b32 s11, s13
	v_lshl_add_u64 v[6:7], s[10:11], 0, v[4:5]
	v_lshl_add_u64 v[8:9], v[6:7], 2, s[6:7]
	global_load_dword v2, v[8:9], off
	s_waitcnt vmcnt(0)
	v_sub_f32_e32 v6, v2, v3
	v_mul_f32_e32 v2, 0x3fb8aa3b, v6
	v_exp_f32_e32 v6, v2
	s_nop 0
	v_add_f32_e32 v2, v1, v6
	v_mov_b32_e32 v1, v2
	v_lshl_add_u64 v[6:7], v[4:5], 0, 64
	v_mov_b32_e32 v4, v6
	v_mov_b32_e32 v5, v7
	s_branch .LBB2
.LBB3:
	s_mov_b64 exec, s[0:1]
	v_lshlrev_b32_e32 v2, 2, v0
	ds_write_b32 v2, v1 offset:256
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	v_mov_b32_e32 v1, 0
	ds_read_b32 v2, v1 offset:256
	ds_read_b32 v4, v1 offset:260
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v2, v4
	ds_read_b32 v2, v1 offset:264
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:268
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:272
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:276
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:280
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:284
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:288
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:292
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:296
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:300
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:304
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:308
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:312
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:316
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:320
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:324
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:328
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:332
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:336
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:340
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:344
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:348
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:352
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:356
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:360
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:364
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:368
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:372
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:376
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:380
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:384
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:388
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:392
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:396
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:400
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:404
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:408
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:412
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:416
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:420
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:424
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:428
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:432
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:436
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:440
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:444
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:448
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:452
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:456
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:460
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:464
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:468
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:472
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:476
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:480
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:484
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:488
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:492
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:496
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:500
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v5, v4, v2
	ds_read_b32 v2, v1 offset:504
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v4, v5, v2
	ds_read_b32 v2, v1 offset:508
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v1, v4, v2
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	v_mov_b32_e32 v4, v0
	v_mov_b32_e32 v5, 0
	s_mov_b64 s[0:1], exec
.LBB4:
	s_nop 1
	v_cmp_lt_i64_e64 s[10:11], v[4:5], s[4:5]
	s_and_b64 exec, exec, s[10:11]
	s_cbranch_execz .LBB5
	s_mul_i32 s10, s2, s4
	s_mul_hi_u32 s3, s2, s4
	s_mul_i32 s12, s5, s2
	s_add_u32 s13, s3, s12
	s_mov_b32 s11, s13
	v_lshl_add_u64 v[6:7], s[10:11], 0, v[4:5]
	v_lshl_add_u64 v[8:9], v[6:7], 2, s[6:7]
	global_load_dword v0, v[8:9], off
	s_waitcnt vmcnt(0)
	v_sub_f32_e32 v2, v0, v3
	v_mul_f32_e32 v0, 0x3fb8aa3b, v2
	v_exp_f32_e32 v2, v0
	s_nop 0
	v_rcp_f32_e32 v0, v1
	s_nop 0
	v_mul_f32_e32 v6, v2, v0
	v_lshl_add_u64 v[8:9], s[10:11], 0, v[4:5]
	v_lshl_add_u64 v[10:11], v[8:9], 2, s[8:9]
	global_store_dword v[10:11], v6, off
	v_lshl_add_u64 v[6:7], v[4:5], 0, 64
	v_mov_b32_e32 v4, v6
	v_mov_b32_e32 v5, v7
	s_branch .LBB4
.LBB5:
	s_mov_b64 exec, s[0:1]
	s_endpgm
