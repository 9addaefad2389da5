/**
 * Runs the cases of one `.loom` kernel on lavapipe: compiled for the device's own profile in a
 * child process (a driver crash must not take the runner down) under VK_LAYER_KHRONOS_validation,
 * on the device and on the reference interpreter. The parent checks what every such test checks
 * — the child exited cleanly on llvmpipe, the kernel compiled, spirv-val accepts its SPIR-V,
 * the layer reported nothing — and hands the case results back for the test's own assertions.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestContext } from "node:test";
import type { CaseResult, KernelCase } from "../../../src/harness/index.js";
import { requireTool, runTool } from "../../util/tools.js";
import { quietEnv, requireValidationLayer } from "./probe.js";

/** What a case module exports: the kernel (repo-relative file, symbol) and its cases. */
export interface KernelCaseSet {
  readonly file: string;
  readonly symbol: string;
  readonly cases: () => readonly KernelCase[];
}

export interface KernelCasesOutcome {
  readonly device: string;
  readonly diagnostics?: string;
  readonly cases: readonly CaseResult[];
}

const CHILD = fileURLToPath(new URL("./kernel-cases-child.js", import.meta.url));

/**
 * The case results of `exportName` of the module at `moduleUrl` (an `import.meta.url`-relative
 * URL of a compiled case module), or undefined when lavapipe's validation layer or spirv-val is
 * missing (the test is skipped with the reason, or fails under REQUIRE_ALL_TOOLS).
 */
export function runKernelCasesOnLavapipe(t: TestContext, moduleUrl: URL, exportName: string): readonly CaseResult[] | undefined {
  if (!requireValidationLayer(t) || !requireTool(t, "spirv-val", "apt-get install -y spirv-tools; see toolchain.md §2")) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "loom-vk-cases-"));
  try {
    const r = spawnSync(process.execPath, [CHILD, dir, moduleUrl.href, exportName], {
      encoding: "utf8",
      env: quietEnv({ VK_INSTANCE_LAYERS: "VK_LAYER_KHRONOS_validation" }),
      timeout: 120_000, // a hang is a failure, not a stuck runner
    });
    if (r.error) throw r.error;
    const output = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.status, 0, output.slice(-4000));
    const outcome = JSON.parse(readFileSync(join(dir, "result.json"), "utf8")) as KernelCasesOutcome;
    assert.match(outcome.device, /llvmpipe/);
    assert.equal(outcome.diagnostics, undefined);
    const val = runTool("spirv-val", ["--target-env", "vulkan1.3", join(dir, "kernel.spv")]);
    assert.equal(val.status, 0, val.stdout + val.stderr);
    assert.deepEqual(output.split("\n").filter((l) => l.includes("Validation Error")), []);
    return outcome.cases;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
