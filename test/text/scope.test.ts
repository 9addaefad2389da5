/**
 * SSA name scoping (text/scope.ts): what a use finds across nested regions, forward
 * references, poisoned names (their defining op failed to parse) and redefinitions, as
 * diagnostic codes and positions of parse + verify.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import { verifyModule } from "../../src/passes/verify/index.js";
import { parseModule } from "../../src/text/parser.js";
import { codes } from "./helpers.js";

const HEAD = "kernel.def export(\"k\") @k(%n: index) {\n  %c1 = index.constant 1 : index\n  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index\n} launch(%n: index) {\n  %c0 = index.constant 0 : index\n  %t = kernel.workitem.dispatch.id<x> : index\n  %b = index.cmp eq, %t, %c0 : index\n";

function diagnose(body: string): string[] {
  const sink = new DiagnosticSink();
  verifyModule(parseModule("test.loom", HEAD + body + "  kernel.return\n}\n", sink), sink);
  return codes(sink.diagnostics);
}

const CASES: [string, string, string[]][] = [
  [
    "poison in nested region shadowing an outer value, then redefinition there",
    "  %x = index.constant 1 : index\n  scf.if %b {\n    %x = index.bogus 3 : index\n    %y = index.add %x, %x : index\n    %x = index.constant 2 : index\n    %z = index.add %x, %c0 : index\n  }\n  %w = index.add %x, %c0 : index\n",
    ["PARSE/006@10:10", "PARSE/002@12:5", "DOMINANCE/001@11:10"],
  ],
  [
    "a definition, then a failed redefinition in the same block: uses see the definition",
    "  %x = index.constant 1 : index\n  %x = index.bogus 3 : index\n  %y = index.add %x, %x : index\n",
    ["PARSE/006@9:8"],
  ],
  [
    "a failed definition, then a definition in the same block: the later use sees it",
    "  %x = index.bogus 3 : index\n  %y = index.add %x, %x : index\n  %x = index.constant 1 : index\n  %z = index.add %x, %x : index\n",
    ["PARSE/006@8:8", "DOMINANCE/001@9:8"],
  ],
  [
    "forward ref in one sibling region, definition in another",
    "  scf.if %b {\n    %y = index.add %f, %c0 : index\n  }\n  scf.if %b {\n    %f = index.constant 1 : index\n  }\n",
    ["PARSE/001@9:20", "DOMINANCE/001@9:10"],
  ],
  [
    "forward ref in nested region, definition after it in the parent",
    "  scf.if %b {\n    %y = index.add %f, %c0 : index\n    scf.if %b {\n      %q = index.add %g, %f : index\n    }\n  }\n  %f = index.constant 1 : index\n  %y = index.add %g, %c0 : index\n",
    ["PARSE/001@11:22", "PARSE/001@15:18", "DOMINANCE/001@9:10", "DOMINANCE/001@11:12", "DOMINANCE/001@11:12", "DOMINANCE/001@15:8"],
  ],
  [
    "forward ref, definition later in the same nested block",
    "  scf.if %b {\n    %y = index.add %f, %c0 : index\n    %f = index.constant 1 : index\n  }\n  %u = index.add %f, %c0 : index\n",
    ["PARSE/001@12:18", "DOMINANCE/001@9:10", "DOMINANCE/001@12:8"],
  ],
  [
    "an op failing inside a region; its definitions are not visible after it",
    "  scf.if %b {\n    %y = index.add %h, %c0 : index\n    %k = index.constant 1 : index\n    %e = index.bogus\n  }\n  %u = index.add %k, %h : index\n",
    ["PARSE/001@9:20", "PARSE/006@11:10", "PARSE/001@13:18", "PARSE/001@13:22", "DOMINANCE/001@9:10", "DOMINANCE/001@13:8", "DOMINANCE/001@13:8"],
  ],
  [
    "a value of a nested region used after it",
    "  scf.if %b {\n    %v = index.constant 1 : index\n  }\n  %u = index.add %v, %c0 : index\n  %v = index.constant 2 : index\n",
    ["DOMINANCE/001@11:8"],
  ],
  [
    "poison in nested region, then define again: redefinition of outer",
    "  %x = index.constant 1 : index\n  scf.if %b {\n    %x = index.bogus 3 : index\n    %x = index.constant 2 : index\n  }\n",
    ["PARSE/006@10:10", "PARSE/002@11:5"],
  ],
  [
    "poisoned at two depths, defined in the innermost region and after",
    "  %x = index.bogus 3 : index\n  scf.if %b {\n    %x = index.bogus 3 : index\n    scf.if %b {\n      %x = index.constant 2 : index\n      %r = index.add %x, %x : index\n    }\n    %s = index.add %x, %x : index\n  }\n  %x = index.constant 5 : index\n",
    ["PARSE/006@8:8", "PARSE/006@10:10", "DOMINANCE/001@15:10"],
  ],
];

for (const [what, body, expected] of CASES) {
  test(`scope: ${what}`, () => {
    assert.deepEqual(diagnose(body), expected);
  });
}
