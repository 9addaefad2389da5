#include "common.h"
/* Full i32 sum (wrapping): grid-stride loop, a wave reduction through ds_bpermute, one
 * atomic add per wave (reduce_sum.loom). The grid size comes from hidden_block_count_x. */
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void reduce_sum(long n, __global const int *input, __global int *total) {
  long first = GROUP_ID_X() * 256 + LOCAL_ID_X();
  long stride = BLOCK_COUNT_X() * 256;
  int acc = 0;
  for (long i = first; i < n; i += stride) acc += input[i];
  int width = __builtin_amdgcn_wavefrontsize();
  int lane = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
  for (int offset = width / 2; offset > 0; offset /= 2)
    acc += __builtin_amdgcn_ds_bpermute((lane ^ offset) * 4, acc);
  if (lane == 0) __atomic_fetch_add(total, acc, __ATOMIC_RELAXED);
}
