// The clang-19 anchor for i32_chain16.loom: one load, sixteen dependent additions, one store
// (-nogpulib: ids come from the amdgcn builtins; workgroups of 64 as in the .loom launch).
__kernel void i32_chain16(ulong n, __global const int* restrict input, ulong input_length, __global int* restrict output, ulong output_length) {
  size_t i = (size_t)__builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  if (i >= n) return;
  int seed = input[i];
  int acc = seed;
#pragma unroll
  for (int step = 0; step < 16; step++) acc += seed;
  output[i] = acc;
}
