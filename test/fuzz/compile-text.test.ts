/**
 * Issue 12 item 16 (the text part, fixed seed): 300 mutated repository kernels through
 * parse, compileModule (with the launch-config artifact) and emitModule for SPIR-V. No call
 * may throw; a bad program is a failed Result. The bench (bench/fuzz/compile-text.ts) runs
 * the same generator at any size and seed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fuzzCompileText } from "../../bench/fuzz/compile-text.js";
import { repoRoot } from "../util/paths.js";

test("300 hostile text mutations: compile and emit never throw", () => {
  const report = fuzzCompileText(repoRoot, 300, 12);
  assert.deepEqual(report.threw, []);
  assert.ok(report.parsed > 30 && report.compiled > 10, JSON.stringify(report));
});
