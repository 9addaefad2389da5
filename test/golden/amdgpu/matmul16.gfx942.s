matmul16:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dwordx2 s[6:7], s[0:1], 0x8
	s_load_dwordx2 s[8:9], s[0:1], 0x10
	s_load_dwordx2 s[10:11], s[0:1], 0x18
	s_load_dwordx2 s[12:13], s[0:1], 0x28
	s_load_dwordx2 s[0:1], s[0:1], 0x38
	v_and_b32_e32 v1, 0x3ff, v0
	v_bfe_u32 v0, v0, 10, 10
	s_mov_b32 s14, s3
	s_mov_b32 s15, 0
	s_lshl_b64 s[14:15], s[14:15], 4
	v_mad_u64_u32 v[2:3], vcc, v0, 1, s[14:15]
	s_mov_b32 s3, 0
	s_lshl_b64 s[2:3], s[2:3], 4
	v_mad_u64_u32 v[4:5], vcc, v1, 1, s[2:3]
	s_waitcnt lgkmcnt(0)
	v_cmp_lt_u64_e64 s[2:3], v[2:3], s[4:5]
	v_cmp_lt_u64_e64 s[4:5], v[4:5], s[6:7]
	s_mov_b32 s14, 0
	s_mov_b32 s15, 0
	v_mov_b32_e32 v6, 0
.LBB0:
	s_xor_b32 s16, s15, 0x80000000
	s_xor_b32 s17, s9, 0x80000000
	s_sub_u32 s18, s14, s8
	s_subb_u32 s16, s16, s17
	s_cbranch_scc0 .LBB5
	v_mad_u64_u32 v[8:9], vcc, v1, 1, s[14:15]
	v_mad_u64_u32 v[10:11], vcc, v0, 1, s[14:15]
	v_mad_u64_u32 v[12:13], vcc, v2, s8, 0
	v_mul_lo_u32 v7, v3, s8
	v_mul_lo_u32 v14, s9, v2
	v_add3_u32 v13, v13, v7, v14
	v_lshl_add_u64 v[8:9], v[12:13], 0, v[8:9]
	v_lshl_add_u64 v[8:9], v[8:9], 2, s[10:11]
	s_and_saveexec_b64 s[16:17], s[2:3]
	s_cbranch_execz .LBB1
	global_load_dword v7, v[8:9], off
.LBB1:
	s_andn2_b64 exec, s[16:17], s[2:3]
	s_cbranch_execz .LBB2
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v7, 0
.LBB2:
	s_mov_b64 exec, s[16:17]
	v_mad_u64_u32 v[8:9], vcc, v10, s6, 0
	v_mul_lo_u32 v11, v11, s6
	v_mul_lo_u32 v10, s7, v10
	v_add3_u32 v9, v9, v11, v10
	v_lshl_add_u64 v[8:9], v[8:9], 0, v[4:5]
	v_lshl_add_u64 v[8:9], v[8:9], 2, s[12:13]
	s_and_saveexec_b64 s[16:17], s[4:5]
	s_cbranch_execz .LBB3
	global_load_dword v8, v[8:9], off
.LBB3:
	s_andn2_b64 exec, s[16:17], s[4:5]
	s_cbranch_execz .LBB4
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v8, 0
.LBB4:
	s_mov_b64 exec, s[16:17]
	v_lshlrev_b32_e32 v9, 6, v0
	v_lshlrev_b32_e32 v10, 2, v1
	v_lshl_add_u32 v11, v0, 6, v10
	s_waitcnt vmcnt(0)
	ds_write_b32 v11, v7
	ds_write_b32 v11, v8 offset:1024
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	ds_read_b32 v7, v9
	ds_read_b32 v8, v10 offset:1024
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_read_b32 v7, v9 offset:4
	ds_read_b32 v8, v10 offset:1088
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_read_b32 v7, v9 offset:8
	ds_read_b32 v8, v10 offset:1152
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_read_b32 v7, v9 offset:12
	ds_read_b32 v8, v10 offset:1216
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_read_b32 v7, v9 offset:16
	ds_read_b32 v8, v10 offset:1280
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_read_b32 v7, v9 offset:20
	ds_read_b32 v8, v10 offset:1344
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_read_b32 v7, v9 offset:24
	ds_read_b32 v8, v10 offset:1408
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_read_b32 v7, v9 offset:28
	ds_read_b32 v8, v10 offset:1472
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_read_b32 v7, v9 offset:32
	ds_read_b32 v8, v10 offset:1536
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_read_b32 v7, v9 offset:36
	ds_read_b32 v8, v10 offset:1600
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_read_b32 v7, v9 offset:40
	ds_read_b32 v8, v10 offset:1664
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_read_b32 v7, v9 offset:44
	ds_read_b32 v8, v10 offset:1728
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_read_b32 v7, v9 offset:48
	ds_read_b32 v8, v10 offset:1792
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_read_b32 v7, v9 offset:52
	ds_read_b32 v8, v10 offset:1856
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_read_b32 v7, v9 offset:56
	ds_read_b32 v8, v10 offset:1920
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_read_b32 v7, v9 offset:60
	ds_read_b32 v8, v10 offset:1984
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	s_add_u32 s14, s14, 16
	s_addc_u32 s15, s15, 0
	s_branch .LBB0
.LBB5:
	s_and_b64 s[2:3], s[2:3], s[4:5]
	s_nop 0
	v_mad_u64_u32 v[0:1], vcc, v2, s6, 0
	v_mul_lo_u32 v3, v3, s6
	v_mul_lo_u32 v2, s7, v2
	v_add3_u32 v1, v1, v3, v2
	v_lshl_add_u64 v[0:1], v[0:1], 0, v[4:5]
	v_lshl_add_u64 v[0:1], v[0:1], 2, s[0:1]
	s_and_saveexec_b64 s[0:1], s[2:3]
	s_cbranch_execz .LBB6
	global_store_dword v[0:1], v6, off
.LBB6:
.LBB7:
	s_endpgm
