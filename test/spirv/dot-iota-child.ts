/**
 * Child process of dot-iota.test.ts (a driver crash must not take the runner down): compiles
 * test/spirv/kernels/dot_iota.loom for the device's own profile, writes the SPIR-V, and runs
 * every case on the device and the interpreter. Usage: node dot-iota-child.js <out-dir>.
 * Run without arguments (as `node --test` does for every file under test/) it does nothing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileForDevice, deviceProfile, runCase, type CaseResult } from "../../src/harness/index.js";
import { VulkanRuntime } from "../../src/runtime/vulkan/index.js";
import { fromRoot } from "../util/paths.js";
import { dotIotaCase, SIZES, STEPS } from "./dot-iota-cases.js";

export interface DotIotaOutcome {
  readonly device: string;
  readonly diagnostics?: string;
  readonly cases: readonly CaseResult[];
}

function run(outDir: string): DotIotaOutcome {
  const rt = VulkanRuntime.create();
  try {
    const compiled = compileForDevice("dot_iota.loom", readFileSync(fromRoot("test", "spirv", "kernels", "dot_iota.loom"), "utf8"), deviceProfile(rt), "dot_iota");
    if (!compiled.ok) return { device: rt.deviceInfo().name, diagnostics: compiled.diagnostics, cases: [] };
    writeFileSync(join(outDir, "dot_iota.spv"), compiled.kernel.spirv);
    const cases = SIZES.flatMap((n) => STEPS.map((step) => runCase(rt, compiled.kernel, dotIotaCase(n, step, 11), { interpret: true })));
    return { device: rt.deviceInfo().name, cases };
  } finally {
    rt.destroy();
  }
}

const [outDir] = process.argv.slice(2);
if (outDir) writeFileSync(join(outDir, "result.json"), JSON.stringify(run(outDir)));
