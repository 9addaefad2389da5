/** Region structure: terminators (005 012 018), region counts (006), yields (008), counts (013). */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { Module, Op } from "../../src/ir/core.js";
import { T } from "../../src/ir/types.js";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import { verifyModule } from "../../src/passes/verify/index.js";
import { expectClean, expectCodes, kernel } from "./helpers.js";

const span = (line: number) => ({ source: "ir", line, column: 1, endLine: line, endColumn: 2 });

/** A hand-built `func.def @f() { <ops> }` (regions the text syntax cannot express). */
function handBuiltFunc(build: (f: Op) => void): Module {
  const m = new Module("ir");
  const f = new Op("func.def", span(1));
  f.props = { symbol: "f", modifiers: [], resultTypes: [] };
  m.ops.push(f);
  build(f);
  return m;
}

function codes(m: Module): string[] {
  const sink = new DiagnosticSink(100);
  verifyModule(m, sink);
  return sink.diagnostics.map((d) => d.code);
}

test("structure: region counts (STRUCTURE/006) on hand-built IR", () => {
  const ok = handBuiltFunc((f) => {
    const body = f.addRegion();
    const ret = new Op("func.return", span(2));
    ret.parent = body;
    body.ops.push(ret);
  });
  assert.deepEqual(codes(ok), []);
  const noBody = handBuiltFunc(() => {});
  assert.deepEqual(codes(noBody), ["STRUCTURE/006"]);
  const ifWithThree = handBuiltFunc((f) => {
    const body = f.addRegion();
    const c = new Op("scalar.constant", span(2));
    c.props = { value: { kind: "bool", value: true } };
    c.addResult("t", T.i1);
    const iff = new Op("scf.if", span(3));
    iff.operands = [c.results[0]!];
    for (let i = 0; i < 3; i++) {
      const r = iff.addRegion();
      const y = new Op("scf.yield", span(4));
      y.parent = r;
      r.ops.push(y);
    }
    const ret = new Op("func.return", span(5));
    for (const op of [c, iff, ret]) {
      op.parent = body;
      body.ops.push(op);
    }
  });
  assert.deepEqual(codes(ifWithThree), ["STRUCTURE/006"]);
});

test("structure: the verifier tolerates malformed props and unknown ops", () => {
  const m = handBuiltFunc((f) => {
    const body = f.addRegion();
    const weird = new Op("index.add", span(2));
    weird.props = { indices: 7 as unknown as bigint, predicates: "x" };
    const unknown = new Op("nonsense.op", span(3));
    const ret = new Op("func.return", span(4));
    for (const op of [weird, unknown, ret]) {
      op.parent = body;
      body.ops.push(op);
    }
  });
  assert.doesNotThrow(() => codes(m));
});

test("structure: missing terminator (STRUCTURE/005)", () => {
  expectCodes("kernel.def @k() {\n  %c1 = index.constant 1 : index\n  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index\n} launch() {\n  %x = index.constant 1 : index\n}\n", ["STRUCTURE/005"]);
  expectCodes("func.def @f() {\n  %x = index.constant 1 : index\n}\n", ["STRUCTURE/005"]);
  expectCodes("kernel.def @k() {\n  %c1 = index.constant 1 : index\n} launch() {\n  kernel.return\n}\n", ["STRUCTURE/005"]);
});

test("structure: op after terminator (STRUCTURE/012) and wrong terminator (STRUCTURE/018)", () => {
  // (An op with results after `func.return` would read as its operands: `func.return %x = ...`.)
  expectCodes(kernel("  kernel.return\n  %x = index.constant 1 : index").replace(/\n  kernel.return\n}\n$/, "\n}\n"), ["STRUCTURE/012"]);
  expectCodes("func.def @f() {\n  func.return\n  kernel.barrier<workgroup> scope(workgroup) ordering(acq_rel)\n}\n", ["STRUCTURE/012"]);
  expectCodes("kernel.def @k() {\n  %c1 = index.constant 1 : index\n  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index\n} launch() {\n  scf.yield\n}\n", ["STRUCTURE/018"]);
  expectCodes(kernel("  %t = scalar.constant true : i1\n  scf.if %t {\n    kernel.return\n  }"), ["STRUCTURE/018"]);
  // A terminator not even allowed in the region is a placement error only.
  expectCodes("kernel.def @k() {\n  %c1 = index.constant 1 : index\n  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index\n} launch() {\n  func.return\n}\n", ["STRUCTURE/029"]);
});

test("structure: yield counts (STRUCTURE/008)", () => {
  const ifs = (yields: string) => kernel(`  %t = scalar.constant true : i1\n  %a = index.constant 1 : index\n  %r = scf.if %t -> (index) {\n    scf.yield ${yields}\n  } else {\n    scf.yield %a : index\n  }`);
  expectClean(ifs("%a : index"));
  expectCodes(ifs("%a, %a : index, index"), ["STRUCTURE/008"]);
  // A missing else is a count mismatch (no else region where results need one), as the reference reports it.
  expectCodes(kernel("  %t = scalar.constant true : i1\n  %a = index.constant 1 : index\n  %r = scf.if %t -> (index) {\n    scf.yield %a : index\n  }"), ["STRUCTURE/013"]);
  expectCodes("func.def @f(%a: index) -> (index) {\n  func.return\n}\n", ["STRUCTURE/008"]);
  expectClean("func.def @f(%a: index) -> (index) {\n  func.return %a : index\n}\n");
});

test("structure: scf.while carried values", () => {
  const loop = (cond: string) => `func.def @f(%n: index) -> (index) {
  %c0 = index.constant 0 : index
  %c1 = index.constant 1 : index
  %r = scf.while(%i = %c0 : index) -> (index) {
    %more = index.cmp slt, %i, %n : index
    ${cond}
  } do(%j: index) {
    %next = index.add %j, %c1 : index
    scf.yield %next : index
  }
  func.return %r : index
}
`;
  expectClean(loop("scf.condition %more, %i : i1, index"));
  // The condition forwards too few values: one report, at the condition (as the reference).
  expectCodes(loop("scf.condition %more : i1"), ["STRUCTURE/013"]);
  // A forwarded value of the wrong type: TYPE/001 at the condition; a do-arg of the wrong type: TYPE/013 at the loop.
  expectCodes(loop("%w = scalar.constant 1.0 : f32\n    scf.condition %more, %w : i1, f32"), ["TYPE/001"]);
});

test("structure: count mismatches (STRUCTURE/013)", () => {
  expectCodes(kernel("  %c0 = index.constant 0 : index\n  %r = scf.for %i = [%c0 to %c1 step %c1] -> (index) {\n    scf.yield %i : index\n  }"), ["STRUCTURE/013"]);
  expectClean(kernel("  %c0 = index.constant 0 : index\n  %r = scf.for %i = [%c0 to %c1 step %c1](%acc = %c0 : index) -> (index) {\n    scf.yield %acc : index\n  }"));
});
