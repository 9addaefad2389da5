/**
 * Issue 12, items 1, 2, 5, 6, 12, 15: hostile programs and misused options. A bad program
 * is a failed Result with coded diagnostics (never an exception, even with the launch-config
 * artifact requested); API misuse is LoomError("invalid-argument") naming the key.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Compiler, Context, LaunchConfigProgram, LoomError, PassProgram, Source, Workspace, compileModule, emitModule } from "../../src/index.js";
import { createSpirvProfile, createSpirvTargetEnvironment } from "../../src/targets/spirv/index.js";
import { MAX_INLINED_OPS } from "../../src/passes/budgets.js";

function setup() {
  const env = createSpirvTargetEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const profile = createSpirvProfile(env, { identifier: "vk", identity: { environment: "vulkan1.3", features: { shaderInt64: true } } });
  const compiler = Compiler.create(context);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low", verifyEachPass: false }).value!;
  const workspace = new Workspace(context);
  return { env, profile, compiler, pipeline, workspace };
}
const s = setup();

/** Parses and compiles kernel `@k` with the launch-config artifact; returns the Result (or the parse result when it does not parse). */
function compile(text: string) {
  const parsed = s.workspace.parseModule(Source.fromText("k.loom", text));
  if (!parsed.ok) return { stage: "parse" as const, result: parsed, module: undefined };
  const result = compileModule(s.compiler, s.workspace, s.pipeline, parsed.value!, { specializations: [{ functionSymbol: "k", targetProfile: s.profile }], artifacts: { launchConfig: true } });
  return { stage: "compile" as const, result, module: parsed.value! };
}

function codes(text: string): string[] {
  return compile(text).result.diagnostics.map((d) => d.code);
}

function kernel(o: { config?: string; body?: string; args?: string; where?: string; name?: string; launch?: string }): string {
  return `kernel.def export("${o.name ?? "k"}") @k(%n: index${o.args ?? ""})${o.where ?? ""} {
  %c1 = index.constant 1 : index
${o.config ?? ""}  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(%n: index${o.launch ?? ""}) {
${o.body ?? ""}  kernel.return
}
`;
}

const repeat = (n: number, f: (i: number) => string, sep = "") => Array.from({ length: n }, (_, i) => f(i)).join(sep);

test("item 1: programs the launch-config encoder cannot hold fail the Result with codes (no throw)", () => {
  const cases: [string, string, string][] = [
    ["assume literal 2^64-1", kernel({ config: "  %m = index.assume %n [range(%n, 0, 18446744073709551615)] : index\n" }), "STRUCTURE/014"],
    ["where literal 2^64", kernel({ where: " where [range(%n, 0, 18446744073709551616)]" }), "STRUCTURE/014"],
    ["config nesting 65", kernel({ config: `  %t = index.cmp ult, %n, %c1 : index\n${repeat(65, () => "  scf.if %t {\n")}${repeat(65, () => "  }\n")}` }), "STRUCTURE/906"],
    ["300 where predicates", kernel({ where: ` where [${repeat(300, () => "range(%n, 0, 10)", ", ")}]` }), "STRUCTURE/906"],
    ["300 workload arguments", kernel({ args: repeat(299, (i) => `, %a${i}: index`) }), "STRUCTURE/906"],
    [
      "70 scf.if results",
      kernel({
        config: `  %t = index.cmp ult, %n, %c1 : index\n  ${repeat(70, (i) => `%r${i}`, ", ")} = scf.if %t -> (${repeat(70, () => "index", ", ")}) {\n    scf.yield ${repeat(70, () => "%c1", ", ")} : ${repeat(70, () => "index", ", ")}\n  } else {\n    scf.yield ${repeat(70, () => "%c1", ", ")} : ${repeat(70, () => "index", ", ")}\n  }\n`,
      }),
      "STRUCTURE/906",
    ],
    ["70,000-character export name", kernel({ name: "a".repeat(70_000) }), "STRUCTURE/906"],
  ];
  for (const [what, text, code] of cases) {
    const { result } = compile(text);
    assert.equal(result.ok, false, what);
    assert.ok(result.diagnostics.some((d) => d.code === code && d.location !== undefined), `${what}: ${result.formatDiagnostics()}`);
  }
});

test("item 1: at the limits the companion encodes and loads", () => {
  const text = kernel({
    args: repeat(255, (i) => `, %a${i}: index`),
    where: ` where [${repeat(256, () => "range(%n, 0, 10)", ", ")}]`,
    config: `  %t = index.cmp ult, %n, %c1 : index\n${repeat(63, () => "  scf.if %t {\n")}${repeat(63, () => "  }\n")}`,
  });
  const { result } = compile(text);
  assert.ok(result.ok, result.formatDiagnostics());
  const program = LaunchConfigProgram.load(result.findArtifact("launch-config")!);
  assert.ok(program.lookupFunction("k"));
});

test("item 2: a name SPIR-V cannot hold in one instruction is BACKEND/001, not a thrown Error", () => {
  const name = `v${"a".repeat(270_000)}`;
  const text = kernel({
    launch: `, %${name}: buffer`,
    body: `  %o = index.constant 0 : offset\n  %v = buffer.view %${name}[%o] : buffer -> view<[%n]xf32>\n  %z = index.constant 0 : index\n  %x = view.load %v[%z] : view<[%n]xf32> -> f32\n  view.store %x, %v[%z] : f32, view<[%n]xf32>\n`,
  });
  assert.deepEqual(codes(text), ["BACKEND/001"]);
});

test("item 12: out-of-range literal indices are STRUCTURE/014, never truncated", () => {
  for (const lit of ["18446744073709551617", "9223372036854775808", "9".repeat(10_000)]) {
    // A view of dynamic size: the literal itself is the error, not a static bounds check.
    const text = kernel({ launch: ", %b: buffer", body: `  %o = index.constant 0 : offset\n  %v = buffer.view %b[%o] : buffer -> view<[%n]xf32>\n  %x = view.load %v[${lit}] : view<[%n]xf32> -> f32\n  view.store %x, %v[0] : f32, view<[%n]xf32>\n` });
    assert.deepEqual(codes(text), ["STRUCTURE/014"], lit.slice(0, 20));
  }
});

test("item 5: a call tree doubling at every level hits the inlining budget (STRUCTURE/906) instead of exhausting memory", () => {
  const depth = 23;
  let functions = "";
  for (let i = 0; i < depth; i++) {
    functions +=
      i < depth - 1
        ? `func.def device pure @f${i}(%x: index) -> (index) {\n  %a = func.call @f${i + 1}(%x) : (index) -> (index)\n  %b = func.call @f${i + 1}(%a) : (index) -> (index)\n  func.return %b : index\n}\n`
        : `func.def device pure @f${i}(%x: index) -> (index) {\n  %y = index.add %x, %x : index\n  func.return %y : index\n}\n`;
  }
  const text = functions + kernel({ body: "  %r = func.call @f0(%n) : (index) -> (index)\n" });
  const { result } = compile(text);
  assert.deepEqual(result.diagnostics.map((d) => d.code), ["STRUCTURE/906"]);
  assert.match(result.diagnostics[0]!.message, new RegExp(`${MAX_INLINED_OPS}`));
  assert.equal(result.diagnostics[0]!.location?.line, (depth - 1) * 5 + 4 + 5, "reported at the kernel's own call");
});

test("item 15: unknown option keys and wrong types are LoomError('invalid-argument') naming the key", () => {
  const good = kernel({});
  const parse = () => s.workspace.parseModule(Source.fromText("k.loom", good)).value!;
  const spec = [{ functionSymbol: "k", targetProfile: s.profile }];
  const rejects = (fn: () => unknown, key: string) =>
    assert.throws(fn, (e: unknown) => e instanceof LoomError && e.status === "invalid-argument" && e.message.includes(`'${key}'`), key);
  rejects(() => compileModule(s.compiler, s.workspace, s.pipeline, parse(), { specializations: spec, artifact: {} } as never), "artifact");
  rejects(() => compileModule(s.compiler, s.workspace, s.pipeline, parse(), { specializations: spec, artifacts: "yes" } as never), "artifacts");
  rejects(() => compileModule(s.compiler, s.workspace, s.pipeline, parse(), { specializations: spec, artifacts: { launchconfig: true } } as never), "launchconfig");
  rejects(() => compileModule(s.compiler, s.workspace, s.pipeline, parse(), { specializations: [{ functionSymbol: "k", targetProfile: s.profile, profile: 1 }] } as never), "profile");
  rejects(() => compileModule(s.compiler, s.workspace, s.pipeline, parse(), { specializations: spec, config: [1] } as never), "config");
  const module = parse();
  assert.ok(compileModule(s.compiler, s.workspace, s.pipeline, module, { specializations: spec }).ok);
  rejects(() => emitModule(s.env, s.workspace, module, { artifactFormat: s.env.formats[0]!, identifier: 5 } as never), "identifier");
  rejects(() => emitModule(s.env, s.workspace, module, { artifactFormat: s.env.formats[0]!, primary: "yes" } as never), "primary");
  rejects(() => emitModule(s.env, s.workspace, module, { artifactFormat: s.env.formats[0]!, format: "x" } as never), "format");
  const emitted = emitModule(s.env, s.workspace, module, { artifactFormat: s.env.formats[0]!, identifier: "ok.spv" });
  assert.ok(emitted.ok);
  assert.equal(emitted.findArtifact("executable")!.identifier, "ok.spv");
});
