/**
 * vector.dotf and vector.iota on lavapipe: the kernel of test/spirv/kernels/dot_iota.loom is
 * compiled for the device, checked by spirv-val, dispatched under VK_LAYER_KHRONOS_validation
 * and compared bit-exactly with the plain-JS reference; so is the reference interpreter.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { runKernelCasesOnLavapipe } from "../runtime/vulkan/kernel-cases.js";
import { SIZES, STEPS } from "./dot-iota-cases.js";

test("vector.dotf and vector.iota: device and interpreter match the JS reference, validation-clean", (t) => {
  const cases = runKernelCasesOnLavapipe(t, new URL("./dot-iota-cases.js", import.meta.url), "dotIotaCaseSet");
  if (!cases) return;
  assert.equal(cases.length, SIZES.length * STEPS.length);
  for (const c of cases) {
    assert.equal(c.dispatched, !c.label.startsWith("n=0 "), c.label);
    assert.equal(c.device.length, 2, c.label);
    for (const d of [...c.device, ...(c.interpreter ?? [])]) assert.equal(d.mismatches, 0, `${c.label}: ${d.name}: ${JSON.stringify(d)}`);
    assert.equal(c.interpreter?.length, 2, `${c.label}: the interpreter was checked`);
  }
});
