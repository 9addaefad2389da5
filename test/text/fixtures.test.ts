/**
 * Valid fixtures: every file parses without diagnostics and prints canonically.
 * Canonical files print byte-identically; non-canonical inputs print to their `.canonical.loom`
 * twin, which is itself a fixpoint; and the IR survives print → parse unchanged.
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { printModule } from "../../src/text/printer.js";
import { renderDiagnostics } from "../../src/core/diag/render.js";
import { dumpModule } from "./ir-dump.js";
import { NONCANONICAL_DIR, VALID_DIR, loomFiles, parse, readText } from "./helpers.js";

function parseClean(name: string, text: string) {
  const { module, diagnostics } = parse(text, name);
  assert.equal(diagnostics.length, 0, renderDiagnostics(diagnostics, () => text));
  return module;
}

for (const file of loomFiles(VALID_DIR)) {
  test(`canonical fixture ${file} is a print fixpoint`, () => {
    const text = readText(join(VALID_DIR, file));
    const module = parseClean(file, text);
    const printed = printModule(module);
    assert.equal(printed, text);
    assert.equal(dumpModule(parseClean(file, printed)), dumpModule(module));
  });
}

for (const file of loomFiles(NONCANONICAL_DIR, ".input.loom")) {
  test(`non-canonical fixture ${file} prints its canonical form`, () => {
    const text = readText(join(NONCANONICAL_DIR, file));
    const expected = readText(join(NONCANONICAL_DIR, file.replace(".input.loom", ".canonical.loom")));
    const module = parseClean(file, text);
    const printed = printModule(module);
    assert.equal(printed, expected);
    const again = parseClean(file, printed);
    assert.equal(printModule(again), printed);
    assert.equal(dumpModule(again), dumpModule(module));
  });
}
