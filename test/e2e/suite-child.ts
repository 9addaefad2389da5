/**
 * The child process that runs the kernel suite on the device (a driver crash must not take the
 * test runner down). Usage: node suite-child.js <job.json> <result.json>. It compiles each
 * kernel for the device's own profile, writes the SPIR-V next to the result (the parent runs
 * spirv-val on it), runs every test shape and records the comparisons. Run without arguments
 * (as `node --test` does for every file under test/) it does nothing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KERNEL_SUITE } from "../../examples/kernels/suite.js";
import { compileForDevice, deviceProfile, runCase, type CaseResult, type DeviceKernel } from "../../src/harness/index.js";
import { LoomError } from "../../src/index.js";
import { VulkanRuntime } from "../../src/runtime/vulkan/index.js";
import { fromRoot } from "../util/paths.js";

export interface SuiteJob {
  /** Kernel symbols to run (default: all). */
  readonly symbols?: readonly string[];
  readonly seed: number;
  /** Directory for <symbol>.spv. */
  readonly outDir: string;
  /** The interpreter also runs (and is checked) for cases moving at most this many bytes. */
  readonly interpretUpToBytes: number;
}

export interface KernelOutcome {
  readonly symbol: string;
  readonly spirvPath?: string;
  readonly diagnostics?: string;
  readonly cases: readonly (CaseResult & { readonly interpreted: boolean; readonly error?: string })[];
  /** The kernel's SPIR-V loaded with the previous suite kernel's record: what the runtime said. */
  readonly foreignRecord?: { readonly status?: string; readonly message: string };
}

export interface SuiteOutcome {
  readonly device: string;
  readonly subgroupSize: number;
  readonly kernels: readonly KernelOutcome[];
}

function runJob(job: SuiteJob): SuiteOutcome {
  const rt = VulkanRuntime.create();
  try {
    const profile = deviceProfile(rt);
    const kernels = KERNEL_SUITE.filter((k) => !job.symbols || job.symbols.includes(k.symbol)).map((k): KernelOutcome & { compiled?: DeviceKernel } => {
      const compiled = compileForDevice(k.file, readFileSync(fromRoot("examples", "kernels", k.file), "utf8"), profile, k.symbol);
      if (!compiled.ok) return { symbol: k.symbol, diagnostics: compiled.diagnostics, cases: [] };
      const spirvPath = join(job.outDir, `${k.symbol}.spv`);
      writeFileSync(spirvPath, compiled.kernel.spirv);
      const cases = k.shapes.test.map((shape) => {
        const c = k.build(shape, job.seed);
        const interpreted = c.bytesMoved <= job.interpretUpToBytes;
        try {
          return { ...runCase(rt, compiled.kernel, c, { interpret: interpreted }), interpreted };
        } catch (e) {
          const launch = { workgroupCount: [0, 0, 0], workgroupSize: [0, 0, 0], workgroupClusterSize: [0, 0, 0], subgroupSize: 0, workgroupStorageBytes: 0 } as CaseResult["launch"];
          return { label: c.label, launch, dispatched: false, bytesMoved: c.bytesMoved, device: [], passed: false, gpuNs: [], interpreted, error: (e as Error).message };
        }
      });
      return { symbol: k.symbol, spirvPath, cases, compiled: compiled.kernel };
    });
    // Each kernel's bytes with its neighbour's record: the runtime must notice they disagree.
    const compiledKernels = kernels.flatMap((k) => (k.compiled ? [k.compiled] : []));
    for (const [i, k] of kernels.entries()) {
      const other = compiledKernels[(compiledKernels.indexOf(k.compiled!) + 1) % compiledKernels.length];
      if (!k.compiled || !other || other === k.compiled) continue;
      try {
        rt.createKernel(k.compiled.spirv, other.record).destroy();
        kernels[i] = { ...k, foreignRecord: { message: "accepted" } };
      } catch (e) {
        kernels[i] = { ...k, foreignRecord: { ...(e instanceof LoomError ? { status: e.status } : {}), message: (e as Error).message } };
      }
    }
    return { device: rt.deviceInfo().name, subgroupSize: rt.deviceInfo().subgroupSize, kernels: kernels.map(({ compiled: _, ...k }) => k) };
  } finally {
    rt.destroy();
  }
}

const [jobFile, resultFile] = process.argv.slice(2);
if (jobFile && resultFile) {
  const job = JSON.parse(readFileSync(jobFile, "utf8")) as SuiteJob;
  // Infinity (a mismatch on a float) is not JSON; keep it readable.
  writeFileSync(resultFile, JSON.stringify(runJob(job), (_, v) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v)));
}
