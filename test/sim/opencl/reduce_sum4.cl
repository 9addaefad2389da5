#include "common.h"
/* Full i32 sum (wrapping) at bandwidth: a grid-stride loop over 8-element pairs of int4, the
 * tail by one element per work-item, a workgroup reduction in LDS, one atomic add per
 * workgroup (reduce_sum4.loom). The grid size comes from hidden_block_count_x. */
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void reduce_sum4(long n, __global const int *input, __global int *total) {
  __local int partial[256];
  long lane = LOCAL_ID_X();
  long first = GROUP_ID_X() * 256 + lane;
  long threads = BLOCK_COUNT_X() * 256;
  long pairs = n / 8;
  int acc = 0;
  for (long p = first; p < pairs; p += threads) {
    int4 u = *(__global const int4 *)(input + p * 8), v = *(__global const int4 *)(input + p * 8 + 4);
    int4 both = u + v;
    acc += both.x + both.y + both.z + both.w;
  }
  long tail = pairs * 8 + first;
  if (tail < n) acc += input[tail];
  partial[lane] = acc;
  WORKGROUP_BARRIER();
  for (int s = 128; s > 0; s >>= 1) {
    if (lane < s) partial[lane] += partial[lane + s];
    WORKGROUP_BARRIER();
  }
  if (lane == 0) __atomic_fetch_add(total, partial[0], __ATOMIC_RELAXED);
}
