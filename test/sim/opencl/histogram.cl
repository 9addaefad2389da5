#include "common.h"
/* 256-bin histogram of low bytes: LDS bins with local atomics, then global atomics (histogram.loom). */
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void histogram(long n, __global const int *values, __global int *bins) {
  __local int local_bins[256];
  long lane = LOCAL_ID_X();
  long i = GROUP_ID_X() * 256 + lane;
  local_bins[lane] = 0;
  WORKGROUP_BARRIER();
  if (i < n) __atomic_fetch_add(&local_bins[values[i] & 255], 1, __ATOMIC_RELAXED);
  WORKGROUP_BARRIER();
  __atomic_fetch_add(&bins[lane], local_bins[lane], __ATOMIC_RELAXED);
}
