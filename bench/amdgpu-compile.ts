/**
 * `.loom` → HSACO compile latency (parse, verify, compile with the launch-config companion,
 * select, allocate, encode, write the code object) for saxpy and matmul16 on gfx1100 and
 * gfx942, in process after warm-up; goals p50 ≤ 0.15 ms and ≤ 1 ms (issue 8). Anchor in the
 * same run: clang-19 -O2 + ld.lld-19 on the equivalent OpenCL C (test/sim/opencl, whole
 * processes), when those files are in the tree; the code-quality columns compare static
 * instruction counts and `.vgpr_count`/`.sgpr_count` with that LLVM build.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule } from "../src/index.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../src/targets/amdgpu/index.js";
import { percentiles, repoPath as root, timeSamples } from "./stats.js";

/** Runs an LLVM tool (a whole process). */
function tool(cmd: string, args: readonly string[]) {
  return spawnSync(cmd, args, { encoding: "utf8" });
}

interface CodeFacts {
  readonly instructions: number;
  readonly vgprs: number;
  readonly sgprs: number;
}

/** Static instruction count of `symbol` (code-end padding excluded) and the metadata register counts. */
function codeFacts(path: string, mcpu: string, symbol: string): CodeFacts | undefined {
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

function clangBuild(kernel: string, mcpu: string, dir: string): { path: string; ms: number } | undefined {
  const source = root(`test/sim/opencl/${kernel}.cl`);
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

export async function benchAmdgpuCompile(): Promise<Record<string, unknown>> {
  const env = createAmdgpuTargetEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const compiler = Compiler.create(context);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const workspace = new Workspace(context);
  const dir = mkdtempSync(join(tmpdir(), "loom-bench-amdgpu-"));
  const results: Record<string, unknown> = { name: "compile.amdgpu", unit: "ms" };
  for (const mcpu of ["gfx1100", "gfx942"]) {
    const profile = createAmdgpuProfile(env, { identifier: `bench-${mcpu}`, identity: { target: mcpu } });
    for (const [kernel, goal] of [["saxpy", 0.15], ["matmul16", 1]] as const) {
      const text = readFileSync(root(`examples/kernels/${kernel}.loom`), "utf8");
      let hsaco: Uint8Array | undefined;
      const once = () => {
        const module = workspace.parseModule(Source.fromText(`${kernel}.loom`, text)).value!;
        const c = compileModule(compiler, workspace, pipeline, module, { specializations: [{ functionSymbol: kernel, targetProfile: profile }], artifacts: { launchConfig: true } });
        if (!c.ok) throw new Error(c.formatDiagnostics());
        const e = emitModule(env, workspace, module, { artifactFormat: "amdgpu-hsaco" });
        if (!e.ok) throw new Error(e.formatDiagnostics());
        hsaco = e.artifacts[0]!.contents;
      };
      const p = percentiles(timeSamples(once, { warmup: 1000, samples: 1000 }));
      const ours = join(dir, `${kernel}.${mcpu}.hsaco`);
      writeFileSync(ours, hsaco!);
      const clang = clangBuild(kernel, mcpu, dir);
      const mine = codeFacts(ours, mcpu, kernel);
      const theirs = clang ? codeFacts(clang.path, mcpu, kernel) : undefined;
      results[`${kernel}.${mcpu}`] = {
        in_process_p50_ms: p.p50,
        in_process_p99_ms: p.p99,
        goal_p50_ms: goal,
        hsaco_bytes: hsaco!.length,
        anchor_clang_o2_lld_process_ms: clang?.ms ?? "test/sim/opencl not in the tree",
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
  }
  return results;
}
