/**
 * `.loom` → HSACO compile latency (parse, verify, compile with the launch-config companion,
 * select, allocate, encode, write the code object) in process after warm-up, for saxpy and
 * matmul16 on gfx1100 and gfx942 (goals p50 ≤ 0.15 ms and ≤ 1 ms, issue 8), and for gfx1100
 * the two compile workloads of bench/kernels/ shaped like the reference implementation's own
 * compile benchmarks: a 16-step dependent i32 chain (≤ 0.1 ms) and an f32 FFN gate/up
 * projection (≤ 0.6 ms); and every other suite kernel on gfx1100 (no goal). `backend_only` times the AMDGPU package alone (prepared kernel →
 * HSACO bytes: selection, allocation, waits, encoding, code object); the rest of the full
 * figure is the shared front end. Anchor in the same run: clang-19 -O2 + ld.lld-19 on the
 * equivalent OpenCL C (test/sim/opencl or bench/kernels, whole processes); the code-quality
 * columns compare static instruction counts and `.vgpr_count`/`.sgpr_count` with that build.
 * Warm-up is time-based and shared: every case (full compile and back end alone) runs
 * round-robin for ≥ 2 s, until the round time is stable, before any is timed
 * (`warmUpRoundRobin`, reported as `warmup`); then each case gets 100 more calls and 1,000
 * timed ones (the suite's big kernels: as many as fit in about a second, at least 50).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule } from "../src/index.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../src/targets/amdgpu/index.js";
import { lowerKernel } from "../src/targets/amdgpu/lower/kernel.js";
import { buildCodeObject } from "../src/targets/amdgpu/code-object.js";
import { codeObjectKernel } from "../src/targets/amdgpu/emit.js";
import { kernelWavefrontSize } from "../src/targets/amdgpu/check.js";
import { amdgpuInfoOf } from "../src/targets/amdgpu/profile.js";
import type { PreparedModule } from "../src/core/prepared.js";
import { KERNEL_SUITE } from "../examples/kernels/suite.js";
import type { TargetEnvironment } from "../src/core/target.js";
import { percentiles, repoPath as root, timeSamples, timeWarmed, warmUpRoundRobin } from "./stats.js";

/** Runs an LLVM tool (a whole process). */
export function tool(cmd: string, args: readonly string[]) {
  return spawnSync(cmd, args, { encoding: "utf8" });
}

interface CodeFacts {
  readonly instructions: number;
  readonly vgprs: number;
  readonly sgprs: number;
}

/** Static instruction count of `symbol` (code-end padding excluded) and the metadata register counts. */
export function codeFacts(path: string, mcpu: string, symbol: string): CodeFacts | undefined {
  const dis = tool("llvm-objdump-19", ["-d", `--mcpu=${mcpu}`, path]);
  const notes = tool("llvm-readobj-19", ["--notes", path]);
  if (dis.status !== 0 || notes.status !== 0) return undefined;
  let on = false;
  let instructions = 0;
  for (const line of dis.stdout.split("\n")) {
    if (line.includes(`<${symbol}>:`)) on = true;
    else if (on && line.trim() === "" && instructions > 0) break;
    else if (on && line.startsWith("\t") && !/\bs_code_end\b|\bs_nop 0\b/.test(line)) instructions++;
  }
  const n = (key: string) => Number(new RegExp(`\\.${key}:\\s+(\\d+)`).exec(notes.stdout)?.[1]);
  return { instructions, vgprs: n("vgpr_count"), sgprs: n("sgpr_count") };
}

function clangBuild(kernel: string, source: string, mcpu: string, dir: string): { path: string; ms: number } | undefined {
  if (!existsSync(source)) return undefined;
  const object = join(dir, `${kernel}.${mcpu}.o`);
  const path = join(dir, `${kernel}.${mcpu}.clang.hsaco`);
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const cc = tool("clang-19", ["-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", `-mcpu=${mcpu}`, "-nogpulib", "-O2", "-c", source, "-o", object]);
    const ld = tool("ld.lld-19", ["-shared", object, "-o", path]);
    if (cc.status !== 0 || ld.status !== 0) return undefined;
    runs.push(performance.now() - t0);
  }
  return { path, ms: percentiles(runs).p50 };
}

interface BenchKernel {
  readonly kernel: string;
  readonly loom: string;
  readonly opencl: string;
  readonly goal?: number;
  readonly targets: readonly string[];
}

const KERNELS: readonly BenchKernel[] = [
  { kernel: "saxpy", loom: "examples/kernels/saxpy.loom", opencl: "test/sim/opencl/saxpy.cl", goal: 0.15, targets: ["gfx1100", "gfx942"] },
  { kernel: "matmul16", loom: "examples/kernels/matmul16.loom", opencl: "test/sim/opencl/matmul16.cl", goal: 1, targets: ["gfx1100", "gfx942"] },
  { kernel: "i32_chain16", loom: "bench/kernels/i32_chain16.loom", opencl: "bench/kernels/i32_chain16.cl", goal: 0.1, targets: ["gfx1100"] },
  { kernel: "ffn_gate_up", loom: "bench/kernels/ffn_gate_up.loom", opencl: "bench/kernels/ffn_gate_up.cl", goal: 0.6, targets: ["gfx1100"] },
  ...KERNEL_SUITE.filter((k) => k.symbol !== "saxpy" && k.symbol !== "matmul16").map((k) => ({ kernel: k.symbol, loom: `examples/kernels/${k.file}`, opencl: `test/sim/opencl/${k.symbol}.cl`, targets: ["gfx1100"] })),
];

/** 1,000 timed calls, or as many as take about a second for the big kernels (at least 50). */
function samplesFor(fn: () => unknown): number {
  const estimate = percentiles(timeSamples(fn, { warmup: 0, samples: 5 })).p50;
  return Math.max(50, Math.min(1000, Math.round(1000 / estimate)));
}

export async function benchAmdgpuCompile(): Promise<Record<string, unknown>> {
  const amdgpu = createAmdgpuTargetEnvironment();
  // Sees the prepared module compileModule hands the environment, to time the back end alone.
  let prepared: PreparedModule | undefined;
  const env: TargetEnvironment = { ...amdgpu, check: (m) => ((prepared = m), amdgpu.check(m)) };
  const context = Context.create({ targetEnvironments: [env] });
  const compiler = Compiler.create(context);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const workspace = new Workspace(context);
  const dir = mkdtempSync(join(tmpdir(), "loom-bench-amdgpu-"));
  const results: Record<string, unknown> = { name: "compile.amdgpu", unit: "ms" };
  // Every case is built (and checked) first, warmed up together, then timed one by one.
  const cases: { kernel: string; mcpu: string; goal: number | undefined; opencl: string; once: () => void; backend: () => Uint8Array; hsaco: Uint8Array }[] = [];
  for (const { kernel, loom, opencl, goal, targets } of KERNELS) {
    const text = readFileSync(root(loom), "utf8");
    for (const mcpu of targets) {
      const profile = createAmdgpuProfile(amdgpu, { identifier: `bench-${mcpu}`, identity: { target: mcpu } });
      let hsaco: Uint8Array | undefined;
      const once = () => {
        const module = workspace.parseModule(Source.fromText(`${kernel}.loom`, text)).value!;
        const c = compileModule(compiler, workspace, pipeline, module, { specializations: [{ functionSymbol: kernel, targetProfile: profile }], artifacts: { launchConfig: true } });
        if (!c.ok) throw new Error(c.formatDiagnostics());
        const e = emitModule(env, workspace, module, { artifactFormat: "amdgpu-hsaco" });
        if (!e.ok) throw new Error(e.formatDiagnostics());
        hsaco = e.artifacts[0]?.contents;
      };
      once();
      // The back end alone on the prepared kernel: the same bytes, from scratch each time.
      const module = prepared;
      const k = module?.kernels[0];
      const info = k && amdgpuInfoOf(k.profile);
      if (!module || !k || !info || !hsaco) throw new Error(`${kernel}.${mcpu}: no prepared kernel or code object`);
      const wave = kernelWavefrontSize(k, info);
      const backend = () => {
        const machine = lowerKernel(k, info, wave, module.analyses).machine!;
        return buildCodeObject(info, [codeObjectKernel(k, info, machine)], { codeObjectVersion: info.codeObjectVersion });
      };
      if (Buffer.compare(backend(), hsaco) !== 0) throw new Error(`${kernel}.${mcpu}: the back end alone gave other bytes than the full compile`);
      cases.push({ kernel, mcpu, goal, opencl, once, backend, hsaco });
    }
  }
  results.warmup = warmUpRoundRobin(cases.flatMap((c) => [c.once, c.backend]));
  for (const { kernel, mcpu, goal, opencl, once, backend, hsaco } of cases) {
    const p = timeWarmed(once, samplesFor(once));
    const b = timeWarmed(backend, samplesFor(backend));
    const ours = join(dir, `${kernel}.${mcpu}.hsaco`);
    writeFileSync(ours, hsaco);
    const clang = clangBuild(kernel, root(opencl), mcpu, dir);
    const mine = codeFacts(ours, mcpu, kernel);
    const theirs = clang ? codeFacts(clang.path, mcpu, kernel) : undefined;
    results[`${kernel}.${mcpu}`] = {
      in_process_p50_ms: p.p50,
      in_process_p99_ms: p.p99,
      goal_p50_ms: goal,
      backend_only_p50_ms: b.p50,
      backend_only_p99_ms: b.p99,
      hsaco_bytes: hsaco.length,
      anchor_clang_o2_lld_process_ms: clang?.ms ?? (existsSync(root(opencl)) ? `clang-19 or ld.lld-19 failed on ${opencl}` : `${opencl} not in the tree`),
      instructions: mine?.instructions,
      vgprs: mine?.vgprs,
      sgprs: mine?.sgprs,
      clang_instructions: theirs?.instructions,
      clang_vgprs: theirs?.vgprs,
      clang_sgprs: theirs?.sgprs,
      ratio_instructions_to_clang: mine && theirs ? Math.round((mine.instructions / theirs.instructions) * 100) / 100 : undefined,
      ratio_vgprs_to_clang: mine && theirs ? Math.round((mine.vgprs / theirs.vgprs) * 100) / 100 : undefined,
    };
  }
  return results;
}
