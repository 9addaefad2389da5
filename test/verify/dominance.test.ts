/** DOMINANCE/001: uses must be dominated by their definitions (language.md §2). */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { Module, Op, type Region } from "../../src/ir/core.js";
import { T } from "../../src/ir/types.js";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import { verifyModule } from "../../src/passes/verify/index.js";
import { expectClean, expectCodes, kernel } from "./helpers.js";

const at = (line: number) => ({ source: "ir", line, column: 3, endLine: line, endColumn: 4 });

function place(region: Region, ...ops: Op[]): void {
  for (const op of ops) {
    op.parent = region;
    region.ops.push(op);
  }
}

test("dominance: values are visible after their definition and in nested regions", () => {
  expectClean(kernel("  %a = index.constant 1 : index\n  %t = scalar.constant true : i1\n  scf.if %t {\n    %b = index.add %a, %a : index\n  }"));
});

test("dominance: a use before the definition in the same block", () => {
  const v = expectCodes(kernel("  %a = index.add %b, %b : index\n  %b = index.constant 1 : index"), ["DOMINANCE/001"]);
  assert.match(v.diagnostics[0]!.message, /'%b'/);
  assert.equal(v.diagnostics[0]!.location?.line, 6); // the body's first line
});

test("dominance: a use in a nested region before the definition in the enclosing block", () => {
  expectCodes(kernel("  %t = scalar.constant true : i1\n  scf.if %t {\n    %x = index.add %later, %later : index\n  }\n  %later = index.constant 1 : index"), ["DOMINANCE/001"]);
});

test("dominance: values defined in a region are not visible after it or in a sibling (hand-built IR)", () => {
  // In text these are undefined names (PARSE/001): the parser never sees them in scope.
  const m = new Module("ir");
  const f = new Op("func.def", at(1));
  f.props = { symbol: "f", modifiers: [], resultTypes: [] };
  const body = f.addRegion();
  const t = new Op("scalar.constant", at(2));
  t.props = { value: { kind: "bool", value: true } };
  const cond = t.addResult("t", T.i1);
  const iff = new Op("scf.if", at(3));
  iff.operands = [cond];
  const [thenR, elseR] = [iff.addRegion(), iff.addRegion()];
  const inner = new Op("index.constant", at(4));
  inner.props = { value: { kind: "int", value: 1n } };
  const innerV = inner.addResult("inner", T.index);
  const sibling = new Op("index.add", at(5));
  sibling.operands = [innerV, innerV];
  sibling.addResult("s", T.index);
  const after = new Op("index.add", at(6));
  after.operands = [innerV, innerV];
  after.addResult("a", T.index);
  place(thenR, inner, new Op("scf.yield"));
  place(elseR, sibling, new Op("scf.yield"));
  place(body, t, iff, after, new Op("func.return"));
  m.ops.push(f);
  const sink = new DiagnosticSink();
  verifyModule(m, sink);
  assert.deepEqual(sink.diagnostics.map((d) => `${d.code}@${d.location?.line}`), ["DOMINANCE/001@5", "DOMINANCE/001@6"]);
});

test("dominance: uses inside index lists and types count", () => {
  expectCodes(
    kernel("  %o = index.constant 0 : offset\n  %v = buffer.view %x[%o] : buffer -> view<4xf32>\n  %e = view.load %v[%i] : view<4xf32> -> f32\n  %i = index.constant 0 : index", "%x: buffer"),
    ["DOMINANCE/001"],
  );
  expectCodes(kernel("  %o = index.constant 0 : offset\n  %v = buffer.view %x[%o] : buffer -> view<[%n]xf32>\n  %n = index.constant 4 : index", "%x: buffer"), ["DOMINANCE/001"]);
});

test("dominance: nothing crosses an isolation boundary (hand-built IR)", () => {
  // A config-region value used in the device body: text cannot express it (separate scopes).
  const m = new Module("ir");
  const k = new Op("kernel.def", { source: "ir", line: 1, column: 1, endLine: 1, endColumn: 2 });
  k.props = { symbol: "k", retain: false };
  const config = k.addRegion();
  const body = k.addRegion();
  const c1 = new Op("index.constant");
  c1.props = { value: { kind: "int", value: 1n } };
  const one = c1.addResult("c1", T.index);
  const launch = new Op("kernel.launch.config");
  launch.operands = [one, one, one, one, one, one];
  launch.props = { cluster: false };
  for (const op of [c1, launch]) {
    op.parent = config;
    config.ops.push(op);
  }
  const use = new Op("index.add", { source: "ir", line: 9, column: 3, endLine: 9, endColumn: 4 });
  use.operands = [one, one];
  use.addResult("x", T.index);
  const ret = new Op("kernel.return");
  for (const op of [use, ret]) {
    op.parent = body;
    body.ops.push(op);
  }
  m.ops.push(k);
  const sink = new DiagnosticSink();
  verifyModule(m, sink);
  assert.deepEqual(sink.diagnostics.map((d) => `${d.code}@${d.location?.line}`), ["DOMINANCE/001@9"]);
});

test("dominance: signature where-lists mention their own signature's arguments", () => {
  expectClean("func.def @f(%n: index) where [mul(%n, 4)] {\n  func.return\n}\n");
  expectClean("kernel.def @k(%n: index) where [min(%n, 1)] {\n  %c1 = index.constant 1 : index\n  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index\n} launch(%m: index) where [mul(%m, 16)] {\n  kernel.return\n}\n");
});
