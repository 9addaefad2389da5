/**
 * Compile latency of the jit-kernel example, in process: `.loom` text → HSACO (parse, verify,
 * compile with the launch-config companion, emit), after warm-up. Anchor: parsing alone,
 * measured in the same run, so the ratio says where the time goes. Goal: p50 ≤ 0.07 ms (issue 7).
 * Warm-up: both cases round-robin for ≥ 2 s, until the round time is stable, before either is timed (`warmUpRoundRobin`,
 * reported as `warmup`).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ARTIFACT_FORMAT, Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule } from "../src/index.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../src/targets/amdgpu/index.js";
import { timeWarmed, warmUpRoundRobin } from "./stats.js";

export async function benchCompile(): Promise<Record<string, unknown>> {
  const text = readFileSync(fileURLToPath(new URL("../../examples/integration/jit-kernel/kernel.loom", import.meta.url)), "utf8");
  const env = createAmdgpuTargetEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const profile = createAmdgpuProfile(env, { identifier: "bench", identity: { target: "gfx1100" } });
  const compiler = Compiler.create(context);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const workspace = new Workspace(context);

  const compileOnce = () => {
    const module = workspace.parseModule(Source.fromText("kernel.loom", text)).value!;
    const compiled = compileModule(compiler, workspace, pipeline, module, {
      moduleName: "guide_jit_kernel",
      specializations: [{ functionSymbol: "workload_grid", targetProfile: profile }],
      artifacts: { launchConfig: true },
    });
    if (!compiled.ok) throw new Error(compiled.formatDiagnostics());
    const emitted = emitModule(env, workspace, module, { artifactFormat: ARTIFACT_FORMAT.AMDGPU_HSACO, identifier: "guide_jit_kernel.hsaco" });
    if (!emitted.ok) throw new Error(emitted.formatDiagnostics());
    return emitted.artifacts[0]!.contents.byteLength;
  };
  const parseOnce = () => workspace.parseModule(Source.fromText("kernel.loom", text)).ok;

  const warmup = warmUpRoundRobin([compileOnce, parseOnce]);
  const full = timeWarmed(compileOnce, 3000);
  const parse = timeWarmed(parseOnce, 3000);
  return {
    name: "compile.jit_kernel.text_to_hsaco",
    unit: "ms",
    warmup,
    p50_ms: full.p50,
    p99_ms: full.p99,
    goal_p50_ms: 0.07,
    anchor: { name: "parse+verify only", p50_ms: parse.p50, p99_ms: parse.p99 },
    ratio_p50_to_anchor: full.p50 / parse.p50,
    artifact_bytes: compileOnce(),
  };
}
