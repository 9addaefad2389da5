/**
 * Full-subgroup pipelines (docs/abi.md): a kernel using subgroup operations whose workgroup x
 * extent is a multiple of the largest subgroup size gets REQUIRE_FULL_SUBGROUPS when the
 * device has computeFullSubgroups; other kernels do not. Whether a kernel uses subgroup
 * operations is the kernel-interface record's word, not a scan of the module.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { wantsFullSubgroups } from "../../../src/runtime/vulkan/kernel.js";
import type { DeviceContext } from "../../../src/runtime/vulkan/context.js";
import { requireGlslang, requireValidationLayer } from "./probe.js";
import { runChild } from "./run-child.js";
import { shaderPath } from "./shaders.js";

test("wantsFullSubgroups: subgroup use, the device feature and x % maxSubgroupSize all required", () => {
  const ctx = (computeFullSubgroups: boolean, max: number) =>
    ({ info: { features: { computeFullSubgroups }, subgroupSizeRange: { min: 8, max } } }) as unknown as DeviceContext;
  assert.equal(wantsFullSubgroups(ctx(true, 32), true, [64, 1, 1]), true);
  assert.equal(wantsFullSubgroups(ctx(true, 64), true, [64, 2, 1]), true);
  assert.equal(wantsFullSubgroups(ctx(true, 32), true, [48, 1, 1]), false, "x not a multiple of the max subgroup size");
  assert.equal(wantsFullSubgroups(ctx(true, 128), true, [64, 1, 1]), false);
  assert.equal(wantsFullSubgroups(ctx(false, 32), true, [64, 1, 1]), false, "device lacks computeFullSubgroups");
  assert.equal(wantsFullSubgroups(ctx(true, 32), false, [64, 1, 1]), false, "no subgroup operations");
  assert.equal(wantsFullSubgroups(ctx(true, 32), true, undefined), false, "unknown workgroup size");
});

interface SubgroupRun {
  subgroupSize: number;
  computeFullSubgroups: boolean;
  withOperations: { fullSubgroups: boolean; workgroupSize: number[] };
  withoutOperations: { fullSubgroups: boolean; workgroupSize: number[] };
  saxpy: boolean;
  counts: number[];
  sizes: number[];
}

for (const forceStaging of [false, true]) {
  test(`a subgroup kernel gets full subgroups on lavapipe and sees them, validation-clean${forceStaging ? " (forced staging)" : ""}`, (t) => {
    if (!requireValidationLayer(t) || !requireGlslang(t)) return;
    const run = runChild<SubgroupRun>({ scenario: "subgroups", shaders: { subgroup_count: shaderPath("subgroup_count"), saxpy: shaderPath("saxpy") }, forceStaging });
    assert.deepEqual(run.validationErrors, []);
    const r = run.result;
    assert.equal(r.computeFullSubgroups, true, "lavapipe supports computeFullSubgroups");
    assert.equal(64 % r.subgroupSize, 0);
    assert.deepEqual(r.withOperations, { fullSubgroups: true, workgroupSize: [64, 1, 1] });
    assert.deepEqual(r.withoutOperations, { fullSubgroups: false, workgroupSize: [64, 1, 1] }, "the record, not the module, decides");
    assert.equal(r.saxpy, false, "saxpy uses no subgroup operations");
    assert.equal(r.counts.length, 256);
    assert.deepEqual(r.sizes, new Array(256).fill(r.subgroupSize));
    assert.deepEqual(r.counts, r.sizes, "every subgroup is full");
  });
}
