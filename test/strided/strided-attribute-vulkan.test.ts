/**
 * Static strided layouts on lavapipe: test/cases/strided_attribute.loom compiled for the
 * device's own profile passes spirv-val, runs under VK_LAYER_KHRONOS_validation in a child
 * process and matches the plain-JS reference of cases.ts, as does the reference interpreter.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { runKernelCasesOnLavapipe } from "../runtime/vulkan/kernel-cases.js";

test("vulkan (lavapipe): strided view types address as the JS reference does, validation-clean", (t) => {
  const cases = runKernelCasesOnLavapipe(t, new URL("./cases.js", import.meta.url), "stridedCaseSet");
  if (!cases) return;
  assert.equal(cases.length, 2);
  for (const c of cases) {
    assert.ok(c.dispatched, c.label);
    assert.equal(c.device.length, 5, c.label);
    assert.equal(c.interpreter?.length, 5, `${c.label}: the interpreter was checked`);
    for (const d of [...c.device, ...(c.interpreter ?? [])]) assert.equal(d.mismatches, 0, `${c.label}: ${d.name}: ${JSON.stringify(d)}`);
  }
});
