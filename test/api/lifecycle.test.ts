import { test } from "node:test";
import assert from "node:assert/strict";
import { ARTIFACT_FORMAT, Compiler, Context, LaunchConfigProgram, LoomError, PassProgram, Source, Workspace, compileModule, emitModule } from "../../src/index.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../../src/targets/amdgpu/index.js";
import { prepared, SEED_KERNEL } from "./helpers.js";

function compileSeed(target = "gfx1100") {
  const s = prepared(target);
  const module = s.parse(SEED_KERNEL).value!;
  const compiled = compileModule(s.compiler, s.workspace, s.pipeline, module, {
    moduleName: "guide_jit_kernel",
    specializations: [{ functionSymbol: "@workload_grid", targetProfile: s.profile }],
    artifacts: { launchConfig: true },
  });
  return { ...s, module, compiled };
}

test("seed example: 1009 elements → 16 workgroups of 64, HSACO emitted", () => {
  const { compiled, env, workspace, module } = compileSeed();
  assert.equal(compiled.state, "succeeded", compiled.formatDiagnostics());
  const art = compiled.findArtifact("launch-config", ARTIFACT_FORMAT.LOOM_BYTECODE);
  assert.ok(art);
  const program = LaunchConfigProgram.load(art);
  const launch = program.invoke(program.lookupFunction("workload_grid"), [1009n]);
  assert.deepEqual(launch.workgroupCount, [16, 1, 1]);
  assert.deepEqual(launch.workgroupSize, [64, 1, 1]);
  assert.deepEqual(launch.workgroupClusterSize, [1, 1, 1]);
  assert.equal(launch.subgroupSize, 32);
  assert.equal(Number(launch.workgroupStorageBytes), 0);
  const emitted = emitModule(env, workspace, module, { artifactFormat: ARTIFACT_FORMAT.AMDGPU_HSACO, identifier: "guide_jit_kernel.hsaco", primary: true });
  assert.equal(emitted.state, "succeeded", emitted.formatDiagnostics());
  const exe = emitted.findArtifact("executable", "amdgpu-hsaco")!;
  assert.equal(exe.identifier, "guide_jit_kernel.hsaco");
  assert.deepEqual([...exe.contents.subarray(0, 4)], [0x7f, 0x45, 0x4c, 0x46]);
});

test("gfx942 profile gives wave64 subgroup size", () => {
  const { compiled } = compileSeed("gfx942");
  assert.ok(compiled.ok, compiled.formatDiagnostics());
  const p = LaunchConfigProgram.load(compiled.findArtifact("launch-config")!);
  assert.equal(p.invoke(p.lookupFunction("workload_grid"), [1n]).subgroupSize, 64);
});

test("same inputs give byte-identical artifacts", () => {
  const a = compileSeed(), b = compileSeed();
  assert.deepEqual(a.compiled.artifacts[0]!.contents, b.compiled.artifacts[0]!.contents);
  const ea = emitModule(a.env, a.workspace, a.module, { artifactFormat: "amdgpu-hsaco" });
  const eb = emitModule(b.env, b.workspace, b.module, { artifactFormat: "amdgpu-hsaco" });
  assert.deepEqual(ea.artifacts[0]!.contents, eb.artifacts[0]!.contents);
});

test("a broken program is a failed Result with a coded, located diagnostic — not a throw", () => {
  const s = prepared();
  const r = s.parse(SEED_KERNEL.replace("%rounding : index", "%roundin : index"), "bad.loom");
  assert.equal(r.state, "failed");
  assert.equal(r.value, undefined);
  const d = r.diagnostics.find((x) => x.code === "PARSE/001");
  assert.ok(d, JSON.stringify(r.diagnostics));
  assert.equal(d.location?.source, "bad.loom");
  assert.equal(d.location?.line, 6);
  const text = r.formatDiagnostics();
  assert.match(text, /^bad\.loom:6:\d+: error \[PARSE\/001\]: undefined SSA value '%roundin'/);
  assert.match(text, /\n 6 \| .*\n   \| +\^+/);
  assert.doesNotThrow(() => JSON.stringify(r.toJSON()));
});

test("API misuse throws LoomError with the right status", () => {
  const s = prepared();
  const expectStatus = (fn: () => unknown, status: string) =>
    assert.throws(fn, (e: unknown) => e instanceof LoomError && e.status === status, `expected ${status}`);
  expectStatus(() => createAmdgpuProfile(s.env, { identifier: "x", identity: { target: "gfx9999" } }), "invalid-argument");
  expectStatus(() => Source.fromText("", "x"), "invalid-argument");
  expectStatus(() => PassProgram.fromTargetPipeline(s.context, { kind: "nope" as "prepared-low" }), "invalid-argument");
  const module = s.parse(SEED_KERNEL).value!;
  expectStatus(() => emitModule(s.env, s.workspace, module, { artifactFormat: "amdgpu-hsaco" }), "failed-precondition");
  expectStatus(() => compileModule(s.compiler, s.workspace, s.pipeline, module, { specializations: [] }), "invalid-argument");
  expectStatus(
    () => compileModule(s.compiler, s.workspace, s.pipeline, module, { specializations: [{ functionSymbol: "nope", targetProfile: s.profile }] }),
    "not-found",
  );
  // A profile whose environment the Context does not register.
  const other = createAmdgpuTargetEnvironment();
  const ctx = Context.create({ targetEnvironments: [] });
  const ws = new Workspace(ctx);
  const m2 = ws.parseModule(Source.fromText("k.loom", SEED_KERNEL)).value!;
  const pp = PassProgram.fromTargetPipeline(ctx, { kind: "prepared-low" }).value!;
  expectStatus(
    () => compileModule(Compiler.create(ctx), ws, pp, m2, { specializations: [{ functionSymbol: "workload_grid", targetProfile: createAmdgpuProfile(other, { identifier: "o", identity: { target: "gfx1100" } }) }] }),
    "failed-precondition",
  );
  // Compiling a module twice.
  const ok = compileModule(s.compiler, s.workspace, s.pipeline, module, { specializations: [{ functionSymbol: "workload_grid", targetProfile: s.profile }] });
  assert.ok(ok.ok, ok.formatDiagnostics());
  expectStatus(() => compileModule(s.compiler, s.workspace, s.pipeline, module, { specializations: [{ functionSymbol: "workload_grid", targetProfile: s.profile }] }), "failed-precondition");
  expectStatus(() => emitModule(s.env, s.workspace, module, { artifactFormat: "spirv" }), "invalid-argument");
});

test("clone() gives an independent module for another specialization", () => {
  const s = prepared();
  const module = s.parse(SEED_KERNEL).value!;
  const copy = module.clone();
  const p942 = createAmdgpuProfile(s.env, { identifier: "b", identity: { target: "gfx942" } });
  const a = compileModule(s.compiler, s.workspace, s.pipeline, module, { specializations: [{ functionSymbol: "workload_grid", targetProfile: s.profile }] });
  const b = compileModule(s.compiler, s.workspace, s.pipeline, copy, { specializations: [{ functionSymbol: "workload_grid", targetProfile: p942 }] });
  assert.ok(a.ok && b.ok);
  assert.equal(copy.print(), module.print());
});

test("prepared state is frozen", () => {
  const s = prepared();
  assert.ok(Object.isFrozen(s.context));
  assert.ok(Object.isFrozen(s.profile));
  assert.ok(Object.isFrozen(s.compiler));
  assert.ok(Object.isFrozen(s.pipeline));
});

test("invalid UTF-8 bytes are PARSE/019 at the first bad byte", () => {
  const s = prepared();
  const bytes = new TextEncoder().encode("// ok\n// bad \u00e9 here\n");
  const broken = new Uint8Array([...bytes.subarray(0, 13), 0xff, ...bytes.subarray(13)]);
  const r = s.workspace.parseModule(Source.fromBytes("u.loom", broken));
  assert.equal(r.state, "failed");
  assert.equal(r.diagnostics[0]!.code, "PARSE/019");
  assert.equal(r.diagnostics[0]!.location?.line, 2);
  assert.equal(r.diagnostics[0]!.location?.column, 8);
});

test("clone() remaps values named by where predicates to the copy's own arguments", () => {
  const s = prepared();
  const text = `kernel.def @k(%n: index) where [range(%n, 0, 4096)] {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%n, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(%m: index) where [mul(%m, 16)] {
  kernel.return
}
`;
  const module = s.parse(text).value!;
  const copy = module.clone();
  const original = module.ir.ops[0]!, cloned = copy.ir.ops[0]!;
  const arg = (op: typeof original, key: string) => (op.props[key] as { args: unknown[] }[])[0]!.args[0];
  assert.equal(arg(cloned, "workloadWhere"), cloned.regions[0]!.args[0]);
  assert.equal(arg(cloned, "launchWhere"), cloned.regions[1]!.args[0]);
  assert.notEqual(arg(cloned, "workloadWhere"), arg(original, "workloadWhere"));
  assert.equal(copy.print(), text);
});
