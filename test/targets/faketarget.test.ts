/**
 * A target package registered only here (test/targets/faketarget/) drives the whole
 * compiler: its record op parses, prints in its declared order, verifies with its checks,
 * is linked from a library, matched by template selection through `target(@T)` and
 * `requires`, and its environment emits. Nothing in src/ names it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Compiler, Context, LinkIndexBuilder, PassProgram, Source, Workspace, compileModule, emitModule, type LinkIndex } from "../../src/index.js";
import { resolveTarget } from "../../src/cli/targets.js";
import { findTargetPackage, registerTargetPackage } from "../../src/targets/registry.js";
import { createFakeEnvironment, createFakeProfile, FAKE, FAKE_FORMAT, FAKE_PACKAGE, FAKE_RECORD } from "./faketarget/index.js";

const env = createFakeEnvironment();
// The environment carries the package's record op; the Context registers it.
const context = Context.create({ targetEnvironments: [env] });
const compiler = Compiler.create(context);
const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low", verifyEachPass: true }).value!;
const toy1 = createFakeProfile(env, { identifier: "toy1-16", device: "toy1" });
const toy1wide = createFakeProfile(env, { identifier: "toy1-32", device: "toy1", subgroupSize: 32 });
const toy2 = createFakeProfile(env, { identifier: "toy2-16", device: "toy2" });

function parse(text: string, name = "root.loom") {
  const workspace = new Workspace(context);
  return { workspace, result: workspace.parseModule(Source.fromText(name, text)) };
}

function codes(text: string): string[] {
  return parse(text).result.diagnostics.map((d) => `${d.code}@${d.location?.line}:${d.location?.column}`);
}

test("the record op parses, and prints its attributes in the package's order", () => {
  const { result } = parse("faketarget.target<toy-any> @toys {mode = fast, banks = 2, subgroup_size = 16}\n");
  assert.ok(result.ok, result.formatDiagnostics());
  assert.equal(result.value!.print(), "faketarget.target<toy-any> @toys {subgroup_size = 16, banks = 2, mode = fast}\n");
});

test("the package's parameter and attribute domains are parse errors", () => {
  assert.deepEqual(codes("faketarget.target<toy9> @t\n"), ["PARSE/017@1:19"]);
  assert.deepEqual(codes("faketarget.target<toy1> @t {mode = slow}\n"), ["PARSE/017@1:36"]);
  assert.deepEqual(codes("faketarget.target<toy1> @t {colour = 1}\n"), ["PARSE/018@1:29"]);
  assert.deepEqual(codes("faketarget.target<toy1> @t {mode = 1}\n"), ["PARSE/017@1:36"]);
});

test("the package's integer checks and the common ones are STRUCTURE/014; the record is a target symbol", () => {
  const banks = parse("faketarget.target<toy1> @t {banks = 9}\n").result;
  assert.deepEqual(banks.diagnostics.map((d) => d.code), ["STRUCTURE/014"]);
  assert.match(banks.diagnostics[0]!.message, /banks must be between 1 and 4/);
  assert.deepEqual(codes("faketarget.target<toy1> @t {index_bitwidth = 32}\n"), ["STRUCTURE/014@1:1"]);
  assert.ok(parse("faketarget.target<toy1> @t\n\nfunc.def target(@t) @f() {\n  func.return\n}\n").result.ok);
  assert.deepEqual(codes("faketarget.target<toy1> @t\n\nfunc.def @t() {\n  func.return\n}\n"), ["SYMBOL/005@3:1"]);
});

test("a record op no registered package declares is PARSE/006 naming the known ones", () => {
  const { result } = parse("othertoy.target<x1> @t\n");
  assert.deepEqual(result.diagnostics.map((d) => d.code), ["PARSE/006"]);
  assert.match(result.diagnostics[0]!.help ?? "", /no registered target package declares 'othertoy\.target'.*faketarget\.target/);
});

test("a Context's targetPackages make a record op known without its environment", () => {
  const other = { ...FAKE_PACKAGE, name: "faketoo", record: { ...FAKE_RECORD, opName: "faketoo.target", environment: "faketoo" } };
  assert.deepEqual(parse("faketoo.target<toy1> @t\n").result.diagnostics.map((d) => d.code), ["PARSE/006"]);
  Context.create({ targetPackages: [other] });
  assert.ok(parse("faketoo.target<toy1> @t\n").result.ok);
  // A second package cannot take a record op name already taken.
  assert.throws(() => Context.create({ targetPackages: [{ ...other, record: { ...FAKE_RECORD, opName: "faketoo.target", environment: "faketoo" } }] }), /already registered/);
});

test("bytecode keeps the record op", () => {
  const { workspace, result } = parse("faketarget.target<toy2> @t {mode = exact, banks = 1}\n");
  const bytes = result.value!.toBytecode();
  const back = workspace.parseModule(Source.fromBytes("back.loombc", bytes));
  assert.ok(back.ok, back.formatDiagnostics());
  assert.equal(back.value!.print(), "faketarget.target<toy2> @t {banks = 1, mode = exact}\n");
});

/** A library of providers for @lanes: by subgroup size on any toy, and one for toy2 only. */
const LIBRARY = `faketarget.target<toy-any> @toys

faketarget.target<toy2> @toy2_only {banks = 4}

template.decl public pure @lanes() -> (index)

template.def<@lanes> pure target(@toys) requires [#target.subgroup.size<16>] priority(1) @lanes16() -> (index) {
  %w = index.constant 16 : index
  template.return %w : index
}

template.def<@lanes> pure target(@toys) requires [#target.subgroup.size<32>] priority(1) @lanes32() -> (index) {
  %w = index.constant 32 : index
  template.return %w : index
}

template.def<@lanes> pure target(@toy2_only) priority(2) @lanes_toy2() -> (index) {
  %w = index.constant 64 : index
  template.return %w : index
}
`;

const ROOT = `template.decl public pure @lanes() -> (index)

kernel.def @grid(%n: index) {
  %c1 = index.constant 1 : index
  %width = template.apply<@lanes>() pure : () -> (index)
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%width, %c1, %c1) : index
} launch(%n: index) {
  kernel.return
}
`;

function linkIndex(): LinkIndex {
  const b = new LinkIndexBuilder();
  b.addSource(Source.fromText("toys.loom", LIBRARY));
  const r = b.freeze();
  assert.ok(r.ok, r.formatDiagnostics());
  return r.value!;
}

function compile(text: string, symbol: string, profile: typeof toy1, index?: LinkIndex) {
  const { workspace, result } = parse(text);
  assert.ok(result.ok, result.formatDiagnostics());
  const module = result.value!;
  const compiled = compileModule(compiler, workspace, pipeline, module, {
    specializations: [{ functionSymbol: symbol, targetProfile: profile }],
    ...(index ? { linkIndex: index } : {}),
    artifacts: { templateSelections: true },
  });
  return { workspace, module, compiled };
}

function provider(compiled: ReturnType<typeof compile>["compiled"]): string | undefined {
  const a = compiled.findArtifact("report", "json");
  return a ? JSON.parse(new TextDecoder().decode(a.contents)).selections[0]?.provider : undefined;
}

test("providers linked from a library are matched by target(@T) and requires against toy profiles", () => {
  const index = linkIndex();
  for (const [profile, expected] of [[toy1, "lanes16"], [toy1wide, "lanes32"], [toy2, "lanes_toy2"]] as const) {
    const { compiled } = compile(ROOT, "grid", profile, index);
    assert.ok(compiled.ok, compiled.formatDiagnostics());
    assert.equal(provider(compiled), expected, profile.identifier);
  }
});

test("the package's environment emits its format; a kernel pinned to another device is TARGET/052", () => {
  const { workspace, module, compiled } = compile(ROOT, "grid", toy2, linkIndex());
  assert.ok(compiled.ok, compiled.formatDiagnostics());
  const emitted = emitModule(env, workspace, module, { artifactFormat: FAKE_FORMAT, identifier: "listing" });
  assert.ok(emitted.ok, emitted.formatDiagnostics());
  assert.equal(new TextDecoder().decode(emitted.artifacts[0]!.contents), "listing\ntoy2 grid args=8 subgroup=16 wg=64x1x1\n");

  const pinned = `faketarget.target<toy2> @only2\n\n${ROOT.replace("kernel.def @grid", "kernel.def target(@only2) @grid").replace("%width = template.apply<@lanes>() pure : () -> (index)", "%width = index.constant 8 : index")}`;
  assert.ok(compile(pinned, "grid", toy2).compiled.ok);
  const wrong = compile(pinned, "grid", toy1).compiled;
  assert.ok(wrong.diagnostics.some((d) => d.code === "TARGET/052"), wrong.formatDiagnostics());
});

test("registered with the registry, the package's targets resolve on the command line", () => {
  assert.equal(findTargetPackage(FAKE), undefined);
  assert.throws(() => resolveTarget("faketarget:toy2"), /unknown target environment 'faketarget' \(known: amdgpu, spirv, ptx, wgsl\)/);
  registerTargetPackage(FAKE_PACKAGE);
  assert.equal(findTargetPackage(FAKE), FAKE_PACKAGE);
  const resolved = resolveTarget("faketarget:toy2", { limits: ["subgroupSize=32"] });
  assert.equal(resolved.profile.target, "toy2");
  assert.equal(resolved.profile.facts.subgroupSize, 32);
  assert.equal(resolved.extension, ".toy");
  assert.throws(() => resolveTarget("faketarget:toy2", { features: ["fp64"] }), /toy devices have no features/);
});
