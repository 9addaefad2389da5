/**
 * Issue 12 item 14 (folding part): a bitcast that makes a NaN (0xFF800001, a signalling NaN
 * with a payload) is not folded — folding holds floats as JS numbers, which would lose the
 * payload, and the device keeps it bit-exact — while a bitcast of an ordinary value folds.
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import { parseModule } from "../../src/text/parser.js";
import { verifyModule } from "../../src/passes/verify/index.js";
import { foldRegion } from "../../src/passes/fold.js";
import { walkRegion } from "../../src/ir/walk.js";

const TEXT = `kernel.def @nan_payload(%n: index) {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(%n: index, %out: buffer) {
  %o = index.constant 0 : offset
  %v = buffer.view %out[%o] : buffer -> view<[%n]xi32>
  %z = index.constant 0 : index
  %payload = scalar.constant -8388607 : i32
  %nan = scalar.bitcast %payload : i32 to f32
  %back = scalar.bitcast %nan : f32 to i32
  view.store %back, %v[%z] : i32, view<[%n]xi32>
  %one_bits = scalar.constant 1065353216 : i32
  %one = scalar.bitcast %one_bits : i32 to f32
  %one_back = scalar.bitcast %one : f32 to i32
  view.store %one_back, %v[%z] : i32, view<[%n]xi32>
  kernel.return
}
`;

test("folding keeps NaN-producing bitcasts for the device and folds the others", () => {
  const sink = new DiagnosticSink();
  const module = parseModule("nan.loom", TEXT, sink);
  verifyModule(module, sink);
  assert.equal(sink.hasErrors, false, JSON.stringify(sink.diagnostics));
  const body = module.ops[0]!.regions[1]!;
  foldRegion(body, sink);
  const bitcasts: string[] = [];
  walkRegion(body, (op) => void (op.name === "scalar.bitcast" && bitcasts.push(op.results[0]!.name)));
  assert.deepEqual(bitcasts, ["nan", "back"]);
});
