/* 16-bit float instructions as clang-19 selects them: the simulator runs this kernel and must
 * reproduce test/sim/llvm-half.test.ts's JS reference (f16 add, mul, fma, compares and the
 * f32 <-> f16 conversions). */
#include "../opencl/common.h"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void half_ops(uint n, __global const half *a, __global const half *b, __global const float *f, __global half *out, __global float *wide) {
  uint i = (uint)(GROUP_ID_X() * 64 + LOCAL_ID_X());
  if (i >= n) return;
  half x = a[i], y = b[i];
  out[4 * i + 0] = x + y;
  out[4 * i + 1] = x * y;
  out[4 * i + 2] = fma(x, y, (half)-1.5h);
  out[4 * i + 3] = (half)f[i];
  wide[2 * i] = (float)x;
  wide[2 * i + 1] = x < y ? 1.0f : 2.0f;
}
