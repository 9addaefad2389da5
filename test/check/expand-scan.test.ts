/**
 * The workgroup-scan expansion (src/passes/expand-scan.ts) as text: built on the IR
 * constructors, it prints as the Loom an author would write for it, and that text parses and
 * verifies as ordinary source (the oracle is the parser and verifier, independent of the pass).
 * Its values on devices are test/cases/check/scan.loom's expectations (check.test.ts).
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseModule } from "../../src/text/parser.js";
import { printModule } from "../../src/text/printer.js";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import { expandWorkgroupScans } from "../../src/passes/expand-scan.js";
import { Source, Workspace } from "../../src/index.js";
import { context } from "../link/helpers.js";

const kernel = (size: string, scan: string, args = "%v: i32") => `kernel.def @k() {
  %one = index.constant 1 : index
  %two = index.constant 2 : index
  kernel.launch.config workgroups(%one, %one, %one) workgroup_size(${size}) : index
} launch(${args}) {
  ${scan}
  kernel.return
}
`;

function expand(text: string): { count: number; printed: string } {
  const sink = new DiagnosticSink();
  const module = parseModule("k.loom", text, sink);
  assert.equal(sink.hasErrors, false);
  const op = module.ops[0];
  assert.ok(op);
  return { count: expandWorkgroupScans(op), printed: printModule(module) };
}

const REVERSE_EXCLUSIVE_MAX = `kernel.def @k() {
  %one = index.constant 1 : index
  %two = index.constant 2 : index
  kernel.launch.config workgroups(%one, %one, %one) workgroup_size(%two, %one, %one) : index
} launch(%v: i32) {
  %s_identity = scalar.constant -2147483648 : i32
  %s_bytes = index.constant 8 : offset
  %s_base = index.constant 0 : offset
  %s_scratch = buffer.alloca<workgroup> align(4) %s_bytes : buffer
  %s_slots = buffer.view %s_scratch[%s_base] : buffer -> view<2xi32>
  %s_x = kernel.workitem.id<x> : index
  %s_y = kernel.workitem.id<y> : index
  %s_z = kernel.workitem.id<z> : index
  %s_sx = index.constant 2 : index
  %s_sy = index.constant 1 : index
  %s_zy = index.mul %s_z, %s_sy : index
  %s_row = index.add %s_zy, %s_y : index
  %s_rowx = index.mul %s_row, %s_sx : index
  %s_flat = index.add %s_rowx, %s_x : index
  view.store %v, %s_slots[%s_flat] : i32, view<2xi32>
  kernel.barrier<workgroup> scope(workgroup) ordering(acq_rel)
  %s_zero = index.constant 0 : index
  %s_one = index.constant 1 : index
  %s_last = index.constant 1 : index
  %s_position = index.sub %s_last, %s_flat : index
  %s_count = index.add %s_position, %s_zero : index
  %s_first = view.load %s_slots[%s_last] : view<2xi32> -> i32
  %s_folded = scf.for %s_k = [%s_one to %s_count step %s_one](%s_carry = %s_first : i32) -> (i32) {
    %s_at = index.sub %s_last, %s_k : index
    %s_slot = view.load %s_slots[%s_at] : view<2xi32> -> i32
    %s_next = scalar.maxsi %s_carry, %s_slot : i32
    scf.yield %s_next : i32
  }
  %s_empty = index.cmp eq, %s_count, %s_zero : index
  %s_result = scf.select %s_empty, %s_identity, %s_folded : i32
  kernel.barrier<workgroup> scope(workgroup) ordering(acq_rel)
  kernel.return
}
`;

test("a reverse exclusive scan expands into scratch, two barriers and a counted fold, printed as source", () => {
  const { count, printed } = expand(kernel("%two, %one, %one", "%s = kernel.workgroup.scan<maxsi> %v {direction = reverse, mode = exclusive} : i32"));
  assert.equal(count, 1);
  assert.equal(printed, REVERSE_EXCLUSIVE_MAX);
});

test("every expansion prints as text that parses and verifies as ordinary source", () => {
  const kinds: [string, string][] = [["addi", "i8"], ["muli", "i64"], ["minui", "i16"], ["xori", "i32"], ["addf", "f32"], ["minimumf", "f16"], ["maxnumf", "f64"]];
  for (const [kind, t] of kinds) {
    for (const direction of ["forward", "reverse"]) {
      for (const mode of ["inclusive", "exclusive"]) {
        const scan = `%s = kernel.workgroup.scan<${kind}> %v {direction = ${direction}, mode = ${mode}} : ${t}`;
        const { count, printed } = expand(kernel("%two, %two, %one", scan, `%v: ${t}`));
        assert.equal(count, 1, scan);
        assert.doesNotMatch(printed, /kernel\.workgroup\.scan/, scan);
        const reread = new Workspace(context).parseModule(Source.fromText("expanded.loom", printed));
        assert.deepEqual(reread.diagnostics.map((d) => `${d.code}: ${d.message}`), [], scan);
        assert.equal(reread.value?.print(), printed, `${scan}: the printed expansion is a fixpoint`);
      }
    }
  }
});

test("a scan in a kernel sized only at launch, or of i1, is kept", () => {
  const dynamic = `kernel.def @k(%n: index) {
  %one = index.constant 1 : index
  kernel.launch.config workgroups(%one, %one, %one) workgroup_size(%n, %one, %one) : index
} launch(%v: i32) {
  %s = kernel.workgroup.scan<addi> %v {direction = forward, mode = inclusive} : i32
  kernel.return
}
`;
  assert.equal(expand(dynamic).count, 0);
  assert.equal(expand(kernel("%two, %one, %one", "%s = kernel.workgroup.scan<ori> %v {direction = forward, mode = inclusive} : i1", "%v: i1")).count, 0);
});
