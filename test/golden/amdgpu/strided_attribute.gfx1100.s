strided_attribute:
	s_load_b64 s[2:3], s[0:1], 0x0
	s_load_b64 s[4:5], s[0:1], 0x10
	s_load_b64 s[6:7], s[0:1], 0x20
	s_load_b64 s[8:9], s[0:1], 0x30
	s_load_b64 s[10:11], s[0:1], 0x40
	s_load_b64 s[0:1], s[0:1], 0x50
	v_and_b32_e32 v1, 0x3ff, v0
	v_bfe_u32 v0, v0, 10, 10
	v_lshl_add_u32 v2, v1, 3, v0
	v_lshlrev_b32_e32 v2, 2, v2
	s_waitcnt lgkmcnt(0)
	v_mad_u64_u32 v[3:4], null, v2, 1, s[2:3]
	global_load_b32 v2, v[3:4], off
	v_lshl_add_u32 v3, v0, 4, v1
	v_lshlrev_b32_e32 v3, 2, v3
	v_mad_u64_u32 v[4:5], null, v3, 1, s[4:5]
	s_waitcnt vmcnt(0)
	global_store_b32 v[4:5], v2, off
	s_add_u32 s4, s2, 0x80
	s_addc_u32 s5, s3, 0
	v_lshrrev_b32_e32 v2, 2, v0
	v_and_b32_e32 v4, 3, v0
	v_cmp_lt_u32_e64 s12, v1, 4
	v_lshl_add_u32 v5, v4, 4, v1
	v_lshlrev_b32_e32 v5, 2, v5
	v_mad_u64_u32 v[6:7], null, v5, 1, s[4:5]
	s_and_saveexec_b32 s4, s12
	s_cbranch_execz .LBB0
	global_load_b32 v5, v[6:7], off
	v_lshlrev_b32_e32 v4, 2, v4
	v_lshl_add_u32 v2, v2, 4, v4
	v_add_nc_u32_e32 v2, v2, v1
	v_lshlrev_b32_e32 v2, 2, v2
	v_mad_u64_u32 v[6:7], null, v2, 1, s[6:7]
	s_waitcnt vmcnt(0)
	global_store_b32 v[6:7], v5, off
.LBB0:
.LBB1:
	s_mov_b32 exec_lo, s4
	v_cmp_eq_u32_e64 s4, v1, 0
	v_lshlrev_b32_e32 v2, 2, v0
	v_mad_u64_u32 v[4:5], null, v2, 1, s[2:3]
	s_and_saveexec_b32 s4, s4
	s_cbranch_execz .LBB2
	global_load_b32 v2, v[4:5], off offset:128
	global_load_b32 v6, v[4:5], off offset:160
	global_load_b32 v7, v[4:5], off offset:192
	global_load_b32 v4, v[4:5], off offset:224
	s_waitcnt vmcnt(3)
	v_mov_b32_e32 v5, v2
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v8, v4
	v_lshlrev_b32_e32 v2, 4, v0
	v_mad_u64_u32 v[9:10], null, v2, 1, s[8:9]
	global_store_b128 v[9:10], v[5:8], off
	v_lshlrev_b32_e32 v2, 6, v0
	v_mad_u64_u32 v[4:5], null, v2, 1, s[2:3]
	global_load_b128 v[4:7], v[4:5], off offset:32
	v_lshlrev_b32_e32 v2, 5, v0
	v_mad_u64_u32 v[8:9], null, v2, 1, s[0:1]
	s_waitcnt vmcnt(0)
	global_store_b128 v[8:9], v[4:7], off
.LBB2:
.LBB3:
	s_mov_b32 exec_lo, s4
	v_mad_u64_u32 v[4:5], null, v3, 1, s[2:3]
	global_load_b32 v2, v[4:5], off
	v_lshlrev_b32_e32 v1, 1, v1
	v_lshl_add_u32 v0, v0, 5, v1
	v_lshlrev_b32_e32 v0, 2, v0
	v_mad_u64_u32 v[3:4], null, v0, 1, s[10:11]
	s_waitcnt vmcnt(0)
	global_store_b32 v[3:4], v2, off
	s_endpgm
