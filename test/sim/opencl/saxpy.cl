#include "common.h"
/* y = alpha*x + y, one work-item per element (saxpy.loom). */
__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void saxpy(long n, float alpha, __global const float *x, __global float *y) {
  long i = GROUP_ID_X() * 128 + LOCAL_ID_X();
  if (i < n) y[i] = __builtin_fmaf(alpha, x[i], y[i]);
}
