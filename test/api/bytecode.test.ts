import { test } from "node:test";
import assert from "node:assert/strict";
import { LaunchConfigProgram, LoomError, Source, compileModule } from "../../src/index.js";
import { prepared, SEED_KERNEL } from "./helpers.js";

test("Module.toBytecode → Source.fromBytes → parseModule gives the same module, which compiles the same", () => {
  const s = prepared();
  const module = s.parse(SEED_KERNEL).value!;
  const bytes = module.toBytecode();
  assert.deepEqual([...bytes.subarray(0, 4)], [0x4c, 0x4f, 0x4f, 0x4d]);
  // Read under the text's name: the launch-config artifact cites source names (its location table).
  const source = Source.fromBytes("k.loom", bytes);
  assert.equal(source.kind, "bytecode");
  const again = s.workspace.parseModule(source);
  assert.ok(again.ok, again.formatDiagnostics());
  assert.equal(again.value!.print(), SEED_KERNEL);
  assert.deepEqual(again.value!.toBytecode(), bytes);
  const spec = { specializations: [{ functionSymbol: "workload_grid", targetProfile: s.profile }], artifacts: { launchConfig: true } };
  const fromText = compileModule(s.compiler, s.workspace, s.pipeline, module, spec);
  const fromBytes = compileModule(s.compiler, s.workspace, s.pipeline, again.value!, spec);
  assert.deepEqual(fromBytes.artifacts[0]!.contents, fromText.artifacts[0]!.contents);
  const p = LaunchConfigProgram.load(fromBytes.artifacts[0]!);
  assert.deepEqual(p.invoke(p.lookupFunction("workload_grid"), [1009n]).workgroupCount, [16, 1, 1]);
  assert.throws(() => module.toBytecode(), (e: unknown) => e instanceof LoomError && e.status === "failed-precondition");
});

test("damaged bytecode is a failed Result with a BYTECODE diagnostic, never a throw", () => {
  const s = prepared();
  const bytes = s.parse(SEED_KERNEL).value!.toBytecode();
  for (const cut of [4, 16, bytes.length >> 1, bytes.length - 1]) {
    const r = s.workspace.parseModule(Source.fromBytes("cut.loombc", bytes.subarray(0, cut)));
    assert.equal(r.state, "failed");
    assert.match(r.diagnostics[0]!.code, /^BYTECODE\/9\d\d$/);
  }
});
