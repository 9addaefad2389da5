#include "common.h"
/* c = a + b, four elements per work-item with one vector access, else a scalar tail
 * (vector_add_tail.loom). No reqd_work_group_size: the group size comes from the hidden
 * argument hidden_group_size_x. */
__kernel void vector_add_tail(long n, __global const float *a, __global const float *b, __global float *c) {
  long i = GROUP_ID_X() * GROUP_SIZE_X() + LOCAL_ID_X();
  long first = i * 4;
  long end = first + 4;
  if (end <= n) {
    float4 x = *(__global const float4 *)(a + first);
    float4 y = *(__global const float4 *)(b + first);
    *(__global float4 *)(c + first) = x + y;
  } else {
    long stop = end < n ? end : n;
    for (long j = first < n ? first : n; j < stop; j++) c[j] = a[j] + b[j];
  }
}
