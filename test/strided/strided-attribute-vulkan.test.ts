/**
 * Static strided layouts on lavapipe: test/cases/strided_attribute.loom compiled for the
 * device's own profile passes spirv-val, runs under VK_LAYER_KHRONOS_validation in a child
 * process (a driver crash must not take the runner down) and matches the plain-JS reference
 * of cases.ts, as does the reference interpreter.
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
import type { StridedOutcome } from "./vulkan-child.js";

const CHILD = fileURLToPath(new URL("./vulkan-child.js", import.meta.url));

test("vulkan (lavapipe): strided view types address as the JS reference does, validation-clean", (t) => {
  if (!requireValidationLayer(t) || !requireTool(t, "spirv-val", "apt-get install -y spirv-tools; see toolchain.md §2")) return;
  const dir = mkdtempSync(join(tmpdir(), "loom-strided-"));
  const r = spawnSync(process.execPath, [CHILD, dir], { encoding: "utf8", env: quietEnv({ VK_INSTANCE_LAYERS: "VK_LAYER_KHRONOS_validation" }), timeout: 120_000 });
  if (r.error) throw r.error;
  const output = `${r.stdout}\n${r.stderr}`;
  assert.equal(r.status, 0, output.slice(-4000));
  const outcome = JSON.parse(readFileSync(join(dir, "result.json"), "utf8")) as StridedOutcome;
  assert.match(outcome.device, /llvmpipe/);
  assert.equal(outcome.diagnostics, undefined);
  const val = runTool("spirv-val", ["--target-env", "vulkan1.3", join(dir, "strided_attribute.spv")]);
  assert.equal(val.status, 0, val.stdout + val.stderr);
  assert.equal(outcome.cases.length, 2);
  for (const c of outcome.cases) {
    assert.ok(c.dispatched, c.label);
    assert.equal(c.device.length, 5, c.label);
    assert.equal(c.interpreter?.length, 5, `${c.label}: the interpreter was checked`);
    for (const d of [...c.device, ...(c.interpreter ?? [])]) assert.equal(d.mismatches, 0, `${c.label}: ${d.name}: ${JSON.stringify(d)}`);
  }
  assert.deepEqual(output.split("\n").filter((l) => l.includes("Validation Error")), []);
});
