#include "common.h"
/* out = exp(x - max) / sum(exp(x - max)) per row, as row_softmax4.loom does it: one wave per
 * row (256 / wave size rows per workgroup, rows strided by all the waves launched), wave
 * reductions through ds_bpermute, no barrier. A row of a multiple of 4 columns that fits in
 * 8 float4 per lane is read once into registers (a slot past the row end loads the last
 * float4 and is left out of the sum; max with fmax, exp as exp2(x·log2 e − max·log2 e)); other
 * rows of float4 keep each lane's first float4 and run a pass of running (max, sum), then a
 * pass of stores; other row lengths take the same two passes one float at a time. */

/* IEEE maximum: NaN when either is NaN (fmax returns the other). */
static float maximum(float a, float b) {
  return __builtin_isnan(a) || __builtin_isnan(b) ? __builtin_nanf("") : __builtin_fmaxf(a, b);
}

static float wave_max_num(float v, int lane, int width) {
  for (int offset = width / 2; offset > 0; offset /= 2)
    v = __builtin_fmaxf(v, __builtin_bit_cast(float, __builtin_amdgcn_ds_bpermute((lane ^ offset) * 4, __builtin_bit_cast(int, v))));
  return v;
}

static float wave_maximum(float v, int lane, int width) {
  for (int offset = width / 2; offset > 0; offset /= 2)
    v = maximum(v, __builtin_bit_cast(float, __builtin_amdgcn_ds_bpermute((lane ^ offset) * 4, __builtin_bit_cast(int, v))));
  return v;
}

static float wave_sum(float v, int lane, int width) {
  for (int offset = width / 2; offset > 0; offset /= 2)
    v += __builtin_bit_cast(float, __builtin_amdgcn_ds_bpermute((lane ^ offset) * 4, __builtin_bit_cast(int, v)));
  return v;
}

static float4 exp4(float4 x) {
  return (float4)(__builtin_expf(x.x), __builtin_expf(x.y), __builtin_expf(x.z), __builtin_expf(x.w));
}

static float max4(float4 x, float acc) {
  return maximum(maximum(maximum(maximum(acc, x.x), x.y), x.z), x.w);
}

static float sum4(float4 x, float acc) {
  return acc + x.x + x.y + x.z + x.w;
}

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void row_softmax4(long rows, long cols, __global const float *input, __global float *output) {
  const float log2e = 1.44269504f;
  int width = __builtin_amdgcn_wavefrontsize();
  int lane = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
  long waves = 256 / width;
  long first_row = GROUP_ID_X() * waves + LOCAL_ID_X() / width;
  long row_stride = BLOCK_COUNT_X() * waves;
  int vectors = cols % 4 == 0;
  long cols4 = cols / 4 * 4;
  long first = (long)lane * 4, step4 = (long)width * 4;
  int has_first = first < cols4;
  int in_registers = vectors && cols4 <= step4 * 8 && cols4 != 0;
  long last = cols4 - 4;
  for (long row = first_row; row < rows; row += row_stride) {
    __global const float *in_row = input + row * cols;
    __global float *out_row = output + row * cols;
    if (in_registers) {
      float4 x[8], e[8];
      int ok[8];
      float m = -INFINITY;
#pragma unroll
      for (int s = 0; s < 8; s++) {
        long c = step4 * s + first;
        ok[s] = c < cols4;
        x[s] = *(__global const float4 *)(in_row + (c < last ? c : last));
      }
#pragma unroll
      for (int s = 0; s < 8; s++) m = __builtin_fmaxf(__builtin_fmaxf(__builtin_fmaxf(__builtin_fmaxf(m, x[s].x), x[s].y), x[s].z), x[s].w);
      float row_max = wave_max_num(m, lane, width);
      float bias = -(row_max * log2e);
      float sum = 0.0f;
#pragma unroll
      for (int s = 0; s < 8; s++) {
        float4 t = (float4)(__builtin_fmaf(x[s].x, log2e, bias), __builtin_fmaf(x[s].y, log2e, bias), __builtin_fmaf(x[s].z, log2e, bias), __builtin_fmaf(x[s].w, log2e, bias));
        e[s] = (float4)(__builtin_exp2f(t.x), __builtin_exp2f(t.y), __builtin_exp2f(t.z), __builtin_exp2f(t.w));
        float r = sum4(e[s], sum);
        sum = ok[s] ? r : sum;
      }
      float inverse = 1.0f / wave_sum(sum, lane, width);
#pragma unroll
      for (int s = 0; s < 8; s++)
        if (ok[s]) *(__global float4 *)(out_row + step4 * s + first) = e[s] * inverse;
    } else {
      float4 x0 = (float4)(-INFINITY);
      float lane_max = -INFINITY, lane_sum = 0.0f;
      if (vectors) {
        if (has_first) {
          x0 = *(__global const float4 *)(in_row + first);
          lane_max = max4(x0, -INFINITY);
          lane_sum = sum4(exp4(x0 - lane_max), 0.0f);
        }
        for (long c = first + step4; c < cols4; c += step4) {
          float4 x = *(__global const float4 *)(in_row + c);
          float m_new = max4(x, lane_max);
          float scaled = lane_sum * __builtin_expf(lane_max - m_new);
          lane_sum = sum4(exp4(x - m_new), scaled);
          lane_max = m_new;
        }
      } else {
        for (long c = lane; c < cols; c += width) {
          float x = in_row[c];
          float m_new = maximum(lane_max, x);
          lane_sum = lane_sum * __builtin_expf(lane_max - m_new) + __builtin_expf(x - m_new);
          lane_max = m_new;
        }
      }
      float row_max = wave_maximum(lane_max, lane, width);
      /* A lane that saw no element holds (-inf, 0): its rescaled sum is 0 · exp(-inf) = 0. */
      float inverse = 1.0f / wave_sum(lane_sum * __builtin_expf(lane_max - row_max), lane, width);
      if (vectors) {
        if (has_first) *(__global float4 *)(out_row + first) = exp4(x0 - row_max) * inverse;
        for (long c = first + step4; c < cols4; c += step4)
          *(__global float4 *)(out_row + c) = exp4(*(__global const float4 *)(in_row + c) - row_max) * inverse;
      } else {
        for (long c = lane; c < cols; c += width) out_row[c] = __builtin_expf(in_row[c] - row_max) * inverse;
      }
    }
  }
}
