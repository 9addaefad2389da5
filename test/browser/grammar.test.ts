/**
 * The TextMate grammar of `.loom` (editors/loom.tmLanguage.json), run by the playground's
 * highlighter, against loom's own lexer on every suite kernel and valid fixture: each value,
 * symbol, op name, number, string and comment the lexer finds is exactly one token of the
 * matching scope, and no token of those scopes appears where the lexer has none.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { lex } from "../../src/text/lexer.js";
import { Tok } from "../../src/text/token.js";
import { Reporter } from "../../src/text/reporter.js";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import { highlightTokens } from "../../examples/playground/highlight.js";
import { fromRoot } from "../util/paths.js";

const SCOPE_OF: Partial<Record<Tok, string>> = {
  [Tok.Value]: "variable.other.value.loom",
  [Tok.Symbol]: "entity.name.function.symbol.loom",
  [Tok.Hash]: "constant.other.attribute.loom",
  [Tok.OpName]: "keyword.other.op.loom",
  [Tok.Int]: "constant.numeric.loom",
  [Tok.Float]: "constant.numeric.loom",
  [Tok.String]: "string.quoted.double.loom",
};
const CHECKED = new Set([...Object.values(SCOPE_OF), "comment.line.double-slash.loom"]);

function files(): [string, string][] {
  const dirs = ["examples/kernels", "test/fixtures/valid"];
  return dirs.flatMap((d) => readdirSync(fromRoot(d)).filter((f) => f.endsWith(".loom")).map((f): [string, string] => [join(d, f), readFileSync(fromRoot(d, f), "utf8")]));
}

test("the grammar's tokens agree with loom's lexer on every suite kernel and valid fixture", () => {
  const all = files();
  assert.ok(all.length >= 15, `${all.length} files`);
  for (const [name, text] of all) {
    const sink = new DiagnosticSink();
    const reporter = new Reporter(sink);
    const tokens = lex(name, text, reporter);
    assert.equal(sink.diagnostics.length, 0, name);
    const expected = new Map<string, string>();
    for (const t of tokens) {
      const scope = SCOPE_OF[t.kind];
      if (scope) expected.set(`${t.start}:${t.end}`, scope);
    }
    // Comments: the lexer keeps them on the next token, as text after `//` up to the line end.
    const lines = text.split("\n");
    let offset = 0;
    const lineStart = lines.map((l) => ((offset += l.length + 1), offset - l.length - 1));
    for (const t of tokens) {
      for (const c of t.comments ?? []) {
        const start = lineStart[c.line - 1]! + lines[c.line - 1]!.indexOf(`//${c.text}`);
        expected.set(`${start}:${start + 2 + c.text.replace(/\r$/, "").length}`, "comment.line.double-slash.loom");
      }
    }
    const got = new Map<string, string>();
    for (const h of highlightTokens(text)) if (h.scope && CHECKED.has(h.scope)) got.set(`${h.start}:${h.end}`, h.scope);
    for (const [at, scope] of expected) {
      const [s, e] = at.split(":").map(Number);
      assert.equal(got.get(at), scope, `${name}: '${text.slice(s, e)}' at ${at} should be ${scope}, the grammar says ${got.get(at) ?? "nothing there"}`);
    }
    for (const [at, scope] of got) {
      const [s, e] = at.split(":").map(Number);
      assert.ok(expected.has(at), `${name}: the grammar marks '${text.slice(s, e)}' at ${at} as ${scope}; the lexer has no such token`);
    }
  }
});

test("tokens tile the text and cover types, keywords and enum words", () => {
  const text = "%v = view.load %t[%i] : view<16x17xf32> -> f32 // c\nscf.for %l = [%c0 to %c8 step %c1] {";
  const tokens = highlightTokens(text);
  let at = 0;
  for (const t of tokens) {
    assert.equal(t.start, at);
    at = t.end;
  }
  assert.equal(at, text.length);
  const scopeOf = (word: string, nth = 0) => tokens.filter((t) => text.slice(t.start, t.end) === word)[nth]?.scope;
  assert.equal(scopeOf("f32"), "storage.type.loom");
  assert.equal(scopeOf("f32", 1), "storage.type.loom");
  assert.equal(scopeOf("x"), "keyword.operator.dimension.loom");
  assert.equal(scopeOf("view"), "storage.type.loom");
  assert.equal(scopeOf("to"), "keyword.control.loom");
  assert.equal(scopeOf("->"), "keyword.operator.arrow.loom");
});
