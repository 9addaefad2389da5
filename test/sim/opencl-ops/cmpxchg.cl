/* Compare-exchange as clang-19 emits it: on workgroup memory (ds_cmpstore / gfx9's ds_cmpst,
 * whose data operands are in the other order) and on 64-bit elements of workgroup and global
 * memory (ds_cmpstore_b64, global_atomic_cmpswap_b64 / _x2), each succeeding and failing.
 * test/sim/llvm-cmpxchg.test.ts runs it in the simulator against a JS reference. */
#include "../opencl/common.h"
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void cmpxchg(uint n, __global const uint *a, __global ulong *g, __global ulong *out) {
  __local uint l32[64];
  __local ulong l64[64];
  long t = LOCAL_ID_X();
  uint i = (uint)(GROUP_ID_X() * 64 + t);
  if (i >= n) return;
  uint x = a[i] * 2654435761u;
  ulong w = ((ulong)x << 32) | (x ^ 0x9e3779b9u);
  l32[t] = x;
  uint e = x;
  __atomic_compare_exchange_n(&l32[t], &e, x + 1, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  uint f = x;
  __atomic_compare_exchange_n(&l32[t], &f, 7u, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  l64[t] = w;
  ulong e64 = w;
  __atomic_compare_exchange_n(&l64[t], &e64, w + 0x100000001ul, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  ulong f64 = w;
  __atomic_compare_exchange_n(&l64[t], &f64, 5ul, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  ulong old = g[i];
  ulong ge = old;
  __atomic_compare_exchange_n(&g[i], &ge, old ^ w, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  ulong gf = old;
  __atomic_compare_exchange_n(&g[i], &gf, 3ul, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  out[4 * i] = ((ulong)f << 32) | l32[t];
  out[4 * i + 1] = f64;
  out[4 * i + 2] = l64[t];
  out[4 * i + 3] = gf;
}
