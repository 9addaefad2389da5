/**
 * `.loom` → PTX compile latency (parse, verify, compile with the launch-config companion,
 * lower, print) for saxpy and matmul16, in process after warm-up; goals p50 ≤ 0.1 ms and
 * ≤ 0.5 ms (issue 14). Anchor in the same run: `ptxas -arch=sm_90` assembling the very PTX
 * we emitted (a whole process), the step the CUDA driver's JIT repeats at load time.
 * `backend_only` times the PTX package alone (prepared kernel → PTX text), the rest of the
 * full figure is the shared front end (parse, verify, specialize, launch companion).
 * Warm-up: every case round-robin for ≥ 2 s, until the round time is stable, before any is timed (`warmUpRoundRobin`, reported
 * as `warmup`).
 */
import { readFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule } from "../src/index.js";
import { createPtxProfile, createPtxTargetEnvironment, ptxInfoOf } from "../src/targets/ptx/index.js";
import { lowerKernel } from "../src/targets/ptx/lower/kernel.js";
import type { PreparedModule } from "../src/core/prepared.js";
import type { TargetEnvironment } from "../src/core/target.js";
import { repoPath as root, timeWarmed, warmUpRoundRobin, wholeProcessMs } from "./stats.js";

export async function benchPtxCompile(): Promise<Record<string, unknown>> {
  const ptxEnv = createPtxTargetEnvironment();
  // Sees the prepared module compileModule hands the environment, to time the backend alone.
  let prepared: PreparedModule | undefined;
  const env: TargetEnvironment = { ...ptxEnv, check: (m) => ((prepared = m), ptxEnv.check(m)) };
  const context = Context.create({ targetEnvironments: [env] });
  const profile = createPtxProfile(ptxEnv, { identifier: "bench", identity: { target: "sm_90" } });
  const compiler = Compiler.create(context);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const workspace = new Workspace(context);
  const out = mkdtempSync(join(tmpdir(), "loom-bench-ptx-"));
  const results: Record<string, unknown> = { name: "compile.ptx", unit: "ms" };
  // Every case is built first, warmed up together, then timed one by one.
  const cases: { kernel: string; goal: number; once: () => void; backend: () => unknown; ptx: () => Uint8Array }[] = [];
  for (const [kernel, goal] of [["saxpy", 0.1], ["matmul16", 0.5]] as const) {
    const text = readFileSync(root(`examples/kernels/${kernel}.loom`), "utf8");
    let ptx: Uint8Array | undefined;
    const once = () => {
      const module = workspace.parseModule(Source.fromText(`${kernel}.loom`, text)).value!;
      const c = compileModule(compiler, workspace, pipeline, module, { specializations: [{ functionSymbol: kernel, targetProfile: profile }], artifacts: { launchConfig: true } });
      if (!c.ok) throw new Error(c.formatDiagnostics());
      const e = emitModule(env, workspace, module, { artifactFormat: "ptx" });
      if (!e.ok) throw new Error(e.formatDiagnostics());
      ptx = e.artifacts[0]!.contents;
    };
    once();
    const k = prepared!.kernels[0]!;
    const info = ptxInfoOf(k.profile)!;
    cases.push({ kernel, goal, once, backend: () => lowerKernel(k, info), ptx: () => ptx! });
  }
  results.warmup = warmUpRoundRobin(cases.flatMap((c) => [c.once, c.backend]));
  for (const { kernel, goal, once, backend: lowerOnce, ptx: emitted } of cases) {
    const p = timeWarmed(once, 2000);
    const backend = timeWarmed(lowerOnce, 2000);
    const ptx = emitted();
    const file = join(out, `${kernel}.ptx`);
    writeFileSync(file, ptx);
    const ptxas = wholeProcessMs("ptxas", ["-arch=sm_90", file, "-o", join(out, `${kernel}.cubin`)], 10);
    results[kernel] = {
      in_process_p50_ms: p.p50,
      in_process_p99_ms: p.p99,
      goal_p50_ms: goal,
      backend_only_p50_ms: backend.p50,
      backend_only_p99_ms: backend.p99,
      ptx_bytes: ptx.length,
      anchor_ptxas_sm_90_process_ms: ptxas ?? "ptxas not installed",
      ratio_in_process_to_ptxas: ptxas ? Math.round((p.p50 / ptxas) * 10000) / 10000 : undefined,
    };
  }
  return results;
}
