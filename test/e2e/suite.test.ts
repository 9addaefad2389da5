/**
 * The kernel suite end to end on lavapipe (verification.md, SPIR-V §1 and §4): every kernel of
 * examples/kernels goes .loom → SPIR-V for the device's own profile → spirv-val → Vulkan
 * dispatch in a child process under VK_LAYER_KHRONOS_validation, at every test shape of the
 * manifest (0, 1, primes, non-multiples of the workgroup size, a larger one). The device must
 * match the plain-JS reference, and so must the reference interpreter (for the cases small
 * enough to interpret quickly). No "Validation Error" may appear.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { KERNEL_SUITE } from "../../examples/kernels/suite.js";
import { describeCheck } from "../../src/harness/index.js";
import { requireValidationLayer } from "../runtime/vulkan/probe.js";
import { requireTool, runTool } from "../util/tools.js";
import { runSuiteChild } from "./run-suite.js";

const FIX_SPIRV_TOOLS = "apt-get install -y spirv-tools; see toolchain.md §2";
/** Interpreting more than this per case would dominate the run (see docs/kernels.md). */
const INTERPRET_UP_TO_BYTES = 48 * 1024;

test("kernel suite on lavapipe: device and interpreter match the JS references", (t) => {
  if (!requireValidationLayer(t) || !requireTool(t, "spirv-val", FIX_SPIRV_TOOLS)) return;
  const { outcome, validationErrors, dir } = runSuiteChild({ seed: 7, interpretUpToBytes: INTERPRET_UP_TO_BYTES });
  assert.match(outcome.device, /llvmpipe/, `the child must run on lavapipe, ran on ${outcome.device}`);
  assert.deepEqual(
    outcome.kernels.map((k) => k.symbol),
    KERNEL_SUITE.map((k) => k.symbol),
  );
  const failures: string[] = [];
  for (const k of outcome.kernels) {
    if (k.diagnostics !== undefined) {
      failures.push(`${k.symbol}: does not compile for ${outcome.device}:\n${k.diagnostics}`);
      continue;
    }
    const val = runTool("spirv-val", ["--target-env", "vulkan1.3", k.spirvPath!]);
    if (val.status !== 0 || val.stdout + val.stderr !== "") failures.push(`${k.symbol}: spirv-val (${dir}): ${val.stdout}${val.stderr}`);
    if (k.foreignRecord?.status !== "invalid-argument" || !/record and the module disagree/.test(k.foreignRecord.message)) {
      failures.push(`${k.symbol}: loading it with another kernel's interface record gave ${JSON.stringify(k.foreignRecord)}`);
    }
    const manifest = KERNEL_SUITE.find((m) => m.symbol === k.symbol)!;
    assert.equal(k.cases.length, manifest.shapes.test.length, `${k.symbol}: every test shape ran`);
    assert.ok(
      k.cases.some((c) => c.interpreted && c.dispatched),
      `${k.symbol}: the interpreter checked at least one non-empty case`,
    );
    for (const c of k.cases) {
      const where = `${k.symbol} ${c.label}`;
      if (c.error !== undefined) {
        failures.push(`${where}: ${c.error}`);
        continue;
      }
      const empty = c.launch.workgroupCount.some((n) => n === 0);
      if (c.dispatched === empty) failures.push(`${where}: dispatched=${c.dispatched} with workgroups ${c.launch.workgroupCount.join("x")}`);
      for (const d of c.device) if (d.mismatches > 0) failures.push(`${where}: device '${d.name}' ${describeCheck(d)}`);
      for (const d of c.interpreter ?? []) if (d.mismatches > 0) failures.push(`${where}: interpreter '${d.name}' ${describeCheck(d)}`);
      if (c.interpreted !== (c.interpreter !== undefined)) failures.push(`${where}: interpreter ran=${c.interpreter !== undefined}, expected ${c.interpreted}`);
      assert.ok(c.device.length > 0, `${where}: at least one output compared`);
    }
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(validationErrors, [], "the validation layer reported errors");
});
