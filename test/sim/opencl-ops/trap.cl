/* llvm.trap as clang-19 emits it (s_trap 2 behind a divergent branch; on gfx11 followed by
 * the halt sequence for a missing trap handler): test/amdgpu/assert.test.ts runs it in the
 * simulator, which must stop the dispatch at the trap exactly when an input is over 5. */
#include "../opencl/common.h"
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void trap(uint n, __global const uint *a, __global uint *out) {
  uint i = (uint)(GROUP_ID_X() * 64 + LOCAL_ID_X());
  if (i >= n) return;
  if (a[i] > 5u) __builtin_trap();
  out[i] = a[i] + 1;
}
