/**
 * The negative corpus (verification.md "Negative corpus"): every file in test/corpus/bad
 * is broken on purpose and states the diagnostics it must produce (README.md). For each
 * file: nothing throws, every expected code is reported at its exact line:column, nothing
 * else is reported, diagnostics come in source order, and the rendering quotes the source
 * line with a caret under the reported column.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fromRoot } from "../util/paths.js";
import { renderDiagnostics } from "../../src/core/diag/render.js";
import type { Diagnostic } from "../../src/core/diag/diagnostic.js";
import { describe, matches, readExpectations, runFrontEnd } from "./harness.js";

const dir = fromRoot("test", "corpus", "bad");
const files = readdirSync(dir).filter((f) => f.endsWith(".loom")).sort();

/** Every code language.md §8 says v1 must produce, except those only reachable from hand-built IR. */
const REQUIRED_CODES = [
  ..."001 002 003 004 005 006 007 009 010 012 013 014 015 016 017 018 019 020 022 023 024 025 026 031".split(" ").map((n) => `PARSE/${n}`),
  "SYMBOL/002", "SYMBOL/003", "SYMBOL/005",
  "DOMINANCE/001",
  ..."001 002 003 004 005 009 013".split(" ").map((n) => `TYPE/${n}`),
  // STRUCTURE/006 (region count) cannot be written in text: the grammar fixes each op's regions.
  // It is covered by test/verify/structure.test.ts on hand-built IR.
  ..."005 008 011 012 013 014 017 018 027 029 031 034 035 038 052 901 902 903 904".split(" ").map((n) => `STRUCTURE/${n}`),
  "SUBRANGE/001", "SUBRANGE/004",
  "TARGET/062",
];

function inSourceOrder(ds: readonly Diagnostic[]): boolean {
  let prev = [0, 0];
  for (const d of ds) {
    if (!d.location) continue;
    const cur = [d.location.line, d.location.column];
    if (cur[0]! < prev[0]! || (cur[0] === prev[0] && cur[1]! < prev[1]!)) return false;
    prev = cur;
  }
  return true;
}

function checkRendering(name: string, text: string, ds: readonly Diagnostic[]): void {
  const rendered = renderDiagnostics(ds, (n) => (n === name ? text : undefined));
  const lines = text.split("\n");
  for (const d of ds) {
    const loc = d.location;
    if (!loc) continue;
    assert.ok(rendered.includes(`${name}:${loc.line}:${loc.column}: ${d.severity} [${d.code}]: ${d.message}`), `header of ${describe(d)}`);
    const source = (lines[loc.line - 1] ?? "").replace(/\r$/, "");
    const quoted = ` ${loc.line} | ${source}`;
    const at = rendered.indexOf(quoted);
    assert.ok(at >= 0, `rendering quotes line ${loc.line} for ${describe(d)}:\n${rendered}`);
    const caretLine = rendered.slice(at + quoted.length + 1).split("\n")[0]!;
    const caretColumn = Array.from(caretLine.slice(caretLine.indexOf("| ") + 2)).findIndex((c) => c === "^") + 1;
    assert.equal(caretColumn, loc.column, `caret under column ${loc.column} for ${describe(d)}:\n${rendered}`);
  }
}

test("the negative corpus has at least 45 files", () => {
  assert.ok(files.length >= 45, `only ${files.length} files in ${dir}`);
});

for (const file of files) {
  test(`corpus ${file}`, () => {
    const bytes = readFileSync(join(dir, file));
    const { text, diagnostics } = runFrontEnd(file, new Uint8Array(bytes));
    const expected = readExpectations(text);
    assert.ok(expected.length > 0, `${file} states no expectation`);
    const unmatched = [...diagnostics];
    for (const e of expected) {
      const i = unmatched.findIndex((d) => matches(d, e));
      const where = e.line === undefined ? "without location" : `at ${e.line}:${e.column}`;
      assert.ok(i >= 0, `${file}: expected ${e.code} ${where} (comment on line ${e.at}); got:\n  ${diagnostics.map(describe).join("\n  ")}`);
      unmatched.splice(i, 1);
    }
    assert.deepEqual(unmatched.map(describe), [], `${file}: unexpected diagnostics`);
    assert.ok(inSourceOrder(diagnostics), `${file}: diagnostics out of source order:\n  ${diagnostics.map(describe).join("\n  ")}`);
    checkRendering(file, text, diagnostics);
  });
}

test("the corpus covers every diagnostic code v1 must produce", () => {
  const covered = new Set<string>();
  for (const file of files) {
    for (const e of readExpectations(readFileSync(join(dir, file), "latin1"))) covered.add(e.code);
  }
  const missing = REQUIRED_CODES.filter((c) => !covered.has(c));
  assert.deepEqual(missing, [], "codes without a corpus file");
});

test("recovery: a file with several parse errors reports all of them in source order", () => {
  const file = "recovery_several_parse_errors.loom";
  const { diagnostics } = runFrontEnd(file, new Uint8Array(readFileSync(join(dir, file))));
  const codes = diagnostics.map((d) => `${d.code}@${d.location?.line}`);
  assert.ok(diagnostics.length >= 4, codes.join(", "));
  assert.ok(inSourceOrder(diagnostics));
  assert.deepEqual(new Set(diagnostics.map((d) => d.location?.line)).size, diagnostics.length, "one error per broken line");
});

test("recovery: the verifier reports every error of a parse-clean file in source order", () => {
  const file = "recovery_several_verifier_errors.loom";
  const { diagnostics, verified } = runFrontEnd(file, new Uint8Array(readFileSync(join(dir, file))));
  assert.ok(verified, "the file parses cleanly");
  assert.ok(diagnostics.length >= 4, diagnostics.map(describe).join("\n"));
  assert.ok(inSourceOrder(diagnostics));
  assert.ok(new Set(diagnostics.map((d) => d.code.split("/")[0])).size >= 3, "errors from several domains");
});

test("PARSE/012: the error limit stops reporting with one PARSE/012", () => {
  const file = "parse_012_too_many_errors.loom";
  const { diagnostics } = runFrontEnd(file, new Uint8Array(readFileSync(join(dir, file))), 5);
  assert.equal(diagnostics.filter((d) => d.code === "PARSE/012").length, 1);
  assert.equal(diagnostics.filter((d) => d.severity === "error" && d.code !== "PARSE/012").length, 5);
});
