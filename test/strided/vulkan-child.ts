/**
 * Child process of strided-attribute-vulkan.test.ts: compiles test/cases/strided_attribute.loom
 * for the device's own profile, writes the SPIR-V, and runs the cases on the device and the
 * interpreter. Usage: node vulkan-child.js <out-dir>. Without arguments (as `node --test` runs
 * every file under test/) it does nothing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileForDevice, deviceProfile, runCase, type CaseResult } from "../../src/harness/index.js";
import { VulkanRuntime } from "../../src/runtime/vulkan/index.js";
import { fromRoot } from "../util/paths.js";
import { STRIDED_FILE, STRIDED_SYMBOL, stridedCase } from "./cases.js";

export interface StridedOutcome {
  readonly device: string;
  readonly diagnostics?: string;
  readonly cases: readonly CaseResult[];
}

function run(outDir: string): StridedOutcome {
  const rt = VulkanRuntime.create();
  try {
    const compiled = compileForDevice(STRIDED_FILE, readFileSync(fromRoot(STRIDED_FILE), "utf8"), deviceProfile(rt), STRIDED_SYMBOL);
    if (!compiled.ok) return { device: rt.deviceInfo().name, diagnostics: compiled.diagnostics, cases: [] };
    writeFileSync(join(outDir, "strided_attribute.spv"), compiled.kernel.spirv);
    const cases = [3, 11].map((seed) => runCase(rt, compiled.kernel, stridedCase(seed), { interpret: true }));
    return { device: rt.deviceInfo().name, cases };
  } finally {
    rt.destroy();
  }
}

const [outDir] = process.argv.slice(2);
if (outDir) writeFileSync(join(outDir, "result.json"), JSON.stringify(run(outDir)));
