#include "common.h"
/* out = transpose(in) through a 64x64 LDS tile, 16x16 work-items (transpose32.loom): inner tiles
 * of matrices whose sizes are multiples of 4 move float4 pieces, the 16 pieces of tile row r
 * rotated by r/4 places; edge tiles move checked elements. */
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void transpose32(long rows, long cols, __global const float *input, __global float *output) {
  __local float tile[64][64];
  long tx = LOCAL_ID_X(), ty = LOCAL_ID_Y();
  long row0 = GROUP_ID_Y() * 64, col0 = GROUP_ID_X() * 64;
  long piece = tx * 4;
  if (row0 + 64 <= rows && col0 + 64 <= cols && rows % 4 == 0 && cols % 4 == 0) {
    for (long step = 0; step < 4; step++) {
      long r = step * 16 + ty;
      float4 x = *(__global const float4 *)(input + (row0 + r) * cols + col0 + piece);
      *(__local float4 *)&tile[r][((tx + r / 4) % 16) * 4] = x;
    }
    WORKGROUP_BARRIER();
    for (long step = 0; step < 4; step++) {
      long j = step * 16 + ty;
      long at = ((j / 4 + tx) % 16) * 4 + j % 4;
      float4 y = (float4)(tile[piece][at], tile[piece + 1][at], tile[piece + 2][at], tile[piece + 3][at]);
      *(__global float4 *)(output + (col0 + j) * rows + row0 + piece) = y;
    }
  } else {
    for (long step = 0; step < 4; step++) {
      long r = step * 16 + ty;
      for (long k = 0; k < 4; k++)
        if (row0 + r < rows && col0 + piece + k < cols) tile[r][piece + k] = input[(row0 + r) * cols + col0 + piece + k];
    }
    WORKGROUP_BARRIER();
    for (long step = 0; step < 4; step++) {
      long j = step * 16 + ty;
      for (long k = 0; k < 4; k++)
        if (col0 + j < cols && row0 + piece + k < rows) output[(col0 + j) * rows + row0 + piece + k] = tile[piece + k][j];
    }
  }
}
