/**
 * The case of test/cases/strided_attribute.loom: one workgroup of 16x8 invocations over a
 * 128-element f32 source, with a plain-JS reference that indexes the source by the strides the
 * view types state (docs/language.md §3), independently of any back end.
 */
import type { KernelCase } from "../../src/harness/index.js";

export const STRIDED_FILE = "test/cases/strided_attribute.loom";
export const STRIDED_SYMBOL = "strided_attribute";

/** Element `[indices]` of a view with `strides` over `data`. */
function at(data: Float32Array, strides: readonly number[], indices: readonly number[]): number {
  return data[indices.reduce((e, x, d) => e + x * strides[d]!, 0)]!;
}

export function stridedCase(seed: number): KernelCase {
  let s = seed >>> 0 || 1;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s);
  // Distinct, exactly representable values: any misplaced element shows.
  const src = Float32Array.from({ length: 128 }, (_, i) => i * 8 + (next() % 8) + 0.25);
  return {
    label: `seed=${seed}`,
    workload: [],
    args: [
      { kind: "buffer", name: "src", data: src },
      { kind: "buffer", name: "columns", data: new Float32Array(128) },
      { kind: "buffer", name: "broadcast", data: new Float32Array(32) },
      { kind: "buffer", name: "lanes", data: new Float32Array(32) },
      { kind: "buffer", name: "spread", data: new Float32Array(256) },
      { kind: "buffer", name: "tail", data: new Float32Array(64) },
    ],
    bytesMoved: 0,
    reference: () => {
      const columns = new Float32Array(128), broadcast = new Float32Array(32), lanes = new Float32Array(32), spread = new Float32Array(256), tail = new Float32Array(64);
      for (let ty = 0; ty < 8; ty++) {
        for (let tx = 0; tx < 16; tx++) {
          columns[ty * 16 + tx] = at(src, [1, 8], [ty, tx]);
          // The subview [1, 2, 0] of strides [0, 16, 1]: origin 1·0 + 2·16 elements.
          if (tx < 4) broadcast[ty * 4 + tx] = at(src, [0, 16, 1], [Math.floor(ty / 4) + 1, (ty % 4) + 2, tx]);
          spread[ty * 32 + tx * 2] = src[ty * 16 + tx]!;
        }
        for (let l = 0; l < 4; l++) lanes[ty * 4 + l] = at(src, [1, 8], [ty, 4 + l]);
        for (let l = 0; l < 4; l++) tail[ty * 8 + l] = at(src, [16, 1], [ty, 8 + l]);
      }
      const exact = { kind: "exact" } as const;
      return {
        columns: { values: columns, compare: exact },
        broadcast: { values: broadcast, compare: exact },
        lanes: { values: lanes, compare: exact },
        spread: { values: spread, compare: exact },
        tail: { values: tail, compare: exact },
      };
    },
  };
}

/** The lavapipe case set (test/runtime/vulkan/kernel-cases.ts). */
export const stridedCaseSet = { file: STRIDED_FILE, symbol: STRIDED_SYMBOL, cases: () => [3, 11].map(stridedCase) };
