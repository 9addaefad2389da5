/** The suite kernels under test/interp/kernels, each checked against a plain-JS reference. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { asF32, asI32, dispatch, f32Bytes, i32Bytes, loadKernel, randomFloats, randomInts, SIZES } from "./harness.js";

const fround = Math.fround;

test("workload_grid: ⌈n/64⌉ workgroups of 64 run the empty body", () => {
  const k = loadKernel("workload_grid");
  assert.deepEqual(k.launch([1009n]).workgroupCount, [16, 1, 1]);
  for (const n of SIZES) {
    const report = dispatch(k, [BigInt(n)], []);
    assert.equal(report.invocations, Math.ceil(n / 64) * 64);
  }
});

test("saxpy: y = alpha·x + y with a tail guard", () => {
  const k = loadKernel("saxpy");
  for (const n of SIZES) {
    const x = randomFloats(n, 1 + n), y = randomFloats(n, 100 + n), alpha = 2.5;
    const yBytes = f32Bytes(y);
    dispatch(k, [BigInt(n)], [BigInt(n), alpha, f32Bytes(x), yBytes]);
    // alpha·x + y is exact in f64 for these values, so one fround is the fused result.
    const expected = x.map((xi, i) => fround(alpha * xi + y[i]!));
    assert.deepEqual([...asF32(yBytes)], expected, `n = ${n}`);
  }
});

test("block_sum: one tree-reduced partial per 256 elements", () => {
  const k = loadKernel("block_sum");
  for (const n of SIZES) {
    const input = randomFloats(n, 7 + n);
    const groups = Math.ceil(n / 256);
    const partials = f32Bytes(new Array(groups).fill(0));
    dispatch(k, [BigInt(n)], [BigInt(n), f32Bytes(input), partials]);
    for (let g = 0; g < groups; g++) {
      const tile = Array.from({ length: 256 }, (_, l) => (g * 256 + l < n ? input[g * 256 + l]! : 0));
      for (let stride = 128; stride >= 1; stride >>= 1) for (let l = 0; l < stride; l++) tile[l] = fround(tile[l]! + tile[l + stride]!);
      assert.equal(asF32(partials)[g], tile[0], `n = ${n}, group ${g}`);
      const exact = input.slice(g * 256, g * 256 + 256).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(asF32(partials)[g]! - exact) < 1e-3);
    }
  }
});

test("matmul16: C = A·B through 16×16 workgroup tiles", () => {
  const k = loadKernel("matmul16");
  const shapes: [number, number, number][] = [[1, 1, 16], [7, 13, 16], [17, 33, 32], [16, 16, 16], [31, 5, 48], [64, 64, 64]];
  for (const [m, n, kk] of shapes) {
    // Small integers: every product and sum is exact, so any association order agrees.
    const a = randomInts(m * kk, m + n, -8, 8), b = randomInts(kk * n, 3 * m + n, -8, 8);
    const c = f32Bytes(new Array(m * n).fill(-1));
    dispatch(k, [BigInt(m), BigInt(n)], [BigInt(m), BigInt(n), BigInt(kk), f32Bytes(a), f32Bytes(b), c]);
    const expected: number[] = [];
    for (let r = 0; r < m; r++) {
      for (let col = 0; col < n; col++) {
        let acc = 0;
        for (let i = 0; i < kk; i++) acc += a[r * kk + i]! * b[i * n + col]!;
        expected.push(acc);
      }
    }
    assert.deepEqual([...asF32(c)], expected, `${m}x${n}x${kk}`);
  }
});

test("vector_add_tail: four lanes per invocation, scalar tail", () => {
  const k = loadKernel("vector_add_tail");
  for (const n of [...SIZES, 1023, 1025]) {
    const a = randomFloats(n, n + 11), b = randomFloats(n, n + 12);
    const c = f32Bytes(new Array(n).fill(0));
    dispatch(k, [BigInt(n)], [BigInt(n), f32Bytes(a), f32Bytes(b), c]);
    assert.deepEqual([...asF32(c)], a.map((x, i) => fround(x + b[i]!)), `n = ${n}`);
  }
});

test("transpose_tile: out = inᵀ through a padded (strided) workgroup tile", () => {
  const k = loadKernel("transpose_tile");
  for (const [m, n] of [[0, 5], [1, 1], [1, 17], [16, 16], [17, 3], [31, 47], [64, 33]] as [number, number][]) {
    const input = randomInts(m * n, m * 100 + n, -1000, 1000);
    const out = i32Bytes(new Array(m * n).fill(0));
    dispatch(k, [BigInt(m), BigInt(n)], [BigInt(m), BigInt(n), i32Bytes(input), out]);
    const expected = Array.from({ length: m * n }, (_, i) => input[(i % m) * n + Math.floor(i / m)]!);
    assert.deepEqual([...asI32(out)], expected, `${m}x${n}`);
  }
});

test("row_softmax: workgroup reductions and expf", () => {
  const k = loadKernel("row_softmax");
  for (const [rows, cols] of [[0, 4], [1, 1], [3, 7], [2, 64], [5, 65], [4, 200]] as [number, number][]) {
    const x = randomFloats(rows * cols, rows * 7 + cols, 6);
    const out = f32Bytes(new Array(rows * cols).fill(0));
    dispatch(k, [BigInt(rows)], [BigInt(rows), BigInt(cols), f32Bytes(x), out]);
    for (let r = 0; r < rows; r++) {
      const row = x.slice(r * cols, (r + 1) * cols);
      const max = Math.max(...row);
      const sum = row.reduce((s, v) => s + Math.exp(v - max), 0);
      row.forEach((v, c) => {
        const got = asF32(out)[r * cols + c]!, want = Math.exp(v - max) / sum;
        assert.ok(Math.abs(got - want) <= 1e-6 + 1e-5 * want, `row ${r} col ${c}: ${got} vs ${want}`);
      });
    }
  }
});

test("histogram: workgroup bins merged with atomics", () => {
  const k = loadKernel("histogram");
  for (const n of SIZES) {
    const data = randomInts(n, n + 5, 0, 1 << 20);
    const initial = randomInts(64, 9, 0, 10);
    const bins = i32Bytes(initial);
    dispatch(k, [BigInt(n)], [BigInt(n), i32Bytes(data), bins]);
    const expected = [...initial];
    for (const v of data) expected[v & 63]!++;
    assert.deepEqual([...asI32(bins)], expected, `n = ${n}`);
  }
});

test("prefix_sum: inclusive i32 scan (wrapping) in chunks of 256", () => {
  const k = loadKernel("prefix_sum");
  for (const n of [...SIZES, 600]) {
    const input = randomInts(n, n + 3, -(2 ** 31), 2 ** 31);
    const out = i32Bytes(new Array(n).fill(0));
    dispatch(k, [BigInt(n)], [BigInt(n), i32Bytes(input), out]);
    let acc = 0;
    assert.deepEqual([...asI32(out)], input.map((v) => (acc = (acc + v) | 0)), `n = ${n}`);
  }
});

for (const sg of [32, 64]) {
  test(`subgroup_sum (subgroup size ${sg}): reduce and xor butterfly agree with the reference`, () => {
    const k = loadKernel("subgroup_sum", { subgroupSize: sg });
    for (const n of SIZES) {
      const input = randomInts(n, n + sg, -(2 ** 31), 2 ** 31);
      const slots = Math.ceil(n / 64) * (64 / sg);
      const sums = i32Bytes(new Array(slots).fill(7)), butterfly = i32Bytes(new Array(slots).fill(7));
      dispatch(k, [BigInt(n)], [BigInt(n), BigInt(slots), i32Bytes(input), sums, butterfly]);
      const expected = Array.from({ length: slots }, (_, s) => input.slice(s * sg, (s + 1) * sg).reduce((a, b) => (a + b) | 0, 0));
      assert.deepEqual([...asI32(sums)], expected, `n = ${n}`);
      assert.deepEqual([...asI32(butterfly)], expected, `n = ${n}`);
    }
  });

  test(`subgroup_exchange (subgroup size ${sg}): shuffle down/xor and broadcast`, () => {
    const k = loadKernel("subgroup_exchange", { subgroupSize: sg });
    for (const n of SIZES) {
      const input = randomInts(n, n + 77, -100, 100);
      const outs = [0, 1, 2, 3].map(() => i32Bytes(new Array(n).fill(0)));
      dispatch(k, [BigInt(n)], [BigInt(n), i32Bytes(input), ...outs]);
      const v = (i: number) => (i < n ? input[i]! : 0);
      const down: number[] = [], valid: number[] = [], two: number[] = [], swapped: number[] = [];
      for (let i = 0; i < n; i++) {
        const lane = i % sg, base = i - lane;
        down.push(lane + 1 < sg ? v(i + 1) : v(i));
        valid.push(lane + 1 < sg ? 1 : 0);
        two.push(v(base + 2));
        swapped.push(v(base + (lane ^ 3)));
      }
      assert.deepEqual([...asI32(outs[0]!)], down, `down, n = ${n}`);
      assert.deepEqual([...asI32(outs[1]!)], valid, `valid, n = ${n}`);
      assert.deepEqual([...asI32(outs[2]!)], two, `broadcast, n = ${n}`);
      assert.deepEqual([...asI32(outs[3]!)], swapped, `xor, n = ${n}`);
    }
  });
}
