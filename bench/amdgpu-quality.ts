/**
 * AMDGPU code quality next to LLVM (issue 8 item 8): for every suite kernel on gfx1100 and
 * gfx942, the static instruction count of our code (code-end padding excluded) and the
 * metadata `.vgpr_count`/`.sgpr_count`, against clang-19 -O2 + ld.lld-19 on the equivalent
 * OpenCL C (test/sim/opencl). Goals: ≤ 1.3× the instructions, ≤ 1.25× the VGPRs. Static
 * counts only (no timing), so the numbers do not depend on machine load.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule } from "../src/index.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../src/targets/amdgpu/index.js";
import { KERNEL_SUITE } from "../examples/kernels/suite.js";
import { repoPath as root } from "./stats.js";
import { codeFacts, tool } from "./amdgpu-compile.js";

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

/** One row per suite kernel and processor: ours, clang's, and the ratios. */
export function amdgpuCodeQuality(): Record<string, unknown> {
  const env = createAmdgpuTargetEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const compiler = Compiler.create(context);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const dir = mkdtempSync(join(tmpdir(), "loom-bench-amdgpu-quality-"));
  const results: Record<string, unknown> = { name: "quality.amdgpu", unit: "instructions" };
  try {
    for (const mcpu of ["gfx1100", "gfx942"]) {
      const profile = createAmdgpuProfile(env, { identifier: `quality-${mcpu}`, identity: { target: mcpu } });
      for (const k of KERNEL_SUITE) {
        const workspace = new Workspace(context);
        const module = workspace.parseModule(Source.fromText(k.file, readFileSync(root(`examples/kernels/${k.file}`), "utf8"))).value!;
        const c = compileModule(compiler, workspace, pipeline, module, { specializations: [{ functionSymbol: k.symbol, targetProfile: profile }] });
        if (!c.ok) throw new Error(c.formatDiagnostics());
        const e = emitModule(env, workspace, module, { artifactFormat: "amdgpu-hsaco" });
        if (!e.ok) throw new Error(e.formatDiagnostics());
        const ours = join(dir, `${k.symbol}.${mcpu}.hsaco`);
        writeFileSync(ours, e.artifacts[0]!.contents);
        const source = root(`test/sim/opencl/${k.symbol}.cl`);
        const object = join(dir, `${k.symbol}.${mcpu}.o`), theirsPath = join(dir, `${k.symbol}.${mcpu}.clang.hsaco`);
        const built =
          existsSync(source) &&
          tool("clang-19", ["-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", `-mcpu=${mcpu}`, "-nogpulib", "-O2", "-c", source, "-o", object]).status === 0 &&
          tool("ld.lld-19", ["-shared", object, "-o", theirsPath]).status === 0;
        const mine = codeFacts(ours, mcpu, k.symbol);
        const theirs = built ? codeFacts(theirsPath, mcpu, k.symbol) : undefined;
        results[`${k.symbol}.${mcpu}`] = {
          instructions: mine?.instructions, vgprs: mine?.vgprs, sgprs: mine?.sgprs,
          clang_instructions: theirs?.instructions, clang_vgprs: theirs?.vgprs, clang_sgprs: theirs?.sgprs,
          ratio_instructions_to_clang: mine && theirs ? ratio(mine.instructions, theirs.instructions) : undefined,
          ratio_vgprs_to_clang: mine && theirs ? ratio(mine.vgprs, theirs.vgprs) : undefined,
        };
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
