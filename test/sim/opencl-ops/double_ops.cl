/* f64 instructions as clang-19 selects them: the simulator runs this kernel and must
 * reproduce test/sim/llvm-f64.test.ts's JS reference (f64 add, mul, fma, min/max, floor,
 * compares and the f32/i32 conversions). */
#include "../opencl/common.h"
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void double_ops(uint n, __global const double *a, __global const double *b, __global const float *f, __global double *out, __global int *ints) {
  uint i = (uint)(GROUP_ID_X() * 64 + LOCAL_ID_X());
  if (i >= n) return;
  double x = a[i], y = b[i];
  out[6 * i + 0] = x + y;
  out[6 * i + 1] = x * y;
  out[6 * i + 2] = fma(x, y, -0.7071067811865476);
  out[6 * i + 3] = (double)f[i] - x;
  out[6 * i + 4] = fmax(x, y);
  out[6 * i + 5] = floor(x * 1000.0);
  ints[3 * i + 0] = (int)(x * 1000.0);
  ints[3 * i + 1] = as_int((float)(x * y));
  ints[3 * i + 2] = x < y ? 1 : 2;
}
