/**
 * vector.dotf and vector.iota on lavapipe: the kernel of test/spirv/kernels/dot_iota.loom is
 * compiled for the device, checked by spirv-val, dispatched under VK_LAYER_KHRONOS_validation
 * and compared bit-exactly with the plain-JS reference; so is the reference interpreter.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { quietEnv, requireValidationLayer } from "../runtime/vulkan/probe.js";
import { requireTool, runTool } from "../util/tools.js";
import { SIZES, STEPS } from "./dot-iota-cases.js";
import type { DotIotaOutcome } from "./dot-iota-child.js";

const CHILD = fileURLToPath(new URL("./dot-iota-child.js", import.meta.url));

test("vector.dotf and vector.iota: device and interpreter match the JS reference, validation-clean", (t) => {
  if (!requireValidationLayer(t) || !requireTool(t, "spirv-val", "apt-get install -y spirv-tools; see toolchain.md §2")) return;
  const dir = mkdtempSync(join(tmpdir(), "loom-dot-iota-"));
  const r = spawnSync(process.execPath, [CHILD, dir], { encoding: "utf8", env: quietEnv({ VK_INSTANCE_LAYERS: "VK_LAYER_KHRONOS_validation" }), timeout: 120_000 });
  if (r.error) throw r.error;
  const output = `${r.stdout}\n${r.stderr}`;
  assert.equal(r.status, 0, output.slice(-4000));
  const outcome = JSON.parse(readFileSync(join(dir, "result.json"), "utf8")) as DotIotaOutcome;
  assert.match(outcome.device, /llvmpipe/);
  assert.equal(outcome.diagnostics, undefined);
  const val = runTool("spirv-val", ["--target-env", "vulkan1.3", join(dir, "dot_iota.spv")]);
  assert.equal(val.status, 0, val.stdout + val.stderr);
  assert.equal(outcome.cases.length, SIZES.length * STEPS.length);
  for (const c of outcome.cases) {
    assert.equal(c.dispatched, !c.label.startsWith("n=0 "), c.label);
    assert.equal(c.device.length, 2, c.label);
    for (const d of [...c.device, ...(c.interpreter ?? [])]) assert.equal(d.mismatches, 0, `${c.label}: ${d.name}: ${JSON.stringify(d)}`);
    assert.equal(c.interpreter?.length, 2, `${c.label}: the interpreter was checked`);
  }
  assert.deepEqual(output.split("\n").filter((l) => l.includes("Validation Error")), []);
});
