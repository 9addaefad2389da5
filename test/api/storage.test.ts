import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Compiler, Context, LaunchConfigProgram, PassProgram, Source, Workspace, compileModule, emitModule } from "../../src/index.js";
import { createSpirvProfile, createSpirvTargetEnvironment } from "../../src/targets/spirv/index.js";
import { fromRoot } from "../util/paths.js";
import { requireTool, runTool } from "../util/tools.js";

/** Bytes of every Workgroup-storage variable in a module, from spirv-dis (an independent reader). */
function workgroupBytes(dis: string): number {
  const arrays = new Map<string, number>();
  const ptrs = new Map<string, string>();
  let total = 0;
  const consts = new Map<string, number>();
  for (const line of dis.split("\n")) {
    let m = /^\s*(%\S+) = OpConstant %uint (\d+)$/.exec(line);
    if (m) consts.set(m[1]!, Number(m[2]));
    m = /^\s*(%\S+) = OpTypeArray %(float|uint|int) (%\S+)$/.exec(line);
    if (m) arrays.set(m[1]!, 4 * consts.get(m[3]!)!);
    m = /^\s*(%\S+) = OpTypePointer Workgroup (%\S+)$/.exec(line);
    if (m) ptrs.set(m[1]!, m[2]!);
    m = /^\s*%\S+ = OpVariable (%\S+) Workgroup$/.exec(line);
    if (m) total += arrays.get(ptrs.get(m[1]!)!) ?? NaN;
  }
  return total;
}

test("workgroupStorageBytes counts collective scratch and equals the module's Workgroup variables", (t) => {
  const env = createSpirvTargetEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const profile = createSpirvProfile(env, { identifier: "vk", identity: { environment: "vulkan1.3", features: { shaderInt64: true } } });
  const workspace = new Workspace(context);
  const text = readFileSync(fromRoot("examples/kernels/row_softmax.loom"), "utf8");
  const module = workspace.parseModule(Source.fromText("row_softmax.loom", text)).value!;
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const compiled = compileModule(Compiler.create(context), workspace, pipeline, module, {
    specializations: [{ functionSymbol: "row_softmax", targetProfile: profile }],
    artifacts: { launchConfig: true },
  });
  assert.ok(compiled.ok, compiled.formatDiagnostics());
  const program = LaunchConfigProgram.load(compiled.findArtifact("launch-config")!);
  const launch = program.invoke(program.lookupFunction("row_softmax"), [4n]);
  // Two workgroup reductions (max, sum) over 64 f32 lanes.
  assert.equal(Number(launch.workgroupStorageBytes), 2 * 64 * 4);
  const spv = emitModule(env, workspace, module, { artifactFormat: "spirv" }).artifacts[0]!.contents;
  if (!requireTool(t, "spirv-dis", "apt-get install spirv-tools")) return;
  const file = join(mkdtempSync(join(tmpdir(), "loom-storage-")), "k.spv");
  writeFileSync(file, spv);
  const named = runTool("spirv-dis", [file]);
  assert.equal(named.status, 0, named.stderr);
  assert.equal(workgroupBytes(named.stdout), Number(launch.workgroupStorageBytes));
});

test("a kernel whose only workgroup storage is an expanded scan gets it laid out (launch bytes = the module's Workgroup variables)", (t) => {
  const env = createSpirvTargetEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const profile = createSpirvProfile(env, { identifier: "vk", identity: { environment: "vulkan1.3", features: { shaderInt64: true } } });
  const workspace = new Workspace(context);
  const text = `kernel.def @scan_only() {
  %one = index.constant 1 : index
  %sx = index.constant 64 : index
  kernel.launch.config workgroups(%one, %one, %one) workgroup_size(%sx, %one, %one) : index
} launch(%out: buffer) {
  %origin = index.constant 0 : offset
  %x = kernel.workitem.id<x> : index
  %unit = scalar.constant 1 : i32
  %prefix = kernel.workgroup.scan<addi> %unit {direction = forward, mode = inclusive} : i32
  %v = buffer.view %out[%origin] : buffer -> view<64xi32>
  view.store %prefix, %v[%x] : i32, view<64xi32>
  kernel.return
}
`;
  const module = workspace.parseModule(Source.fromText("scan_only.loom", text)).value!;
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const compiled = compileModule(Compiler.create(context), workspace, pipeline, module, {
    specializations: [{ functionSymbol: "scan_only", targetProfile: profile }],
    artifacts: { launchConfig: true },
  });
  assert.ok(compiled.ok, compiled.formatDiagnostics());
  const program = LaunchConfigProgram.load(compiled.findArtifact("launch-config")!);
  const launch = program.invoke(program.lookupFunction("scan_only"), []);
  // One i32 slot per invocation of the 64-wide workgroup.
  assert.equal(Number(launch.workgroupStorageBytes), 64 * 4);
  const spv = emitModule(env, workspace, module, { artifactFormat: "spirv" }).artifacts[0]!.contents;
  if (!requireTool(t, "spirv-dis", "apt-get install spirv-tools")) return;
  const file = join(mkdtempSync(join(tmpdir(), "loom-storage-")), "k.spv");
  writeFileSync(file, spv);
  const named = runTool("spirv-dis", [file]);
  assert.equal(named.status, 0, named.stderr);
  assert.equal(workgroupBytes(named.stdout), Number(launch.workgroupStorageBytes));
});
