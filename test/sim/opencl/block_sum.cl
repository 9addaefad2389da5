#include "common.h"
/* Per-workgroup sums of 256 floats by a tree in LDS (block_sum.loom). */
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void block_sum(long n, __global const float *input, __global float *partials) {
  __local float tile[256];
  long group = GROUP_ID_X();
  long lane = LOCAL_ID_X();
  long i = group * 256 + lane;
  tile[lane] = i < n ? input[i] : 0.0f;
  WORKGROUP_BARRIER();
  for (int level = 0; level < 8; level++) {
    long stride = 128 >> level;
    if (lane < stride) tile[lane] = tile[lane] + tile[lane + stride];
    WORKGROUP_BARRIER();
  }
  if (lane == 0) partials[group] = tile[0];
}
