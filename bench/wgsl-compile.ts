/**
 * `.loom` → WGSL compile latency (parse, verify, compile with the launch-config companion,
 * lower, print, interface record) for saxpy and matmul16, in process after warm-up; goal
 * saxpy p50 ≤ 0.1 ms (issue 10). `backend_only` times the WGSL package alone (prepared kernel
 * → WGSL text); the rest of the full figure is the shared front end. Anchor in the same run:
 * Tint (Dawn's null backend) parsing and validating the very WGSL we emitted
 * (`createShaderModule` + `getCompilationInfo`), the step a WebGPU implementation repeats when
 * the module is loaded. Warm-up: every case round-robin for ≥ 2 s, until the round time is stable, before any is timed
 * (`warmUpRoundRobin`, reported as `warmup`).
 */
import { readFileSync } from "node:fs";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule } from "../src/index.js";
import { createWgslProfile, createWgslTargetEnvironment, wgslInfoOf } from "../src/targets/wgsl/index.js";
import { lowerKernel } from "../src/targets/wgsl/lower/kernel.js";
import type { PreparedModule } from "../src/core/prepared.js";
import type { TargetEnvironment } from "../src/core/target.js";
import { percentiles, repoPath as root, timeWarmed, warmUpRoundRobin } from "./stats.js";

/** Median ms of Tint accepting `code` (null backend), or why it could not be measured. */
async function tintMs(code: string, samples: number): Promise<number | string> {
  let mod: { create(flags: string[]): any; globals: Record<string, unknown> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    mod = (await import("webgpu")) as never;
  } catch {
    return "npm package webgpu not installed";
  }
  Object.assign(globalThis, mod.globals);
  const gpu = mod.create(["backend=null"]);
  const device = await (await gpu.requestAdapter()).requestDevice();
  const times: number[] = [];
  for (let i = 0; i < samples + 5; i++) {
    // A fresh comment defeats Dawn's shader-module cache.
    const t0 = performance.now();
    const m = device.createShaderModule({ code: `${code}// ${i}\n` });
    const info = await m.getCompilationInfo();
    const t = performance.now() - t0;
    if (info.messages.some((x: { type: string }) => x.type === "error")) return "Tint rejected the module";
    if (i >= 5) times.push(t);
  }
  device.destroy();
  void gpu;
  return percentiles(times).p50;
}

export async function benchWgslCompile(): Promise<Record<string, unknown>> {
  const wgslEnv = createWgslTargetEnvironment();
  // Sees the prepared module compileModule hands the environment, to time the back end alone.
  let prepared: PreparedModule | undefined;
  const env: TargetEnvironment = { ...wgslEnv, check: (m) => ((prepared = m), wgslEnv.check(m)) };
  const context = Context.create({ targetEnvironments: [env] });
  const profile = createWgslProfile(wgslEnv, { identifier: "bench", identity: { features: ["shader-f16", "subgroups"] } });
  const compiler = Compiler.create(context);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const workspace = new Workspace(context);
  const results: Record<string, unknown> = { name: "compile.wgsl", unit: "ms" };
  // Every case is built first, warmed up together, then timed one by one.
  const cases: { kernel: string; goal: number; once: () => void; backend: () => unknown; wgsl: () => Uint8Array }[] = [];
  for (const [kernel, goal] of [["saxpy", 0.1], ["matmul16", 0.5]] as const) {
    const text = readFileSync(root(`examples/kernels/${kernel}.loom`), "utf8");
    let wgsl: Uint8Array | undefined;
    const once = () => {
      const module = workspace.parseModule(Source.fromText(`${kernel}.loom`, text)).value!;
      const c = compileModule(compiler, workspace, pipeline, module, { specializations: [{ functionSymbol: kernel, targetProfile: profile }], artifacts: { launchConfig: true } });
      if (!c.ok) throw new Error(c.formatDiagnostics());
      const e = emitModule(env, workspace, module, { artifactFormat: "wgsl" });
      if (!e.ok) throw new Error(e.formatDiagnostics());
      wgsl = e.artifacts[0]!.contents;
    };
    once();
    const k = prepared!.kernels[0]!;
    const info = wgslInfoOf(k.profile)!;
    cases.push({ kernel, goal, once, backend: () => lowerKernel(k, info), wgsl: () => wgsl! });
  }
  results.warmup = warmUpRoundRobin(cases.flatMap((c) => [c.once, c.backend]));
  for (const { kernel, goal, once, backend: lowerOnce, wgsl: emitted } of cases) {
    const p = timeWarmed(once, 2000);
    const backend = timeWarmed(lowerOnce, 2000);
    const wgsl = emitted();
    const tint = await tintMs(new TextDecoder().decode(wgsl), 50);
    results[kernel] = {
      in_process_p50_ms: p.p50,
      in_process_p99_ms: p.p99,
      goal_p50_ms: goal,
      backend_only_p50_ms: backend.p50,
      backend_only_p99_ms: backend.p99,
      wgsl_bytes: wgsl.length,
      anchor_tint_null_backend_p50_ms: tint,
      ratio_in_process_to_tint: typeof tint === "number" ? Math.round((p.p50 / tint) * 10000) / 10000 : undefined,
    };
  }
  return results;
}
