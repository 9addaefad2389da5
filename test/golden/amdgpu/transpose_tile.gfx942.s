transpose_tile:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dwordx2 s[6:7], s[0:1], 0x8
	s_load_dwordx2 s[8:9], s[0:1], 0x10
	s_load_dwordx2 s[0:1], s[0:1], 0x20
	v_and_b32_e32 v1, 0x3ff, v0
	v_bfe_u32 v0, v0, 10, 10
	s_mov_b32 s10, s3
	s_mov_b32 s11, 0
	s_lshl_b64 s[10:11], s[10:11], 4
	v_mad_u64_u32 v[2:3], vcc, v0, 1, s[10:11]
	s_mov_b32 s3, 0
	s_lshl_b64 s[2:3], s[2:3], 4
	v_mad_u64_u32 v[4:5], vcc, v1, 1, s[2:3]
	s_waitcnt lgkmcnt(0)
	v_cmp_lt_u64_e64 s[12:13], v[2:3], s[4:5]
	v_cmp_lt_u64_e64 s[14:15], v[4:5], s[6:7]
	s_and_b64 s[12:13], s[12:13], s[14:15]
	v_mad_u64_u32 v[6:7], vcc, v2, s6, 0
	v_mul_lo_u32 v3, v3, s6
	v_mul_lo_u32 v2, s7, v2
	v_add3_u32 v7, v7, v3, v2
	v_lshl_add_u64 v[2:3], v[6:7], 0, v[4:5]
	v_lshl_add_u64 v[2:3], v[2:3], 2, s[8:9]
	v_mul_u32_u24_e32 v4, 0x44, v0
	v_lshl_add_u32 v4, v1, 2, v4
	s_and_saveexec_b64 s[8:9], s[12:13]
	s_cbranch_execz .LBB0
	global_load_dword v2, v[2:3], off
	s_waitcnt vmcnt(0)
	ds_write_b32 v4, v2
.LBB0:
.LBB1:
	s_mov_b64 exec, s[8:9]
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	v_mad_u64_u32 v[2:3], vcc, v0, 1, s[2:3]
	v_mad_u64_u32 v[4:5], vcc, v1, 1, s[10:11]
	v_cmp_lt_u64_e64 s[2:3], v[2:3], s[6:7]
	v_cmp_lt_u64_e64 s[6:7], v[4:5], s[4:5]
	s_and_b64 s[2:3], s[2:3], s[6:7]
	v_mul_u32_u24_e32 v1, 0x44, v1
	v_lshl_add_u32 v0, v0, 2, v1
	v_mad_u64_u32 v[6:7], vcc, v2, s4, 0
	v_mul_lo_u32 v1, v3, s4
	v_mul_lo_u32 v2, s5, v2
	v_add3_u32 v7, v7, v1, v2
	v_lshl_add_u64 v[2:3], v[6:7], 0, v[4:5]
	v_lshl_add_u64 v[2:3], v[2:3], 2, s[0:1]
	s_and_saveexec_b64 s[0:1], s[2:3]
	s_cbranch_execz .LBB2
	ds_read_b32 v0, v0
	s_waitcnt lgkmcnt(0)
	global_store_dword v[2:3], v0, off
.LBB2:
.LBB3:
	s_endpgm
