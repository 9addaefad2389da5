// GLSL twin of examples/kernels/matmul16.loom: 16x16 tiles staged in shared memory.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant, std430) uniform Args { int64_t m; int64_t n; int64_t k; } args;
shared float a_tile[16][16];
shared float b_tile[16][16];
void main() {
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  int64_t row = int64_t(gl_WorkGroupID.y) * 16 + ty;
  int64_t col = int64_t(gl_WorkGroupID.x) * 16 + tx;
  bool row_ok = row < args.m, col_ok = col < args.n;
  float acc = 0.0;
  for (int64_t k0 = 0; k0 < args.k; k0 += 16) {
    a_tile[ty][tx] = row_ok ? a[uint(row * args.k + k0 + tx)] : 0.0;
    b_tile[ty][tx] = col_ok ? b[uint((k0 + ty) * args.n + col)] : 0.0;
    barrier();
    for (uint kk = 0; kk < 16; kk++) acc = fma(a_tile[ty][kk], b_tile[kk][tx], acc);
    barrier();
  }
  if (row_ok && col_ok) c[uint(row * args.n + col)] = acc;
}
