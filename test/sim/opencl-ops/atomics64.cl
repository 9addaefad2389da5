/* 64-bit read-modify-write atomics as clang-19 emits them: on workgroup memory with and
 * without return (ds_add_rtn_u64, ds_min_rtn_i64, ds_and_b64, ...), exchanges on workgroup
 * memory (ds_storexchg_rtn_b32/b64, gfx9's ds_wrxchg_rtn) and on global memory
 * (global_atomic_add_u64 / _add_x2 on gfx9), on an element of each invocation's own and on
 * counters all invocations share. test/sim/llvm-atomics64.test.ts runs it in the simulator
 * against a JS reference. */
#include "../opencl/common.h"
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void atomics64(uint n, __global const uint *a, __global ulong *g, __global ulong *total, __global ulong *out) {
  __local ulong l64[64];
  __local ulong lsum;
  __local uint l32[64];
  long t = LOCAL_ID_X();
  uint i = (uint)(GROUP_ID_X() * 64 + t);
  if (t == 0) lsum = 0;
  WORKGROUP_BARRIER();
  if (i < n) {
    uint x = a[i] * 2654435761u;
    ulong w = ((ulong)x << 32) | (x ^ 0x9e3779b9u);
    l64[t] = w;
    ulong r0 = __atomic_fetch_add(&l64[t], (ulong)x << 16, __ATOMIC_RELAXED);
    ulong r1 = __atomic_fetch_xor(&l64[t], w >> 3, __ATOMIC_RELAXED);
    long r2 = __atomic_fetch_min((__local long *)&l64[t], (long)(w * 3), __ATOMIC_RELAXED);
    ulong r3 = __atomic_fetch_max(&l64[t], w ^ 0xfffful, __ATOMIC_RELAXED);
    __atomic_fetch_and(&l64[t], ~0xf0ul, __ATOMIC_RELAXED);
    __atomic_fetch_or(&l64[t], 3ul, __ATOMIC_RELAXED);
    __atomic_fetch_sub(&l64[t], 5ul, __ATOMIC_RELAXED);
    ulong r5 = __atomic_exchange_n(&l64[t], w + 7, __ATOMIC_RELAXED);
    l32[t] = x;
    uint r6 = __atomic_exchange_n(&l32[t], x ^ 0x55u, __ATOMIC_RELAXED);
    __atomic_fetch_add(&lsum, (ulong)x, __ATOMIC_RELAXED);
    ulong r4 = __atomic_fetch_add(&g[i], w, __ATOMIC_RELAXED);
    __atomic_fetch_add(&total[0], (ulong)x, __ATOMIC_RELAXED);
    out[8 * i] = r0;
    out[8 * i + 1] = r1;
    out[8 * i + 2] = (ulong)r2;
    out[8 * i + 3] = r3;
    out[8 * i + 4] = r5;
    out[8 * i + 5] = l64[t];
    out[8 * i + 6] = r4;
    out[8 * i + 7] = ((ulong)r6 << 32) | l32[t];
  }
  WORKGROUP_BARRIER();
  if (t == 0) __atomic_fetch_add(&total[1], lsum, __ATOMIC_RELAXED);
}
