// saxpy in "device-address" addressing: the block's buffer fields hold PhysicalStorageBuffer64
// addresses; no descriptor sets. Same block layout as saxpy.comp (48 bytes).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Floats { float v[]; };
layout(push_constant, std430) uniform Args {
  layout(offset = 0) Floats x;
  layout(offset = 8) uint64_t x_length;
  layout(offset = 16) Floats y;
  layout(offset = 24) uint64_t y_length;
  layout(offset = 32) float a;
  layout(offset = 40) int64_t n;
} args;
void main() {
  int64_t i = int64_t(gl_GlobalInvocationID.x);
  if (i < args.n) {
    precise float r = args.a * args.x.v[uint(i)] + args.y.v[uint(i)];
    args.y.v[uint(i)] = r;
  }
}
