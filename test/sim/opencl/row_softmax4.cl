#include "common.h"
/* Eight rows per workgroup of 256, one after the other: out = exp(x - max) / sum(exp(x - max)),
 * reductions in LDS (row_softmax4.loom covers the same rows per workgroup with one subgroup per
 * row, subgroup reductions and 16-byte vectors). */
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void row_softmax4(long rows, long cols, __global const float *input, __global float *output) {
  __local float scratch[256];
  long lane = LOCAL_ID_X();
  for (long r = 0; r < 8; r++) {
  long row = GROUP_ID_X() * 8 + r;
  if (row >= rows) break;
  __global const float *in_row = input + row * cols;
  __global float *out_row = output + row * cols;
  float m = -INFINITY;
  for (long c = lane; c < cols; c += 256) m = __builtin_fmaxf(m, in_row[c]);
  scratch[lane] = m;
  WORKGROUP_BARRIER();
  for (int s = 128; s > 0; s >>= 1) {
    if (lane < s) scratch[lane] = __builtin_fmaxf(scratch[lane], scratch[lane + s]);
    WORKGROUP_BARRIER();
  }
  float row_max = scratch[0];
  WORKGROUP_BARRIER();
  float sum = 0.0f;
  for (long c = lane; c < cols; c += 256) sum += __builtin_expf(in_row[c] - row_max);
  scratch[lane] = sum;
  WORKGROUP_BARRIER();
  for (int s = 128; s > 0; s >>= 1) {
    if (lane < s) scratch[lane] = scratch[lane] + scratch[lane + s];
    WORKGROUP_BARRIER();
  }
  float inverse = 1.0f / scratch[0];
  for (long c = lane; c < cols; c += 256) out_row[c] = __builtin_expf(in_row[c] - row_max) * inverse;
  WORKGROUP_BARRIER();
  }
}
