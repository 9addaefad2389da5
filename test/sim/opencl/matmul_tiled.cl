#include "common.h"
/* C = A·B (f32): a 16x16 workgroup computes a 128x128 block of C, each work-item an 8x8 block
 * (rows ty*4+{0..3} and 64+ty*4+{0..3}, columns likewise from tx), from 128x8 slices of A and
 * 8x128 slices of B staged in LDS, the next slices read into registers while the current ones
 * are used (matmul_tiled.loom; K is a multiple of 8, N of 4). */
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void matmul_tiled(long m, long n, long k, __global const float *a, __global const float *b, __global float *c) {
  __local float as[8][128];
  __local float bs[8][128];
  long tx = LOCAL_ID_X(), ty = LOCAL_ID_Y();
  int tid32 = (int)(ty * 16 + tx);
  /* Hides the id's small range, so clang keeps 32-bit index math (no 16-bit VALU ops). */
  __asm__ volatile("" : "+v"(tid32));
  long tid = tid32;
  long row0 = GROUP_ID_Y() * 128, col0 = GROUP_ID_X() * 128;
  float acc[8][8];
  for (long i = 0; i < 8; i++)
    for (long j = 0; j < 8; j++) acc[i][j] = 0.0f;
  /* Each work-item stages 4 elements of each slice; the next slice's are read before the FMAs. */
  float pa[4], pb[4];
  for (long i = 0; i < 4; i++) {
    long e = tid + 256 * i, r = e / 8, kk = e % 8, kr = e / 128, cc = e % 128;
    pa[i] = k > 0 && row0 + r < m ? a[(row0 + r) * k + kk] : 0.0f;
    pb[i] = k > 0 && col0 + cc < n ? b[kr * n + col0 + cc] : 0.0f;
  }
  for (long k0 = 0; k0 < k; k0 += 8) {
    long kn = k0 + 8 < k ? k0 + 8 : k0;
    for (long i = 0; i < 4; i++) {
      long e = tid + 256 * i, r = e / 8, kk = e % 8, kr = e / 128, cc = e % 128;
      as[kk][r] = pa[i];
      bs[kr][cc] = pb[i];
    }
    WORKGROUP_BARRIER();
    for (long i = 0; i < 4; i++) {
      long e = tid + 256 * i, r = e / 8, kk = e % 8, kr = e / 128, cc = e % 128;
      pa[i] = row0 + r < m ? a[(row0 + r) * k + kn + kk] : 0.0f;
      pb[i] = col0 + cc < n ? b[(kn + kr) * n + col0 + cc] : 0.0f;
    }
    for (long kk = 0; kk < 8; kk++)
      for (long i = 0; i < 8; i++) {
        float av = as[kk][(i < 4 ? 0 : 64) + ty * 4 + (i & 3)];
        for (long j = 0; j < 8; j++) acc[i][j] = __builtin_fmaf(av, bs[kk][(j < 4 ? 0 : 64) + tx * 4 + (j & 3)], acc[i][j]);
      }
    WORKGROUP_BARRIER();
  }
  for (long i = 0; i < 8; i++) {
    long r = row0 + (i < 4 ? 0 : 64) + ty * 4 + (i & 3);
    for (long j = 0; j < 8; j++) {
      long col = col0 + (j < 4 ? 0 : 64) + tx * 4 + (j & 3);
      if (r < m && col < n) c[r * n + col] = acc[i][j];
    }
  }
}
