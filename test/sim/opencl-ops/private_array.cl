/* A private array indexed by run-time values: clang-19 keeps it in scratch (built with
 * -disable-promote-alloca-to-lds/-vector) and reads and writes it with scratch_load/store in
 * every addressing mode. test/sim/llvm-scratch.test.ts runs it in the simulator. */
#include "../opencl/common.h"
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void private_array(uint n, __global const uint *a, __global uint *out) {
  uint i = (uint)(GROUP_ID_X() * 64 + LOCAL_ID_X());
  if (i >= n) return;
  uint p[40];
  ulong q[8];
  uint x = a[i];
  for (uint k = 0; k < 40; k++) p[k] = x * (k + 1) + k;
  for (uint k = 0; k < 8; k++) q[k] = ((ulong)x << 32) * k + k;
  p[x % 40] += 1000;
  uint j = (x * 7) % 40;
  out[4 * i] = p[j];
  out[4 * i + 1] = p[(j + 13) % 40] ^ p[3] ^ p[n % 40];
  ulong w = q[x % 8] + q[(x + 5) % 8];
  out[4 * i + 2] = (uint)w;
  out[4 * i + 3] = (uint)(w >> 32);
}
