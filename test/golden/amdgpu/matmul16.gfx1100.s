matmul16:
	s_load_b64 s[2:3], s[0:1], 0x0
	s_load_b64 s[4:5], s[0:1], 0x8
	s_load_b64 s[6:7], s[0:1], 0x10
	s_load_b64 s[8:9], s[0:1], 0x18
	s_load_b64 s[10:11], s[0:1], 0x28
	s_load_b64 s[12:13], s[0:1], 0x38
	v_and_b32_e32 v1, 0x3ff, v0
	v_bfe_u32 v2, v0, 10, 10
	s_mov_b32 s0, s15
	s_mov_b32 s1, 0
	s_lshl_b64 s[16:17], s[0:1], 4
	v_mov_b32_e32 v0, 0
	v_add_co_u32 v3, vcc_lo, s16, v2
	v_add_co_ci_u32_e32 v4, vcc_lo, s17, v0, vcc_lo
	s_mov_b32 s0, s14
	s_mov_b32 s1, 0
	s_lshl_b64 s[14:15], s[0:1], 4
	v_mov_b32_e32 v0, 0
	v_add_co_u32 v5, vcc_lo, s14, v1
	v_add_co_ci_u32_e32 v6, vcc_lo, s15, v0, vcc_lo
	s_waitcnt lgkmcnt(0)
	v_cmp_lt_u64_e64 s0, v[3:4], s[2:3]
	v_cmp_lt_u64_e64 s1, v[5:6], s[4:5]
	s_mov_b32 s2, 0
	s_mov_b32 s3, 0
	v_mov_b32_e32 v0, 0
.LBB0:
	s_xor_b32 s14, s3, 0x80000000
	s_xor_b32 s15, s7, 0x80000000
	s_sub_u32 s16, s2, s6
	s_subb_u32 s16, s14, s15
	s_cbranch_scc0 .LBB5
	v_mov_b32_e32 v7, 0
	v_add_co_u32 v8, vcc_lo, s2, v1
	v_add_co_ci_u32_e32 v9, vcc_lo, s3, v7, vcc_lo
	v_mov_b32_e32 v7, 0
	v_add_co_u32 v10, vcc_lo, s2, v2
	v_add_co_ci_u32_e32 v11, vcc_lo, s3, v7, vcc_lo
	s_and_saveexec_b32 s14, s0
	s_cbranch_execz .LBB1
	v_mad_u64_u32 v[12:13], null, v3, s6, 0
	v_mul_lo_u32 v7, v4, s6
	v_mul_lo_u32 v14, s7, v3
	v_mov_b32_e32 v15, v12
	v_add3_u32 v16, v13, v7, v14
	v_add_co_u32 v12, vcc_lo, v15, v8
	v_add_co_ci_u32_e32 v13, vcc_lo, v16, v9, vcc_lo
	v_lshlrev_b64 v[7:8], 2, v[12:13]
	v_add_co_u32 v12, vcc_lo, s8, v7
	v_add_co_ci_u32_e32 v13, vcc_lo, s9, v8, vcc_lo
	global_load_b32 v7, v[12:13], off
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v8, v7
.LBB1:
	s_and_not1_b32 exec_lo, s14, s0
	s_cbranch_execz .LBB2
	v_mov_b32_e32 v8, 0
.LBB2:
	s_mov_b32 exec_lo, s14
	s_and_saveexec_b32 s14, s1
	s_cbranch_execz .LBB3
	v_mad_u64_u32 v[12:13], null, v10, s4, 0
	v_mul_lo_u32 v7, v11, s4
	v_mul_lo_u32 v9, s5, v10
	v_mov_b32_e32 v10, v12
	v_add3_u32 v11, v13, v7, v9
	v_add_co_u32 v12, vcc_lo, v10, v5
	v_add_co_ci_u32_e32 v13, vcc_lo, v11, v6, vcc_lo
	v_lshlrev_b64 v[9:10], 2, v[12:13]
	v_add_co_u32 v11, vcc_lo, s10, v9
	v_add_co_ci_u32_e32 v12, vcc_lo, s11, v10, vcc_lo
	global_load_b32 v7, v[11:12], off
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v9, v7
.LBB3:
	s_and_not1_b32 exec_lo, s14, s1
	s_cbranch_execz .LBB4
	v_mov_b32_e32 v9, 0
.LBB4:
	s_mov_b32 exec_lo, s14
	v_lshlrev_b32_e32 v7, 4, v2
	v_add_nc_u32_e32 v10, v7, v1
	v_lshlrev_b32_e32 v11, 2, v10
	ds_store_b32 v11, v8
	ds_store_b32 v11, v9 offset:1024
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	buffer_gl0_inv
	v_lshlrev_b32_e32 v8, 2, v7
	ds_load_b32 v7, v8
	v_lshlrev_b32_e32 v9, 2, v1
	ds_load_b32 v10, v9 offset:1024
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v11, v7, v10, v0
	ds_load_b32 v7, v8 offset:4
	ds_load_b32 v10, v9 offset:1088
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v12, v7, v10, v11
	ds_load_b32 v7, v8 offset:8
	ds_load_b32 v10, v9 offset:1152
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v11, v7, v10, v12
	ds_load_b32 v7, v8 offset:12
	ds_load_b32 v10, v9 offset:1216
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v12, v7, v10, v11
	ds_load_b32 v7, v8 offset:16
	ds_load_b32 v10, v9 offset:1280
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v11, v7, v10, v12
	ds_load_b32 v7, v8 offset:20
	ds_load_b32 v10, v9 offset:1344
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v12, v7, v10, v11
	ds_load_b32 v7, v8 offset:24
	ds_load_b32 v10, v9 offset:1408
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v11, v7, v10, v12
	ds_load_b32 v7, v8 offset:28
	ds_load_b32 v10, v9 offset:1472
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v12, v7, v10, v11
	ds_load_b32 v7, v8 offset:32
	ds_load_b32 v10, v9 offset:1536
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v11, v7, v10, v12
	ds_load_b32 v7, v8 offset:36
	ds_load_b32 v10, v9 offset:1600
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v12, v7, v10, v11
	ds_load_b32 v7, v8 offset:40
	ds_load_b32 v10, v9 offset:1664
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v11, v7, v10, v12
	ds_load_b32 v7, v8 offset:44
	ds_load_b32 v10, v9 offset:1728
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v12, v7, v10, v11
	ds_load_b32 v7, v8 offset:48
	ds_load_b32 v10, v9 offset:1792
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v11, v7, v10, v12
	ds_load_b32 v7, v8 offset:52
	ds_load_b32 v10, v9 offset:1856
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v12, v7, v10, v11
	ds_load_b32 v7, v8 offset:56
	ds_load_b32 v10, v9 offset:1920
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v11, v7, v10, v12
	ds_load_b32 v7, v8 offset:60
	ds_load_b32 v8, v9 offset:1984
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v0, v7, v8, v11
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	buffer_gl0_inv
	s_add_u32 s14, s2, 16
	s_addc_u32 s15, s3, 0
	s_mov_b32 s2, s14
	s_mov_b32 s3, s15
	s_branch .LBB0
.LBB5:
	s_and_b32 s14, s0, s1
	s_and_saveexec_b32 s0, s14
	s_cbranch_execz .LBB6
	v_mad_u64_u32 v[1:2], null, v3, s4, 0
	v_mul_lo_u32 v7, v4, s4
	v_mul_lo_u32 v8, s5, v3
	v_mov_b32_e32 v3, v1
	v_add3_u32 v4, v2, v7, v8
	v_add_co_u32 v1, vcc_lo, v3, v5
	v_add_co_ci_u32_e32 v2, vcc_lo, v4, v6, vcc_lo
	v_lshlrev_b64 v[3:4], 2, v[1:2]
	v_add_co_u32 v1, vcc_lo, s12, v3
	v_add_co_ci_u32_e32 v2, vcc_lo, s13, v4, vcc_lo
	global_store_b32 v[1:2], v0, off
.LBB6:
.LBB7:
	s_mov_b32 exec_lo, s0
	s_endpgm
