#include "common.h"
/* out = transpose(in) through a padded 32x33 LDS tile, 32x8 work-items, four rows each;
 * a tile wholly inside the matrix skips the per-element bound checks (transpose32.loom). */
__kernel __attribute__((reqd_work_group_size(32, 8, 1)))
void transpose32(long rows, long cols, __global const float *restrict input, __global float *restrict output) {
  __local float tile[32][33];
  long tx = LOCAL_ID_X(), ty = LOCAL_ID_Y();
  long bx = GROUP_ID_X(), by = GROUP_ID_Y();
  long c = bx * 32 + tx, out_c = by * 32 + tx;
  if (by * 32 + 32 <= rows && bx * 32 + 32 <= cols) {
    for (long step = 0; step < 4; step++) {
      long tile_row = step * 8 + ty, r = by * 32 + tile_row;
      tile[tile_row][tx] = input[r * cols + c];
    }
    WORKGROUP_BARRIER();
    for (long step = 0; step < 4; step++) {
      long tile_row = step * 8 + ty, out_r = bx * 32 + tile_row;
      output[out_r * rows + out_c] = tile[tx][tile_row];
    }
  } else {
    for (long step = 0; step < 4; step++) {
      long tile_row = step * 8 + ty, r = by * 32 + tile_row;
      if (r < rows && c < cols) tile[tile_row][tx] = input[r * cols + c];
    }
    WORKGROUP_BARRIER();
    for (long step = 0; step < 4; step++) {
      long tile_row = step * 8 + ty, out_r = bx * 32 + tile_row;
      if (out_r < cols && out_c < rows) output[out_r * rows + out_c] = tile[tx][tile_row];
    }
  }
}
