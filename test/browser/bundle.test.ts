/**
 * The core and the target packages are pure TypeScript with no native or Node dependency
 * (api.md §0): bundle them for the browser with esbuild, then run the bundle in a bare V8
 * context (no `process`, `require`, `Buffer` or Node modules — only what a browser page has)
 * and compile the seed kernel to HSACO and SPIR-V with the launch-config companion.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createContext, runInContext } from "node:vm";
import { build } from "esbuild";
import { fromRoot } from "../util/paths.js";
import { SEED_KERNEL } from "../api/helpers.js";

test("core + amdgpu + spirv bundle for the browser and compile in a bare context", async () => {
  const entry = `export * from ${JSON.stringify(fromRoot("src/index.ts"))};
export { createAmdgpuTargetEnvironment, createAmdgpuProfile } from ${JSON.stringify(fromRoot("src/targets/amdgpu/index.ts"))};
export { createSpirvTargetEnvironment, createSpirvProfile } from ${JSON.stringify(fromRoot("src/targets/spirv/index.ts"))};`;
  const out = await build({
    stdin: { contents: entry, resolveDir: fromRoot("."), loader: "ts" },
    bundle: true,
    platform: "browser",
    format: "iife",
    globalName: "loomc",
    write: false,
    logLevel: "silent",
  });
  assert.deepEqual(out.errors, []);
  const code = out.outputFiles[0]!.text;
  assert.ok(!/require\(["']node:/.test(code), "no Node built-in is required by the bundle");

  // What a browser page offers: no process, require, Buffer or module system.
  const page = createContext({ TextEncoder, TextDecoder, console });
  runInContext(code, page);
  const result = runInContext(
    `(() => {
      const L = loomc;
      const amd = L.createAmdgpuTargetEnvironment(), spv = L.createSpirvTargetEnvironment();
      const context = L.Context.create({ targetEnvironments: [amd, spv] });
      const pipeline = L.PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value;
      const compiler = L.Compiler.create(context);
      const sizes = {};
      for (const [env, profile, format] of [
        [amd, L.createAmdgpuProfile(amd, { identifier: "a", identity: { target: "gfx1100" } }), "amdgpu-hsaco"],
        [spv, L.createSpirvProfile(spv, { identifier: "s", identity: { environment: "vulkan1.3" } }), "spirv"],
      ]) {
        const ws = new L.Workspace(context);
        const m = ws.parseModule(L.Source.fromText("k.loom", ${JSON.stringify(SEED_KERNEL)})).value;
        const c = L.compileModule(compiler, ws, pipeline, m, { specializations: [{ functionSymbol: "workload_grid", targetProfile: profile }], artifacts: { launchConfig: true } });
        if (!c.ok) throw new Error(c.formatDiagnostics());
        const p = L.LaunchConfigProgram.load(c.findArtifact("launch-config"));
        const launch = p.invoke(p.lookupFunction("workload_grid"), [1009n]);
        const e = L.emitModule(env, ws, m, { artifactFormat: format });
        if (!e.ok) throw new Error(e.formatDiagnostics());
        sizes[format] = { bytes: e.artifacts[0].contents.length, groups: launch.workgroupCount.join("x"), typeofProcess: typeof process };
      }
      return JSON.stringify(sizes);
    })()`,
    page,
  ) as string;
  const sizes = JSON.parse(result) as Record<string, { bytes: number; groups: string; typeofProcess: string }>;
  assert.equal(sizes["amdgpu-hsaco"]!.groups, "16x1x1");
  assert.ok(sizes["amdgpu-hsaco"]!.bytes > 1000);
  assert.ok(sizes["spirv"]!.bytes > 100);
  assert.equal(sizes["spirv"]!.typeofProcess, "undefined");
});
