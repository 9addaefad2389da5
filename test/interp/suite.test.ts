/**
 * The canonical kernel suite (examples/kernels) on the interpreter: every kernel at every test
 * shape of suite.ts (about 5 s in all), with suite.ts's inputs, plain-JS references and
 * comparison rules. harness.dispatch also runs the parsed, uncompiled kernel and requires it to
 * agree with the prepared one.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { KERNEL_SUITE, suiteKernel } from "../../examples/kernels/suite.js";
import type { KernelCase, SuiteKernel } from "../../src/harness/index.js";
import { loadKernel } from "./harness.js";
import { assertMatchesReference, loadSuiteKernel, runSuiteCase } from "./suite-case.js";

const SEED = 5;
/**
 * suite.ts's float inputs lie on a 2⁻¹² grid in [-4, 4), so these kernels' results are exact in
 * f32 whatever the association, and the interpreter rounds every op as f32 does: it must hit the
 * reference bit for bit, not just within the device tolerance.
 */
const BIT_EXACT = new Set(["saxpy", "vector_add_tail", "block_sum"]);

function suiteKernelOf(file: string): SuiteKernel {
  const k = suiteKernel(file);
  assert.ok(k, `${file} is not in the suite`);
  return k;
}

function testCases(k: SuiteKernel): KernelCase[] {
  return k.shapes.test.map((s) => k.build(s, SEED));
}

for (const k of KERNEL_SUITE) {
  test(`${k.symbol}: the interpreter matches suite.ts's reference at every test shape`, () => {
    const loaded = loadSuiteKernel(k);
    for (const c of testCases(k)) assertMatchesReference(`${k.symbol} ${c.label}`, runSuiteCase(loaded, c), c.reference(), BIT_EXACT.has(k.symbol));
  });
}

test("histogram: global bins accumulate onto what they held before", () => {
  const k = suiteKernelOf("histogram.loom");
  const loaded = loadSuiteKernel(k);
  for (const c of testCases(k)) {
    const before = Int32Array.from({ length: 256 }, (_, i) => (i * 7919) % 13);
    const want = c.reference()["bins"]!;
    const shifted = { ...want, values: Int32Array.from(want.values, (v, i) => v + before[i]!) };
    assertMatchesReference(`histogram ${c.label}`, runSuiteCase(loaded, c, { bins: before }), { bins: shifted });
  }
});

test("transpose_strided (test/interp/kernels): a strided-layout tile gives transpose_tile's reference", () => {
  const loaded = loadKernel("transpose_strided");
  for (const c of testCases(suiteKernelOf("transpose_tile.loom"))) assertMatchesReference(`transpose_strided ${c.label}`, runSuiteCase(loaded, c), c.reference());
});
