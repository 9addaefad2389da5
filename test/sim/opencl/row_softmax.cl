#include "common.h"
/* One workgroup of 64 per row: out = exp(x - max) / sum(exp(x - max)) (row_softmax.loom). */
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void row_softmax(long rows, long cols, __global const float *input, __global float *output) {
  __local float scratch[64];
  long row = GROUP_ID_X();
  long lane = LOCAL_ID_X();
  __global const float *in_row = input + row * cols;
  __global float *out_row = output + row * cols;
  float m = -INFINITY;
  for (long c = lane; c < cols; c += 64) m = __builtin_fmaxf(m, in_row[c]);
  scratch[lane] = m;
  WORKGROUP_BARRIER();
  for (int s = 32; s > 0; s >>= 1) {
    if (lane < s) scratch[lane] = __builtin_fmaxf(scratch[lane], scratch[lane + s]);
    WORKGROUP_BARRIER();
  }
  float row_max = scratch[0];
  WORKGROUP_BARRIER();
  float sum = 0.0f;
  for (long c = lane; c < cols; c += 64) sum += __builtin_expf(in_row[c] - row_max);
  scratch[lane] = sum;
  WORKGROUP_BARRIER();
  for (int s = 32; s > 0; s >>= 1) {
    if (lane < s) scratch[lane] = scratch[lane] + scratch[lane + s];
    WORKGROUP_BARRIER();
  }
  float row_sum = scratch[0];
  for (long c = lane; c < cols; c += 64) out_row[c] = __builtin_expf(in_row[c] - row_max) / row_sum;
}
