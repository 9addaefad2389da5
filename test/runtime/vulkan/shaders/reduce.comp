// Per-workgroup sum through workgroup memory: partial[g] = sum of in[i] (or in[i]^2 when
// square = 1) over this group's 256 elements, modulo 2^32.
// ABI: in @0, partial @16 (buffers, bindings 0 and 1), n @32 (i32), square @36 (i1 = u32); 40 bytes.
#version 450
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Partial { uint partial[]; };
layout(push_constant, std430) uniform Args {
  layout(offset = 32) int n;
  layout(offset = 36) uint square;
} args;
shared uint scratch[256];
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint l = gl_LocalInvocationID.x;
  uint v = i < uint(args.n) ? data[i] : 0u;
  scratch[l] = args.square != 0u ? v * v : v;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (l < s) scratch[l] += scratch[l + s];
    barrier();
  }
  if (l == 0u) partial[gl_WorkGroupID.x] = scratch[0];
}
