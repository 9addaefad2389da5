matmul16:
	s_load_b64 s[2:3], s[0:1], 0x0
	s_load_b64 s[4:5], s[0:1], 0x8
	s_load_b64 s[6:7], s[0:1], 0x10
	s_load_b64 s[8:9], s[0:1], 0x18
	s_load_b64 s[10:11], s[0:1], 0x28
	s_load_b64 s[0:1], s[0:1], 0x38
	v_and_b32_e32 v1, 0x3ff, v0
	v_bfe_u32 v0, v0, 10, 10
	s_mov_b32 s12, s15
	s_mov_b32 s13, 0
	s_lshl_b64 s[12:13], s[12:13], 4
	v_mad_u64_u32 v[2:3], null, v0, 1, s[12:13]
	s_mov_b32 s12, s14
	s_mov_b32 s13, 0
	s_lshl_b64 s[12:13], s[12:13], 4
	v_mad_u64_u32 v[4:5], null, v1, 1, s[12:13]
	s_waitcnt lgkmcnt(0)
	v_cmp_lt_u64_e64 s2, v[2:3], s[2:3]
	v_cmp_lt_u64_e64 s3, v[4:5], s[4:5]
	s_mov_b32 s12, 0
	s_mov_b32 s13, 0
	v_mov_b32_e32 v6, 0
.LBB0:
	s_xor_b32 s14, s13, 0x80000000
	s_xor_b32 s15, s7, 0x80000000
	s_sub_u32 s16, s12, s6
	s_subb_u32 s14, s14, s15
	s_cbranch_scc0 .LBB5
	v_mad_u64_u32 v[7:8], null, v1, 1, s[12:13]
	v_mad_u64_u32 v[9:10], null, v0, 1, s[12:13]
	v_mad_u64_u32 v[11:12], null, v2, s6, 0
	v_mul_lo_u32 v13, v3, s6
	v_mul_lo_u32 v14, s7, v2
	v_add3_u32 v12, v12, v13, v14
	v_add_co_u32 v7, vcc_lo, v11, v7
	v_add_co_ci_u32_e32 v8, vcc_lo, v12, v8, vcc_lo
	v_lshlrev_b64 v[7:8], 2, v[7:8]
	v_add_co_u32 v7, vcc_lo, s8, v7
	v_add_co_ci_u32_e32 v8, vcc_lo, s9, v8, vcc_lo
	s_and_saveexec_b32 s14, s2
	s_cbranch_execz .LBB1
	global_load_b32 v7, v[7:8], off
.LBB1:
	s_and_not1_b32 exec_lo, s14, s2
	s_cbranch_execz .LBB2
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v7, 0
.LBB2:
	s_mov_b32 exec_lo, s14
	v_mad_u64_u32 v[11:12], null, v9, s4, 0
	v_mul_lo_u32 v8, v10, s4
	v_mul_lo_u32 v9, s5, v9
	v_add3_u32 v12, v12, v8, v9
	v_add_co_u32 v8, vcc_lo, v11, v4
	v_add_co_ci_u32_e32 v9, vcc_lo, v12, v5, vcc_lo
	v_lshlrev_b64 v[8:9], 2, v[8:9]
	v_add_co_u32 v8, vcc_lo, s10, v8
	v_add_co_ci_u32_e32 v9, vcc_lo, s11, v9, vcc_lo
	s_and_saveexec_b32 s14, s3
	s_cbranch_execz .LBB3
	global_load_b32 v8, v[8:9], off
.LBB3:
	s_and_not1_b32 exec_lo, s14, s3
	s_cbranch_execz .LBB4
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v8, 0
.LBB4:
	s_mov_b32 exec_lo, s14
	v_lshlrev_b32_e32 v9, 6, v0
	v_lshlrev_b32_e32 v10, 2, v1
	v_lshl_add_u32 v11, v0, 6, v10
	s_waitcnt vmcnt(0)
	ds_store_b32 v11, v7
	ds_store_b32 v11, v8 offset:1024
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	buffer_gl0_inv
	ds_load_b32 v7, v9
	ds_load_b32 v8, v10 offset:1024
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_load_b32 v7, v9 offset:4
	ds_load_b32 v8, v10 offset:1088
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_load_b32 v7, v9 offset:8
	ds_load_b32 v8, v10 offset:1152
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_load_b32 v7, v9 offset:12
	ds_load_b32 v8, v10 offset:1216
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_load_b32 v7, v9 offset:16
	ds_load_b32 v8, v10 offset:1280
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_load_b32 v7, v9 offset:20
	ds_load_b32 v8, v10 offset:1344
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_load_b32 v7, v9 offset:24
	ds_load_b32 v8, v10 offset:1408
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_load_b32 v7, v9 offset:28
	ds_load_b32 v8, v10 offset:1472
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_load_b32 v7, v9 offset:32
	ds_load_b32 v8, v10 offset:1536
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_load_b32 v7, v9 offset:36
	ds_load_b32 v8, v10 offset:1600
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_load_b32 v7, v9 offset:40
	ds_load_b32 v8, v10 offset:1664
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_load_b32 v7, v9 offset:44
	ds_load_b32 v8, v10 offset:1728
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_load_b32 v7, v9 offset:48
	ds_load_b32 v8, v10 offset:1792
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_load_b32 v7, v9 offset:52
	ds_load_b32 v8, v10 offset:1856
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_load_b32 v7, v9 offset:56
	ds_load_b32 v8, v10 offset:1920
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	ds_load_b32 v7, v9 offset:60
	ds_load_b32 v8, v10 offset:1984
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v6, v7, v8, v6
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_waitcnt_vscnt null, 0x0
	s_barrier
	buffer_gl0_inv
	s_add_u32 s12, s12, 16
	s_addc_u32 s13, s13, 0
	s_branch .LBB0
.LBB5:
	s_and_b32 s2, s2, s3
	v_mad_u64_u32 v[0:1], null, v2, s4, 0
	v_mul_lo_u32 v3, v3, s4
	v_mul_lo_u32 v2, s5, v2
	v_add3_u32 v1, v1, v3, v2
	v_add_co_u32 v0, vcc_lo, v0, v4
	v_add_co_ci_u32_e32 v1, vcc_lo, v1, v5, vcc_lo
	v_lshlrev_b64 v[0:1], 2, v[0:1]
	v_add_co_u32 v0, vcc_lo, s0, v0
	v_add_co_ci_u32_e32 v1, vcc_lo, s1, v1, vcc_lo
	s_and_saveexec_b32 s0, s2
	s_cbranch_execz .LBB6
	global_store_b32 v[0:1], v6, off
.LBB6:
.LBB7:
	s_endpgm
