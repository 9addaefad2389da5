// saxpy(x: buffer, y: buffer, a: f32, n: index): y[i] = a * x[i] + y[i] for i < n.
// ABI (language.md §7, "bindings"): buffer k = set 0 binding k; the argument block is the
// push-constant block: x @0 (address, length), y @16, a @32 (f32), n @40 (i64); 48 bytes.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant, std430) uniform Args {
  layout(offset = 0) uint64_t x_address;
  layout(offset = 8) uint64_t x_length;
  layout(offset = 16) uint64_t y_address;
  layout(offset = 24) uint64_t y_length;
  layout(offset = 32) float a;
  layout(offset = 40) int64_t n;
} args;
void main() {
  int64_t i = int64_t(gl_GlobalInvocationID.x);
  if (i < args.n) {
    precise float r = args.a * x[uint(i)] + y[uint(i)];
    y[uint(i)] = r;
  }
}
