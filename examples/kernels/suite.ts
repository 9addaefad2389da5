/**
 * The kernel suite manifest: for each kernel of examples/kernels, the shapes it runs at, how
 * to build its inputs and device arguments from a shape, which buffers are outputs, how they
 * are compared, and a plain-JS reference (docs/kernels.md). `loom run`, bench/vulkan-suite.ts
 * and test/e2e read it; the reference interpreter is the second, independent reference.
 *
 * Inputs are seeded and deterministic. Float inputs sit on a 2⁻¹² grid in [-4, 4), so sums
 * and dot products of a few thousand of them are exact in f32 whatever the association; the
 * stated bounds still allow what Vulkan permits (unfused fma, reassociated reductions, exp).
 */
import type { CaseShape, ExpectedOutput, HostArray, KernelCase, SuiteKernel } from "../../src/harness/index.js";
import { random } from "../../src/harness/index.js";

const ceilDiv = (a: number, b: number): number => Math.ceil(a / b);

/** Floats on a 2⁻¹² grid in [-range, range) (plain loops: bench sizes reach 2²⁸). */
function floats(count: number, seed: number, range = 4): Float32Array {
  const r = random(seed);
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = Math.round((r() * 2 - 1) * range * 4096) / 4096;
  return out;
}

/** Any 32-bit pattern (as i32). */
function words(count: number, seed: number): Int32Array {
  const r = random(seed);
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++) out[i] = (r() * 2 ** 32) | 0;
  return out;
}

const exact = { kind: "exact" } as const;
const oneD = (ns: readonly number[]): CaseShape[] => ns.map((n) => ({ workload: [n] }));

/** Sizes of the one-dimensional kernels: 0, 1, primes, non-multiples of every workgroup size. */
const TEST_1D = oneD([0, 1, 2, 7, 97, 127, 128, 255, 257, 1000, 4099, 65537]);
const QUICK_1D = oneD([0, 1, 257, 4099]);

function f32Out(values: Float32Array, epsilons: number, magnitude?: ArrayLike<number>, absolute?: number): ExpectedOutput {
  return { values, compare: { kind: "float", epsilons, ...(absolute !== undefined ? { absolute } : {}) }, ...(magnitude ? { magnitude } : {}) };
}

function intOut(values: HostArray): ExpectedOutput {
  return { values, compare: exact };
}

const saxpy: SuiteKernel = {
  file: "saxpy.loom",
  symbol: "saxpy",
  summary: "y = alpha·x + y (f32), one invocation per element",
  sizeNames: [],
  shapes: { test: TEST_1D, quick: QUICK_1D, bench: oneD([1 << 20, 1 << 24, 1 << 28]) },
  build({ workload: [n = 0] }, seed): KernelCase {
    const alpha = 2.5;
    const x = floats(n, seed);
    const y = floats(n, seed + 1);
    return {
      label: `n=${n}`,
      workload: [n],
      args: [
        { kind: "scalar", name: "n", value: n },
        { kind: "scalar", name: "alpha", value: alpha },
        { kind: "buffer", name: "x", data: x },
        { kind: "buffer", name: "y", data: y },
      ],
      bytesMoved: 3 * 4 * n,
      reference: () => ({
        // fma or mul-then-add (Vulkan allows either): 2 ε of |alpha·x| + |y|.
        y: f32Out(
          y.map((yi, i) => Math.fround(alpha * x[i]! + yi)),
          2,
          y.map((yi, i) => Math.abs(alpha * x[i]!) + Math.abs(yi)),
        ),
      }),
    };
  },
};

/** saxpy4: saxpy's cases and reference; four elements per invocation through 16-byte vectors. */
const saxpy4: SuiteKernel = {
  ...saxpy,
  file: "saxpy4.loom",
  symbol: "saxpy4",
  summary: "y = alpha·x + y (f32), four elements per invocation (16-byte vectors), 256 per workgroup",
};

const vectorAddTail: SuiteKernel = {
  file: "vector_add_tail.loom",
  symbol: "vector_add_tail",
  summary: "c = a + b (f32), four elements per invocation, scalar tail",
  sizeNames: [],
  shapes: { test: TEST_1D, quick: QUICK_1D, bench: oneD([1 << 20, 1 << 24]) },
  build({ workload: [n = 0] }, seed): KernelCase {
    const a = floats(n, seed);
    const b = floats(n, seed + 1);
    return {
      label: `n=${n}`,
      workload: [n],
      args: [
        { kind: "scalar", name: "n", value: n },
        { kind: "buffer", name: "a", data: a },
        { kind: "buffer", name: "b", data: b },
        { kind: "buffer", name: "c", data: new Float32Array(n) },
      ],
      bytesMoved: 3 * 4 * n,
      // One correctly rounded add per element (Vulkan's OpFAdd is exact-rounded): no slack.
      reference: () => ({ c: f32Out(a.map((ai, i) => Math.fround(ai + b[i]!)), 0) }),
    };
  },
};

const blockSum: SuiteKernel = {
  file: "block_sum.loom",
  symbol: "block_sum",
  summary: "per-workgroup sums of 256 f32 (tree in workgroup memory, barriers)",
  sizeNames: [],
  shapes: { test: TEST_1D, quick: QUICK_1D, bench: oneD([1 << 20, 1 << 24]) },
  build({ workload: [n = 0] }, seed): KernelCase {
    const input = floats(n, seed);
    const groups = ceilDiv(n, 256);
    return {
      label: `n=${n}`,
      workload: [n],
      args: [
        { kind: "scalar", name: "n", value: n },
        { kind: "buffer", name: "input", data: input },
        { kind: "buffer", name: "partials", data: new Float32Array(groups) },
      ],
      bytesMoved: 4 * n + 4 * groups,
      reference: () => {
        const sums = new Float64Array(groups);
        const mags = new Float64Array(groups);
        input.forEach((v, i) => {
          sums[i >> 8]! += v;
          mags[i >> 8]! += Math.abs(v);
        });
        // Any association of 256 terms: 8 ε (tree depth) of Σ|x|.
        return { partials: f32Out(Float32Array.from(sums), 8, mags) };
      },
    };
  },
};

const reduceSum: SuiteKernel = {
  file: "reduce_sum.loom",
  symbol: "reduce_sum",
  summary: "full i32 sum (wrapping): grid-stride loop, subgroup reduce, one atomic per subgroup",
  sizeNames: [],
  shapes: { test: TEST_1D, quick: QUICK_1D, bench: oneD([1 << 20, 1 << 26]) },
  build({ workload: [n = 0] }, seed): KernelCase {
    const input = words(n, seed);
    return {
      label: `n=${n}`,
      workload: [n],
      args: [
        { kind: "scalar", name: "n", value: n },
        { kind: "buffer", name: "input", data: input },
        { kind: "buffer", name: "total", data: new Int32Array(1) },
      ],
      bytesMoved: 4 * n + 4,
      reference: () => {
        let sum = 0;
        for (const v of input) sum = (sum + v) | 0;
        return { total: intOut(Int32Array.of(sum)) };
      },
    };
  },
};

/** reduce_sum4: reduce_sum's cases and reference at bandwidth (vectors, a grid, one atomic per workgroup). */
const reduceSum4: SuiteKernel = {
  ...reduceSum,
  file: "reduce_sum4.loom",
  symbol: "reduce_sum4",
  summary: "full i32 sum (wrapping) at bandwidth: 16-byte vectors, grid-stride loop, workgroup reduce, one atomic per workgroup",
  shapes: { test: TEST_1D, quick: QUICK_1D, bench: oneD([1 << 20, 1 << 26, 1 << 28]) },
};

/** matmul16: M = workload[0], N = workload[1], K = sizes.k (default 16·⌈max(M, N, 1)/16⌉). */
const matmul16: SuiteKernel = {
  file: "matmul16.loom",
  symbol: "matmul16",
  summary: "C = A·B (f32), 16×16 tiles in workgroup memory; K a multiple of 16",
  sizeNames: ["k"],
  shapes: {
    test: [
      { workload: [0, 0] },
      { workload: [1, 1] },
      { workload: [7, 13], sizes: { k: 32 } },
      { workload: [31, 17] },
      { workload: [16, 16], sizes: { k: 16 } },
      { workload: [33, 40], sizes: { k: 48 } },
      { workload: [97, 101] },
    ],
    quick: [{ workload: [1, 1] }, { workload: [33, 40], sizes: { k: 48 } }],
    bench: [{ workload: [256, 256] }, { workload: [1024, 1024] }],
  },
  build: (shape, seed) => matmulCase(shape, seed, 16),
};

/** A matmul case: C = A·B with A m×k, B k×n; k defaults to the least multiple of `kStep` ≥ max(M, N, 1). */
function matmulCase({ workload: [m = 0, n = 0], sizes = {} }: CaseShape, seed: number, kStep: number): KernelCase {
  const k = sizes.k ?? kStep * Math.max(1, ceilDiv(Math.max(m, n), kStep));
  const a = floats(m * k, seed, 2);
  const b = floats(k * n, seed + 1, 2);
  return {
    label: `${m}x${n} k=${k}`,
    workload: [m, n],
    args: [
      { kind: "scalar", name: "m", value: m },
      { kind: "scalar", name: "n", value: n },
      { kind: "scalar", name: "k", value: k },
      { kind: "buffer", name: "a", data: a },
      { kind: "buffer", name: "b", data: b },
      { kind: "buffer", name: "c", data: new Float32Array(m * n) },
    ],
    bytesMoved: 4 * (m * k + k * n + m * n),
    reference: () => {
      const c = new Float32Array(m * n);
      const mags = new Float64Array(m * n);
      for (let i = 0; i < m; i++) {
        for (let j = 0; j < n; j++) {
          let s = 0;
          let g = 0;
          for (let p = 0; p < k; p++) {
            s += a[i * k + p]! * b[p * n + j]!;
            g += Math.abs(a[i * k + p]! * b[p * n + j]!);
          }
          c[i * n + j] = s;
          mags[i * n + j] = g;
        }
      }
      // k roundings (fused or not) of partial sums bounded by Σ|a·b|.
      return { c: f32Out(c, k + 2, mags) };
    },
  };
}

/** matmul_tiled: M = workload[0], N = workload[1] (a multiple of 4), K = sizes.k (a multiple of 8). */
const matmulTiled: SuiteKernel = {
  file: "matmul_tiled.loom",
  symbol: "matmul_tiled",
  summary: "C = A·B (f32), register-tiled: 128×128 blocks, 8×8 outputs per invocation, 16-byte vectors; K a multiple of 8, N of 4",
  sizeNames: ["k"],
  shapes: {
    test: [
      { workload: [0, 0] },
      { workload: [1, 4], sizes: { k: 8 } },
      { workload: [7, 12], sizes: { k: 24 } },
      { workload: [31, 20] },
      { workload: [128, 128], sizes: { k: 16 } },
      { workload: [97, 100], sizes: { k: 40 } },
      { workload: [131, 260], sizes: { k: 8 } },
    ],
    quick: [{ workload: [1, 4], sizes: { k: 8 } }, { workload: [97, 100], sizes: { k: 40 } }],
    bench: [{ workload: [256, 256] }, { workload: [1024, 1024] }],
  },
  build: (shape, seed) => matmulCase(shape, seed, 8),
};


/** transpose_tile: rows = workload[0], cols = workload[1]. */
const transposeTile: SuiteKernel = {
  file: "transpose_tile.loom",
  symbol: "transpose_tile",
  summary: "out = transpose(in) (f32) through a padded 16×17 workgroup tile",
  sizeNames: [],
  shapes: {
    test: [{ workload: [0, 0] }, { workload: [1, 1] }, { workload: [1, 37] }, { workload: [7, 3] }, { workload: [16, 16] }, { workload: [31, 47] }, { workload: [97, 130] }, { workload: [257, 259] }],
    quick: [{ workload: [1, 1] }, { workload: [31, 47] }],
    bench: [{ workload: [1024, 1024] }, { workload: [4096, 4096] }],
  },
  build({ workload: [rows = 0, cols = 0] }, seed): KernelCase {
    const input = floats(rows * cols, seed);
    return {
      label: `${rows}x${cols}`,
      workload: [rows, cols],
      args: [
        { kind: "scalar", name: "rows", value: rows },
        { kind: "scalar", name: "cols", value: cols },
        { kind: "buffer", name: "input", data: input },
        { kind: "buffer", name: "output", data: new Float32Array(rows * cols) },
      ],
      bytesMoved: 2 * 4 * rows * cols,
      reference: () => {
        const out = new Float32Array(rows * cols);
        for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = input[r * cols + c]!;
        return { output: intOut(out) };
      },
    };
  },
};

/** transpose32 (32-bit elements): transpose_tile's cases and reference through 64×64 tiles and 16-byte accesses (copy speed). */
const transpose32: SuiteKernel = {
  ...transposeTile,
  file: "transpose32.loom",
  symbol: "transpose32",
  summary: "out = transpose(in) (f32) through a rotated 64×64 tile, 16×16 invocations moving 16-byte pieces",
  shapes: {
    ...transposeTile.shapes,
    // 128x192: every tile takes the 16-byte path; 200x136: inner tiles vectors, edge tiles checked elements.
    test: [...transposeTile.shapes.test, { workload: [128, 192] }, { workload: [200, 136] }],
    bench: [{ workload: [1024, 1024] }, { workload: [4096, 4096] }, { workload: [8192, 8192] }],
  },
};

/** row_softmax: rows = workload[0], cols = sizes.cols (default min(rows, 300) + 1). */
const rowSoftmax: SuiteKernel = {
  file: "row_softmax.loom",
  symbol: "row_softmax",
  summary: "row softmax (f32): max, exp, sum with workgroup reductions, one workgroup per row",
  sizeNames: ["cols"],
  shapes: {
    test: [
      { workload: [0] },
      { workload: [1], sizes: { cols: 1 } },
      { workload: [1], sizes: { cols: 64 } },
      { workload: [2], sizes: { cols: 65 } },
      { workload: [7] },
      { workload: [97], sizes: { cols: 131 } },
      { workload: [31], sizes: { cols: 1000 } },
      { workload: [257], sizes: { cols: 3 } },
    ],
    quick: [{ workload: [1] }, { workload: [97], sizes: { cols: 131 } }],
    bench: [{ workload: [4096], sizes: { cols: 1024 } }],
  },
  build({ workload: [rows = 0], sizes = {} }, seed): KernelCase {
    const cols = sizes.cols ?? Math.min(rows, 300) + 1;
    const input = floats(rows * cols, seed);
    return {
      label: `${rows}x${cols}`,
      workload: [rows],
      args: [
        { kind: "scalar", name: "rows", value: rows },
        { kind: "scalar", name: "cols", value: cols },
        { kind: "buffer", name: "input", data: input },
        { kind: "buffer", name: "output", data: new Float32Array(rows * cols) },
      ],
      bytesMoved: 2 * 4 * rows * cols,
      reference: () => {
        const out = new Float32Array(rows * cols);
        for (let r = 0; r < rows; r++) {
          const row = input.subarray(r * cols, (r + 1) * cols);
          const max = row.reduce((m, x) => Math.max(m, x), -Infinity);
          const sum = row.reduce((s, x) => s + Math.exp(x - max), 0);
          row.forEach((x, c) => (out[r * cols + c] = Math.exp(x - max) / sum));
        }
        // Vulkan's exp is within 3 + 2·|x| ulp (|x| ≤ 8 here), divide 2.5 ulp, plus the sum's roundings.
        return { output: f32Out(out, 48 + cols, undefined, 1e-30) };
      },
    };
  },
};

/** row_softmax4: row_softmax's cases and reference at bandwidth (a subgroup per row, 16-byte vectors when cols is a multiple of 4). */
const rowSoftmax4: SuiteKernel = {
  ...rowSoftmax,
  file: "row_softmax4.loom",
  symbol: "row_softmax4",
  summary: "row softmax (f32) at bandwidth: one subgroup per row, rows up to 8 vectors per lane read once into registers, 16-byte vectors, no barrier",
  shapes: {
    test: [...rowSoftmax.shapes.test, { workload: [5], sizes: { cols: 1024 } }, { workload: [3], sizes: { cols: 1028 } }, { workload: [3], sizes: { cols: 2052 } }, { workload: [4], sizes: { cols: 8 } }, { workload: [19], sizes: { cols: 256 } }],
    quick: [{ workload: [1] }, { workload: [97], sizes: { cols: 132 } }],
    bench: [{ workload: [4096], sizes: { cols: 1024 } }, { workload: [32768], sizes: { cols: 1024 } }],
  },
};

const histogram: SuiteKernel = {
  file: "histogram.loom",
  symbol: "histogram",
  summary: "256-bin histogram of the low bytes of u32 values (workgroup then global atomics)",
  sizeNames: [],
  shapes: { test: TEST_1D, quick: QUICK_1D, bench: oneD([1 << 20, 1 << 26]) },
  build({ workload: [n = 0] }, seed): KernelCase {
    const values = words(n, seed);
    return {
      label: `n=${n}`,
      workload: [n],
      args: [
        { kind: "scalar", name: "n", value: n },
        { kind: "buffer", name: "values", data: values },
        { kind: "buffer", name: "bins", data: new Int32Array(256) },
      ],
      bytesMoved: 4 * n + 4 * 256,
      reference: () => {
        const bins = new Int32Array(256);
        for (const v of values) bins[v & 255]!++;
        return { bins: intOut(bins) };
      },
    };
  },
};

const prefixSum: SuiteKernel = {
  file: "prefix_sum.loom",
  symbol: "prefix_sum",
  summary: "inclusive prefix sum of i32 (wrapping): one workgroup, 256-element chunks, Hillis–Steele",
  sizeNames: [],
  shapes: { test: TEST_1D.filter((s) => s.workload[0]! <= 4099), quick: QUICK_1D, bench: oneD([1 << 16, 1 << 20]) },
  build({ workload: [n = 0] }, seed): KernelCase {
    const input = words(n, seed);
    return {
      label: `n=${n}`,
      workload: [n],
      args: [
        { kind: "scalar", name: "n", value: n },
        { kind: "buffer", name: "input", data: input },
        { kind: "buffer", name: "output", data: new Int32Array(n) },
      ],
      bytesMoved: 2 * 4 * n,
      reference: () => {
        const out = new Int32Array(n);
        let s = 0;
        input.forEach((v, i) => (out[i] = s = (s + v) | 0));
        return { output: intOut(out) };
      },
    };
  },
};

/** Every kernel of the suite, in the order docs/kernels.md lists them. */
export const KERNEL_SUITE: readonly SuiteKernel[] = [
  saxpy, saxpy4, vectorAddTail, blockSum, reduceSum, reduceSum4, matmul16, matmulTiled, transposeTile, transpose32, rowSoftmax, rowSoftmax4, histogram, prefixSum,
];

/** The suite kernel of a file name ("saxpy.loom"), or undefined. */
export function suiteKernel(file: string): SuiteKernel | undefined {
  return KERNEL_SUITE.find((k) => k.file === file);
}
