// The clang-19 anchor for ffn_gate_up.loom: gate and up dot products sharing the input
// loads (four per step), then the quadratic gate.
__kernel void ffn_gate_up(ulong tokens, ulong channels, ulong width, __global const float* restrict x, ulong x_length, __global const float* restrict wg, ulong wg_length,
                          __global const float* restrict wu, ulong wu_length, __global float* restrict y, ulong y_length) {
  size_t channel = (size_t)__builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  size_t token = __builtin_amdgcn_workgroup_id_y();
  if (channel >= channels) return;
  float gate = 0.0f, up = 0.0f;
  for (size_t k = 0; k < width; k += 4) {
    float x0 = x[token * width + k], x1 = x[token * width + k + 1], x2 = x[token * width + k + 2], x3 = x[token * width + k + 3];
    float gs = (x0 * wg[channel * width + k] + x1 * wg[channel * width + k + 1]) + (x2 * wg[channel * width + k + 2] + x3 * wg[channel * width + k + 3]);
    float us = (x0 * wu[channel * width + k] + x1 * wu[channel * width + k + 1]) + (x2 * wu[channel * width + k + 2] + x3 * wu[channel * width + k + 3]);
    gate += gs;
    up += us;
  }
  y[token * channels + channel] = gate * (0.5f + 0.25f * gate) * up;
}
