/* f64 division and square root as clang-19 expands them (v_div_scale/rcp/fma/fmas/fixup_f64,
 * v_rsq_f64 with its scaling and refinement): the simulator runs this kernel and must give
 * test/sim/llvm-f64-divide.test.ts the CPU's IEEE results. */
#include "../opencl/common.h"
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void double_divide(uint n, __global const double *a, __global const double *b, __global double *out) {
  uint i = (uint)(GROUP_ID_X() * 64 + LOCAL_ID_X());
  if (i >= n) return;
  double x = a[i], y = b[i];
  out[3 * i + 0] = x / y;
  out[3 * i + 1] = sqrt(x);
  out[3 * i + 2] = 1.0 / y;
}
