/**
 * Runs suite cases (examples/kernels/suite.ts) on the simulator: buffers allocated and
 * uploaded, scalars passed by value, the launch the .loom file's own launch-config function
 * (compiled by the public API) computes from the workload, outputs downloaded and compared with the reference.
 */
import type { CaseShape, HostArray, KernelCase, SuiteKernel } from "../../src/harness/index.js";
import { compareOutput, compileKernel, describeCheck } from "../../src/harness/index.js";
import type { SimRuntime, ArgValue, SimBuffer, SimModule } from "../../src/runtime/sim/index.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../../src/targets/amdgpu/index.js";
import { readFileSync } from "node:fs";
import { fromRoot } from "../util/paths.js";

type Dims = readonly [number, number, number];

/** Workgroup count and size of one launch, for the workload values of a case. */
export type SuiteLaunch = (workload: readonly number[]) => { readonly workgroupCount: Dims; readonly workgroupSize: Dims };

const launches = new Map<string, SuiteLaunch>();

/**
 * The kernel's own launch config: its .loom file compiled through the public API for
 * `processor` (wave size `wavefrontSize`, default the processor's) with
 * `artifacts: { launchConfig: true }`, the companion function evaluated for the workload.
 */
export function suiteLaunch(kernel: SuiteKernel, processor = "gfx1100", wavefrontSize?: 32 | 64): SuiteLaunch {
  const key = `${kernel.file}:${kernel.symbol}:${processor}:${wavefrontSize ?? ""}`;
  const known = launches.get(key);
  if (known) return known;
  const env = createAmdgpuTargetEnvironment();
  const identity = wavefrontSize === undefined ? { target: processor } : { target: processor, wavefrontSize };
  const profile = createAmdgpuProfile(env, { identifier: `suite-launch-${processor}-${wavefrontSize ?? "default"}`, identity });
  const text = readFileSync(fromRoot("examples", "kernels", kernel.file), "utf8");
  const outcome = compileKernel({ environment: env, profile, artifactFormat: "amdgpu-hsaco" }, kernel.file, text, kernel.symbol);
  if (!outcome.ok) throw new Error(`${kernel.symbol}: ${outcome.diagnostics}`);
  const compiled = outcome.kernel;
  const launch: SuiteLaunch = (workload) => compiled.launch(workload);
  launches.set(key, launch);
  return launch;
}

export interface SimCaseResult {
  readonly label: string;
  readonly failures: readonly string[];
  readonly instructions: number;
  readonly milliseconds: number;
}

function sameKind(data: HostArray, bytes: Uint8Array): HostArray {
  const copy = bytes.slice().buffer;
  return data instanceof Float32Array ? new Float32Array(copy) : data instanceof Int32Array ? new Int32Array(copy) : new Uint32Array(copy);
}

/** Runs one case of `kernel` in `module`; failures name output, mismatch count and first difference. */
export function runSimCase(rt: SimRuntime, module: SimModule, kernel: SuiteKernel, launchOf: SuiteLaunch, shape: CaseShape, seed = 1): SimCaseResult {
  const c: KernelCase = kernel.build(shape, seed);
  const buffers = new Map<string, { buffer: SimBuffer; data: HostArray }>();
  const values: ArgValue[] = c.args.map((a) => {
    if (a.kind === "scalar") return a.value;
    const buffer = rt.allocate(a.data.byteLength, a.name);
    rt.upload(buffer, a.data);
    buffers.set(a.name, { buffer, data: a.data });
    return buffer;
  });
  const launch = launchOf(c.workload.map(Number));
  const stats = rt.launch(module.kernel(kernel.symbol), launch.workgroupCount, values, { workgroupSize: launch.workgroupSize });
  const failures: string[] = [];
  for (const [name, want] of Object.entries(c.reference())) {
    const b = buffers.get(name)!;
    const check = compareOutput(name, sameKind(b.data, rt.download(b.buffer)), want);
    if (check.mismatches > 0) failures.push(`${name}: ${describeCheck(check)}`);
  }
  for (const b of buffers.values()) rt.free(b.buffer);
  return { label: c.label, failures, instructions: stats.instructions, milliseconds: stats.milliseconds };
}
