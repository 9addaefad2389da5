/* The instructions the AMDGPU back end selects for division, 64-bit bit counts and rotates,
 * round, fmod, copysign and compare-exchange, as clang-19 emits them: the simulator runs this
 * kernel and must reproduce test/sim/llvm-ops.test.ts's JS reference. */
#include "../opencl/common.h"
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void new_ops(uint n, __global const uint *a, __global const uint *b, __global uint *out) {
  uint i = (uint)(GROUP_ID_X() * 64 + LOCAL_ID_X());
  if (i >= n) return;
  uint x = a[i] * 16777619u, y = b[i] * 2654435761u, s = b[i] & 31;
  uint d = (y >> s) | 1;
  int sx = (int)x >> 1, sd = ((int)y >> s) | 1;
  ulong w = ((ulong)x << 32) | y;
  ulong wd = ((ulong)d << (b[i] & 7)) | 1;
  uint k = b[i] & 63;
  __global uint *o = out + 16 * i;
  o[0] = x / d;
  o[1] = x % d;
  o[2] = (uint)(sx / sd);
  o[3] = (uint)(sx % sd);
  o[4] = (uint)(w / wd);
  o[5] = (uint)(w % wd);
  o[6] = (uint)__builtin_popcountl(w);
  ulong z = a[i] < 512 ? 0 : w >> (a[i] & 63);
  o[7] = z == 0 ? 64 : (uint)__builtin_clzl(z);
  o[8] = z == 0 ? 64 : (uint)__builtin_ctzl(z);
  ulong r = (w << k) | (w >> ((64 - k) & 63));
  o[9] = (uint)r;
  o[10] = (uint)(r >> 32) ^ __builtin_amdgcn_alignbit(x, y, k);
  float f = (float)sx * 0x1p-20f, g = (float)((d >> 3) & 0x1fff) * 0x1p-4f + 1.0f;
  o[11] = as_uint(__builtin_roundf(f));
  o[12] = as_uint(__builtin_fmodf(f, g));
  o[13] = as_uint(__builtin_copysignf(g, f));
  o[14] = x;
  uint expected = (a[i] & 1) ? x : x + 1;
  __atomic_compare_exchange_n(&o[14], &expected, y, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  o[15] = expected;
}
