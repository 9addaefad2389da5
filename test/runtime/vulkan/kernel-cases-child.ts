/**
 * Child process of `runKernelCasesOnLavapipe` (kernel-cases.ts): compiles one `.loom` kernel for
 * the device's own profile, writes its SPIR-V, and runs the cases of a case set on the device
 * and the reference interpreter. Usage: node kernel-cases-child.js <out-dir> <case-module-url>
 * <export>. Run without arguments (as `node --test` does for every file under test/) it does
 * nothing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileForDevice, deviceProfile, runCase } from "../../../src/harness/index.js";
import { VulkanRuntime } from "../../../src/runtime/vulkan/index.js";
import { fromRoot } from "../../util/paths.js";
import type { KernelCaseSet, KernelCasesOutcome } from "./kernel-cases.js";

async function run(outDir: string, set: KernelCaseSet): Promise<KernelCasesOutcome> {
  const rt = VulkanRuntime.create();
  try {
    const compiled = compileForDevice(set.file, readFileSync(fromRoot(set.file), "utf8"), deviceProfile(rt), set.symbol);
    if (!compiled.ok) return { device: rt.deviceInfo().name, diagnostics: compiled.diagnostics, cases: [] };
    writeFileSync(join(outDir, "kernel.spv"), compiled.kernel.spirv);
    const cases = set.cases().map((c) => runCase(rt, compiled.kernel, c, { interpret: true }));
    return { device: rt.deviceInfo().name, cases };
  } finally {
    rt.destroy();
  }
}

const [outDir, moduleUrl, name] = process.argv.slice(2);
if (outDir && moduleUrl && name) {
  const set = ((await import(moduleUrl)) as Record<string, KernelCaseSet>)[name];
  if (!set) throw new Error(`${moduleUrl} exports no case set '${name}'`);
  writeFileSync(join(outDir, "result.json"), JSON.stringify(await run(outDir, set)));
}
