// The clang-19 anchor for i32_chain16.loom: one load, sixteen dependent additions, one store.
__kernel void i32_chain16(ulong n, __global const int* restrict input, ulong input_length, __global int* restrict output, ulong output_length) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  int seed = input[i];
  int acc = seed;
#pragma unroll
  for (int step = 0; step < 16; step++) acc += seed;
  output[i] = acc;
}
