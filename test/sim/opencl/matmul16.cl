#include "common.h"
/* C = A*B with 16x16 tiles in LDS; k a multiple of 16 (matmul16.loom). */
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void matmul16(long m, long n, long k, __global const float *a, __global const float *b, __global float *c) {
  __local float a_tile[16][16];
  __local float b_tile[16][16];
  long tx = LOCAL_ID_X(), ty = LOCAL_ID_Y();
  long row = GROUP_ID_Y() * 16 + ty;
  long col = GROUP_ID_X() * 16 + tx;
  bool row_ok = row < m, col_ok = col < n;
  float sum = 0.0f;
  for (long k0 = 0; k0 < k; k0 += 16) {
    a_tile[ty][tx] = row_ok ? a[row * k + k0 + tx] : 0.0f;
    b_tile[ty][tx] = col_ok ? b[(k0 + ty) * n + col] : 0.0f;
    WORKGROUP_BARRIER();
#pragma unroll
    for (int kk = 0; kk < 16; kk++) sum = __builtin_fmaf(a_tile[ty][kk], b_tile[kk][tx], sum);
    WORKGROUP_BARRIER();
  }
  if (row_ok && col_ok) c[row * n + col] = sum;
}
