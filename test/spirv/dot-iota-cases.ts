/**
 * Cases of test/spirv/kernels/dot_iota.loom with their plain-JS references. Inputs sit on a
 * 2⁻⁶ grid and the accumulators on a 2⁻¹² grid, so every partial sum of the 16-lane dot is
 * exact in f32: fused or unfused multiply-adds (Vulkan allows either) give the same bits.
 */
import type { KernelCase } from "../../src/harness/index.js";
import { random } from "../../src/harness/index.js";

export const LANES = 16;
export const SIZES = [0, 1, 33, 100] as const;
export const STEPS = [3, -7] as const;

function grid(count: number, seed: number, scale: number): Float32Array {
  const r = random(seed);
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = Math.round((r() * 2 - 1) * 4 * scale) / scale;
  return out;
}

/** acc = fma(a[i], b[i], acc) for i = 0..15 — exact here, so plain double arithmetic is the reference. */
export function dotReference(a: Float32Array, b: Float32Array, acc: Float32Array): Float32Array {
  return acc.map((init, row) => {
    let s = init;
    for (let l = 0; l < LANES; l++) s = Math.fround(a[row * LANES + l]! * b[row * LANES + l]! + s);
    return s;
  });
}

/** lane j of row i = 16·i + j·step, wrapped to i32. */
export function iotaReference(n: number, step: number): Int32Array {
  const out = new Int32Array(n * LANES);
  for (let i = 0; i < n; i++) for (let j = 0; j < LANES; j++) out[i * LANES + j] = (i * LANES + Math.imul(j, step)) | 0;
  return out;
}

export function dotIotaCase(n: number, step: number, seed: number): KernelCase {
  const a = grid(n * LANES, seed, 64);
  const b = grid(n * LANES, seed + 1, 64);
  const acc = grid(n, seed + 2, 4096);
  return {
    label: `n=${n} step=${step}`,
    workload: [n],
    args: [
      { kind: "scalar", name: "n", value: n },
      { kind: "scalar", name: "step", value: step },
      { kind: "buffer", name: "a", data: a },
      { kind: "buffer", name: "b", data: b },
      { kind: "buffer", name: "acc", data: acc },
      { kind: "buffer", name: "dots", data: new Float32Array(n) },
      { kind: "buffer", name: "lanes", data: new Int32Array(n * LANES) },
    ],
    bytesMoved: 4 * (3 * n * LANES + 2 * n),
    reference: () => ({
      dots: { values: dotReference(a, b, acc), compare: { kind: "exact" } },
      lanes: { values: iotaReference(n, step), compare: { kind: "exact" } },
    }),
  };
}

/** The lavapipe case set (test/runtime/vulkan/kernel-cases.ts): every size with every step. */
export const dotIotaCaseSet = {
  file: "test/spirv/kernels/dot_iota.loom",
  symbol: "dot_iota",
  cases: () => SIZES.flatMap((n) => STEPS.map((step) => dotIotaCase(n, step, 11))),
};
