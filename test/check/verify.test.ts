/**
 * Verifier rules added with the check harness: STRUCTURE/032 (a `where` predicate of a
 * signature naming a value that is not one of its arguments: only bytecode or IR built by
 * hand can say that, so the test builds it), and a constant `kernel.subgroup.broadcast` lane
 * past a fixed subgroup (TARGET/001 at compile; the oracle is the diagnostic's presence and
 * absence across profiles).
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseModule } from "../../src/text/parser.js";
import { verifyModule } from "../../src/passes/verify/index.js";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import { createSpirvProfile } from "../../src/targets/spirv/index.js";
import { compile, spirv } from "../link/helpers.js";

const WHERE = `func.def @f(%n: index) -> (index) where [ge(%n, 1)] {
  %one = index.constant 1 : index
  %m = index.add %n, %one : index
  func.return %m : index
}

config.decl @key : %value: index where [range(%value, 1, 8)]
`;

test("a where predicate naming a value that is not a signature argument is STRUCTURE/032", () => {
  const sink = new DiagnosticSink(20);
  const m = parseModule("where.loom", WHERE, sink);
  assert.equal(verifyModule(m, sink).ok, true, "as written, it verifies");
  // Rebind each predicate to a value defined in the body (what a hostile .loombc can encode).
  const [fn, config] = m.ops;
  const bodyValue = fn!.regions[0]!.ops[1]!.results[0]!;
  fn!.props.where = [{ kind: "ge", args: [bodyValue, 1n] }];
  config!.props.where = [{ kind: "range", args: [bodyValue, 1n, 8n] }];
  const after = new DiagnosticSink(20);
  const info = verifyModule(m, after);
  assert.equal(info.ok, false);
  assert.deepEqual(
    after.diagnostics.filter((d) => d.code === "STRUCTURE/032").map((d) => `${d.code} ${d.location?.line} ${d.message}`),
    [
      "STRUCTURE/032 1 'func.def' field 'where[0].arg[0]' must reference a function argument or result",
      "STRUCTURE/032 7 'config.decl' field 'where[0].arg[0]' must reference the declared config value",
    ],
  );
});

test("a where predicate whose subject is a literal is STRUCTURE/032 at the signature's op (as the reference)", () => {
  const text = `func.def @f(%v: index) -> (index) where [eq(4, %v)] {\n  func.return %v : index\n}\n\nkernel.def @k(%n: index) where [ge(%n, 1), lt(2, %n)] {\n  %c1 = index.constant 1 : index\n  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index\n} launch() {\n  kernel.return\n}\n`;
  const sink = new DiagnosticSink(20);
  verifyModule(parseModule("subject.loom", text, sink), sink);
  assert.deepEqual(
    sink.diagnostics.map((d) => `${d.code} ${d.location?.line} ${d.message}`),
    [
      "STRUCTURE/032 1 'func.def' field 'where[0].arg[0]' must reference a function argument or result",
      "STRUCTURE/032 5 'kernel.def' field 'workloadWhere[1].arg[0]' must reference an argument of the signature",
    ],
  );
});

const BROADCAST = (lane: number) => `kernel.def @k() {
  %c1 = index.constant 1 : index
  %c64 = index.constant 64 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c64, %c1, %c1) : index
} launch(%x: f32) {
  %lane = scalar.constant ${lane} : i32
  %r = kernel.subgroup.broadcast %x from %lane : f32, i32
  kernel.return
}
`;

test("a constant broadcast lane past the profile's fixed subgroup is TARGET/001 at compile", () => {
  const fixed = (n: number) => createSpirvProfile(spirv, { identifier: `sg${n}`, identity: { environment: "vulkan1.3", features: { subgroupOperations: ["basic", "ballot", "shuffle"] }, limits: { subgroupSize: n } } });
  const wave32 = compile(BROADCAST(40), [["k", fixed(32)]]).result;
  const d = wave32.diagnostics.find((x) => x.code === "TARGET/001");
  assert.ok(d, wave32.formatDiagnostics());
  assert.match(d.message, /broadcast from lane 40 .*32 lanes/);
  assert.equal(d.location?.line, 7);
  const fine = compile(BROADCAST(31), [["k", fixed(32)]]).result;
  assert.ok(fine.ok, fine.formatDiagnostics());
  const eight = fixed(8);
  assert.ok(compile(BROADCAST(8), [["k", eight]]).result.diagnostics.some((x) => x.code === "TARGET/001" && /lane 8/.test(x.message)));
  assert.ok(compile(BROADCAST(7), [["k", eight]]).result.ok);
});
