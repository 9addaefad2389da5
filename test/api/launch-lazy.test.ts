/**
 * compileModule lowers the launch-config companion when its bytes are first read, on the
 * grounds that lowering cannot refuse a module that compiled (the verifier and the pipeline's
 * limit check, STRUCTURE/906, report everything lower.ts refuses). The proof here: every
 * kernel of the repository's sources that compiles, for SPIR-V and for PTX, has a companion
 * that lowers, loads and evaluates; and a module that exceeds a companion limit still fails
 * in compileModule, with its diagnostic.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Compiler, Context, LaunchConfigProgram, PassProgram, Source, Workspace, compileModule, type TargetProfile } from "../../src/index.js";
import { createSpirvProfile, createSpirvTargetEnvironment } from "../../src/targets/spirv/index.js";
import { createPtxProfile, createPtxTargetEnvironment } from "../../src/targets/ptx/index.js";
import { fromRoot } from "../util/paths.js";

const DIRS = ["examples", "bench/kernels", "test/cases", "test/fixtures/valid", "test/interp/kernels", "test/spirv/kernels", "test/ptx/kernels", "test/wgsl/kernels"];

function* looms(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* looms(p);
    else if (e.name.endsWith(".loom")) yield p;
  }
}

const spirvEnv = createSpirvTargetEnvironment();
const ptxEnv = createPtxTargetEnvironment();
const context = Context.create({ targetEnvironments: [spirvEnv, ptxEnv] });
const compiler = Compiler.create(context);
const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
const profiles: TargetProfile[] = [
  createSpirvProfile(spirvEnv, { identifier: "vk", identity: { environment: "vulkan1.3", features: { shaderInt64: true } } }),
  createPtxProfile(ptxEnv, { identifier: "sm90", identity: { target: "sm_90" } }),
];

test("every kernel that compiles has a companion that lowers on first read", () => {
  const workspace = new Workspace(context);
  let compiled = 0;
  for (const dir of DIRS) {
    for (const file of looms(fromRoot(dir))) {
      const text = readFileSync(file, "utf8");
      const parsed = workspace.parseModule(Source.fromText(file, text));
      if (!parsed.ok) continue;
      const kernels = parsed.value!.ir.ops.filter((op) => op.name === "kernel.def").map((op) => op.symbol!);
      for (const symbol of kernels) {
        for (const profile of profiles) {
          const module = workspace.parseModule(Source.fromText(file, text)).value!;
          const r = compileModule(compiler, workspace, pipeline, module, { specializations: [{ functionSymbol: symbol, targetProfile: profile }], artifacts: { launchConfig: true } });
          if (!r.ok) continue;
          const artifact = r.findArtifact("launch-config")!;
          const program = LaunchConfigProgram.load(artifact);
          assert.ok(program.lookupFunction(symbol), `${file} @${symbol}`);
          compiled++;
        }
      }
    }
  }
  assert.ok(compiled > 100, `only ${compiled} kernels compiled`);
});

test("a companion limit still fails compileModule with its diagnostic (not the first read)", () => {
  const workspace = new Workspace(context);
  const args = Array.from({ length: 300 }, (_, i) => `%a${i}: index`).join(", ");
  const text = `kernel.def @wide(${args}) {\n  %c1 = index.constant 1 : index\n  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index\n} launch() {\n  kernel.return\n}\n`;
  const module = workspace.parseModule(Source.fromText("wide.loom", text)).value!;
  const r = compileModule(compiler, workspace, pipeline, module, { specializations: [{ functionSymbol: "wide", targetProfile: profiles[0]! }], artifacts: { launchConfig: true } });
  assert.equal(r.ok, false);
  assert.deepEqual(r.diagnostics.map((d) => d.code), ["STRUCTURE/906"]);
});
