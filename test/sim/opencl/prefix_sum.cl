#include "common.h"
/* Inclusive i32 prefix sum (wrapping) by one workgroup: 256-element chunks, Hillis-Steele in LDS (prefix_sum.loom). */
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void prefix_sum(long n, __global const int *input, __global int *output) {
  __local int tile[256];
  long lane = LOCAL_ID_X();
  long chunks = (n + 255) / 256;
  int carry = 0;
  for (long chunk = 0; chunk < chunks; chunk++) {
    long i = chunk * 256 + lane;
    bool in_range = i < n;
    tile[lane] = in_range ? input[i] : 0;
    WORKGROUP_BARRIER();
    for (int level = 0; level < 8; level++) {
      long stride = 1L << level;
      int addend = lane >= stride ? tile[lane - stride] : 0;
      WORKGROUP_BARRIER();
      tile[lane] += addend;
      WORKGROUP_BARRIER();
    }
    if (in_range) output[i] = carry + tile[lane];
    int chunk_total = tile[255];
    WORKGROUP_BARRIER();
    carry += chunk_total;
  }
}
