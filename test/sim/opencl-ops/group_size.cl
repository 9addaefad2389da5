/* A kernel for any workgroup size: clang-19 reads the launched size from the code object v5
 * hidden arguments hidden_group_size_x/y/z (u16 at +12, +14, +16 of the hidden block).
 * test/sim/llvm-hidden.test.ts launches it with several sizes in the simulator. */
#include "../opencl/common.h"
#define GROUP_SIZE_Y() ((long)((__constant ushort *)__builtin_amdgcn_implicitarg_ptr())[7])
#define GROUP_SIZE_Z() ((long)((__constant ushort *)__builtin_amdgcn_implicitarg_ptr())[8])
__kernel void group_size(uint n, __global uint *out) {
  long sx = GROUP_SIZE_X(), sy = GROUP_SIZE_Y(), sz = GROUP_SIZE_Z();
  long x = GROUP_ID_X() * sx + LOCAL_ID_X();
  long y = LOCAL_ID_Y();
  long z = (long)__builtin_amdgcn_workitem_id_z();
  if (x >= n) return;
  long slot = (x * sy + y) * sz + z;
  out[4 * slot] = (uint)sx;
  out[4 * slot + 1] = (uint)sy;
  out[4 * slot + 2] = (uint)sz;
  out[4 * slot + 3] = (uint)(x + 1000 * y + 100000 * z);
}
