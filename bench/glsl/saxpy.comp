// GLSL twin of examples/kernels/saxpy.loom (the compile-latency anchor for glslangValidator).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant, std430) uniform Args {
  int64_t n;
  float alpha;
} args;
void main() {
  int64_t i = int64_t(gl_GlobalInvocationID.x);
  if (i < args.n) y[uint(i)] = fma(args.alpha, x[uint(i)], y[uint(i)]);
}
