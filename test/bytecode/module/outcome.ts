/** The one acceptable outcome of reading untrusted bytes, shared by the hostile-input tests. */
import "../../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import assert from "node:assert/strict";
import { readModuleBytecode } from "../../../src/bytecode/module/reader.js";
import { DiagnosticSink } from "../../../src/core/diag/diagnostic.js";
import { verifyModule } from "../../../src/passes/verify/index.js";
import { printModule } from "../../../src/text/printer.js";

/** Reads `bytes`; asserts the outcome is clean and returns the diagnostic code (or "ok"). */
export function outcome(bytes: Uint8Array, what: string): string {
  const sink = new DiagnosticSink();
  const m = readModuleBytecode("hostile.loombc", bytes, sink);
  if (m) {
    assert.equal(sink.diagnostics.length, 0, what);
    printModule(m);
    verifyModule(m, new DiagnosticSink());
    return "ok";
  }
  assert.equal(sink.diagnostics.length, 1, what);
  const d = sink.diagnostics[0]!;
  assert.match(d.code, /^BYTECODE\/90[1-6]$/, `${what}: ${d.code} ${d.message}`);
  return d.code;
}
