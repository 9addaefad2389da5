/**
 * A small seeded run of the program fuzzer (bench/fuzz/differential.ts): generated programs in
 * the reference interpreter vs the prepared-low pipeline, vs constant folding, and vs SPIR-V on
 * lavapipe, with 0 disagreements outside the documented device freedoms.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { runDifferential } from "../../bench/fuzz/differential.js";
import { registryTemplates } from "../../bench/fuzz/generate.js";
import { OP_INFOS } from "../../src/dialects/registry.js";
import { requireLavapipe } from "../runtime/vulkan/probe.js";

test("the generator reads the op registry: every scalar/vector op is generated or listed with a reason", () => {
  const { templates, skipped } = registryTemplates();
  const generated = new Set(templates.map((t) => t.op));
  for (const info of OP_INFOS) {
    if (!/^(scalar|vector)\./.test(info.name)) continue;
    assert.ok(generated.has(info.name) || info.name in skipped || ["scalar.constant", "vector.splat", "vector.extract", "vector.from_elements", "vector.select"].includes(info.name), info.name);
  }
  assert.ok(generated.has("scalar.addi") && generated.has("vector.fmaf") && generated.has("scalar.bitcast"));
  assert.match(skipped["scalar.expf"] ?? "", /inexact/);
});

test("seeded differential run: interpreter = prepared-low = folding = lavapipe under the documented freedoms", (t) => {
  if (!requireLavapipe(t)) return;
  const r = runDifferential({ programs: 12, seed: 20261201, invocations: 128, device: true, foldSamples: 2 });
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.mismatches, []);
  assert.equal(r.failures, 0);
  assert.equal(r.dispatches, 12);
  assert.equal(r.cases, 12 * (128 * 2 + 2));
});

test("without a device: interpreter = prepared-low = folding", () => {
  const r = runDifferential({ programs: 8, seed: 7, invocations: 64, device: false, foldSamples: 3 });
  assert.deepEqual(r.errors, []);
  assert.equal(r.failures, 0);
  assert.equal(r.byLeg.fold, 24);
});
