#include "common.h"
/* out = transpose(in) through a padded 16x17 LDS tile (transpose_tile.loom). */
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void transpose_tile(long rows, long cols, __global const float *input, __global float *output) {
  __local float tile[16][17];
  long tx = LOCAL_ID_X(), ty = LOCAL_ID_Y();
  long bx = GROUP_ID_X(), by = GROUP_ID_Y();
  long r = by * 16 + ty, c = bx * 16 + tx;
  if (r < rows && c < cols) tile[ty][tx] = input[r * cols + c];
  WORKGROUP_BARRIER();
  long out_r = bx * 16 + ty, out_c = by * 16 + tx;
  if (out_r < cols && out_c < rows) output[out_r * rows + out_c] = tile[tx][ty];
}
