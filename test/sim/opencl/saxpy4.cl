#include "common.h"
/* y = alpha*x + y, four elements per work-item through float4, a scalar tail (saxpy4.loom). */
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void saxpy4(long n, float alpha, __global const float *x, __global float *y) {
  long first = (GROUP_ID_X() * 256 + LOCAL_ID_X()) * 4;
  if (first + 4 <= n) {
    float4 xs = *(__global const float4 *)(x + first), ys = *(__global float4 *)(y + first);
    *(__global float4 *)(y + first) = (float4)(__builtin_fmaf(alpha, xs.x, ys.x), __builtin_fmaf(alpha, xs.y, ys.y),
                                               __builtin_fmaf(alpha, xs.z, ys.z), __builtin_fmaf(alpha, xs.w, ys.w));
  } else {
    for (long j = first; j < n; j++) y[j] = __builtin_fmaf(alpha, x[j], y[j]);
  }
}
