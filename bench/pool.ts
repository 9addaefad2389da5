/**
 * Compile-pool throughput for 1, 2 and 4 workers (jobs/s compiling .loom → SPIR-V and
 * HSACO with the launch-config companion), against the same jobs compiled serially in
 * this thread (the anchor). Also the heap held per in-flight compile: N modules compiled
 * and kept alive at once, heap growth / N after GC.
 */
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { CompilePool, type CompileJob } from "../src/node.js";
import { PreparedWorkerState } from "../src/pool/run-job.js";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule } from "../src/index.js";
import { createSpirvProfile, createSpirvTargetEnvironment } from "../src/targets/spirv/index.js";

const root = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const targets = {
  rdna3: { environment: "amdgpu", options: { identifier: "rdna3", identity: { target: "gfx1100" } } },
  vulkan: {
    environment: "spirv",
    options: { identifier: "vk", identity: { environment: "vulkan1.3", features: { shaderInt64: true }, limits: { maxComputeWorkGroupInvocations: 1024, maxComputeWorkGroupSize: [1024, 1024, 64] } } },
  },
};

function jobs(): CompileJob[] {
  const seed = readFileSync(root("examples/integration/jit-kernel/kernel.loom"), "utf8");
  const out: CompileJob[] = [];
  for (const [file, kernel] of [["saxpy", "saxpy"], ["matmul16", "matmul16"], ["block_sum", "block_sum"]] as const) {
    const text = readFileSync(root(`examples/kernels/${file}.loom`), "utf8");
    out.push({ source: { name: `${file}.loom`, text }, specializations: [{ functionSymbol: kernel, target: "vulkan" }], artifacts: { launchConfig: true }, emit: [{ target: "vulkan" }] });
  }
  out.push({ source: { name: "kernel.loom", text: seed }, specializations: [{ functionSymbol: "workload_grid", target: "rdna3" }], artifacts: { launchConfig: true }, emit: [{ target: "rdna3" }] });
  return out;
}

/** Jobs per second over `seconds`, keeping `window` jobs in flight (a steady queue). */
async function steadyRate(run: (j: CompileJob) => Promise<unknown>, batch: CompileJob[], window: number, seconds: number): Promise<number> {
  let done = 0, next = 0;
  const t0 = performance.now();
  const lane = async () => {
    while (performance.now() - t0 < seconds * 1000) {
      await run(batch[next++ % batch.length]!);
      done++;
    }
  };
  await Promise.all(Array.from({ length: window }, lane));
  return done / ((performance.now() - t0) / 1000);
}

function median3(xs: number[]): number {
  return Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!);
}

async function throughput(workers: number, batch: CompileJob[]): Promise<number> {
  const pool = new CompilePool({ workers, targets });
  try {
    // Warm-up: worker start-up and JIT of the compiler in every worker.
    await steadyRate((j) => pool.compile(j), batch, 4 * workers, 3);
    const runs: number[] = [];
    for (let r = 0; r < 3; r++) runs.push(await steadyRate((j) => pool.compile(j), batch, 4 * workers, 1.5));
    return median3(runs);
  } finally {
    await pool.close();
  }
}

/** Heap retained per compile while it is in flight: source, module IR, prepared state, artifacts. */
function heapPerInflight(batch: CompileJob[]): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  const env = createSpirvTargetEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const profile = createSpirvProfile(env, targets.vulkan.options as never);
  const compiler = Compiler.create(context);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const spirvJobs = batch.filter((j) => j.specializations[0]!.target === "vulkan");
  const n = 48;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const kept: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const job = spirvJobs[i % spirvJobs.length]!;
    const workspace = new Workspace(context);
    const module = workspace.parseModule(Source.fromText(job.source.name, job.source.text!)).value!;
    const compiled = compileModule(compiler, workspace, pipeline, module, {
      specializations: [{ functionSymbol: job.specializations[0]!.functionSymbol, targetProfile: profile }],
      artifacts: { launchConfig: true },
    });
    if (!compiled.ok) throw new Error(compiled.formatDiagnostics());
    const emitted = emitModule(env, workspace, module, { artifactFormat: "spirv" });
    kept.push({ workspace, module, compiled, emitted }); // everything an unfinished compile holds
  }
  gc?.();
  const after = process.memoryUsage().heapUsed;
  return kept.length === n ? Math.round((after - before) / n) : NaN;
}

export async function benchPool(): Promise<Record<string, unknown>> {
  const batch = jobs();
  const state = new PreparedWorkerState({ targets });
  const inThread = async (j: CompileJob) => state.run(j);
  await steadyRate(inThread, batch, 1, 3);
  const runs: number[] = [];
  for (let r = 0; r < 3; r++) runs.push(await steadyRate(inThread, batch, 1, 1.5));
  const serial = median3(runs);
  const result: Record<string, unknown> = {
    name: "pool.throughput",
    unit: "jobs/s (median of 3 × 1.5 s, 4 jobs in flight per worker)",
    cores: cpus().length,
    jobs: batch.map((j) => j.source.name),
    anchor: { name: "same jobs serially in-thread", jobs_per_s: serial },
  };
  for (const w of [1, 2, 4]) {
    const t = await throughput(w, batch);
    result[`workers_${w}_jobs_per_s`] = t;
    result[`workers_${w}_ratio_to_serial`] = Math.round((t / serial) * 100) / 100;
    // Workers start cold while this thread's compiler is already JIT-warm from earlier
    // benches: one worker is the like-for-like baseline for scaling.
    result[`workers_${w}_ratio_to_1_worker`] = Math.round((t / (result.workers_1_jobs_per_s as number)) * 100) / 100;
  }
  result.heap_bytes_per_inflight_compile = heapPerInflight(batch);
  result.heap_goal_bytes = 16 * 1024 * 1024;
  result.gc_exposed = typeof (globalThis as { gc?: unknown }).gc === "function";
  return result;
}
