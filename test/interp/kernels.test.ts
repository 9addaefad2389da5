/**
 * The kernels of test/interp/kernels that the canonical suite lacks, each against its own
 * plain-JS reference (the suite's kernels are in suite.test.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { asI32, dispatch, i32Bytes, loadKernel, randomInts, SIZES } from "./harness.js";

test("workload_grid: ⌈n/64⌉ workgroups of 64 run the empty body", () => {
  const k = loadKernel("workload_grid");
  assert.deepEqual(k.launch([1009n]).workgroupCount, [16, 1, 1]);
  for (const n of SIZES) {
    const report = dispatch(k, [BigInt(n)], []);
    assert.equal(report.invocations, Math.ceil(n / 64) * 64);
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
