/**
 * Mutation fuzzing over the valid fixtures (deterministic seed): the parser never throws,
 * reports only PARSE codes with positions, and whatever it accepts without diagnostics prints
 * to a fixpoint that parses back to the same IR.
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { printModule } from "../../src/text/printer.js";
import { dumpModule } from "./ir-dump.js";
import { VALID_DIR, loomFiles, parse, readText } from "./helpers.js";

/** xorshift32: small, deterministic. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

const SNIPPETS = ["{", "}", "(", ")", "<", ">", "[", "]", ",", ":", "=", "->", "%x", "@f", "#d", "^b", "x", "0x", "1.", "-", '"', "\\", "//", "\n", "\t", "😀", "\uD800", "index", "view<", "vector<4x", "scf.if", "kernel.def", "where [", "unroll", "0", "-1e9"];

function mutate(text: string, r: () => number): string {
  const n = text.length;
  const at = Math.floor(r() * n);
  switch (Math.floor(r() * 5)) {
    case 0: // delete a span
      return text.slice(0, at) + text.slice(Math.min(n, at + 1 + Math.floor(r() * 12)));
    case 1: // insert a snippet
      return text.slice(0, at) + SNIPPETS[Math.floor(r() * SNIPPETS.length)]! + text.slice(at);
    case 2: // duplicate a line
    {
      const lines = text.split("\n");
      const i = Math.floor(r() * lines.length);
      lines.splice(i, 0, lines[i]!);
      return lines.join("\n");
    }
    case 3: // truncate
      return text.slice(0, at);
    default: // replace one character
      return text.slice(0, at) + String.fromCharCode(32 + Math.floor(r() * 95)) + text.slice(at + 1);
  }
}

test("mutated fixtures never throw and accepted ones print to a fixpoint", () => {
  const sources = loomFiles(VALID_DIR).map((f) => readText(join(VALID_DIR, f)));
  const r = rng(20240611);
  let accepted = 0;
  for (let i = 0; i < 1200; i++) {
    let text = sources[i % sources.length]!;
    const rounds = 1 + Math.floor(r() * 3);
    for (let k = 0; k < rounds; k++) text = mutate(text, r);
    const { module, diagnostics } = parse(text);
    for (const d of diagnostics) {
      assert.match(d.code, /^PARSE\/\d{3}$/, JSON.stringify(text));
      assert.doesNotMatch(d.message, /internal parser error/, JSON.stringify(text));
      assert.ok(d.location && d.location.line >= 1 && d.location.column >= 1, `${d.code} without a position`);
    }
    if (diagnostics.length === 0) {
      accepted++;
      const printed = printModule(module);
      const again = parse(printed);
      assert.deepEqual(again.diagnostics, [], `re-parse of accepted mutant failed:\n${text}\n---\n${printed}`);
      assert.equal(printModule(again.module), printed, text);
      assert.equal(dumpModule(again.module), dumpModule(module), text);
    }
  }
  assert.ok(accepted > 50, `only ${accepted} mutants were accepted`);
});
