/**
 * `.loom` → SPIR-V compile latency (parse, verify, compile with the launch-config companion,
 * emit) for saxpy and matmul16, in process after warm-up; goals p50 ≤ 0.13 ms (saxpy, issue 7) and ≤ 5 ms.
 * `backend_only` times the SPIR-V package alone (prepared kernel → lowered, sealed module → bytes).
 * Warm-up: every case round-robin for ≥ 2 s, until the round time is stable, before any is timed (`warmUpRoundRobin`, reported
 * as `warmup`). Anchors in the same run: glslangValidator compiling the equivalent GLSL (a whole process,
 * bench/glsl/*.comp) and, for a like-for-like view, `loom compile` as a whole process.
 */
import { readFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule } from "../src/index.js";
import { createSpirvProfile, createSpirvTargetEnvironment } from "../src/targets/spirv/index.js";
import { checkSpirvModule, emitSpirvModule } from "../src/targets/spirv/environment.js";
import { LoweredForms, type PreparedModule } from "../src/core/prepared.js";
import type { TargetEnvironment } from "../src/core/target.js";
import { repoPath as root, timeWarmed, warmUpRoundRobin, wholeProcessMs } from "./stats.js";

export async function benchSpirvCompile(): Promise<Record<string, unknown>> {
  const spirvEnv = createSpirvTargetEnvironment();
  // Sees the prepared module compileModule hands the environment, to time the back end alone.
  let prepared: PreparedModule | undefined;
  const env: TargetEnvironment = { ...spirvEnv, check: (m) => ((prepared = m), spirvEnv.check(m)) };
  const context = Context.create({ targetEnvironments: [env] });
  const profile = createSpirvProfile(spirvEnv, {
    identifier: "bench",
    identity: { environment: "vulkan1.3", features: { shaderInt64: true }, limits: { maxComputeWorkGroupInvocations: 1024, maxComputeWorkGroupSize: [1024, 1024, 64] } },
  });
  const compiler = Compiler.create(context);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const workspace = new Workspace(context);
  const out = mkdtempSync(join(tmpdir(), "loom-bench-"));
  const results: Record<string, unknown> = { name: "compile.spirv", unit: "ms" };
  // Every case is built first, warmed up together, then timed one by one.
  const cases: { kernel: string; goal: number; file: string; once: () => void; backend: () => void }[] = [];
  for (const [kernel, goal] of [["saxpy", 0.13], ["matmul16", 5]] as const) {
    const file = root(`examples/kernels/${kernel}.loom`);
    const text = readFileSync(file, "utf8");
    const once = () => {
      const module = workspace.parseModule(Source.fromText(`${kernel}.loom`, text)).value!;
      const c = compileModule(compiler, workspace, pipeline, module, { specializations: [{ functionSymbol: kernel, targetProfile: profile }], artifacts: { launchConfig: true } });
      if (!c.ok) throw new Error(c.formatDiagnostics());
      const e = emitModule(env, workspace, module, { artifactFormat: "spirv" });
      if (!e.ok) throw new Error(e.formatDiagnostics());
    };
    once();
    const compiled = prepared!;
    // The back end alone: lowering into one module (check) and writing its words (emit), on a
    // fresh lowered-forms slot each time so nothing is reused.
    const backend = () => {
      const m: PreparedModule = { ...compiled, lowered: new LoweredForms() };
      if (checkSpirvModule(m).length > 0) throw new Error("the SPIR-V check failed");
      if (!emitSpirvModule(m, { artifactFormat: "spirv", identifier: "bench", primary: true }).contents) throw new Error("the SPIR-V emit failed");
    };
    cases.push({ kernel, goal, file, once, backend });
  }
  results.warmup = warmUpRoundRobin(cases.flatMap((c) => [c.once, c.backend]));
  for (const { kernel, goal, file, once, backend } of cases) {
    const p = timeWarmed(once, 2000);
    const b = timeWarmed(backend, 2000);
    const glsl = wholeProcessMs("glslangValidator", ["-V", "--target-env", "vulkan1.3", root(`bench/glsl/${kernel}.comp`), "-o", join(out, `${kernel}.glsl.spv`)], 20);
    const loomCli = wholeProcessMs(process.execPath, [root("dist/src/cli/main.js"), "compile", file, "--target", "spirv:vulkan1.3", "--feature", "shaderInt64", "--limit", "maxComputeWorkGroupInvocations=1024", "--limit", "maxComputeWorkGroupSize=1024,1024,64", "-o", join(out, `${kernel}.spv`)], 10);
    results[kernel] = {
      in_process_p50_ms: p.p50,
      in_process_p99_ms: p.p99,
      goal_p50_ms: goal,
      backend_only_p50_ms: b.p50,
      backend_only_p99_ms: b.p99,
      anchor_glslangValidator_process_ms: glsl ?? "glslangValidator not installed",
      loom_cli_process_ms: loomCli,
      ratio_in_process_to_glslang_process: glsl ? Math.round((p.p50 / glsl) * 1000) / 1000 : undefined,
    };
  }
  return results;
}
