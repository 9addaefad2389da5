// out[i] = subgroupAdd(1) (the number of active invocations in i's subgroup), out[n + i] =
// gl_SubgroupSize: with full subgroups the two agree for every invocation.
// ABI: out @0 (buffer, binding 0); 16 bytes. Every invocation of the 64-wide group is active.
#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uint data[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint n = gl_NumWorkGroups.x * 64u;
  data[i] = subgroupAdd(1u);
  data[n + i] = gl_SubgroupSize;
}
