prefix_sum:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	s_load_dwordx2 s[4:5], s[0:1], 0x8
	s_load_dwordx2 s[0:1], s[0:1], 0x18
	s_waitcnt lgkmcnt(0)
	s_add_u32 s6, s2, 0xff
	s_addc_u32 s7, s3, 0
	s_ashr_i64 s[8:9], s[6:7], 63
	s_lshr_b64 s[8:9], s[8:9], 56
	s_add_u32 s6, s6, s8
	s_addc_u32 s7, s7, s9
	s_ashr_i64 s[6:7], s[6:7], 8
	s_mov_b32 s8, 0
	s_mov_b32 s9, 0
	s_mov_b32 s10, 0
.LBB0:
	s_xor_b32 s11, s9, 0x80000000
	s_xor_b32 s12, s7, 0x80000000
	s_sub_u32 s13, s8, s6
	s_subb_u32 s11, s11, s12
	s_cbranch_scc0 .LBB9
	s_lshl_b64 s[12:13], s[8:9], 8
	v_mad_u64_u32 v[2:3], vcc, v0, 1, s[12:13]
	v_cmp_lt_u64_e64 s[12:13], v[2:3], s[2:3]
	v_lshl_add_u64 v[4:5], v[2:3], 2, s[4:5]
	s_and_saveexec_b64 s[14:15], s[12:13]
	s_cbranch_execz .LBB1
	global_load_dword v1, v[4:5], off
.LBB1:
	s_andn2_b64 exec, s[14:15], s[12:13]
	s_cbranch_execz .LBB2
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v1, 0
.LBB2:
	s_mov_b64 exec, s[14:15]
	v_lshlrev_b32_e32 v4, 2, v0
	s_waitcnt vmcnt(0)
	ds_write_b32 v4, v1
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	s_mov_b32 s11, 0
.LBB3:
	s_cmp_lt_u32 s11, 8
	s_cbranch_scc0 .LBB6
	s_mov_b64 s[14:15], 1
	s_lshl_b64 s[14:15], s[14:15], s11
	v_mov_b32_e32 v6, v0
	v_mov_b32_e32 v7, 0
	v_cmp_ge_u64_e64 s[16:17], v[6:7], s[14:15]
	s_and_saveexec_b64 s[18:19], s[16:17]
	s_cbranch_execz .LBB4
	v_mov_b32_e32 v1, s14
	v_mov_b32_e32 v5, s15
	v_sub_co_u32_e32 v6, vcc, v0, v1
	s_nop 1
	v_subb_co_u32_e32 v7, vcc, 0, v5, vcc
	v_lshlrev_b32_e32 v1, 2, v6
	ds_read_b32 v1, v1
.LBB4:
	s_andn2_b64 exec, s[18:19], s[16:17]
	s_cbranch_execz .LBB5
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v1, 0
.LBB5:
	s_mov_b64 exec, s[18:19]
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	ds_read_b32 v5, v4
	s_waitcnt lgkmcnt(0)
	v_add_u32_e32 v1, v5, v1
	ds_write_b32 v4, v1
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	s_add_u32 s11, s11, 1
	s_branch .LBB3
.LBB6:
	ds_read_b32 v1, v4
	s_waitcnt lgkmcnt(0)
	v_add_u32_e32 v1, s10, v1
	v_lshl_add_u64 v[2:3], v[2:3], 2, s[0:1]
	s_and_saveexec_b64 s[12:13], s[12:13]
	s_cbranch_execz .LBB7
	global_store_dword v[2:3], v1, off
.LBB7:
.LBB8:
	s_mov_b64 exec, s[12:13]
	v_mov_b32_e32 v1, 0
	ds_read_b32 v1, v1 offset:1020
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_barrier
	v_add_u32_e32 v1, s10, v1
	s_nop 0
	v_readfirstlane_b32 s10, v1
	s_add_u32 s8, s8, 1
	s_addc_u32 s9, s9, 0
	s_branch .LBB0
.LBB9:
	s_endpgm
