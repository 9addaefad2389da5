/* 8- and 16-bit integer memory as clang-19 selects it: sign- and zero-extending byte and
 * short loads (global and LDS) and truncating stores; the arithmetic is kept 32-bit (every
 * value is also stored as an int). The simulator runs this kernel and must reproduce
 * test/sim/llvm-narrow.test.ts's JS reference. */
#include "../opencl/common.h"
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void narrow_ops(uint n, __global const char *a, __global const uchar *b, __global const short *c, __global const ushort *d, __global char *bytes, __global short *shorts, __global int *ints) {
  __local char lb[64];
  __local short ls[64];
  uint t = LOCAL_ID_X();
  uint i = (uint)(GROUP_ID_X() * 64 + t);
  int x = i < n ? a[i] : 0, y = i < n ? b[i] : 0, z = i < n ? c[i] : 0, w = i < n ? d[i] : 0;
  lb[t] = (char)(x * 3 + 7);
  ls[t] = (short)(z * 5 - w);
  WORKGROUP_BARRIER();
  if (i >= n) return;
  int p = lb[63 - t], q = ls[63 - t];
  int u = x * 3 + 7, v = z * 5 - w;
  bytes[2 * i] = (char)u;
  bytes[2 * i + 1] = (char)(y + p);
  shorts[2 * i] = (short)v;
  shorts[2 * i + 1] = (short)(q ^ y);
  ints[6 * i] = x;
  ints[6 * i + 1] = y;
  ints[6 * i + 2] = z;
  ints[6 * i + 3] = w;
  ints[6 * i + 4] = u + p;
  ints[6 * i + 5] = v + q;
}
